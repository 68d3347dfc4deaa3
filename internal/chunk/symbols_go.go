package chunk

import (
	"github.com/lore-dev/lore/internal/symbols"
)

// goMethodSets records, from the Go definitions and references found, each
// method's receiver and arity, each interface's method set and embedded
// interfaces, and each named type's embedded fields: what
// symbols.GoImplementations needs. It reads the source text around what
// the query found rather than walking the tree again. refStarts holds, for
// each reference, where its qualified name starts.
func (c *syntaxChunker) goMethodSets(file *symbols.File, defs []defNode, refStarts []uint32) {
	// What each interface and struct embeds: the extends references inside it.
	embeds := map[int][]int{}
	for i, r := range file.References {
		if r.Kind == symbols.RefExtends && r.Enclosing >= 0 {
			embeds[r.Enclosing] = append(embeds[r.Enclosing], i)
		}
	}
	interfaces := map[int]int{} // definition → index in file.GoInterfaces
	for i, d := range defs {
		switch {
		case d.Kind == symbols.KindMethod && d.container != "":
			// A method declaration: func (r *T) Name(params) results.
			file.GoMethods = append(file.GoMethods, symbols.GoMethod{
				Receiver: symbols.GoBaseName(d.container),
				Pointer:  c.goPointerReceiver(d.at.start, d.name.start),
				Name:     d.Name,
				Arity:    c.goArity(d.name.end),
				Line:     d.NameLine,
			})
		case d.Kind == symbols.KindMethod && d.Parent >= 0:
			if k, ok := interfaces[d.Parent]; ok {
				m := symbols.GoMethodSpec{Name: d.Name, Arity: c.goArity(d.name.end)}
				file.GoInterfaces[k].Methods = append(file.GoInterfaces[k].Methods, m)
			}
		case d.Kind == symbols.KindInterface:
			iface := symbols.GoInterface{Name: d.Name, Line: d.NameLine, TypeSet: c.goTypeSet(d.at)}
			for _, r := range embeds[i] {
				name := qualified(file.References[r])
				if goPredeclared[name] {
					iface.TypeSet = true
					continue
				}
				iface.Embeds = append(iface.Embeds, name)
			}
			interfaces[i] = len(file.GoInterfaces)
			file.GoInterfaces = append(file.GoInterfaces, iface)
		case d.Kind == symbols.KindStruct || d.Kind == symbols.KindType && !c.goAlias(d.name.end):
			t := symbols.GoType{Name: d.Name, Line: d.NameLine}
			for _, r := range embeds[i] {
				t.Embeds = append(t.Embeds, symbols.GoEmbed{
					Name:    qualified(file.References[r]),
					Pointer: c.prevByte(refStarts[r]) == '*',
				})
			}
			file.GoTypes = append(file.GoTypes, t)
		}
	}
}

// qualified writes a reference's name with its qualifier: "fmt.Stringer".
func qualified(r symbols.Reference) string {
	if r.Qualifier == "" {
		return r.Name
	}
	return r.Qualifier + "." + r.Name
}

// goPredeclared are the predeclared types, which an interface can only
// list as a constraint.
var goPredeclared = set("bool", "byte", "complex64", "complex128", "float32", "float64",
	"int", "int8", "int16", "int32", "int64", "rune", "string",
	"uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "comparable", "any")

// prevByte is the last non-blank byte before offset b, 0 if none.
func (c *syntaxChunker) prevByte(b uint32) byte {
	for i := int(b) - 1; i >= 0; i-- {
		if !isSpace(c.src[i]) {
			return c.src[i]
		}
	}
	return 0
}

// goPointerReceiver reports whether the receiver of the method declared
// from start, whose name begins at name, is a pointer: func (r *T) Name.
func (c *syntaxChunker) goPointerReceiver(start, name uint32) bool {
	for _, b := range c.src[start:name] {
		if b == '*' {
			return true
		}
	}
	return false
}

// goAlias reports whether the type declared with the name ending at end
// is an alias: type A = B.
func (c *syntaxChunker) goAlias(end uint32) bool {
	for i := int(end); i < len(c.src); i++ {
		switch b := c.src[i]; {
		case b == '=':
			return true
		case !isSpace(b):
			return false
		}
	}
	return false
}

// goTypeSet reports an interface that lists types (~int | float64): a
// constraint, which no type satisfies by its methods alone.
func (c *syntaxChunker) goTypeSet(at byteSpan) bool {
	depth := 0
	for i := int(at.start); i < int(at.end); i++ {
		switch b := c.src[i]; b {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '|', '~':
			if depth == 0 {
				return true
			}
		case '/':
			if i+1 < int(at.end) && c.src[i+1] == '/' { // a comment
				for i < int(at.end) && c.src[i] != '\n' {
					i++
				}
			}
		}
	}
	return false
}

// goArity counts the parameters of the parameter list that follows offset
// b (the end of a method's name): "(a, b int, c ...string)" has three.
func (c *syntaxChunker) goArity(b uint32) int {
	i := int(b)
	for i < len(c.src) && isSpace(c.src[i]) {
		i++
	}
	if i >= len(c.src) || c.src[i] != '(' {
		return 0
	}
	items, _ := countItems(c.src, i, len(c.src), true)
	return items
}
