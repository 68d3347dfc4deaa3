package chunk

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/lore-dev/lore/internal/symbols"
)

// Symbol extraction runs the language's tags query (tags.go) over the tree
// the chunker parsed. Query matches are read in one call into byte spans
// (matches.go); the rest works on those spans and the source text, so that
// the cost beyond running the query stays small (each call into
// tree-sitter costs a cgo crossing, and Node.Parent walks down from the
// root).

// byteSpan is a byte range of the source, [start, end).
type byteSpan struct{ start, end uint32 }

func spanOf(n *sitter.Node) byteSpan { return byteSpan{n.StartByte(), n.EndByte()} }

// capturedSpan is the byte range covered by the nodes of one capture.
type capturedSpan struct {
	byteSpan
	set bool
}

func (s *capturedSpan) merge(o capturedSpan) {
	switch {
	case !o.set:
	case !s.set:
		*s = o
	default:
		s.start, s.end = min(s.start, o.start), max(s.end, o.end)
	}
}

// text returns the captured text with each run of whitespace replaced by
// sep: "" for a qualified name ("a .\n b" → "a.b"), " " for a path.
func (s capturedSpan) text(src []byte, sep string) string {
	if !s.set {
		return ""
	}
	return strings.Join(strings.Fields(string(src[s.start:s.end])), sep)
}

// tagged is one definition or reference a tags pattern found, before the
// duplicates of other patterns are dropped.
type tagged struct {
	pattern int32
	isDef   bool     // a definition, else a reference
	kind    string   // the kind of definition or reference
	capture int32    // the capture of the definition or reference node
	at      byteSpan // where that node is
	name    capturedSpan
	alias   capturedSpan
	source  capturedSpan
	// The qualifier, target and container may be captured by several
	// nodes (the segments of a path), or by several matches of one
	// pattern that differ only there: each spans from the first to the
	// last.
	qualifier, target, container capturedSpan
}

// tag reads one match (its captures, from offset first of the file's);
// ok is false when it fails a predicate or captures neither a definition
// nor a reference.
func (q *tagQuery) tag(match []rawCapture, first int, src []byte) (tagged, bool) {
	pattern := match[0].pattern
	for _, p := range q.predicates[pattern] {
		if !p.holds(match, src) {
			return tagged{}, false
		}
	}
	t := tagged{pattern: int32(pattern)}
	found := false
	for i := range match {
		capture := &match[i]
		span := capturedSpan{capture.at, true}
		r := q.roles[capture.index]
		switch {
		case r.def != "":
			t.kind, t.isDef, t.capture, t.at, found = r.def, true, int32(first+i), capture.at, true
		case r.ref != "":
			t.kind, t.capture, t.at, found = r.ref, int32(first+i), capture.at, true
		case r.name:
			t.name = span
		case r.qualifier:
			t.qualifier.merge(span)
		case r.target:
			t.target.merge(span)
		case r.alias:
			t.alias = span
		case r.source:
			t.source = span
		case r.container:
			t.container.merge(span)
		}
	}
	return t, found
}

// extractSymbols runs the language's tags query over the tree and returns
// what the file defines and refers to, with chunk indexes still unset.
func (c *syntaxChunker) extractSymbols(language string, root *sitter.Node) symbols.File {
	q, err := tagsFor(language, c.spec.grammar)
	if err != nil || q == nil {
		return symbols.File{}
	}
	sc := getScratch()
	defer putScratch(sc)
	found := tagList{tags: sc.tags[:0]}
	defer func() { sc.tags = found.tags[:0] }()
	seen := sc.seen
	sc.captures = matches(q.query, root, sc.captures[:0])
	captures := sc.captures
	for start := 0; start < len(captures); {
		end := start + 1
		for end < len(captures) && !captures[end].first {
			end++
		}
		t, ok := q.tag(captures[start:end], start, c.src)
		start = end
		if !ok {
			continue
		}
		if t.qualifier.set || t.target.set || t.container.set {
			// Only these merge; other duplicates go when patterns are
			// weighed against each other.
			key := tagKey{t.pattern, t.at, t.name.byteSpan}
			if i, dup := seen[key]; dup {
				f := found.at(i)
				f.qualifier.merge(t.qualifier)
				f.target.merge(t.target)
				f.container.merge(t.container)
				continue
			}
			seen[key] = found.len()
		}
		found.add(t)
	}
	sc.order = found.byPattern(int(q.query.PatternCount()), sc.order[:0])
	order := sc.order
	defs := c.definitions(root, captures, &found, order)
	refs, refStarts := c.references(sc, &found, order, defs)
	file := symbols.File{References: refs}
	if len(defs) > 0 {
		file.Definitions = make([]symbols.Definition, len(defs))
		for i := range defs {
			file.Definitions[i] = defs[i].Definition
		}
	}
	if language == "go" {
		c.goMethodSets(&file, defs, refStarts)
	}
	return file
}

