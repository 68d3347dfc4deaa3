package packages

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

// internalDep is a resolved dependency on the npm package at path name.
func internalDep(name, kind string) Dependency {
	return Dependency{Name: name, DepKind: kind, IsInternal: true, Target: &Ref{Kind: KindNPM, Path: name}}
}

// testGraph: a → b → c → a (a cycle), a → d (dev), b → ext (external),
// e → b, and a second package named "a" of another kind at a later path.
func testGraph() *Graph {
	return NewGraph([]Package{
		{Name: "e", Path: "e", Kind: KindNPM, Dependencies: []Dependency{internalDep("b", DepRuntime)}},
		{Name: "c", Path: "c", Kind: KindNPM, Dependencies: []Dependency{internalDep("a", DepPeer)}},
		{Name: "a", Path: "z-dup", Kind: KindPython, Metadata: map[string]any{"role": RoleFixture}},
		{Name: "a", Path: "a", Kind: KindNPM, Dependencies: []Dependency{
			internalDep("b", DepRuntime), internalDep("d", DepDev), internalDep("b", DepDev),
		}},
		{Name: "b", Path: "b", Kind: KindNPM, Dependencies: []Dependency{
			internalDep("c", DepRuntime), {Name: "ext", VersionReq: "^1", DepKind: DepRuntime},
		}},
		{Name: "d", Path: "d", Kind: KindNPM},
	})
}

func edge(from, to, kind string) Edge {
	return Edge{From: from, To: to, DepKind: kind, FromPath: from, ToPath: to}
}

func TestGraphFind(t *testing.T) {
	g := testGraph()
	p, err := g.Find(Query{Name: "a"})
	if err != nil || p.Path != "a" {
		t.Errorf("Find(a) = %+v, %v; want the package without a role", p, err)
	}
	if p, err := g.Find(Query{Name: "a", Kind: KindPython}); err != nil || p.Path != "z-dup" {
		t.Errorf("Find(a, python) = %+v, %v", p, err)
	}
	if p, err := g.Find(Query{Name: "a", Path: "./z-dup/"}); err != nil || p.Kind != KindPython {
		t.Errorf("Find(a, path z-dup) = %+v, %v", p, err)
	}
	if _, err := g.Find(Query{Name: "ext"}); errs.KindOf(err) != errs.NotFound {
		t.Errorf("Find(ext) found an external dependency: %v", err)
	}
	if got := len(g.Packages()); got != 6 {
		t.Errorf("Packages() has %d packages, want 6", got)
	}
}

func TestGraphDependencies(t *testing.T) {
	g := testGraph()
	_, all, err := g.Dependencies(Query{Name: "b"}, false)
	if err != nil || len(all) != 2 {
		t.Errorf("Dependencies(b, false) = %v, %v; want 2", all, err)
	}
	_, internal, err := g.Dependencies(Query{Name: "b"}, true)
	if err != nil || !reflect.DeepEqual(internal, []Dependency{internalDep("c", DepRuntime)}) {
		t.Errorf("Dependencies(b, true) = %v, %v", internal, err)
	}
	_, none, err := g.Dependencies(Query{Name: "d"}, false)
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
		_, got, err := g.Dependents(Query{Name: tc.name})
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
	// The python "a" shares the name but nobody depends on it.
	if _, got, err := g.Dependents(Query{Name: "a", Kind: KindPython}); err != nil || len(got) != 0 {
		t.Errorf("Dependents(python a) = %v, %v", got, err)
	}
}

func TestGraphEdges(t *testing.T) {
	g := testGraph()
	for _, tc := range []struct {
		root  string
		depth int
		want  []Edge
	}{
		{"a", 1, []Edge{edge("a", "b", DepDev), edge("a", "b", DepRuntime), edge("a", "d", DepDev)}},
		{"a", 0, []Edge{edge("a", "b", DepDev), edge("a", "b", DepRuntime), edge("a", "d", DepDev)}}, // clamped up to 1
		{"a", 2, []Edge{edge("a", "b", DepDev), edge("a", "b", DepRuntime), edge("a", "d", DepDev), edge("b", "c", DepRuntime)}},
		// The cycle c → a is listed once and not followed again.
		{"a", 100, []Edge{edge("a", "b", DepDev), edge("a", "b", DepRuntime), edge("a", "d", DepDev), edge("b", "c", DepRuntime), edge("c", "a", DepPeer)}},
		{"e", 20, []Edge{edge("e", "b", DepRuntime), edge("b", "c", DepRuntime), edge("c", "a", DepPeer), edge("a", "b", DepDev), edge("a", "b", DepRuntime), edge("a", "d", DepDev)}},
		{"d", 3, []Edge{}},
	} {
		_, got, err := g.Edges(Query{Name: tc.root}, tc.depth)
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
		"Find":         func() error { _, err := g.Find(Query{Name: "nope"}); return err },
		"Dependencies": func() error { _, _, err := g.Dependencies(Query{Name: "nope"}, false); return err },
		"Dependents":   func() error { _, _, err := g.Dependents(Query{Name: "nope"}); return err },
		"Edges":        func() error { _, _, err := g.Edges(Query{Name: "nope"}, 3); return err },
	}
	for name, call := range calls {
		err := call()
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.NotFound || e.Message != "Package 'nope' not found" || e.Code != "PACKAGE_NOT_FOUND" {
			t.Errorf("%s(nope) error = %#v, want NotFound \"Package 'nope' not found\"", name, err)
		}
	}
}

