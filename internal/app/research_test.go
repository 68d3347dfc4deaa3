package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/testtree"
)

// TestResearchGraphPerGeneration: the graph is built once per generation
// of the index; a new run that changes a file gives a new graph with the
// change; a cancelled call returns CANCELLED at once.
func TestResearchGraphPerGeneration(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod":    "module example.com/demo\n\ngo 1.22\n",
		"a/a.go":    "package a\n\n// Run calls helper.\nfunc Run() { helper() }\n\nfunc helper() {}\n",
		"a/more.go": "package a\n\n// Other calls nothing.\nfunc Other() {}\n",
	})
	a := New(Options{IndexFor: IndexUnder(t.TempDir())})
	t.Cleanup(func() { a.Close() })
	if _, err := a.Index(ctx, IndexRequest{Root: root}); err != nil {
		t.Fatal(err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err := a.Research(cancelled, ResearchRequest{Root: root, Query: "what calls helper"})
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeCancelled {
		t.Fatalf("a cancelled research: %v, want CANCELLED", err)
	}

	first, err := a.ResearchGraph(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := a.ResearchGraph(ctx, root); again != first {
		t.Error("the same generation built its graph twice")
	}
	res, err := a.Research(ctx, ResearchRequest{Root: root, Query: "what calls helper", Depth: 1})
	if err != nil || len(res.Nodes) != 2 || res.Nodes[1].Symbol != "Run" {
		t.Fatalf("callers of helper: %+v, %v", res, err)
	}

	if err := os.WriteFile(filepath.Join(root, "a", "more.go"), []byte("package a\n\n// Other calls helper too.\nfunc Other() { helper() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Index(ctx, IndexRequest{Root: root, Force: true}); err != nil {
		t.Fatal(err)
	}
	if g, _ := a.ResearchGraph(ctx, root); g == first {
		t.Error("a new generation kept the old graph")
	}
	res, err = a.Research(ctx, ResearchRequest{Root: root, Query: "what calls helper", Depth: 1})
	if err != nil || len(res.Nodes) != 3 {
		t.Fatalf("after the change, callers of helper: %+v, %v", res, err)
	}
}
