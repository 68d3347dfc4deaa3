package chunk

import (
	"context"
	"strings"
	"sync"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
)

// defRule says what a node type defines.
type defRule struct {
	kind      string
	container bool // its body holds members that may become chunks of their own
}

// langSpec is what the chunker knows about one grammar. Most node types are
// handled by the tables; custom handles the rest (wrappers, names that live
// in odd places, constructs that are calls in the grammar).
type langSpec struct {
	grammar *sitter.Language
	pool    sync.Pool
	lang    string // the language's name, as lang.Detect gives it
	// parseLock, when set, lets one parse of the grammar run at a time:
	// its external scanner keeps its state in C globals, so parses on
	// two threads corrupt each other's trees.
	parseLock *sync.Mutex

	comments   map[string]bool    // comment node types
	attributes map[string]bool    // decorator/attribute nodes standing before a definition
	preamble   map[string]bool    // package clauses, imports, includes
	defs       map[string]defRule // definitions handled by the default rules
	bodies     map[string]bool    // body node types, for definitions without a "body" field
	// flatten lists wrapper nodes whose children are chunked as if they
	// were siblings of the wrapper (preprocessor conditionals, enum body
	// declarations).
	flatten map[string]bool
	// flattenBody lists wrappers that are bare bodies (Python's block,
	// which starts at its first statement): their children are spliced
	// in whole.
	flattenBody map[string]bool
	// moduleMethods makes functions in a module methods (Ruby mixins).
	moduleMethods bool
	// attributeDoc extracts documentation held by an attribute node
	// (Elixir's @doc); nil when attributes carry none.
	attributeDoc func(c *syntaxChunker, n *sitter.Node) string
	// custom classifies nodes the tables cannot; ok false defers to them.
	custom func(c *syntaxChunker, n *sitter.Node) (it item, ok bool)
	// repair, when set, rewrites a source whose parse has errors into one
	// of the same length that the grammar may read better (Lua's doc
	// annotations as plain comments); the rewritten parse is kept when it
	// has fewer bytes in error. Text is still read from the original.
	repair func(src []byte) []byte
	// repairFirst parses the repaired source first, and the original too
	// only when the repaired parse has much in error: for languages
	// whose files mostly parse with errors (C and C++, for their
	// macros), so that most files are parsed once.
	repairFirst bool
	// unwrapMacros parses the items written inside item-position macro
	// invocations (Rust's `cfg_rt! { pub fn … }`) as items
	// (unwrapItemMacros).
	unwrapMacros bool
}

// parse parses src with a parser from the pool, one parse at a time for
// a grammar with a parseLock.
func (s *langSpec) parse(src []byte) (*sitter.Tree, error) {
	return s.reparse(nil, src)
}

// reparse parses src reusing the unchanged parts of old, a tree of an
// earlier version of src edited to match it (nil: none).
func (s *langSpec) reparse(old *sitter.Tree, src []byte) (*sitter.Tree, error) {
	parser := s.parser()
	if s.parseLock != nil {
		s.parseLock.Lock()
		defer s.parseLock.Unlock()
	}
	tree, err := parser.ParseCtx(context.Background(), old, src)
	if err != nil || tree == nil {
		// A timed-out parser keeps partial state; it is dropped, not pooled.
		parser.Close()
		return nil, err
	}
	s.pool.Put(parser)
	return tree, nil
}

// parser takes a parser for the grammar from the pool.
func (s *langSpec) parser() *sitter.Parser {
	if p, ok := s.pool.Get().(*sitter.Parser); ok {
		return p
	}
	p := sitter.NewParser()
	p.SetLanguage(s.grammar)
	p.SetOperationLimit(parseTimeoutUS)
	return p
}

// classify says what n is.
func (s *langSpec) classify(c *syntaxChunker, n *sitter.Node) item {
	t := n.Type()
	switch {
	case s.comments[t]:
		return item{role: roleComment}
	case s.attributes[t]:
		return item{role: roleAttribute}
	case s.preamble[t]:
		return item{role: roleOther, kind: KindPreamble, noSignature: true}
	}
	if s.custom != nil {
		if it, ok := s.custom(c, n); ok {
			return it
		}
	}
	if r, ok := s.defs[t]; ok {
		return c.define(n, r.kind, r.container)
	}
	return item{role: roleOther, kind: KindBlock, noSignature: true}
}

// define describes a definition node with the default name and body.
func (c *syntaxChunker) define(n *sitter.Node, kind string, container bool) item {
	it := item{role: roleDef, kind: kind, container: container, node: n, body: c.bodyOf(n)}
	if name := c.nameOf(n); name != "" {
		it.names = []string{name}
	}
	return it
}

// identifierTypes are node types that can name a definition.
var identifierTypes = []string{
	"identifier", "type_identifier", "simple_identifier", "constant",
	"property_identifier", "field_identifier", "name", "word", "alias",
	"scope_resolution", "namespace_identifier",
}

func (c *syntaxChunker) nameOf(n *sitter.Node) string {
	if name := n.ChildByFieldName("name"); name != nil {
		return c.text(name)
	}
	return c.text(c.childOfType(n, identifierTypes...))
}

func (c *syntaxChunker) bodyOf(n *sitter.Node) *sitter.Node {
	if body := n.ChildByFieldName("body"); body != nil {
		return body
	}
	for _, child := range c.named(n) {
		if c.spec.bodies[child.Type()] {
			return child
		}
	}
	return nil
}

// members lists the chunkable children of a body, splicing in the children
// of flattened wrappers (minus what sits on the wrapper's first line, such
// as a preprocessor condition).
func (c *syntaxChunker) members(body *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for _, n := range c.named(body) {
		if c.spec.flattenBody[n.Type()] {
			out = append(out, c.members(n)...)
			continue
		}
		if c.spec.flatten[n.Type()] {
			row := c.startRow(n)
			for _, inner := range c.members(n) {
				if c.startRow(inner) == row && !c.spec.flatten[inner.Type()] {
					continue
				}
				out = append(out, inner)
			}
			continue
		}
		out = append(out, n)
	}
	return out
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// isConstantName reports names written as constants: UPPER_CASE.
func isConstantName(name string) bool {
	hasLetter := false
	for _, r := range name {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			hasLetter = true
		}
	}
	return hasLetter
}

// lastSegment returns the part of a qualified name after its last
// separator ("a::b::c" → "c", "M.f" → "f") and what comes before it.
func lastSegment(name string, seps ...string) (scope, last string) {
	cut := -1
	width := 0
	for _, sep := range seps {
		if i := strings.LastIndex(name, sep); i > cut {
			cut, width = i, len(sep)
		}
	}
	if cut < 0 {
		return "", name
	}
	return name[:cut], name[cut+width:]
}

// descendantOfType finds the first node of one of the types in a
// depth-first walk of n's named descendants, at most depth levels down.
func (c *syntaxChunker) descendantOfType(n *sitter.Node, depth int, types ...string) *sitter.Node {
	if n == nil || depth < 0 {
		return nil
	}
	for _, child := range c.named(n) {
		for _, t := range types {
			if child.Type() == t {
				return child
			}
		}
		if found := c.descendantOfType(child, depth-1, types...); found != nil {
			return found
		}
	}
	return nil
}