// tagKey identifies the matches of one pattern on one node with one name:
// they are one tag, whose qualifier, target and container span those of
// all the matches.
type tagKey struct {
	pattern    int32
	node, name byteSpan
}

// located is a reference with where it is.
type located struct {
	symbols.Reference
	pos   uint32 // where the name is
	start uint32 // where the qualified name starts
}

// symbolScratch is the working memory of extracting one file's symbols,
// reused from file to file: what it allocates would otherwise double
// what chunking allocates, and the garbage collector's work with it.
type symbolScratch struct {
	captures []rawCapture
	tags     []tagged
	order    []int
	located  []located
	seen     map[tagKey]int
	spans    map[byteSpan]uint8
}

var scratchPool = sync.Pool{New: func() any {
	return &symbolScratch{seen: map[tagKey]int{}, spans: map[byteSpan]uint8{}}
}}

func getScratch() *symbolScratch { return scratchPool.Get().(*symbolScratch) }

// maxPooledTags bounds what a pooled scratch keeps: the working memory of
// an unusually large file is left to the garbage collector.
const maxPooledTags = 1 << 16

func putScratch(sc *symbolScratch) {
	if cap(sc.tags) > maxPooledTags || cap(sc.captures) > 4*maxPooledTags || len(sc.seen) > maxPooledTags || len(sc.spans) > maxPooledTags {
		return
	}
	clear(sc.seen)
	clear(sc.spans)
	scratchPool.Put(sc)
}

// tagList holds the tags found in a file.
type tagList struct {
	tags []tagged
	defs int // how many are definitions
}

func (l *tagList) len() int { return len(l.tags) }

func (l *tagList) at(i int) *tagged { return &l.tags[i] }

func (l *tagList) add(t tagged) {
	l.tags = append(l.tags, t)
	if t.isDef {
		l.defs++
	}
}

