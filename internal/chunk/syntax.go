package chunk

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/lore-dev/lore/internal/symbols"
)

// role is what a syntax node is to the chunker.
type role int

const (
	roleOther     role = iota // a statement or declaration with no name of interest
	roleDef                   // a definition: function, type, constant, …
	roleComment               // a comment; attaches to the definition below it
	roleAttribute             // a decorator or attribute; attaches like a comment but is no doc
)

// item is a classified syntax node.
type item struct {
	role  role
	kind  string
	names []string
	// node is the definition proper, inside any wrapper (export, decorators,
	// templates): its text up to body is the signature.
	node *sitter.Node
	// body holds the members of a container or the statements of a function.
	body *sitter.Node
	// container says body holds definitions (methods, nested types) rather
	// than statements; an oversized container is split into its members.
	container bool
	// object says the container is an object literal (JavaScript's
	// `const api = { get() {…} }`): its functions are methods, as a
	// class's are, and, though it holds data, it is no field of an
	// object around it but a definition of its own.
	object bool
	// crumb, when set, is appended to the breadcrumb of the definition's
	// level to give its own: a Go method's receiver type, a C++
	// out-of-class method's class, a Lua function's table.
	crumb string
	// doc is a docstring found inside the definition (Python, Elixir).
	doc string
	// noSignature leaves the signature empty (plain statements).
	noSignature bool
	// sigFrom, when set, is where the signature starts inside node (after
	// documentation the grammar folds into the definition).
	sigFrom *sitter.Node
	// sig, when set, is the signature, for definitions whose declaration
	// is not simply the text before the body.
	sig string
}

// fallBackOnPanic is turned off by the tests, so that a bug shows.
var fallBackOnPanic = true

// syntaxChunker holds the state of one Split over a parsed file.
type syntaxChunker struct {
	spec *langSpec
	d    *text
	src  []byte
}

// splitSyntax parses the file with its grammar and chunks it by definitions;
// with withSymbols it also extracts definitions and references from the same
// tree. It reports false when there is no grammar or the parse fails.
func splitSyntax(language string, d *text, withSymbols bool) (spans []span, file symbols.File, ok bool) {
	return splitSyntaxOf(language, d, d.src, withSymbols)
}

// splitSyntaxOf is splitSyntax parsing parsed, a text of d's length whose
// every code byte is d's (the scripts of a component, the rest blanked),
// while the chunks and names are read from d.
func splitSyntaxOf(language string, d *text, parsed []byte, withSymbols bool) (spans []span, file symbols.File, ok bool) {
	spec := specs[language]
	if spec == nil {
		return nil, file, false
	}
	if fallBackOnPanic {
		defer func() {
			// An unforeseen shape of syntax tree must not stop a
			// repository from being indexed: the file falls back to
			// block chunking.
			if recover() != nil {
				spans, file, ok = nil, symbols.File{}, false
			}
		}()
	}
	tree := spec.parseRepairing(parsed)
	if tree == nil {
		return nil, file, false
	}
	if spec.unwrapMacros {
		tree = spec.unwrapItemMacros(parsed, tree)
	}
	defer tree.Close()
	root := tree.RootNode()
	c := &syntaxChunker{spec: spec, d: d, src: d.src}
	spans = c.level(c.members(root), "", false)
	if withSymbols {
		file = c.symbolsOf(language, root)
	}
	return spans, file, true
}

// symbolsOf extracts the symbols of a parsed file. A failure there keeps
// the chunks: the file is indexed without symbols.
func (c *syntaxChunker) symbolsOf(language string, root *sitter.Node) (file symbols.File) {
	if fallBackOnPanic {
		defer func() {
			if recover() != nil {
				file = symbols.File{}
			}
		}()
	}
	return c.extractSymbols(language, root)
}

// named returns the named children of n in order, read in one call
// into tree-sitter (childNodes).
func (c *syntaxChunker) named(n *sitter.Node) []*sitter.Node {
	return childNodes(n, true)
}

// childOfType returns the first named child of n whose type is one of types.
func (c *syntaxChunker) childOfType(n *sitter.Node, types ...string) *sitter.Node {
	for _, child := range c.named(n) {
		t := child.Type()
		for _, want := range types {
			if t == want {
				return child
			}
		}
	}
	return nil
}

func (c *syntaxChunker) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(c.src[n.StartByte():n.EndByte()])
}

