package research

import (
	"path"
	"strings"
)

// selfWords are the qualifiers that name the enclosing type's own
// members.
var selfWords = map[string]bool{
	"self": true, "this": true, "Self": true, "@": true, "$this": true, "static": true, "cls": true,
	"super": true, "base": true, "parent": true,
}

// implicitThis lists the languages in which an unqualified call may reach
// a method of the enclosing type.
var implicitThis = map[string]bool{
	"java": true, "kotlin": true, "scala": true, "csharp": true, "cpp": true, "swift": true, "ruby": true,
}

// scope narrows what a reference may resolve to.
type scope struct {
	files, modules []int32 // only definitions in these (when either is set)
	restricted     bool
	member         bool   // a member reached through a value: methods (and fields) only
	container      string // only members of this type (a self call, a static call)
	packageLevel   bool   // only what a package declares at top level (Go's pkg.F: never a method)
}

func (s *scope) allows(g *Graph, d int32) bool {
	if !s.restricted {
		return true
	}
	df := g.defs[d].file
	for _, f := range s.files {
		if f == df {
			return true
		}
	}
	dm := g.files[df].module
	for _, m := range s.modules {
		if m == dm {
			return true
		}
	}
	return false
}

// lastCrumb is the innermost part of a breadcrumb: "Router" in "api > Router".
func lastCrumb(c string) string {
	if i := strings.LastIndex(c, " > "); i >= 0 {
		return c[i+3:]
	}
	return c
}

// memberOf reports whether definition d belongs to the type named typ.
func (g *Graph) memberOf(d int32, typ string) bool {
	return lastCrumb(g.str(g.defs[d].container)) == typ
}

// enclosingType returns the name of the type whose member holds the
// reference (the class around a method, a Go method's receiver type), ""
// when none.
func (g *Graph) enclosingType(enclosing int32) string {
	for d := enclosing; d >= 0; d = g.defs[d].parent {
		def := &g.defs[d]
		if def.kind == dkMethod || def.kind == dkFunction {
			if c := g.str(def.container); c != "" {
				return lastCrumb(c)
			}
			continue
		}
		if def.kind.container() {
			return g.str(def.name)
		}
	}
	return ""
}

// goReceiver returns the receiver variable of a Go method from its
// signature: "r" in "func (r *Router) Handle(...)".
func goReceiver(signature string) string {
	rest, ok := strings.CutPrefix(signature, "func (")
	if !ok {
		return ""
	}
	name, _, ok := strings.Cut(rest, " ")
	if !ok || strings.ContainsAny(name, "*)") {
		return ""
	}
	return name
}

// kindFits reports whether a reference of kind k may name a definition of
// kind dk.
func kindFits(k refKind, dk defKind) bool {
	switch k {
	case rkCall:
		return dk.callable()
	case rkType, rkExtends, rkImplements:
		return dk.typeLike()
	}
	return dk != dkImpl
}