// byPattern orders the tags by pattern, keeping document order within one:
// the pattern written first in the query wins over later ones.
func (l *tagList) byPattern(patterns int, order []int) []int {
	counts := make([]int, patterns+1)
	for i := range l.tags {
		counts[l.tags[i].pattern+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	order = append(order[:0], make([]int, len(l.tags))...)
	for i := range l.tags {
		p := l.tags[i].pattern
		order[counts[p]] = i
		counts[p]++
	}
	return order
}

// defNode is a definition being built, with what locating references in it
// needs.
type defNode struct {
	symbols.Definition
	node      *sitter.Node
	at, name  byteSpan
	container string // the @container capture, as a breadcrumb
}

// definitions turns the definition matches into definitions in source
// order (an outer one before what it holds), each with its parent and
// container.
func (c *syntaxChunker) definitions(root *sitter.Node, captures []rawCapture, found *tagList, order []int) []defNode {
	defs := make([]defNode, 0, found.defs)
	seen := make(map[byteSpan]bool, found.defs)
	for _, i := range order {
		t := found.at(i)
		if !t.isDef || !t.name.set || seen[t.name.byteSpan] {
			continue
		}
		seen[t.name.byteSpan] = true
		if t.kind == refIgnore {
			continue
		}
		name := defName(string(c.src[t.name.start:t.name.end]))
		if name == "" || name == "_" {
			continue
		}
		d := defNode{
			Definition: symbols.Definition{
				Name:      name,
				Kind:      t.kind,
				StartLine: c.d.firstLine(t.at) + 1,
				EndLine:   c.d.lastLine(t.at) + 1,
				NameLine:  c.d.firstLine(t.name.byteSpan) + 1,
				Parent:    -1,
			},
			node: nodeOf(root, captures[t.capture].node),
			at:   t.at,
			name: t.name.byteSpan,
		}
		if t.container.set {
			d.container = scopePath(t.container.text(c.src, ""))
		} else if scope, last := lastSegment(name, "::", ".", "\\"); scope != "" && last != "" {
			// A qualified name: a C++ method defined outside its class
			// (geo::Rect::area), a dotted module or namespace (Auth.Guest).
			d.Name, d.container = last, scopePath(scope)
		}
		defs = append(defs, d)
	}
	slices.SortStableFunc(defs, func(a, b defNode) int {
		if a.at.start != b.at.start {
			return cmp.Compare(a.at.start, b.at.start)
		}
		return cmp.Compare(b.at.end, a.at.end)
	})
	// Parents: a sweep with a stack of the definitions open at each start.
	var stack []int
	for i := range defs {
		d := &defs[i]
		for len(stack) > 0 && defs[stack[len(stack)-1]].at.end <= d.at.start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if defs[top].at == d.at {
				d.Parent = defs[top].Parent // one node defining two names
			} else {
				d.Parent = top
			}
		}
		stack = append(stack, i)
		outer := ""
		if d.Parent >= 0 {
			p := defs[d.Parent]
			outer = p.Container
			if !isDataKind(p.Kind) && p.Kind != symbols.KindType ||
				d.Kind == symbols.KindMethod && isDataKind(p.Kind) {
				// Data is no container: a struct declared in a typedef
				// belongs where the typedef does. A method in data is
				// one of an object literal (`const api = { get() {…} }`),
				// which holds it as a class would.
				outer = joinCrumb(outer, p.Name)
			}
			if d.Kind == symbols.KindFunction && (makesMethods(p.Kind) || (c.spec.moduleMethods && p.Kind == symbols.KindModule)) {
				d.Kind = symbols.KindMethod
			}
		}
		d.Container = joinCrumb(outer, d.container)
		d.Signature = c.defSignature(d.node, d.at)
	}
	return defs
}

// firstLine is the 0-based line of the first non-blank byte of s.
func (d *text) firstLine(s byteSpan) int {
	b := int(s.start)
	for b < int(s.end) && isSpace(d.src[b]) {
		b++
	}
	return d.lineAt(b)
}

// lastLine is the 0-based line of the last non-blank byte of s.
func (d *text) lastLine(s byteSpan) int {
	b := int(s.end)
	for b > int(s.start) && isSpace(d.src[b-1]) {
		b--
	}
	return max(d.lineAt(max(b-1, int(s.start))), d.firstLine(s))
}

// lineAt is the 0-based line holding byte offset b.
func (d *text) lineAt(b int) int {
	n := d.lineCount()
	i := sort.Search(n, func(i int) bool { return d.starts[i+1] > b })
	return min(i, n-1)
}

// defName cleans a captured definition name: a name the grammar got wrong
// around a macro ("int f") ends with the real one.
func defName(name string) string {
	if fields := strings.Fields(name); len(fields) > 1 {
		return fields[len(fields)-1]
	}
	return strings.TrimSpace(name)
}

// scopePath turns a written scope ("ns::Router", "M.N", "App\\Http") into
// a breadcrumb ("ns > Router").
func scopePath(scope string) string {
	return scopeSeparators.Replace(strings.Trim(scope, ".:\\"))
}

var scopeSeparators = strings.NewReplacer("::", " > ", ".", " > ", "\\", " > ", ":", " > ")

// classifiedSignatures lists, per language, the definition nodes whose
// signature the chunker's rules word better than the text before the body:
// a one-line Elixir def, a typedef, a Lua function with folded comments.
var classifiedSignatures = map[string]map[string]bool{
	"elixir": set("call"),
	"c":      set("type_definition"),
	"cpp":    set("type_definition"),
	"lua":    set("function_statement", "function_declaration", "local_function", "variable_declaration"),
}

// declarationKeywords are the words before a JavaScript or TypeScript
// definition node that belong in its signature (export const f = …).
var declarationKeywords = map[string]bool{
	"export": true, "default": true, "declare": true, "const": true, "let": true, "var": true,
}

// defSignature is a definition's declaration without its body, on one line.
func (c *syntaxChunker) defSignature(n *sitter.Node, at byteSpan) string {
	typ := n.Type()
	if c.spec.lang != "" && classifiedSignatures[c.spec.lang][typ] {
		if it := c.spec.classify(c, n); it.role == roleDef && !it.noSignature {
			if it.node == nil {
				it.node = n
			}
			return c.signature(it)
		}
	}
	body := n.ChildByFieldName("body")
	if body == nil && len(c.spec.bodies) > 0 {
		body = c.bodyOf(n)
	}
	if typ == "variable_declarator" || typ == "pair" {
		// const f = () => {…}: the body is the function's.
		if value := n.ChildByFieldName("value"); value != nil {
			body = value.ChildByFieldName("body")
		}
	}
	end := int(at.end)
	if body != nil {
		if b := int(body.StartByte()); b > int(at.start) && b <= end {
			end = b
		} else {
			body = nil
		}
	}
	syntax, ok := commentSyntaxes[c.spec.lang]
	if !ok {
		syntax.slash = true
	}
	sig := textSignature(c.src[at.start:end], body != nil, syntax)
	switch c.spec.lang {
	case "go":
		if keyword, ok := goSpecKeyword[typ]; ok {
			sig = keyword + sig
		}
	case "javascript", "typescript", "tsx":
		sig = c.keywordsBefore(int(at.start)) + sig
	}
	return clip(sig, maxSignature)
}

// textSignature words the text of a declaration up to its body (or the
// whole definition when it has none) as the chunker's signatures: one
// line, comments and leading annotation lines dropped, without the body's
// opener.
func textSignature(text []byte, hasBody bool, comments commentSyntax) string {
	// Whitespace collapses, so a few times the limit is plenty.
	text = text[:min(len(text), 8*maxSignature)]
	text = text[:commentStart(text, comments)]
	lines := strings.Split(string(text), "\n")
	for len(lines) > 1 && isAnnotationLine(lines[0]) {
		lines = lines[1:]
	}
	if !hasBody {
		lines = lines[:1] // a constant, an alias: the first line says it
	}
	sig := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	sig = tightenBrackets.Replace(sig)
	for _, suffix := range []string{";", "{", ":", "=", " do"} {
		if strings.HasSuffix(sig, suffix) && len(sig) > len(suffix) {
			sig = strings.TrimSpace(strings.TrimSuffix(sig, suffix))
			break
		}
	}
	return clip(sig, maxSignature)
}

// commentSyntax is how comments start in a language: "//" and "/*", or a
// line marker, or both (PHP).
type commentSyntax struct {
	line  string // "#", "--"
	slash bool   // "//" and "/*"
}

// commentSyntaxes lists the languages whose comments are not C's.
var commentSyntaxes = map[string]commentSyntax{
	"python": {line: "#"}, "ruby": {line: "#"}, "bash": {line: "#"}, "elixir": {line: "#"},
	"lua": {line: "--"}, "php": {line: "#", slash: true},
}

// commentStart is where the first comment in a declaration's text starts
// (strings skipped), len(text) when there is none. A comment between the
// declaration and its body is not part of it.
func commentStart(text []byte, syntax commentSyntax) int {
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; {
		case ch == '"' || ch == '\'' || ch == '`':
			for i++; i < len(text) && text[i] != ch && text[i] != '\n'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case ch == '/' && syntax.slash:
			if i+1 < len(text) && (text[i+1] == '/' || text[i+1] == '*') {
				return i
			}
		case syntax.line != "" && bytes.HasPrefix(text[i:], []byte(syntax.line)):
			if syntax.line == "#" && i+1 < len(text) && text[i+1] == '[' {
				continue // an attribute: #[Route("/")]
			}
			return i
		}
	}
	return len(text)
}