// startRow is the first line holding text of n. Some grammars start a
// node at the whitespace before it, which does not count.
func (c *syntaxChunker) startRow(n *sitter.Node) int {
	row := int(n.StartPoint().Row)
	for b, end := n.StartByte(), n.EndByte(); b < end && isSpace(c.src[b]); b++ {
		if c.src[b] == '\n' {
			row++
		}
	}
	// A zero-width node (a missing token at the end of a broken file) may
	// sit past the last line.
	return min(row, c.d.lineCount()-1)
}

// endRow is the last line holding text of n: a node that ends with a
// newline ends at column 0 of the next line, which it does not occupy.
func (c *syntaxChunker) endRow(n *sitter.Node) int {
	row := int(n.EndPoint().Row)
	for b, start := n.EndByte(), n.StartByte(); b > start && isSpace(c.src[b-1]); b-- {
		if c.src[b-1] == '\n' && row > 0 {
			row--
		}
	}
	return min(max(row, c.startRow(n)), c.d.lineCount()-1)
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// commonCrumb is the longest breadcrumb path both a and b are within.
func commonCrumb(a, b string) string {
	if a == b {
		return a
	}
	as, bs := strings.Split(a, " > "), strings.Split(b, " > ")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return strings.Join(as[:n], " > ")
}

func joinCrumb(outer, inner string) string {
	switch {
	case outer == "":
		return inner
	case inner == "":
		return outer
	}
	return outer + " > " + inner
}

// makesMethods reports whether functions inside a container of this kind
// are methods.
func makesMethods(kind string) bool {
	switch kind {
	case KindClass, KindStruct, KindInterface, KindTrait, KindEnum, KindImpl:
		return true
	}
	return false
}

// level chunks a run of sibling nodes (a file's top level or a container's
// members) whose container path is crumb.
func (c *syntaxChunker) level(nodes []*sitter.Node, crumb string, inType bool) []span {
	var out []span
	var pending []*sitter.Node // comments and attributes awaiting a definition
	prevEnd := -1
	flush := func() {
		for _, p := range pending {
			out = append(out, span{start: c.startRow(p), end: c.endRow(p), neutral: true})
		}
		pending = pending[:0]
	}
	for _, n := range nodes {
		it := c.spec.classify(c, n)
		if it.role == roleComment || it.role == roleAttribute {
			if it.role == roleComment && c.startRow(n) == prevEnd && len(pending) == 0 {
				// A trailing comment on the line where the previous node
				// ends belongs to that line's chunk.
				continue
			}
			if len(pending) > 0 && c.startRow(n) > c.endRow(pending[len(pending)-1])+1 {
				flush()
			}
			pending = append(pending, n)
			continue
		}
		first, doc := c.startRow(n), ""
		start := first
		if len(pending) > 0 {
			if first <= c.endRow(pending[len(pending)-1])+1 {
				start = c.startRow(pending[0])
				doc = c.docFrom(pending)
				pending = pending[:0]
			} else {
				flush()
			}
		}
		// Comments at the very end of a node (grammars often put the
		// comment above the next definition inside the previous block)
		// belong to what follows.
		end := c.endRow(n)
		tail := c.trailingComments(n)
		if len(tail) > 0 && c.startRow(tail[0]) > first {
			end = c.startRow(tail[0]) - 1
		} else {
			tail = nil
		}
		out = append(out, c.emit(it, n, start, end, doc, crumb, inType)...)
		prevEnd = max(prevEnd, end)
		pending = append(pending, tail...)
	}
	flush()
	return c.tidy(out)
}

// trailingComments returns the comments that end n, possibly nested in its
// last children, when nothing but those comments follows them in n.
func (c *syntaxChunker) trailingComments(n *sitter.Node) []*sitter.Node {
	end := n.EndByte()
	if !endsWithComment(c.src[n.StartByte():end]) {
		return nil // the common case, decided without walking the tree
	}
	for depth := 0; depth < 4; depth++ {
		kids := c.named(n)
		if len(kids) == 0 {
			return nil
		}
		last := kids[len(kids)-1]
		if !bytesAreSpace(c.src[last.EndByte():end]) {
			return nil
		}
		i := len(kids)
		for i > 0 && c.spec.comments[kids[i-1].Type()] {
			i--
		}
		if i < len(kids) {
			if i == 0 {
				return nil
			}
			// Skip a comment that trails the code on its line.
			for i < len(kids) && c.startRow(kids[i]) == c.endRow(kids[i-1]) {
				i++
			}
			if i == len(kids) {
				return nil
			}
			return kids[i:]
		}
		n = last
	}
	return nil
}

// endsWithComment reports whether the last line of text looks like (the
// end of) a comment in any supported language.
func endsWithComment(text []byte) bool {
	text = bytes.TrimRight(text, " \t\r\n")
	last := text[bytes.LastIndexByte(text, '\n')+1:]
	last = bytes.TrimLeft(last, " \t")
	for _, open := range []string{"//", "#", "--", "/*", "*", ";", "%", "(*", "{-", "=end"} {
		if bytes.HasPrefix(last, []byte(open)) {
			return true
		}
	}
	for _, closer := range []string{"*/", "]]", "-->"} {
		if bytes.HasSuffix(last, []byte(closer)) {
			return true
		}
	}
	return false
}

func bytesAreSpace(b []byte) bool {
	for _, x := range b {
		if !isSpace(x) {
			return false
		}
	}
	return true
}

// docFrom joins the comments among the attached nodes, markers stripped.
// Consecutive line comments are stripped as one text so that their blank
// comment lines survive as paragraph breaks.
func (c *syntaxChunker) docFrom(nodes []*sitter.Node) string {
	var parts, run []string
	endRun := func() {
		if len(run) > 0 {
			if t := stripComment(strings.Join(run, "\n")); t != "" {
				parts = append(parts, t)
			}
			run = run[:0]
		}
	}
	for _, n := range nodes {
		switch {
		case c.spec.comments[n.Type()]:
			raw := c.text(n)
			if strings.HasPrefix(raw, "#!") && n.StartByte() == 0 {
				continue // a shebang line is no documentation
			}
			if isBlockComment(raw) {
				endRun()
				if t := stripComment(raw); t != "" {
					parts = append(parts, t)
				}
				continue
			}
			run = append(run, strings.TrimRight(raw, "\r\n"))
		case c.spec.attributeDoc != nil:
			endRun()
			if t := c.spec.attributeDoc(c, n); t != "" {
				parts = append(parts, t)
			}
		}
	}
	endRun()
	return strings.Join(parts, "\n")
}

// emit turns one classified node, whose chunk spans lines start..end (from
// any attached comments above it), into one span or, when it is too big,
// into several.
func (c *syntaxChunker) emit(it item, n *sitter.Node, start, end int, doc, crumb string, inType bool) []span {
	if it.node == nil {
		it.node = n
	}
	s := span{start: start, end: end, crumb: crumb, doc: doc, kind: it.kind}
	if s.kind == "" {
		s.kind = KindBlock
	}
	if it.role == roleDef {
		s.def = true
		for _, name := range it.names {
			// A name the grammar got wrong around a macro ("int f") ends
			// with the real one.
			if fields := strings.Fields(name); len(fields) > 1 {
				name = fields[len(fields)-1]
			}
			if name != "_" && name != "" { // a blank identifier defines nothing
				s.symbols = append(s.symbols, name)
			}
		}
		if s.kind == KindFunction && inType {
			s.kind = KindMethod
		}
		if it.crumb != "" {
			s.crumb = joinCrumb(crumb, it.crumb)
		}
		if s.doc == "" {
			s.doc = it.doc
		}
		if inType && isMemberData(s.kind) && !it.object {
			// Fields and properties are part of their type's text, not
			// definitions of their own.
			s.def, s.symbols = false, nil
		}
	}
	if !it.noSignature && (it.role == roleDef || (s.kind != KindBlock && s.kind != KindPreamble)) {
		s.signature = c.signature(it)
	}
	if c.d.fits(start, end, maxChunkLines, maxChunkBytes) {
		if it.container && it.body != nil {
			s.symbols = appendNew(s.symbols, c.memberSymbols(it.body, s.kind, 0)...)
		}
		return []span{s}
	}
	if it.role != roleDef || it.body == nil {
		return c.pieces(s, nil)
	}
	members := c.members(it.body)
	if it.container {
		// Some grammars start the body at its first statement, leaving
		// the comments above it to the container node.
		var lead []*sitter.Node
		for _, child := range c.named(it.node) {
			if child.StartByte() >= it.body.StartByte() {
				break
			}
			if c.spec.comments[child.Type()] && c.startRow(child) > c.startRow(it.node) {
				lead = append(lead, child)
			}
		}
		return c.splitContainer(s, append(lead, members...), it.object)
	}
	// Statements may sit in a wrapper (a Kotlin "statements" node, a lone
	// switch): descend to where there is more than one.
	for depth := 0; len(members) == 1 && depth < 3; depth++ {
		inner := c.members(members[0])
		if len(inner) < 2 {
			break
		}
		members = inner
	}
	return c.pieces(s, members)
}

// splitContainer chunks an oversized class-like definition: a header chunk
// with the declaration (and the fields right after it), then its members,
// each with the container in its breadcrumb. An object literal's
// functions are methods, as a type's are.
func (c *syntaxChunker) splitContainer(s span, members []*sitter.Node, object bool) []span {
	name := ""
	if len(s.symbols) > 0 {
		name = s.symbols[0]
	}
	methods := makesMethods(s.kind) || (c.spec.moduleMethods && s.kind == KindModule) || object
	// The header keeps what comes before the first definition (a
	// docstring, fields), except the comments that document that
	// definition, as long as it stays small.
	k := 0
	for k < len(members) {
		it := c.spec.classify(c, members[k])
		if it.role == roleDef && !(methods && isMemberData(it.kind) && !it.object) {
			break
		}
		k++
	}
	for k > 0 {
		if r := c.spec.classify(c, members[k-1]).role; r != roleComment && r != roleAttribute {
			break
		}
		k--
	}
	taken := 0
	for taken < k && c.d.fits(s.start, c.endRow(members[taken]), mergeMaxLines, mergeMaxBytes) {
		taken++
	}
	members = members[taken:]
	inner := c.level(members, joinCrumb(s.crumb, name), methods)
	// Members past the container's end (a trailing comment handed to the
	// next definition) are not the container's.
	for len(inner) > 0 && inner[len(inner)-1].start > s.end {
		inner = inner[:len(inner)-1]
	}
	if len(inner) > 0 && inner[len(inner)-1].end > s.end {
		inner[len(inner)-1].end = s.end
	}
	if len(inner) == 0 || inner[0].start <= s.start {
		return c.pieces(s, nil)
	}
	if object && name == "" && inner[0].start-s.start < smallDefLines && !inner[0].fixed {
		// An unnamed object's opening lines (`module.exports = {`,
		// Vue's `methods: {`) name nothing: they lead into its first
		// member.
		inner[0].start = s.start
		return inner
	}
	header := s
	header.end = inner[0].start - 1
	header.symbols = s.symbols[:min(1, len(s.symbols))]
	out := c.pieces(header, nil)
	return append(out, inner...)
}

// pieces cuts an oversized span into pieces that keep its description (the
// doc comment stays with the first). Cuts fall before the given inner nodes
// (a function's statements) when there are any, else at blank lines.
func (c *syntaxChunker) pieces(s span, inner []*sitter.Node) []span {
	var segs [][2]int
	at := s.start
	for _, n := range inner {
		row := c.startRow(n)
		if row <= at || row > s.end {
			continue
		}
		segs = append(segs, [2]int{at, row - 1})
		at = row
	}
	segs = append(segs, [2]int{at, s.end})
	packed := c.d.pack(segs, maxChunkLines, maxChunkBytes)
	out := make([]span, len(packed))
	for i, p := range packed {
		piece := s
		piece.start, piece.end, piece.fixed = p[0], p[1], true
		if i > 0 {
			piece.doc = ""
		}
		out[i] = piece
	}
	return out
}

// memberSymbols lists the names defined inside a container of the given
// kind, in order; the fields of a type are not definitions of their own.
func (c *syntaxChunker) memberSymbols(body *sitter.Node, kind string, depth int) []string {
	if depth > 3 {
		return nil
	}
	var names []string
	for _, n := range c.members(body) {
		it := c.spec.classify(c, n)
		if it.role != roleDef {
			continue
		}
		if makesMethods(kind) && isMemberData(it.kind) && !it.object {
			continue
		}
		names = append(names, it.names...)
		if it.container && it.body != nil {
			names = append(names, c.memberSymbols(it.body, it.kind, depth+1)...)
		}
	}
	return names
}

// tidy orders a level's spans, merges runs of small neighbours and folds
// stray comments into the next span (or the previous one at the end).
func (c *syntaxChunker) tidy(spans []span) []span {
	for i := range spans {
		s := &spans[i]
		if s.fixed {
			continue
		}
		if s.def {
			s.small = s.lines() < smallDefLines
		} else {
			s.small = c.d.fits(s.start, s.end, mergeMaxLines, mergeMaxBytes)
		}
	}
	var out []span
	for _, s := range spans {
		if len(out) > 0 {
			last := &out[len(out)-1]
			if last.small && s.small && s.start > last.end &&
				c.d.fits(last.start, s.end, mergeMaxLines, mergeMaxBytes) {
				merge(last, s)
				continue
			}
		}
		out = append(out, s)
	}
	// Comments that merged with nothing join the next span and small stray
	// statements the previous one, unless that makes it too big.
	kept := make([]span, 0, len(out))
	for i := 0; i < len(out); i++ {
		s := out[i]
		if len(out) > 1 && !s.fixed {
			stray := s.kind == KindBlock && !s.def && s.lines() < smallDefLines
			switch {
			case (s.neutral || stray && len(kept) == 0) && i+1 < len(out):
				if next := &out[i+1]; c.d.fits(s.start, next.end, maxChunkLines, maxChunkBytes) {
					next.start = min(next.start, s.start)
					continue
				}
			case s.neutral || stray:
				if last := len(kept) - 1; last >= 0 && c.d.fits(kept[last].start, s.end, maxChunkLines, maxChunkBytes) {
					kept[last].end = max(kept[last].end, s.end)
					continue
				}
			}
		}
		// A few import lines alone between big definitions lead into the
		// next one.
		if s.kind == KindPreamble && !s.def && s.lines() < smallDefLines && i+1 < len(out) &&
			c.d.fits(s.start, out[i+1].end, maxChunkLines, maxChunkBytes) {
			out[i+1].start = min(out[i+1].start, s.start)
			continue
		}
		if !s.fixed && !c.d.fits(s.start, s.end, maxChunkLines, maxChunkBytes) {
			// A long comment on its own (a license, a file overview).
			s.neutral = false
			kept = append(kept, c.pieces(s, nil)...)
			continue
		}
		s.neutral = false
		kept = append(kept, s)
	}
	return kept
}

// merge appends span b to the run a.
func merge(a *span, b span) {
	a.end = b.end
	a.symbols = appendNew(append([]string(nil), a.symbols...), b.symbols...)
	// Comments do not make a run "mixed", nor do plain statements among
	// functions and types (a Ruby "private", a stray call): they take the
	// kind of the definitions around them. Statements among variables are
	// script code, which is mixed.
	aPlain := a.neutral || (a.kind == KindBlock && !isDataKind(b.kind))
	bPlain := b.neutral || (b.kind == KindBlock && !isDataKind(a.kind))
	switch {
	case aPlain && !bPlain:
		a.kind, a.neutral = b.kind, false
	case aPlain:
		a.neutral = a.neutral && b.neutral
	case !bPlain && b.kind != a.kind:
		a.kind = KindMixed
	}
	// Definitions decide the breadcrumb. One-line methods of different Go
	// receivers merge too: the run belongs to what their breadcrumbs share.
	switch {
	case !a.def && b.def:
		a.crumb = b.crumb
	case a.def && b.def:
		a.crumb = commonCrumb(a.crumb, b.crumb)
	}
	switch {
	case a.signature == "":
		a.signature = b.signature
	case b.signature != "":
		a.signature = clip(a.signature+"; "+b.signature, maxSignature)
	}
	switch {
	case a.doc == "":
		a.doc = b.doc
	case b.doc != "":
		a.doc += "\n\n" + b.doc
	}
	a.def = a.def || b.def
}

// signature is the definition's text up to its body, on one line, without
// leading annotation lines and trailing body openers.
func (c *syntaxChunker) signature(it item) string {
	if it.sig != "" {
		return clip(it.sig, maxSignature)
	}
	n := it.node
	startB, endB := n.StartByte(), n.EndByte()
	if it.sigFrom != nil && it.sigFrom.StartByte() > startB && it.sigFrom.StartByte() < endB {
		startB = it.sigFrom.StartByte()
	}
	for startB < endB && isSpace(c.src[startB]) {
		startB++
	}
	hasBody := it.body != nil && it.body.StartByte() > startB && it.body.StartByte() <= endB
	if hasBody {
		endB = it.body.StartByte()
	}
	// Whitespace collapses, so a few times the limit is plenty.
	endB = min(endB, startB+8*maxSignature)
	// A comment between the declaration and its body is not part of it.
	if endsWithComment(c.src[startB:endB]) || bytes.Contains(c.src[startB:endB], []byte("/*")) {
		for _, child := range c.named(n) {
			if c.spec.comments[child.Type()] && child.StartByte() > startB && child.StartByte() < endB {
				endB = child.StartByte()
				break
			}
		}
	}
	lines := strings.Split(string(c.src[startB:endB]), "\n")
	for len(lines) > 1 && isAnnotationLine(lines[0]) {
		lines = lines[1:]
	}
	if !hasBody {
		// No body: the first line says it all (a constant, an alias).
		lines = lines[:1]
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

// tightenBrackets undoes what joining a multi-line parameter list leaves:
// "( a, b, )" becomes "(a, b)".
var tightenBrackets = strings.NewReplacer("( ", "(", ", )", ")", " )", ")", "[ ", "[", " ]", "]")

// isAnnotationLine reports a line holding only a decorator or attribute:
// "@Override", "#[derive(Debug)]", "[HttpGet]".
func isAnnotationLine(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[") ||
		(strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]"))
}

// isMemberData reports the kinds that, inside a type, are part of its
// description rather than definitions of their own: fields, properties,
// associated constants and types.
func isMemberData(kind string) bool {
	return kind == KindVariable || kind == KindConstant || kind == KindType
}

// isDataKind reports kinds that declare data rather than code.
func isDataKind(kind string) bool {
	return kind == KindVariable || kind == KindConstant || kind == KindPreamble
}

// parseRepairing parses src, and src as s.repair rewrites it when the
// parse has errors, keeping the tree with fewer bytes in error; with
// repairFirst the rewrite is parsed first, and the original only when
// one error node of the rewrite's parse spans more than half the file
// (the grammar gave up on it: the one case where a rewrite was seen to
// read much worse than the original; a second parse of every file with
// some error left costs a third more CPU on macro-heavy C++). The rewrite keeps
// every byte offset, so nodes of either tree read the original text. It
// returns nil when src cannot be parsed.
func (s *langSpec) parseRepairing(src []byte) *sitter.Tree {
	if s.repair != nil && s.repairFirst {
		if fixed := s.repair(src); len(fixed) == len(src) && !bytes.Equal(fixed, src) {
			if tree, err := s.parse(fixed); err == nil && tree != nil {
				if largestError(tree.RootNode()) <= uint32(len(src)/2) {
					return tree
				}
				original, err := s.parse(src)
				if err != nil || original == nil {
					return tree
				}
				return fewerErrors(original, tree)
			}
		}
	}
	tree, err := s.parse(src)
	if err != nil || tree == nil {
		return nil
	}
	if s.repair == nil || s.repairFirst || !tree.RootNode().HasError() {
		return tree
	}
	fixed := s.repair(src)
	if len(fixed) != len(src) || bytes.Equal(fixed, src) {
		return tree // nothing the rewrite could read better
	}
	other, err := s.parse(fixed)
	if err != nil || other == nil {
		return tree
	}
	return fewerErrors(tree, other)
}

// fewerErrors returns whichever tree has fewer bytes in error, a if they
// tie, and closes the other.
func fewerErrors(a, b *sitter.Tree) *sitter.Tree {
	if errorBytes(b.RootNode()) < errorBytes(a.RootNode()) {
		a.Close()
		return b
	}
	b.Close()
	return a
}

// largestError returns the size in bytes of the largest error node under
// root (outermost ones only).
func largestError(root *sitter.Node) uint32 {
	var largest uint32
	eachError(root, func(n *sitter.Node) { largest = max(largest, n.EndByte()-n.StartByte()) })
	return largest
}

// errorBytes counts the bytes a tree covers with error nodes (outermost
// only), a missing node counting one.
func errorBytes(root *sitter.Node) uint32 {
	var total uint32
	eachError(root, func(n *sitter.Node) { total += max(n.EndByte()-n.StartByte(), 1) })
	return total
}

// eachError calls fn with each outermost error or missing node under
// root, in order, walking with a cursor and only into nodes that hold an
// error.
func eachError(root *sitter.Node, fn func(n *sitter.Node)) {
	cursor := sitter.NewTreeCursor(root)
	defer cursor.Close()
	for {
		node := cursor.CurrentNode()
		if node.IsError() || node.IsMissing() {
			fn(node)
		} else if node.HasError() && cursor.GoToFirstChild() {
			continue
		}
		for !cursor.GoToNextSibling() {
			if !cursor.GoToParent() {
				return
			}
		}
	}
}