// resolve returns the definitions a reference may name, after narrowing by
// what its file sees; more than one means the reference is ambiguous, none
// that it names something outside the repository (or nothing known).
func (g *Graph) resolve(ri int32) []int32 {
	r := &g.refs[ri]
	f := &g.files[r.file]
	name := g.str(r.name)
	q := g.str(r.qualifier)
	var sc scope
	switch {
	case q == "":
		if b, ok := f.binding(name); ok {
			if b.external {
				return nil // imported from outside the repository
			}
			if b.imported != "" {
				name = b.imported
			}
			sc.files, sc.modules, sc.restricted = b.files, b.modules, true
		}
	case selfWords[q] || f.family == "go" && r.enclosing >= 0 && q == goReceiver(g.str(g.defs[r.enclosing].signature)):
		sc.container = g.enclosingType(r.enclosing)
		sc.member = true
	case r.enclosing >= 0 && g.typedParam(r, q, &sc):
		// a parameter whose declared type is known
	default:
		head := q
		if i := strings.IndexAny(head, ".:\\"); i > 0 {
			head = head[:i]
		}
		if b, ok := f.binding(q); ok || head != q {
			if !ok {
				b, ok = f.binding(head)
			}
			if ok && (head == q || b.imported == "") {
				if b.external {
					return nil
				}
				sc.files, sc.modules, sc.restricted = b.files, b.modules, true
				if b.imported != "" {
					sc.container = b.imported // Foo.bar() with Foo imported
				}
				sc.packageLevel = f.family == "go" && head == q
				break
			}
		}
		for _, imp := range f.imports {
			if imp.target == q {
				if len(imp.files)+len(imp.modules) == 0 {
					return nil
				}
				sc.files, sc.modules, sc.restricted = imp.files, imp.modules, true
				break
			}
		}
		if sc.restricted {
			break
		}
		last := q
		if i := strings.LastIndexAny(last, ".:>\\"); i >= 0 {
			last = last[i+1:]
		}
		if g.isTypeName(last, f.family) {
			sc.container = last // a static member: Foo.create(), Foo::new()
			break
		}
		if strings.Contains(q, "::") || strings.Contains(q, "\\") {
			// A path of modules (web::router::route, App\\Auth\\check):
			// the modules it names, or, when none match, anywhere.
			if files, modules := g.resolveTarget(r.file, q); len(files)+len(modules) > 0 {
				sc.files, sc.modules, sc.restricted = files, modules, true
			}
			break
		}
		if f.family == "go" && isGoPackageQualifier(q) {
			if _, bound := f.binding(q); !bound {
				sc.member = true // pkg.F with pkg not imported by this file: a variable
				break
			}
		}
		sc.member = true
	}
	ids, ok := g.lookup(name)
	if !ok {
		return nil
	}
	var cands []int32
	for _, d := range g.defsByName[ids] {
		def := &g.defs[d]
		df := &g.files[def.file]
		if df.family != f.family || !kindFits(r.kind, def.kind) || !sc.allows(g, d) {
			continue
		}
		if sc.member && r.kind == rkCall && !g.isMember(d) || sc.packageLevel && g.isMember(d) {
			continue
		}
		cands = append(cands, d)
	}
	if sc.container != "" {
		var members []int32
		for _, d := range cands {
			if g.memberOf(d, sc.container) || g.str(g.defs[d].name) == sc.container && r.kind != rkCall {
				members = append(members, d)
			}
		}
		if len(members) > 0 {
			return members
		}
		// An inherited member, or a type lore does not see: any member.
		var any []int32
		for _, d := range cands {
			if g.isMember(d) {
				any = append(any, d)
			}
		}
		cands = any
	}
	if q == "" && r.kind == rkCall && !sc.restricted {
		// An unqualified call reaches a free function, or a method of the
		// enclosing type where the language has an implicit receiver.
		own := g.enclosingType(r.enclosing)
		var keep []int32
		for _, d := range cands {
			top := g.str(g.defs[d].container) == "" && g.defs[d].parent < 0
			if !g.isMember(d) || top || implicitThis[f.language] && (own == "" || g.memberOf(d, own)) {
				keep = append(keep, d)
			}
		}
		cands = keep
	}
	cands = g.dropPrototypes(cands)
	if sc.member {
		return g.visible(r.file, g.mentioned(ri, cands))
	}
	return g.narrow(r.file, cands, f.family == "go" && q == "" && !sc.restricted)
}

// visible keeps the members whose file the referring file can see (the
// same module, or one it imports) when there are any: the type of a value
// is unknown, so a member in the same file is no better a guess than one
// in the same module.
func (g *Graph) visible(file int32, cands []int32) []int32 {
	if len(cands) <= 1 {
		return cands
	}
	module := g.files[file].module
	var seen []int32
	for _, d := range cands {
		df := g.defs[d].file
		if g.files[df].module == module || g.imports(file, df) {
			seen = append(seen, d)
		}
	}
	if len(seen) > 0 {
		return seen
	}
	return cands
}

// isMember reports whether a definition belongs to a type: a method, or
// anything inside a class, struct, impl or similar.
func (g *Graph) isMember(d int32) bool {
	def := &g.defs[d]
	if def.kind == dkMethod {
		return true
	}
	if def.parent >= 0 && g.defs[def.parent].kind.container() {
		return true
	}
	return g.str(def.container) != "" && def.kind != dkFunction
}

