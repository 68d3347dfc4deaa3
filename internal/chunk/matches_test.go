package chunk

import (
	"context"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/lore-dev/lore/internal/lang"
)

// TestRawMatches checks matches against the binding's NextMatch on every
// fixture and synthetic file: the same matches in the same order, each
// capture with the same index, bytes and node.
func TestRawMatches(t *testing.T) {
	for _, in := range benchInputs(t) {
		if !lang.HasGrammar(in.language) {
			continue
		}
		spec := specs[in.language]
		q, err := tagsFor(in.language, spec.grammar)
		if err != nil || q == nil {
			continue
		}
		parser := sitter.NewParser()
		parser.SetLanguage(spec.grammar)
		tree, err := parser.ParseCtx(context.Background(), nil, in.src)
		if err != nil {
			t.Fatal(err)
		}
		root := tree.RootNode()
		var want []rawCapture
		var wantNodes []*sitter.Node
		cursor := sitter.NewQueryCursor()
		cursor.Exec(q.query, root)
		for {
			m, ok := cursor.NextMatch()
			if !ok {
				break
			}
			for i, c := range m.Captures {
				want = append(want, rawCapture{pattern: m.PatternIndex, first: i == 0, index: c.Index, at: spanOf(c.Node)})
				wantNodes = append(wantNodes, c.Node)
			}
		}
		cursor.Close()
		got := matches(q.query, root)
		if len(got) != len(want) {
			t.Fatalf("%s: %d captures, the binding reads %d", in.name, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			g.node = w.node
			if g != w {
				t.Fatalf("%s: capture %d is %+v, the binding reads %+v", in.name, i, g, w)
			}
			// The node made from the raw one is the binding's node.
			n := nodeOf(root, got[i].node)
			if n.ID() != wantNodes[i].ID() || n.Type() != wantNodes[i].Type() || spanOf(n) != w.at {
				t.Fatalf("%s: capture %d: node %s at %v, the binding's %s", in.name, i, n.Type(), spanOf(n), wantNodes[i].Type())
			}
		}
		if len(got) == 0 {
			t.Errorf("%s: no matches", in.name)
		}
		tree.Close()
		parser.Close()
	}
}