// TestGraphAmbiguousNames: a name several packages of the build share is
// answered with the candidates; kind or path chooses.
func TestGraphAmbiguousNames(t *testing.T) {
	g := NewGraph([]Package{
		{Name: "uv", Path: ".", Kind: KindPython, Manifest: "pyproject.toml"},
		{Name: "uv", Path: "crates/uv", Kind: KindCargo, Manifest: "crates/uv/Cargo.toml"},
		{Name: "uv", Path: "test/fake-uv", Kind: KindPython, Manifest: "test/fake-uv/pyproject.toml", Metadata: map[string]any{"role": RoleFixture}},
	})
	_, err := g.Find(Query{Name: "uv"})
	e, ok := errs.As(err)
	if !ok || e.Code != errs.CodePackageAmbiguous || e.Kind != errs.Invalid {
		t.Fatalf("Find(uv) error = %#v, want PACKAGE_AMBIGUOUS", err)
	}
	wantMsg := "Package 'uv' is ambiguous: 3 packages have that name (python ., cargo crates/uv, python test/fake-uv (fixture)); give kind or path to choose"
	if e.Message != wantMsg {
		t.Errorf("message = %q\nwant      %q", e.Message, wantMsg)
	}
	wantCandidates := []Candidate{
		{Kind: KindPython, Path: ".", Manifest: "pyproject.toml"},
		{Kind: KindCargo, Path: "crates/uv", Manifest: "crates/uv/Cargo.toml"},
		{Kind: KindPython, Path: "test/fake-uv", Manifest: "test/fake-uv/pyproject.toml", Role: RoleFixture},
	}
	if got := e.Details["candidates"]; !reflect.DeepEqual(got, wantCandidates) {
		t.Errorf("candidates = %+v", got)
	}
	for _, tc := range []struct {
		q    Query
		want string // path, or the start of the error message
	}{
		{Query{Name: "uv", Kind: KindCargo}, "crates/uv"},
		{Query{Name: "uv", Path: "crates/uv/Cargo.toml"}, "crates/uv"},
		{Query{Name: "uv", Kind: KindPython}, "."}, // the fixture does not count against the project
		{Query{Name: "uv", Kind: KindPython, Path: "test/fake-uv"}, "test/fake-uv"},
		{Query{Name: "uv", Kind: KindNPM}, "Package 'uv' not found of kind 'npm'; packages of that name: python ., cargo crates/uv, python test/fake-uv (fixture)"},
		{Query{Name: "uv", Path: "nowhere"}, "Package 'uv' not found at path 'nowhere'"},
	} {
		p, err := g.Find(tc.q)
		got := p.Path
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("Find(%+v) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

// TestGraphOverFixture runs the graph over the fixture monorepo, whose npm
// packages @acme/ui and @acme/utils depend on each other.
func TestGraphOverFixture(t *testing.T) {
	pkgs, _ := Build(loadFixture(t, "monorepo"))
	g := NewGraph(pkgs)
	_, edges, err := g.Edges(Query{Name: "web"}, 20)
	if err != nil {
		t.Fatal(err)
	}
	want := []Edge{
		{"web", "@acme/ui", DepRuntime, "apps/web", "packages/ui"},
		{"@acme/ui", "@acme/utils", DepRuntime, "packages/ui", "packages/utils"},
		{"@acme/utils", "@acme/ui", DepRuntime, "packages/utils", "packages/ui"},
	}
	if !reflect.DeepEqual(edges, want) {
		t.Errorf("Edges(web) = %v, want %v", edges, want)
	}
	_, dependents, err := g.Dependents(Query{Name: "@acme/ui"})
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
	_, edges, err = g.Edges(Query{Name: "Acme.Tests"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edge{{"Acme.Tests", "AcmeApi", DepDev, "dotnet/Acme.Tests", "dotnet/Acme.Api"}, {"AcmeApi", "Acme.Core", DepRuntime, "dotnet/Acme.Api", "dotnet/Acme.Core"}}; !reflect.DeepEqual(edges, want) {
		t.Errorf("Edges(Acme.Tests) = %v, want %v", edges, want)
	}
}
