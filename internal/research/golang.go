package research

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/symbols"
)

// Go interfaces are satisfied structurally. The facts the chunker records
// (each method's receiver and arity, each interface's methods and
// embedded interfaces, each type's embedded fields) are grouped by package
// (folder); names qualified by a package (io.Reader, render.Render) are
// looked up in the package the file imports under that name, so that
// method sets and interfaces are followed across the repository's
// packages. symbols.GoSatisfies decides, by method name and arity.

// goPkg is one Go package's method-set facts.
type goPkg struct {
	module     int32
	interfaces map[string]symbols.GoInterface
	types      map[string]symbols.GoType
	methods    map[string][]symbols.GoMethod // by receiver
	imports    map[string]int32              // package name or alias → module, for the repository's packages
	external   map[string]bool               // package names bound to packages outside the repository
}

// goTypeKey names a type of a package.
type goTypeKey struct {
	module int32
	name   string
}

// goIndex is the method-set universe of a graph's Go code.
type goIndex struct {
	pkgs     map[int32]*goPkg
	order    []int32                      // modules, by path
	value    map[goTypeKey]map[string]int // method set of T
	pointer  map[goTypeKey]map[string]int // method set of *T
	typeKeys []goTypeKey                  // every named non-interface type, by module path then name
}

// goUniverse returns the graph's Go index, building it on first use.
func (g *Graph) goUniverse() *goIndex {
	g.goOnce.Do(func() { g.golang = g.buildGoIndex() })
	return g.golang
}

func (g *Graph) buildGoIndex() *goIndex {
	x := &goIndex{pkgs: map[int32]*goPkg{}, value: map[goTypeKey]map[string]int{}, pointer: map[goTypeKey]map[string]int{}}
	for fi := range g.files {
		f := &g.files[fi]
		if f.language != "go" {
			continue
		}
		p := x.pkgs[f.module]
		if p == nil {
			p = &goPkg{module: f.module, interfaces: map[string]symbols.GoInterface{}, types: map[string]symbols.GoType{},
				methods: map[string][]symbols.GoMethod{}, imports: map[string]int32{}, external: map[string]bool{}}
			x.pkgs[f.module] = p
			x.order = append(x.order, f.module)
		}
		for _, b := range f.bindings {
			if b.imported != "" {
				continue
			}
			if b.external {
				p.external[b.local] = true
			} else if len(b.modules) == 1 {
				p.imports[b.local] = b.modules[0]
			}
		}
		if f.goFacts == nil {
			continue
		}
		for _, i := range f.goFacts.GoInterfaces {
			p.interfaces[i.Name] = i
		}
		for _, t := range f.goFacts.GoTypes {
			p.types[t.Name] = t
		}
		for _, m := range f.goFacts.GoMethods {
			p.methods[m.Receiver] = append(p.methods[m.Receiver], m)
		}
	}
	sort.Slice(x.order, func(i, j int) bool { return g.modules[x.order[i]].path < g.modules[x.order[j]].path })
	for _, m := range x.order {
		p := x.pkgs[m]
		names := map[string]bool{}
		for n := range p.types {
			names[n] = true
		}
		for n := range p.methods {
			names[n] = true
		}
		var sorted []string
		for n := range names {
			if _, iface := p.interfaces[n]; !iface {
				sorted = append(sorted, n)
			}
		}
		sort.Strings(sorted)
		for _, n := range sorted {
			k := goTypeKey{m, n}
			x.typeKeys = append(x.typeKeys, k)
			x.value[k] = x.typeMethods(k, false)
			x.pointer[k] = x.typeMethods(k, true)
		}
	}
	return x
}

// lookupName resolves a type or interface name as written in package m
// ("Base", "render.Render") to its package; ok is false for a name of a
// package outside the repository.
func (x *goIndex) lookupName(m int32, written string) (goTypeKey, bool) {
	name := symbols.GoBaseName(written)
	q, _, qualified := strings.Cut(strings.TrimPrefix(written, "*"), ".")
	if !qualified {
		return goTypeKey{m, name}, true
	}
	p := x.pkgs[m]
	if p == nil {
		return goTypeKey{}, false
	}
	if target, ok := p.imports[q]; ok {
		return goTypeKey{target, name}, true
	}
	return goTypeKey{}, false
}

