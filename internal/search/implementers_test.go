package search

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lore-dev/lore/internal/testtree"
)

// TestLoadImplementers indexes a small tree with real tree-sitter and
// checks the edges read from the symbol graph: Go's structural
// implementation within a package, Java's implements and extends.
func TestLoadImplementers(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"router/chi.go":     "package router\n\n// Router routes.\ntype Router interface {\n\tHandle(pattern string, h int)\n\tRoutes() []string\n}\n",
		"router/mux.go":     "package router\n\n// Mux is the router.\ntype Mux struct{ routes []string }\n\nfunc (m *Mux) Handle(pattern string, h int) { m.routes = append(m.routes, pattern) }\n\nfunc (m *Mux) Routes() []string { return m.routes }\n",
		"router/half.go":    "package router\n\ntype Half struct{}\n\nfunc (Half) Routes() []string { return nil }\n",
		"other/mux.go":      "package other\n\ntype Mux struct{}\n\nfunc (Mux) Handle(pattern string, h int) {}\n\nfunc (Mux) Routes() []string { return nil }\n",
		"java/Shape.java":   "interface Shape { double area(); }\n",
		"java/Square.java":  "class Square implements Shape { public double area() { return 1; } }\n",
		"java/Base.java":    "abstract class Base {}\n",
		"java/Derived.java": "class Derived extends Base {}\n",
	})
	idx := filepath.Join(t.TempDir(), "index.db")
	indexAt(t, root, idx)
	eng, err := openTestEngine(t, idx)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := eng.load(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	// A cancelled search fails without spoiling the snapshot for the next.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := snap.implementersOf(cancelled, eng.st); err == nil {
		t.Error("implementersOf with a cancelled context did not fail")
	}
	impl, err := snap.implementersOf(context.Background(), eng.st)
	if err != nil {
		t.Fatal(err)
	}
	pathsOf := func(name string) []string {
		var out []string
		for _, s := range impl[name] {
			out = append(out, snap.files[s].Path)
		}
		slices.Sort(out)
		return out
	}
	for name, want := range map[string][]string{
		// Half lacks Handle; other/mux.go is another package.
		"Router": {"router/mux.go"},
		"Shape":  {"java/Square.java"},
		"Base":   {"java/Derived.java"},
		"Mux":    nil,
	} {
		if got := pathsOf(name); !slices.Equal(got, want) {
			t.Errorf("implementers of %s = %v, want %v", name, got, want)
		}
	}
	// A symbol query for the interface lifts its one implementation.
	muxScore := func() float64 {
		resp, err := eng.Search(context.Background(), Options{Query: "Router", Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.Results {
			if r.Path == "router/mux.go" {
				return r.Score
			}
		}
		t.Fatal("Router: router/mux.go not found")
		return 0
	}
	on := muxScore()
	saved := weights.implementer
	weights.implementer = 0
	off := muxScore()
	weights.implementer = saved
	if on <= off {
		t.Errorf("Router: router/mux.go scores %v with the implementer signal, %v without", on, off)
	}
}