// isGoPackageQualifier reports a qualifier that could be a package name:
// one lower-case identifier.
func isGoPackageQualifier(q string) bool {
	if q == "" || strings.ContainsAny(q, ".()[]*&") {
		return false
	}
	return q[0] >= 'a' && q[0] <= 'z'
}

// isTypeName reports whether some type of the family is named name.
func (g *Graph) isTypeName(name string, family string) bool {
	id, ok := g.lookup(name)
	if !ok {
		return false
	}
	for _, d := range g.defsByName[id] {
		if g.defs[d].kind.typeLike() && g.defs[d].kind != dkModule && g.files[g.defs[d].file].family == family {
			return true
		}
	}
	return false
}

// narrow keeps the candidates the file sees first: those in the file
// itself, else in its module, else in the modules it imports, else all of
// them. sameModuleOnly stops at the module (an unqualified Go name never
// reaches another package).
func (g *Graph) narrow(file int32, cands []int32, sameModuleOnly bool) []int32 {
	if len(cands) <= 1 && !sameModuleOnly {
		return cands
	}
	module := g.files[file].module
	var sameFile, sameModule, imported []int32
	for _, d := range cands {
		df := g.defs[d].file
		switch {
		case df == file:
			sameFile = append(sameFile, d)
		case g.files[df].module == module:
			sameModule = append(sameModule, d)
		case g.imports(file, df):
			imported = append(imported, d)
		}
	}
	switch {
	case len(sameFile) > 0:
		return sameFile
	case len(sameModule) > 0:
		return sameModule
	case sameModuleOnly:
		return nil
	case len(imported) > 0:
		return imported
	}
	return cands
}

