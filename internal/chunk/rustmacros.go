package chunk

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// Rust crates often write items inside a macro invocation: tokio's
// `cfg_rt! { pub fn spawn_blocking … }`, `pin_project! { pub struct … }`,
// `cfg_if!`-style feature gates. The grammar reads a macro's body as a
// token tree, so without help those functions and types are neither
// chunks of their own nor symbols, and the calls inside them are no
// references. unwrapItemMacros blanks such an invocation's name, its
// `!` and its braces, so that the items inside parse as items where the
// invocation stands. Offsets are kept, so text is still read from the
// original source.

// macroSpan is an item-position macro invocation with a brace body:
// from the start of its name through its opening brace, and its closing
// brace.
type macroSpan struct {
	start, open, close       uint32
	startAt, openAt, closeAt sitter.Point
}

// unwrapItemMacros returns the tree of src with the item-position macro
// invocations whose bodies are items unwrapped (see the comment above),
// nested ones included, or tree itself when there are none. A macro
// whose body does not parse as items (`bitflags! { struct F: u8 { … } }`)
// is left as the grammar read it. It takes ownership of tree.
func (s *langSpec) unwrapItemMacros(src []byte, tree *sitter.Tree) *sitter.Tree {
	spans := itemMacros(tree.RootNode())
	if len(spans) == 0 {
		return tree
	}
	before := errorBytes(tree.RootNode())
	next := s.parseUnwrapped(src, tree, spans)
	if next == nil {
		return tree
	}
	if errorBytes(next.RootNode()) > before {
		// Keep the macros whose bodies read as items; undo the rest.
		spans = withoutErrors(spans, errorRanges(next.RootNode()))
		next.Close()
		if len(spans) == 0 {
			return tree
		}
		if next = s.parseUnwrapped(src, tree, spans); next == nil {
			return tree
		}
		if errorBytes(next.RootNode()) > before {
			next.Close()
			return tree
		}
	}
	tree.Close()
	return next
}

// parseUnwrapped parses a copy of src with spans blanked, reusing what
// it can of tree, src's own parse: what lies outside the macros.
func (s *langSpec) parseUnwrapped(src []byte, tree *sitter.Tree, spans []macroSpan) *sitter.Tree {
	fixed := append([]byte(nil), src...)
	blankMacros(fixed, spans)
	old := tree.Copy()
	defer old.Close()
	for _, m := range spans {
		// Blanking keeps lengths and line breaks: each edit ends where it
		// ended before.
		openEnd := sitter.Point{Row: m.openAt.Row, Column: m.openAt.Column + 1}
		old.Edit(sitter.EditInput{StartIndex: m.start, OldEndIndex: m.open + 1, NewEndIndex: m.open + 1,
			StartPoint: m.startAt, OldEndPoint: openEnd, NewEndPoint: openEnd})
		closeEnd := sitter.Point{Row: m.closeAt.Row, Column: m.closeAt.Column + 1}
		old.Edit(sitter.EditInput{StartIndex: m.close, OldEndIndex: m.close + 1, NewEndIndex: m.close + 1,
			StartPoint: m.closeAt, OldEndPoint: closeEnd, NewEndPoint: closeEnd})
	}
	next, err := s.reparse(old, fixed)
	if err != nil {
		return nil
	}
	return next
}

// blankMacros blanks, in place, each span's name, `!` and braces,
// keeping line breaks.
func blankMacros(src []byte, spans []macroSpan) {
	for _, m := range spans {
		blankKeepingBreaks(src[m.start : m.open+1])
		src[m.close] = ' '
	}
}

// itemMacros lists the macro invocations with a brace body of items
// that stand where an item may: at the top of the file and in the bodies
// of modules, impls, traits and extern blocks, and, nested, at an item's
// place inside such a body.
func itemMacros(root *sitter.Node) []macroSpan {
	var out []macroSpan
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		for _, child := range children(n) {
			switch child.Type() {
			case "macro_invocation":
				if m, body, ok := braceMacro(child); ok {
					if tokens := children(body); startsWithItem(tokens) {
						out = append(out, m)
						out = nestedMacros(tokens, out)
					}
				}
			case "mod_item", "impl_item", "trait_item", "foreign_mod_item":
				if body := child.ChildByFieldName("body"); body != nil {
					visit(body)
				}
			}
		}
	}
	visit(root)
	return out
}

// children returns all children of n in order, read in one call into
// tree-sitter (childNodes).
func children(n *sitter.Node) []*sitter.Node {
	return childNodes(n, false)
}

