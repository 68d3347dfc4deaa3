package research

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/chunk"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/lang"
	"github.com/lore-dev/lore/internal/packages"
)

// loadTree parses every file under dir as the indexer does (one parse for
// chunks and symbols) and builds the graph, with the packages of its
// manifests.
func loadTree(t testing.TB, dir string) *Graph {
	t.Helper()
	var files []File
	var manifests []packages.Manifest
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if packages.IsManifest(rel) {
			manifests = append(manifests, packages.Manifest{Path: rel, Data: src})
		}
		language := lang.Detect(rel, src)
		if !lang.HasGrammar(language) {
			return nil
		}
		_, syms := chunk.Analyze(rel, language, src)
		files = append(files, File{Path: rel, Language: language, Symbols: syms})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pkgs, _ := packages.Build(manifests)
	return NewGraph(files, pkgs)
}

// research runs a request over a graph, failing the test on error.
func research(t testing.TB, g *Graph, query string, depth int, focus string) *Result {
	t.Helper()
	res, err := Run(context.Background(), g, Request{Query: query, Depth: depth, Focus: focus})
	if err != nil {
		t.Fatalf("%q depth %d: %v", query, depth, err)
	}
	return res
}

// symbolsAt lists the symbols of the nodes at a depth, sorted.
func symbolsAt(res *Result, depth int) []string {
	var out []string
	for _, n := range res.Nodes {
		if n.Depth == depth {
			out = append(out, n.Symbol)
		}
	}
	slices.Sort(out)
	return out
}

// chainSymbols writes each chain as its symbols joined by " → ".
func chainSymbols(res *Result) []string {
	names := map[string]string{}
	for _, n := range res.Nodes {
		names[n.ID] = n.Symbol
	}
	var out []string
	for _, c := range res.Chains {
		var parts []string
		for _, id := range c {
			parts = append(parts, names[id])
		}
		out = append(out, strings.Join(parts, " → "))
	}
	return out
}

// chainFixtures are the call chain main → route → login handler →
// authenticate in each language family, with each language's names.
var chainFixtures = []struct {
	dir                              string
	main, route, login, authenticate string
}{
	{"go", "main", "Route", "HandleLogin", "authenticate"},
	{"python", "main", "route", "handle_login", "authenticate"},
	{"typescript", "main", "route", "handleLogin", "authenticate"},
	{"java", "main", "route", "handleLogin", "authenticate"},
	{"rust", "main", "route", "handle_login", "authenticate"},
	{"swift", "main", "route", "handleLogin", "authenticate"},
	{"ruby", "main", "route", "handle_login", "authenticate"},
	{"c", "main", "route", "handle_login", "authenticate"},
}

// TestCallChains: "what calls authenticate()" with depth 2 returns the
// login handler and the router, not main; depth 3 adds main and the whole
// chain; callees walk the chain the other way.
func TestCallChains(t *testing.T) {
	for _, fx := range chainFixtures {
		t.Run(fx.dir, func(t *testing.T) {
			g := loadTree(t, filepath.Join("testdata", "chains", fx.dir))
			q := "what calls " + fx.authenticate + "()"

			res := research(t, g, q, 2, "")
			if res.Intent != IntentCallers || len(res.Targets) != 1 || res.Targets[0].Symbol != fx.authenticate {
				t.Fatalf("intent %s, targets %+v", res.Intent, res.Targets)
			}
			if got := symbolsAt(res, 1); !slices.Equal(got, []string{fx.login}) {
				t.Errorf("depth 2, first hop: %v, want [%s]", got, fx.login)
			}
			if got := symbolsAt(res, 2); !slices.Equal(got, []string{fx.route}) {
				t.Errorf("depth 2, second hop: %v, want [%s]", got, fx.route)
			}
			if len(res.Nodes) != 3 {
				t.Errorf("depth 2 found %d nodes, want 3 (no %s): %+v", len(res.Nodes), fx.main, res.Nodes)
			}
			if want := fx.route + " → " + fx.login + " → " + fx.authenticate; !slices.Contains(chainSymbols(res), want) {
				t.Errorf("depth 2 chains %v, want %q", chainSymbols(res), want)
			}

			res = research(t, g, q, 3, "")
			if got := symbolsAt(res, 3); !slices.Equal(got, []string{fx.main}) {
				t.Errorf("depth 3, third hop: %v, want [%s]", got, fx.main)
			}
			want := fx.main + " → " + fx.route + " → " + fx.login + " → " + fx.authenticate
			if chains := chainSymbols(res); len(chains) == 0 || chains[0] != want {
				t.Errorf("depth 3 chains %v, want %q first", chains, want)
			}
			if len(res.Candidates) != 0 {
				t.Errorf("ambiguous references in an unambiguous chain: %+v", res.Candidates)
			}

			res = research(t, g, "what does "+fx.main+" call", 3, "")
			if res.Intent != IntentCallees {
				t.Fatalf("callees: intent %s", res.Intent)
			}
			want = fx.main + " → " + fx.route + " → " + fx.login + " → " + fx.authenticate
			if chains := chainSymbols(res); !slices.Contains(chains, want) {
				t.Errorf("callees of %s: chains %v, want %q", fx.main, chains, want)
			}
		})
	}
}

