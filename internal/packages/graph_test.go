package packages

import (
	"reflect"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func internalDep(name, kind string) Dependency {
	return Dependency{Name: name, DepKind: kind, IsInternal: true}
}

// testGraph: a → b → c → a (a cycle), a → d (dev), b → ext (external),
// e → b, and a second package named "a" of another kind at a later path.
func testGraph() *Graph {
	return NewGraph([]Package{
		{Name: "e", Path: "e", Kind: KindNPM, Dependencies: []Dependency{internalDep("b", DepRuntime)}},
		{Name: "c", Path: "c", Kind: KindNPM, Dependencies: []Dependency{internalDep("a", DepPeer)}},
		{Name: "a", Path: "z-dup", Kind: KindPython},
		{Name: "a", Path: "a", Kind: KindNPM, Dependencies: []Dependency{
			internalDep("b", DepRuntime), internalDep("d", DepDev), internalDep("b", DepDev),
		}},
		{Name: "b", Path: "b", Kind: KindNPM, Dependencies: []Dependency{
			internalDep("c", DepRuntime), {Name: "ext", VersionReq: "^1", DepKind: DepRuntime},
		}},
		{Name: "d", Path: "d", Kind: KindNPM},
	})
}

func TestGraphGet(t *testing.T) {
	g := testGraph()
	p, ok := g.Get("a")
	if !ok || p.Path != "a" {
		t.Errorf("Get(a) = %+v, %v; want the package at path a (first by path)", p, ok)
	}
	if _, ok := g.Get("ext"); ok {
		t.Error("Get(ext) found an external dependency")
	}
	if got := len(g.Packages()); got != 6 {
		t.Errorf("Packages() has %d packages, want 6", got)
	}
}

func TestGraphDependencies(t *testing.T) {
	g := testGraph()
	all, err := g.Dependencies("b", false)
	if err != nil || len(all) != 2 {
		t.Errorf("Dependencies(b, false) = %v, %v; want 2", all, err)
	}
	internal, err := g.Dependencies("b", true)
	if err != nil || !reflect.DeepEqual(internal, []Dependency{internalDep("c", DepRuntime)}) {
		t.Errorf("Dependencies(b, true) = %v, %v", internal, err)
	}
	none, err := g.Dependencies("d", false)
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("Dependencies(d) = %#v, %v; want an empty non-nil slice", none, err)
	}
}

func TestGraphDependents(t *testing.T) {
	g := testGraph()
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"b", []string{"a", "e"}}, // a depends on b twice: listed once
		{"a", []string{"c"}},
		{"e", []string{}},
	} {
		got, err := g.Dependents(tc.name)
		if err != nil {
			t.Fatalf("Dependents(%s): %v", tc.name, err)
		}
		names := []string{}
		for _, p := range got {
			names = append(names, p.Name)
		}
		if !reflect.DeepEqual(names, tc.want) {
			t.Errorf("Dependents(%s) = %v, want %v", tc.name, names, tc.want)
		}
	}
}

func TestGraphEdges(t *testing.T) {
	g := testGraph()
	for _, tc := range []struct {
		root  string
		depth int
		want  []Edge
	}{
		{"a", 1, []Edge{{"a", "b", DepDev}, {"a", "b", DepRuntime}, {"a", "d", DepDev}}},
		{"a", 0, []Edge{{"a", "b", DepDev}, {"a", "b", DepRuntime}, {"a", "d", DepDev}}}, // clamped up to 1
		{"a", 2, []Edge{{"a", "b", DepDev}, {"a", "b", DepRuntime}, {"a", "d", DepDev}, {"b", "c", DepRuntime}}},
		// The cycle c → a is listed once and not followed again.
		{"a", 100, []Edge{{"a", "b", DepDev}, {"a", "b", DepRuntime}, {"a", "d", DepDev}, {"b", "c", DepRuntime}, {"c", "a", DepPeer}}},
		{"e", 20, []Edge{{"e", "b", DepRuntime}, {"b", "c", DepRuntime}, {"c", "a", DepPeer}, {"a", "b", DepDev}, {"a", "b", DepRuntime}, {"a", "d", DepDev}}},
		{"d", 3, []Edge{}},
	} {
		got, err := g.Edges(tc.root, tc.depth)
		if err != nil {
			t.Fatalf("Edges(%s, %d): %v", tc.root, tc.depth, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Edges(%s, %d) =\n%v\nwant\n%v", tc.root, tc.depth, got, tc.want)
		}
	}
}

func TestGraphUnknownPackage(t *testing.T) {
	g := testGraph()
	calls := map[string]func() error{
		"Dependencies": func() error { _, err := g.Dependencies("nope", false); return err },
		"Dependents":   func() error { _, err := g.Dependents("nope"); return err },
		"Edges":        func() error { _, err := g.Edges("nope", 3); return err },
	}
	for name, call := range calls {
		err := call()
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.NotFound || e.Message != "Package 'nope' not found" || e.Code != "PACKAGE_NOT_FOUND" {
			t.Errorf("%s(nope) error = %#v, want NotFound \"Package 'nope' not found\"", name, err)
		}
	}
}

// TestGraphOverFixture runs the graph over the fixture monorepo, whose npm
// packages @acme/ui and @acme/utils depend on each other.
func TestGraphOverFixture(t *testing.T) {
	pkgs, _ := Build(loadFixture(t, "monorepo"))
	g := NewGraph(pkgs)
	edges, err := g.Edges("web", 20)
	if err != nil {
		t.Fatal(err)
	}
	want := []Edge{
		{"web", "@acme/ui", DepRuntime},
		{"@acme/ui", "@acme/utils", DepRuntime},
		{"@acme/utils", "@acme/ui", DepRuntime},
	}
	if !reflect.DeepEqual(edges, want) {
		t.Errorf("Edges(web) = %v, want %v", edges, want)
	}
	dependents, err := g.Dependents("@acme/ui")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range dependents {
		names = append(names, p.Name)
	}
	if want := []string{"@acme/utils", "site", "web"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Dependents(@acme/ui) = %v, want %v", names, want)
	}
	edges, err = g.Edges("Acme.Tests", 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edge{{"Acme.Tests", "AcmeApi", DepDev}, {"AcmeApi", "Acme.Core", DepRuntime}}; !reflect.DeepEqual(edges, want) {
		t.Errorf("Edges(Acme.Tests) = %v, want %v", edges, want)
	}
}