// goSpecKeyword gives the keyword a Go spec inside a declaration lacks.
var goSpecKeyword = map[string]string{
	"type_spec": "type ", "type_alias": "type ", "const_spec": "const ", "var_spec": "var ",
}

// keywordsBefore returns the declaration keywords written right before
// offset b ("export const "), which the definition node leaves out.
func (c *syntaxChunker) keywordsBefore(b int) string {
	start := b
	for {
		end := start
		for end > 0 && isSpace(c.src[end-1]) {
			end--
		}
		word := end
		for word > 0 && isWordByte(c.src[word-1]) {
			word--
		}
		if word == end || !declarationKeywords[string(c.src[word:end])] {
			break
		}
		start = word
	}
	if start == b {
		return ""
	}
	return strings.Join(strings.Fields(string(c.src[start:b])), " ") + " "
}

func isWordByte(b byte) bool {
	return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// references turns the reference matches into references in source order,
// each with its enclosing definition, and says where each one's qualified
// name starts.
func (c *syntaxChunker) references(sc *symbolScratch, found *tagList, order []int, defs []defNode) ([]symbols.Reference, []uint32) {
	// What each span is: a definition's name, a reference's name or node.
	const (
		defName uint8 = 1 << iota
		refName
		refNode
	)
	spans := sc.spans
	for i := 0; i < found.len(); i++ {
		if t := found.at(i); t.isDef && t.name.set {
			spans[t.name.byteSpan] |= defName
		}
	}
	inQualifier := qualifierSpans(c.src, found)
	refs := sc.located[:0]
	defer func() { sc.located = refs[:0] }()
	for _, i := range order {
		t := found.at(i)
		if t.isDef {
			continue
		}
		kind := t.kind
		if kind == refMaybeCall {
			kind = symbols.RefReference
			if c.applied(t.at.end) {
				kind = symbols.RefCall
			}
		}
		if t.name.set {
			key := t.name.byteSpan
			if spans[key]&(defName|refName) != 0 {
				continue
			}
			if (kind == symbols.RefType || kind == symbols.RefReference) && inQualifier(key.start) {
				// "java" and "io" in java.io.Serializable are not types of
				// their own.
				continue
			}
			spans[key] |= refName
		} else if spans[t.at]&refNode != 0 {
			continue
		}
		spans[t.at] |= refNode
		if t.kind == refIgnore {
			continue
		}
		r, ok := c.reference(t, kind)
		if !ok {
			continue
		}
		at := t.at
		if t.name.set {
			at = t.name.byteSpan
		}
		r.Args = -1
		if kind == symbols.RefCall {
			r.Args = c.callArgs(at.end)
		}
		r.Line = c.d.firstLine(at) + 1
		start := at.start
		if t.qualifier.set {
			start = min(start, t.qualifier.start)
		}
		refs = append(refs, located{r, at.start, start})
	}
	slices.SortStableFunc(refs, func(a, b located) int { return cmp.Compare(a.pos, b.pos) })

	// Enclosing definitions: a sweep over definitions (ordered by start,
	// outer first) with a stack of those open at each reference.
	var out []symbols.Reference
	var starts []uint32
	if len(refs) > 0 {
		out = make([]symbols.Reference, len(refs))
		starts = make([]uint32, len(refs))
	}
	var stack []int
	next := 0
	for i := range refs {
		r := &refs[i]
		for next < len(defs) && defs[next].at.start <= r.pos {
			for len(stack) > 0 && defs[stack[len(stack)-1]].at.end <= defs[next].at.start {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && defs[stack[len(stack)-1]].at.end <= r.pos {
			stack = stack[:len(stack)-1]
		}
		r.Enclosing = -1
		if len(stack) > 0 {
			r.Enclosing = stack[len(stack)-1]
		}
		if (r.Kind == symbols.RefExtends || r.Kind == symbols.RefImplements) && r.Source == "" && r.Enclosing >= 0 {
			r.Source = defs[r.Enclosing].Name
		}
		out[i] = r.Reference
		starts[i] = r.start
	}
	return out, starts
}

// qualifierSpans returns a test of whether a byte offset falls inside a
// captured qualifier, import target or alias, or inside a reference's name
// that is more than one token (a qualified type captured whole).
func qualifierSpans(src []byte, found *tagList) func(pos uint32) bool {
	var spans []byteSpan
	for i := 0; i < found.len(); i++ {
		t := found.at(i)
		for _, s := range []capturedSpan{t.qualifier, t.target, t.alias} {
			// A qualifier that is an expression ((x as? T).y) may hold
			// real type references; a path (java.io) holds none.
			if s.set && isPath(src[s.start:s.end]) {
				spans = append(spans, s.byteSpan)
			}
		}
		if !t.isDef && t.name.set && isCompoundName(src[t.name.start:t.name.end]) {
			spans = append(spans, t.name.byteSpan)
		}
	}
	slices.SortFunc(spans, func(a, b byteSpan) int { return cmp.Compare(a.start, b.start) })
	// maxEnd[i] is the furthest end among spans[:i+1]: some span starting
	// at or before pos holds it exactly when that end is past pos.
	maxEnd := make([]uint32, len(spans))
	for i, s := range spans {
		maxEnd[i] = s.end
		if i > 0 && maxEnd[i-1] > s.end {
			maxEnd[i] = maxEnd[i-1]
		}
	}
	return func(pos uint32) bool {
		i := sort.Search(len(spans), func(i int) bool { return spans[i].start > pos }) - 1
		return i >= 0 && maxEnd[i] > pos
	}
}

// isPath reports text made of names and separators only: "java.io",
// "std::fmt", "$this->repo".
func isPath(text []byte) bool {
	for _, b := range text {
		if !isWordByte(b) && b < 0x80 && !strings.ContainsRune(".:\\/->@ \t\r\n", rune(b)) {
			return false
		}
	}
	return true
}

// isCompoundName reports a name made of several tokens: "mod.Other<T>".
func isCompoundName(name []byte) bool {
	for _, b := range name {
		if !isWordByte(b) && b < 0x80 {
			return true
		}
	}
	return false
}

// reference reads one reference match of the given kind.
func (c *syntaxChunker) reference(t *tagged, kind string) (symbols.Reference, bool) {
	r := symbols.Reference{Kind: kind}
	if t.target.set {
		r.Target = unquote(t.target.text(c.src, " "))
	}
	if t.qualifier.set {
		r.Qualifier = clip(strings.TrimRight(t.qualifier.text(c.src, ""), ".:"), maxSignature)
	}
	if t.alias.set {
		r.Alias = strings.TrimSpace(string(c.src[t.alias.start:t.alias.end]))
	}
	if t.source.set {
		r.Source = typeBaseName(string(c.src[t.source.start:t.source.end]))
	}
	switch {
	case t.name.set:
		r.Name = strings.TrimSpace(string(c.src[t.name.start:t.name.end]))
	case r.Target != "":
		r.Name = moduleName(r.Target)
	}
	if r.Kind == symbols.RefImport {
		if r.Name == "_" {
			r.Name = "*" // Scala's wildcard
		}
		if r.Target == "" {
			r.Target = r.Name
		}
	} else if scope, last := lastSegment(stripTypeArguments(r.Name), "::", ".", "\\"); scope != "" || last != r.Name {
		// A qualified name captured whole: the qualifier goes apart.
		r.Name = last
		if r.Qualifier == "" {
			r.Qualifier = strings.TrimRight(scope, ".:\\")
		}
	}
	r.Name = strings.TrimSpace(r.Name)
	if r.Name == "" || r.Name == "_" || len(r.Name) > maxSignature {
		return r, false
	}
	return r, true
}

// callArgs counts the arguments of the call whose callee's name ends at
// offset b: those in the parentheses that follow it, after type arguments
// (f[int](x), f::<T>(x), f<T>(x)) or a macro's bang; -1 when no
// parentheses follow.
func (c *syntaxChunker) callArgs(b uint32) int {
	src := c.src
	i := int(b)
	skipSpace := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	skipSpace()
	if i < len(src) && src[i] == '!' { // a Rust macro
		i++
	}
	if strings.HasPrefix(string(src[i:min(i+2, len(src))]), "::") {
		i += 2
	}
	if i < len(src) && (src[i] == '[' || src[i] == '<') {
		if end := closeBracket(src, i); end > 0 {
			i = end + 1
			skipSpace()
		}
	}
	if i >= len(src) || src[i] != '(' {
		return -1
	}
	items, closed := countItems(src, i, int(b)+maxCallScan, false)
	if !closed {
		return -1
	}
	return items
}

// countItems counts the non-empty, comma-separated items of the bracketed
// list that opens at src[open], reading up to offset limit; closed is
// false when the list does not close before it. Strings are skipped, and
// with lineComments so are // comments (Go's; elsewhere // may be an
// operator).
func countItems(src []byte, open, limit int, lineComments bool) (items int, closed bool) {
	depth, nonEmpty := 0, false
	for i := open; i < len(src) && i < limit; i++ {
		switch ch := src[i]; ch {
		case '(', '[', '{':
			depth++
			if depth == 1 {
				continue
			}
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if nonEmpty {
					items++
				}
				return items, true
			}
		case ',':
			if depth == 1 {
				if nonEmpty {
					items++
				}
				nonEmpty = false
				continue
			}
		case '"', '\'', '`':
			for i++; i < len(src) && src[i] != ch; i++ {
				if src[i] == '\\' && ch != '`' {
					i++
				}
			}
			if i >= len(src) {
				return items, false // the string runs to the end of the file
			}
		case '/':
			if lineComments && i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
		}
		if depth >= 1 && !isSpace(src[i]) {
			nonEmpty = true
		}
	}
	return items, false
}

// maxCallScan bounds how far a call's arguments are read.
const maxCallScan = 1 << 14

// closeBracket returns the index of the bracket closing src[open] ([ or
// <), -1 when it does not close on a plausible type argument list.
func closeBracket(src []byte, open int) int {
	want := byte(']')
	if src[open] == '<' {
		want = '>'
	}
	depth := 0
	for i := open; i < len(src) && i < open+512; i++ {
		switch src[i] {
		case src[open]:
			depth++
		case want:
			depth--
			if depth == 0 {
				return i
			}
		case '(', ')', ';', '{', '}', '\n':
			if want == '>' {
				return -1 // a comparison, not type arguments
			}
		}
	}
	return -1
}

// applied reports whether the expression ending at offset b is applied to
// arguments: "(" follows, or "{" (a trailing closure) unless the line is a
// statement whose block that is (for x in a.b {, if a.b {).
func (c *syntaxChunker) applied(b uint32) bool {
	i := int(b)
	for i < len(c.src) && (c.src[i] == ' ' || c.src[i] == '\t') {
		i++
	}
	if i >= len(c.src) {
		return false
	}
	switch c.src[i] {
	case '(':
		return true
	case '{':
		words := bytes.Fields(c.src[c.d.starts[c.d.lineAt(i)]:i])
		return len(words) > 0 && !blockKeywords[string(words[0])]
	}
	return false
}

// blockKeywords start statements whose block may follow an expression.
var blockKeywords = set("for", "if", "while", "guard", "switch", "else", "repeat", "}", "return", "case")

// stripTypeArguments drops the type arguments of a type written whole:
// "Map<K, V>" → "Map".
func stripTypeArguments(name string) string {
	if i := strings.IndexAny(name, "<["); i > 0 && strings.HasSuffix(name, string(closing[name[i]])) {
		return strings.TrimSpace(name[:i])
	}
	return name
}

var closing = map[byte]byte{'<': '>', '[': ']'}

// moduleName is the name an import target is known by: the last segment
// of a module path, the base name of a file ("auth/guest.h" → "guest").
func moduleName(target string) string {
	target = strings.TrimRight(target, "/")
	if i := strings.LastIndexByte(target, '.'); i > 0 && sourceExtensions[target[i+1:]] {
		target = target[:i]
	}
	_, last := lastSegment(target, "/", ".", "::", "\\", ":")
	if last == "" {
		return target
	}
	return last
}

// sourceExtensions are the file extensions an include or import of a file
// may spell out.
var sourceExtensions = map[string]bool{
	"h": true, "hh": true, "hpp": true, "hxx": true, "inc": true, "c": true, "cc": true, "cpp": true,
	"js": true, "mjs": true, "cjs": true, "jsx": true, "ts": true, "tsx": true, "mts": true, "cts": true,
	"json": true, "css": true, "py": true, "rb": true, "lua": true, "sh": true, "php": true, "swift": true,
}

// unquote strips the quotes or brackets around a string as written.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	for len(s) >= 2 {
		first, last := s[0], s[len(s)-1]
		if (first == '"' || first == '\'' || first == '`') && last == first || first == '<' && last == '>' {
			s = s[1 : len(s)-1]
			continue
		}
		break
	}
	return s
}

// typeBaseName strips pointers, generics and qualifiers from a type as
// written: "*pkg.Stack[T]" → "Stack", "Foo<T>" → "Foo".
func typeBaseName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "*&")
	if i := strings.IndexAny(s, "[<("); i > 0 {
		s = s[:i]
	}
	_, last := lastSegment(s, "::", ".", "\\")
	return strings.TrimSpace(last)
}

// setChunks sets the chunk index of every definition and reference: the
// chunk holding its name's line.
func setChunks(file *symbols.File, chunks []Chunk) {
	at := func(line int) int {
		i := sort.Search(len(chunks), func(i int) bool { return chunks[i].EndLine >= line })
		return min(i, len(chunks)-1)
	}
	for i := range file.Definitions {
		file.Definitions[i].Chunk = at(file.Definitions[i].NameLine)
	}
	for i := range file.References {
		file.References[i].Chunk = at(file.References[i].Line)
	}
}