// braceMacro reports the span of an invocation `name! { … }` (the name
// possibly a path) and its body; `name!(…)` and `name![…]` are
// expressions or statements, not item lists.
func braceMacro(n *sitter.Node) (macroSpan, *sitter.Node, bool) {
	body := n.ChildByFieldName("body")
	if body == nil {
		// Grammars without the field: the token tree is the last child.
		if last := n.NamedChild(int(n.NamedChildCount()) - 1); last != nil && last.Type() == "token_tree" {
			body = last
		}
	}
	if body == nil || body.Type() != "token_tree" {
		return macroSpan{}, nil, false
	}
	return braceSpan(n.StartByte(), n.StartPoint(), body)
}

// braceSpan is the span from start through body's braces, when body is
// a token tree in braces.
func braceSpan(start uint32, startAt sitter.Point, body *sitter.Node) (macroSpan, *sitter.Node, bool) {
	if body.ChildCount() < 2 {
		return macroSpan{}, nil, false
	}
	// A token tree that starts with "{" ends with "}" unless the parse
	// is missing it.
	last := body.Child(int(body.ChildCount()) - 1)
	if body.Child(0).Type() != "{" || last.Type() != "}" || last.IsMissing() {
		return macroSpan{}, nil, false
	}
	return macroSpan{start: start, open: body.StartByte(), close: last.StartByte(),
		startAt: startAt, openAt: body.StartPoint(), closeAt: last.StartPoint()}, body, true
}

// itemKeywords are the tokens an item can begin with.
var itemKeywords = set("pub", "fn", "struct", "enum", "union", "impl", "use", "mod", "const", "static",
	"type", "trait", "unsafe", "async", "extern")

// startsWithItem reports whether a brace token tree's first token, past
// comments and attributes, begins an item or a nested macro invocation:
// a cheap test that spares a parse for macros whose bodies are argument
// lists (`impl_num! { i8, i16 }`).
func startsWithItem(tokens []*sitter.Node) bool {
	for i := 1; i < len(tokens)-1; i++ {
		t := tokens[i]
		switch typ := t.Type(); {
		case typ == "line_comment" || typ == "block_comment":
		case typ == "#" && i+1 < len(tokens) && tokens[i+1].Type() == "token_tree":
			i++ // an attribute: #[…]
		case itemKeywords[typ]:
			return true
		case typ == "identifier":
			return i+1 < len(tokens) && tokens[i+1].Type() == "!"
		default:
			return false
		}
	}
	return false
}

// nestedMacros appends the brace macros of items that stand at an item's
// place among tokens, the children of an unwrapped body: first, or after
// an item's end (";" or a closing brace), a comment or an attribute.
func nestedMacros(tokens []*sitter.Node, out []macroSpan) []macroSpan {
	atItem := true
	for i := 1; i < len(tokens)-1; i++ {
		t := tokens[i]
		typ := t.Type()
		if typ == "line_comment" || typ == "block_comment" {
			continue
		}
		if atItem && typ == "identifier" && i+2 < len(tokens)-1 && tokens[i+1].Type() == "!" && tokens[i+2].Type() == "token_tree" {
			if m, body, ok := braceSpan(t.StartByte(), t.StartPoint(), tokens[i+2]); ok {
				if inner := children(body); startsWithItem(inner) {
					out = append(out, m)
					out = nestedMacros(inner, out)
					i += 2
					continue
				}
			}
		}
		switch {
		case typ == ";":
			atItem = true
		case typ == "token_tree":
			// After a body in braces, or an attribute's brackets.
			first := t.Child(0)
			atItem = first != nil && (first.Type() == "{" || first.Type() == "[" && i > 0 && tokens[i-1].Type() == "#")
		default:
			atItem = false
		}
	}
	return out
}

// errorRanges lists the byte ranges of a tree's outermost error and
// missing nodes.
func errorRanges(root *sitter.Node) [][2]uint32 {
	var out [][2]uint32
	eachError(root, func(n *sitter.Node) {
		out = append(out, [2]uint32{n.StartByte(), max(n.EndByte(), n.StartByte()+1)})
	})
	return out
}

// withoutErrors keeps the spans no error range overlaps.
func withoutErrors(spans []macroSpan, errs [][2]uint32) []macroSpan {
	kept := spans[:0:0]
	for _, m := range spans {
		clean := true
		for _, e := range errs {
			if e[0] <= m.close && e[1] > m.start {
				clean = false
				break
			}
		}
		if clean {
			kept = append(kept, m)
		}
	}
	return kept
}