// TestImplementations: every conforming type of a multi-language fixture,
// and no type that merely has a method of the same name.
func TestImplementations(t *testing.T) {
	g := loadTree(t, filepath.Join("testdata", "conformance"))
	res := research(t, g, "all implementations of Authenticatable", 2, "")
	if res.Intent != IntentImplementations {
		t.Fatalf("intent %s", res.Intent)
	}
	if len(res.Targets) != 6 {
		t.Errorf("targets %+v, want Authenticatable in six languages", res.Targets)
	}
	type impl struct{ symbol, kind, path string }
	var got []impl
	for _, n := range res.Nodes {
		if n.Depth > 0 {
			got = append(got, impl{n.Symbol, n.Kind, n.Path})
		}
	}
	want := []impl{
		{"LdapUser", "class", "java/src/main/java/com/example/auth/LdapUser.java"},
		{"SessionUser", "class", "python/auth.py"},
		{"Token", "impl", "rust/src/auth.rs"},
		{"Member", "struct", "Sources/Auth/Authenticatable.swift"},
		{"Visitor", "impl", "Sources/Auth/Authenticatable.swift"},
		{"Admin", "struct", "auth/admin.go"},
		{"Guest", "struct", "auth/auth.go"},
		{"Kiosk", "struct", "devices/devices.go"},
		{"OAuthUser", "class", "web/src/auth.ts"},
	}
	slices.SortFunc(got, func(a, b impl) int { return strings.Compare(a.symbol, b.symbol) })
	slices.SortFunc(want, func(a, b impl) int { return strings.Compare(a.symbol, b.symbol) })
	if !slices.Equal(got, want) {
		t.Errorf("implementations\n got: %+v\nwant: %+v", got, want)
	}
	for _, decoy := range []string{"Robot", "Clock", "Printer", "Kiosk.java", "Banner", "Lamp", "Door"} {
		for _, n := range res.Nodes {
			if n.Symbol == decoy || strings.HasSuffix(n.Path, decoy) {
				t.Errorf("%s merely has a method of the same name, yet it is a node: %+v", decoy, n)
			}
		}
	}
}

// TestDeterministic: the same graph and request give the same bytes.
func TestDeterministic(t *testing.T) {
	g := loadTree(t, filepath.Join("testdata", "conformance"))
	var first []byte
	for i := 0; i < 5; i++ {
		res := research(t, g, "implementations of Authenticatable", 3, FocusArchitecture)
		b, _ := json.Marshal(res)
		if i == 0 {
			first = b
		} else if string(b) != string(first) {
			t.Fatalf("run %d differs:\n%s\n%s", i, b, first)
		}
	}
}