// headerExtensions are C and C++ headers.
var headerExtensions = map[string]bool{".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".inc": true}

// dropPrototypes removes, of C and C++ functions declared in a header and
// defined in a source file, the declarations: a call reaches the
// definition. An inline function defined in a header stays.
func (g *Graph) dropPrototypes(cands []int32) []int32 {
	if len(cands) < 2 {
		return cands
	}
	isProto := func(d int32) bool {
		def := &g.defs[d]
		f := &g.files[def.file]
		return f.family == "c" && def.kind == dkFunction && def.end == def.start && headerExtensions[path.Ext(f.path)]
	}
	defined := map[uint32]bool{}
	for _, d := range cands {
		if g.files[g.defs[d].file].family == "c" && !isProto(d) {
			defined[g.defs[d].name] = true
		}
	}
	if len(defined) == 0 {
		return cands
	}
	out := cands[:0:0]
	for _, d := range cands {
		if !(isProto(d) && defined[g.defs[d].name]) {
			out = append(out, d)
		}
	}
	return out
}

// paramType returns the type a parameter or receiver named name has in a
// definition's signature, as written without pointers, references, type
// arguments or array brackets ("render.Render", "Router"); "" when the
// signature declares no such parameter. Go and the C family write the name
// first or last ("r *Router", "Router r"); the languages that annotate
// write "name: Type".
func paramType(signature, name, family string) string {
	open := strings.IndexByte(signature, '(')
	if open < 0 || name == "" {
		return ""
	}
	var lists []string
	// Go: the receiver list, then the parameters.
	for rest := signature[open:]; len(lists) < 2 && strings.HasPrefix(strings.TrimSpace(rest), "("); {
		rest = strings.TrimSpace(rest)
		end := matchingParen(rest)
		if end < 0 {
			break
		}
		lists = append(lists, rest[1:end])
		rest = rest[end+1:]
		if family != "go" {
			break
		}
		// func (r *T) Name(params): skip the name between the lists.
		if i := strings.IndexByte(rest, '('); i >= 0 && !strings.ContainsAny(rest[:i], ")") {
			rest = rest[i:]
		} else {
			break
		}
	}
	for _, list := range lists {
		items := splitTopLevel(list)
		for i, item := range items {
			item = strings.TrimSpace(item)
			var pname, ptype string
			switch {
			case strings.Contains(item, ":") && family != "go" && family != "c":
				left, right, _ := strings.Cut(item, ":")
				fields := strings.Fields(left)
				if len(fields) == 0 {
					continue
				}
				pname, ptype = fields[len(fields)-1], right
			case family == "go":
				fields := strings.Fields(item)
				if len(fields) == 0 {
					continue
				}
				pname = fields[0]
				if len(fields) > 1 {
					ptype = strings.Join(fields[1:], " ")
				} else {
					// a, b int: the type comes with a later name.
					for _, later := range items[i+1:] {
						if f := strings.Fields(later); len(f) > 1 {
							ptype = strings.Join(f[1:], " ")
							break
						}
					}
				}
			default:
				if j := strings.IndexByte(item, '='); j >= 0 {
					item = item[:j]
				}
				fields := strings.Fields(item)
				if len(fields) < 2 {
					continue
				}
				pname, ptype = fields[len(fields)-1], strings.Join(fields[:len(fields)-1], " ")
			}
			pname = strings.TrimLeft(pname, "*&$")
			if pname != name {
				continue
			}
			return baseType(ptype)
		}
	}
	return ""
}

// baseType strips what decorates a type as written: "*pkg.Stack[T]" →
// "pkg.Stack", "&mut Router" → "Router", "final List<String>" → "List".
func baseType(t string) string {
	t = strings.TrimSpace(t)
	for _, p := range []string{"final ", "const ", "mut ", "readonly ", "struct ", "enum ", "union ", "class ", "...", "&", "*", "[]", "?"} {
		t = strings.TrimSpace(strings.ReplaceAll(t, p, ""))
	}
	if i := strings.IndexAny(t, "<[(= "); i > 0 {
		t = t[:i]
	}
	return strings.TrimRight(t, "?!")
}

// matchingParen returns the index of the parenthesis closing s[0].
func matchingParen(s string) int {
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTopLevel splits a parameter list at commas outside brackets.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// typedParam narrows a call through a parameter of the enclosing function
// (or a Go receiver) whose type the signature declares and the repository
// defines: r.Render(w) with r render.Render reaches Render's own method.
func (g *Graph) typedParam(r *ref, q string, sc *scope) bool {
	if strings.ContainsAny(q, ".()[]:>") {
		return false
	}
	f := &g.files[r.file]
	for d := r.enclosing; d >= 0; d = g.defs[d].parent {
		def := &g.defs[d]
		if def.kind != dkFunction && def.kind != dkMethod {
			continue
		}
		t := paramType(g.str(def.signature), q, f.family)
		if t == "" {
			continue
		}
		typ := t
		var qual string
		if i := strings.LastIndexAny(t, ".:"); i >= 0 {
			qual, typ = strings.TrimRight(t[:i], ".:"), t[i+1:]
		}
		if !g.isTypeName(typ, f.family) {
			return false
		}
		sc.container, sc.member = typ, true
		if qual != "" && f.family == "go" {
			if b, ok := f.binding(qual); ok && !b.external && b.imported == "" {
				sc.files, sc.modules, sc.restricted = b.files, b.modules, true
			}
		}
		return true
	}
	return false
}

// mentioned keeps, of the members a call through a value of unknown type
// may reach, those of the types the enclosing definition names (x :=
// JSON{…}; x.Render(w), Foo f = new Foo(); f.bar()), when there are any.
func (g *Graph) mentioned(ri int32, cands []int32) []int32 {
	if len(cands) <= 1 {
		return cands
	}
	r := &g.refs[ri]
	if r.enclosing < 0 {
		return cands
	}
	f := &g.files[r.file]
	names := map[uint32]bool{}
	// In the body: the types of the signature (parameters, results) say
	// nothing of the values made inside.
	bodyStart := g.defs[r.enclosing].start
	for o := f.refs[0]; o < f.refs[1]; o++ {
		other := &g.refs[o]
		if other.enclosing == r.enclosing && other.line > bodyStart && (other.kind == rkType || other.kind == rkCall) && o != ri {
			names[other.name] = true
		}
	}
	var kept []int32
	for _, d := range cands {
		c := lastCrumb(g.str(g.defs[d].container))
		if id, ok := g.lookup(c); ok && names[id] {
			kept = append(kept, d)
		}
	}
	if len(kept) > 0 {
		return kept
	}
	return cands
}