// interfaceMethods flattens an interface's method set with those it
// embeds; ok is false when that cannot be known (an embedded interface
// outside the repository and not a well-known one, a constraint).
func (x *goIndex) interfaceMethods(m int32, written string, seen map[goTypeKey]bool) ([]symbols.GoMethodSpec, bool) {
	k, inRepo := x.lookupName(m, written)
	var iface symbols.GoInterface
	found := false
	if inRepo {
		if p := x.pkgs[k.module]; p != nil {
			iface, found = p.interfaces[k.name]
		}
	}
	if !found {
		// error, fmt.Stringer, io.Reader, …
		return symbols.GoInterfaceMethods(strings.TrimPrefix(written, "*"))
	}
	if iface.TypeSet {
		return nil, false
	}
	if seen[k] {
		return nil, true
	}
	seen[k] = true
	methods := append([]symbols.GoMethodSpec(nil), iface.Methods...)
	for _, e := range iface.Embeds {
		inner, ok := x.interfaceMethods(k.module, e, seen)
		if !ok {
			return nil, false
		}
		methods = append(methods, inner...)
	}
	return methods, true
}

// typeMethods returns the method set of a type (of *T with pointer): its
// own methods, then those promoted from embedded fields, across packages,
// a shallower method hiding a deeper one.
func (x *goIndex) typeMethods(k goTypeKey, pointer bool) map[string]int {
	set := map[string]int{}
	type level struct {
		key     goTypeKey
		pointer bool
	}
	current := []level{{k, pointer}}
	seen := map[goTypeKey]bool{}
	for depth := 0; len(current) > 0 && depth < 8; depth++ {
		found := map[string]int{}
		var next []level
		for _, l := range current {
			if seen[l.key] {
				continue
			}
			seen[l.key] = true
			p := x.pkgs[l.key.module]
			if p == nil {
				continue
			}
			for _, m := range p.methods[l.key.name] {
				if !m.Pointer || l.pointer {
					found[m.Name] = m.Arity
				}
			}
			if _, isInterface := p.interfaces[l.key.name]; isInterface {
				if ms, ok := x.interfaceMethods(l.key.module, l.key.name, map[goTypeKey]bool{}); ok {
					for _, m := range ms {
						found[m.Name] = m.Arity
					}
				}
			}
			if t, ok := p.types[l.key.name]; ok {
				for _, e := range t.Embeds {
					if ek, ok := x.lookupName(l.key.module, e.Name); ok {
						next = append(next, level{ek, e.Pointer || l.pointer})
					} else if ms, ok := symbols.GoInterfaceMethods(strings.TrimPrefix(e.Name, "*")); ok {
						// An embedded interface of the standard library
						// (http.ResponseWriter) promotes its methods.
						for _, m := range ms {
							if _, shadowed := found[m.Name]; !shadowed {
								found[m.Name] = m.Arity
							}
						}
					}
				}
			}
		}
		for m, arity := range found {
			if _, shadowed := set[m]; !shadowed {
				set[m] = arity
			}
		}
		current = next
	}
	return set
}

// goImpl is a type that satisfies an interface.
type goImpl struct {
	key     goTypeKey
	pointer bool // only *T does
}

// implementations returns the named types of the repository that satisfy
// the interface name of module m, by package path then name. decided is
// false when the interface's method set cannot be known.
func (x *goIndex) implementations(m int32, name string) (out []goImpl, decided bool) {
	methods, ok := x.interfaceMethods(m, name, map[goTypeKey]bool{})
	if !ok || len(methods) == 0 {
		return nil, false
	}
	unexported := false
	for _, mm := range methods {
		if r, _ := utf8.DecodeRuneInString(mm.Name); !unicode.IsUpper(r) {
			unexported = true
		}
	}
	for _, k := range x.typeKeys {
		if unexported && k.module != m {
			continue // an unexported method is only declared in its own package
		}
		switch {
		case symbols.GoSatisfies(x.value[k], methods):
			out = append(out, goImpl{key: k})
		case symbols.GoSatisfies(x.pointer[k], methods):
			out = append(out, goImpl{key: k, pointer: true})
		}
	}
	return out, true
}

// goTypeDef finds the definition of a Go type in a module: its type
// declaration, else its first method.
func (g *Graph) goTypeDef(k goTypeKey) int32 {
	id, ok := g.lookup(k.name)
	if !ok {
		return -1
	}
	best := int32(-1)
	for _, d := range g.defsByName[id] {
		def := &g.defs[d]
		if g.files[def.file].module != k.module || g.files[def.file].language != "go" {
			continue
		}
		if def.kind.typeLike() {
			return d
		}
	}
	// A type known only by its methods: point at the first one.
	for _, f := range g.modules[k.module].files {
		fi := &g.files[f]
		for d := fi.defs[0]; d < fi.defs[1]; d++ {
			if g.defs[d].kind == dkMethod && lastCrumb(g.str(g.defs[d].container)) == k.name {
				return d
			}
		}
	}
	return best
}