// TestErrors: invalid requests and unknown names are clear errors.
func TestErrors(t *testing.T) {
	g := loadTree(t, filepath.Join("testdata", "chains", "go"))
	tests := []struct {
		query string
		depth int
		focus string
		code  string
		msg   string
	}{
		{"  ", 2, "", errs.CodeQueryEmpty, "Query cannot be empty"},
		{"what calls Route", 6, "", errs.CodeInvalidArgument, "depth must be between 1 and 5, got 6"},
		{"what calls Route", -1, "", errs.CodeInvalidArgument, "depth must be between 1 and 5, got -1"},
		{"what calls Route", 2, "speed", errs.CodeInvalidArgument, `focus must be one of architecture, dependencies, patterns, flow; got "speed"`},
		{"what calls authenticat()", 2, "", errs.CodeSymbolNotFound, "No symbol named authenticat in the index. Closest names: authenticate, authenticateToken"},
		{"what calls Nothing", 2, "", errs.CodeSymbolNotFound, "No symbol named Nothing in the index"},
		{"what calls web.Nope", 2, "", errs.CodeSymbolNotFound, "No symbol named web.Nope in the index"},
		{"what calls Admin.Route", 2, "", errs.CodeSymbolNotFound, "No definition of Route in Admin. Definitions named Route: Route (web/router.go)"},
		{"what does nowhere depend on", 2, "", errs.CodeSymbolNotFound, "No module or package named nowhere in the index"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), g, Request{Query: tt.query, Depth: tt.depth, Focus: tt.focus})
		e, ok := errs.As(err)
		if !ok || e.Code != tt.code || !strings.HasPrefix(e.Message, tt.msg) {
			t.Errorf("%q depth %d focus %q: %v, want %s %q", tt.query, tt.depth, tt.focus, err, tt.code, tt.msg)
		}
	}
}

// TestProgressAndCancel: one progress report per hop; a cancelled context
// stops the research.
func TestProgressAndCancel(t *testing.T) {
	g := loadTree(t, filepath.Join("testdata", "chains", "go"))
	var hops []int
	_, err := Run(context.Background(), g, Request{Query: "what calls authenticate", Depth: 5,
		Progress: func(hop, depth, nodes int) { hops = append(hops, hop) }})
	if err != nil {
		t.Fatal(err)
	}
	// Three hops reach main, which nothing calls; every hop is reported.
	if !slices.Equal(hops, []int{1, 2, 3, 4, 5}) {
		t.Errorf("progress at hops %v, want 1 to 5", hops)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, g, Request{Query: "what calls authenticate", Depth: 5}); err == nil {
		t.Error("a cancelled research succeeded")
	}
}

// TestGoConventions: an import path with a major version suffix binds the
// package's name (router, not v5), and an embedded interface of the
// standard library (http.Handler, http.ResponseWriter) counts in method
// sets and interfaces.
func TestGoConventions(t *testing.T) {
	g := loadTree(t, filepath.Join("testdata", "gomajor"))
	res := research(t, g, "what calls NewRouter", 1, "")
	if got := symbolsAt(res, 1); !slices.Equal(got, []string{"Mount"}) {
		t.Errorf("callers of NewRouter through a /v5 import: %v, want [Mount]", got)
	}
	// router.URLParam(r, "id") calls the package's function, not the
	// method of the same name.
	res = research(t, g, "what calls URLParam", 1, "")
	for _, e := range res.Edges {
		for _, n := range res.Nodes {
			if n.ID == e.To && n.Kind != "function" {
				t.Errorf("a package-qualified call reached %s %s", n.Kind, n.Symbol)
			}
		}
	}
	if got := symbolsAt(res, 1); !slices.Equal(got, []string{"Param"}) {
		t.Errorf("callers of URLParam: %v, want [Param]", got)
	}
	for _, tt := range []struct{ iface, want string }{{"Router", "Mux"}, {"WrapResponseWriter", "basicWriter"}} {
		res := research(t, g, "implementations of "+tt.iface, 1, "")
		if got := symbolsAt(res, 1); !slices.Equal(got, []string{tt.want}) {
			t.Errorf("implementations of %s: %v, want [%s]", tt.iface, got, tt.want)
		}
	}
}

func TestGoPackageName(t *testing.T) {
	for path, want := range map[string]string{
		"net/http": "http", "github.com/go-chi/chi/v5": "chi", "gopkg.in/yaml.v3": "yaml",
		"github.com/mattn/go-isatty": "isatty", "fmt": "fmt", "example.com/v1": "v1", "example.com/x/v0": "v0",
	} {
		if got := goPackageName(path); got != want {
			t.Errorf("goPackageName(%q) = %q, want %q", path, got, want)
		}
	}
}

// edgeSet lists a result's edges as "from -kind-> to" with node symbols.
func edgeSet(res *Result) []string {
	names := map[string]string{}
	for _, n := range res.Nodes {
		names[n.ID] = n.Symbol
	}
	var out []string
	for _, e := range res.Edges {
		out = append(out, names[e.From]+" -"+e.Kind+"-> "+names[e.To])
	}
	slices.Sort(out)
	return out
}

// TestDependenciesAndArchitecture: a module's imports (inside the
// repository and outside), its dependents with the chain, and the
// architecture map: folders with their roles, the entry point, the import
// graph between folders.
func TestDependenciesAndArchitecture(t *testing.T) {
	g := loadTree(t, filepath.Join("testdata", "chains", "go"))

	deps := research(t, g, "what does package web depend on", 2, "")
	if deps.Intent != IntentDependencies || !slices.Equal(edgeSet(deps), []string{"web -import-> log"}) {
		t.Errorf("dependencies of web: intent %s, edges %v", deps.Intent, edgeSet(deps))
	}
	dependents := research(t, g, "what depends on web", 2, "")
	if dependents.Intent != IntentDependents || !slices.Equal(edgeSet(dependents), []string{"cmd/server -import-> web"}) ||
		!slices.Contains(chainSymbols(dependents), "cmd/server → web") {
		t.Errorf("dependents of web: edges %v, chains %v", edgeSet(dependents), chainSymbols(dependents))
	}

	arch := research(t, g, "how is this project organised", 2, FocusArchitecture)
	roles := map[string]string{}
	for _, n := range arch.Nodes {
		roles[n.Kind+" "+n.Symbol] = n.Role
	}
	for node, role := range map[string]string{
		"folder cmd/server": "entry point, functions", "folder web": "functions", "function main": "entry point",
	} {
		if roles[node] != role {
			t.Errorf("architecture: %s has role %q, want %q (nodes %v)", node, roles[node], role, roles)
		}
	}
	edges := edgeSet(arch)
	for _, want := range []string{"cmd/server -import-> web", "cmd/server -defines-> main"} {
		if !slices.Contains(edges, want) {
			t.Errorf("architecture edges %v lack %q", edges, want)
		}
	}
}

// TestAmbiguityIsReported: a call whose receiver's type lore cannot know
// names two methods; research keeps an edge to each, marked ambiguous, and
// lists the reference with both definitions under candidates.
func TestAmbiguityIsReported(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"store/users.py":  "class UserStore:\n    def save(self, user):\n        return user\n",
		"store/orders.py": "class OrderStore:\n    def save(self, order):\n        return order\n",
		"app/sync.py":     "def sync(store, item):\n    store.save(item)\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := loadTree(t, dir)
	res := research(t, g, "what does sync call", 1, "")
	if len(res.Edges) != 2 || !res.Edges[0].Ambiguous || !res.Edges[1].Ambiguous {
		t.Fatalf("edges %+v, want two ambiguous calls", res.Edges)
	}
	if len(res.Candidates) != 1 {
		t.Fatalf("candidates %+v, want the one reference", res.Candidates)
	}
	c := res.Candidates[0]
	var defs []string
	for _, d := range c.Definitions {
		defs = append(defs, d.Path)
	}
	slices.Sort(defs)
	if c.Symbol != "save" || c.Path != "app/sync.py" || c.Line != 2 || !slices.Equal(defs, []string{"store/orders.py", "store/users.py"}) {
		t.Errorf("candidate %+v", c)
	}
}
