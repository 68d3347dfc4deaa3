package mcp

import (
	"encoding/json"
	"github.com/lore-dev/lore/internal/testtree"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func copyTree(t testing.TB, src, dst string) { testtree.Copy(t, src, dst) }

// monorepoEnv serves a copy of the packages fixture monorepo (every manifest
// kind, workspaces, a dependency cycle, an invalid package.json and
// Cargo.toml) with the specs fixture tree (OpenSpec specs, a change, spec-kit
// features, a malformed spec) beside it.
func monorepoEnv(t testing.TB) *env {
	t.Helper()
	e := newEnv(t, nil)
	copyTree(t, filepath.Join("..", "packages", "testdata", "monorepo"), e.root)
	copyTree(t, filepath.Join("..", "specs", "testdata", "repo"), e.root)
	return e
}

// fixturePackageCount is how many packages the fixture monorepo declares
// (internal/packages/testdata/monorepo.golden.json).
const fixturePackageCount = 33

func namesOf(t testing.TB, list any) []string {
	t.Helper()
	items, ok := list.([]any)
	if !ok {
		t.Fatalf("not a list: %v", list)
	}
	names := []string{}
	for _, it := range items {
		names = append(names, it.(map[string]any)["name"].(string))
	}
	return names
}

func edgesOf(t testing.TB, list any) []string {
	t.Helper()
	var out []string
	for _, it := range list.([]any) {
		e := it.(map[string]any)
		out = append(out, e["from"].(string)+" -> "+e["to"].(string)+" ("+e["dep_kind"].(string)+")")
	}
	return out
}

// textIsStructuredJSON checks that a success's text content is the JSON of
// its structured content.
func textIsStructuredJSON(t testing.TB, res *sdk.CallToolResult) {
	t.Helper()
	var fromText any
	if err := json.Unmarshal([]byte(textOf(res)), &fromText); err != nil {
		t.Fatalf("text is not JSON: %q", textOf(res))
	}
	a, _ := json.Marshal(fromText)
	var fromStructured any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &fromStructured)
	b, _ = json.Marshal(fromStructured)
	if string(a) != string(b) {
		t.Errorf("text %s differs from structured content %s", a, b)
	}
}

func TestPackagesTools(t *testing.T) {
	e := monorepoEnv(t)
	cs := indexed(t, e, nil, nil)
	sc := newSchemaChecker(t, cs)
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res := callTool(t, cs, name, args)
		if res.IsError {
			t.Fatalf("%s(%v): %s", name, args, textOf(res))
		}
		sc.check(t, name, res)
		textIsStructuredJSON(t, res)
		return structured(t, res)
	}

	t.Run("list_packages", func(t *testing.T) {
		all := call("list_packages", nil)
		names := namesOf(t, all["packages"])
		if len(names) != fixturePackageCount || all["total"] != float64(fixturePackageCount) {
			t.Fatalf("list_packages: %d packages %v, want %d", len(names), names, fixturePackageCount)
		}
		if !slices.IsSorted(names) {
			t.Errorf("not ordered by name: %v", names)
		}
		for _, p := range all["packages"].([]any) {
			m := p.(map[string]any)
			for _, f := range []string{"name", "path", "kind", "version", "description", "metadata"} {
				if _, ok := m[f]; !ok {
					t.Errorf("%v lacks %s", m["name"], f)
				}
			}
			if _, ok := m["dependencies"]; ok {
				t.Errorf("list_packages gives dependencies of %v", m["name"])
			}
		}
		for _, broken := range []string{"broken", "bad", "left-pad"} {
			if slices.Contains(names, broken) {
				t.Errorf("%s (invalid manifest or node_modules) is listed", broken)
			}
		}
		kinds := map[string][]string{
			"cargo": {"acme-cli", "acme-core", "experimental"},
			"go":    {"example.com/api", "example.com/lib", "example.com/tool"},
			"gem":   {"acme_gem"},
			"nuget": {"Acme.Core", "Acme.Tests", "AcmeApi"},
			"swift": {"AcmeSwift", "SwiftLocal"},
		}
		for kind, want := range kinds {
			got := call("list_packages", map[string]any{"kind": kind})
			if names := namesOf(t, got["packages"]); !slices.Equal(names, want) || got["kind"] != kind {
				t.Errorf("kind %s: %v, want %v", kind, names, want)
			}
		}
	})

	t.Run("search_packages", func(t *testing.T) {
		got := call("search_packages", map[string]any{"query": "ui"})
		names := namesOf(t, got["packages"])
		if len(names) == 0 || names[0] != "@acme/ui" {
			t.Fatalf("search ui: %v", names)
		}
		byPath := call("search_packages", map[string]any{"query": "crates"})
		if names := namesOf(t, byPath["packages"]); !slices.Contains(names, "acme-core") {
			t.Errorf("search by path: %v", names)
		}
		all := call("search_packages", map[string]any{"query": "acme"})
		if n := len(namesOf(t, all["packages"])); n == 0 || n > maxPackageResults {
			t.Errorf("search acme: %d results, want 1..%d", n, maxPackageResults)
		}
		// total is the true count; truncated says when the list is shorter.
		for _, res := range []map[string]any{got, byPath, all} {
			n, total := len(namesOf(t, res["packages"])), res["total"].(float64)
			if total < float64(n) || res["truncated"] != (float64(n) < total) {
				t.Errorf("search %v: %d packages, total %v, truncated %v", res["query"], n, total, res["truncated"])
			}
		}
		if got["truncated"] != false || got["total"] != float64(len(names)) {
			t.Errorf("search ui: total %v, truncated %v for %d packages", got["total"], got["truncated"], len(names))
		}
		// FTS5 syntax is plain text: never an error.
		for _, q := range []string{`"ui`, `ui*`, `-ui`, `name:ui`, `ui AND core`, `(ui`, `NEAR(ui core)`, `^ui`, `ui OR`, `"`, `*`} {
			res := callTool(t, cs, "search_packages", map[string]any{"query": q})
			if res.IsError {
				t.Errorf("search %q: %s", q, textOf(res))
			}
		}
	})

	t.Run("get_package", func(t *testing.T) {
		p := call("get_package", map[string]any{"name": "@acme/ui"})
		if p["name"] != "@acme/ui" || p["path"] != "packages/ui" || p["kind"] != "npm" || p["manifest"] != "packages/ui/package.json" {
			t.Fatalf("get_package: %v", p)
		}
		var internal []string
		for _, d := range p["dependencies"].([]any) {
			if dep := d.(map[string]any); dep["is_internal"] == true {
				internal = append(internal, dep["name"].(string))
			}
		}
		if !slices.Equal(internal, []string{"@acme/utils"}) {
			t.Errorf("internal dependencies of @acme/ui: %v", internal)
		}
	})

	t.Run("package_dependencies", func(t *testing.T) {
		all := call("package_dependencies", map[string]any{"name": "example.com/api"})
		only := call("package_dependencies", map[string]any{"name": "example.com/api", "internal_only": true})
		allNames, onlyNames := namesOf(t, all["dependencies"]), namesOf(t, only["dependencies"])
		if !slices.Equal(onlyNames, []string{"example.com/lib"}) || only["internal_only"] != true {
			t.Errorf("internal_only: %v", onlyNames)
		}
		if len(allNames) <= len(onlyNames) || !slices.Contains(allNames, "example.com/lib") {
			t.Errorf("all dependencies %v should hold external ones too", allNames)
		}
		for _, d := range all["dependencies"].([]any) {
			dep := d.(map[string]any)
			if dep["name"] != "example.com/lib" && dep["is_internal"] != false {
				t.Errorf("external dependency marked internal: %v", dep)
			}
		}
	})

	t.Run("package_dependents", func(t *testing.T) {
		got := call("package_dependents", map[string]any{"name": "@acme/ui"})
		if names := namesOf(t, got["dependents"]); !slices.Equal(names, []string{"@acme/utils", "site", "web"}) {
			t.Errorf("dependents of @acme/ui: %v", names)
		}
		none := call("package_dependents", map[string]any{"name": "web"})
		if names := namesOf(t, none["dependents"]); len(names) != 0 {
			t.Errorf("dependents of web: %v", names)
		}
	})

	t.Run("dependency_graph", func(t *testing.T) {
		tests := []struct {
			root      string
			depth     any // nil: the default
			wantDepth float64
			want      []string
		}{
			// A cycle (@acme/ui <-> @acme/utils) terminates.
			{"@acme/ui", nil, 3, []string{"@acme/ui -> @acme/utils (runtime)", "@acme/utils -> @acme/ui (runtime)"}},
			{"web", 1, 1, []string{"web -> @acme/ui (runtime)"}},
			{"web", 0, 1, []string{"web -> @acme/ui (runtime)"}},  // clamped up to 1
			{"web", -5, 1, []string{"web -> @acme/ui (runtime)"}}, // clamped up to 1
			{"web", 100, 20, []string{"web -> @acme/ui (runtime)", "@acme/ui -> @acme/utils (runtime)", "@acme/utils -> @acme/ui (runtime)"}},
			{"Acme.Tests", nil, 3, []string{"Acme.Tests -> AcmeApi (dev)", "AcmeApi -> Acme.Core (runtime)"}},
			{"example.com/lib", nil, 3, nil},
		}
		for _, tt := range tests {
			args := map[string]any{"root": tt.root}
			if tt.depth != nil {
				args["depth"] = tt.depth
			}
			got := call("dependency_graph", args)
			if edges := edgesOf(t, got["edges"]); !slices.Equal(edges, tt.want) || got["depth"] != tt.wantDepth || got["root"] != tt.root {
				t.Errorf("dependency_graph(%v): depth %v edges %q, want depth %v edges %q", args, got["depth"], edges, tt.wantDepth, tt.want)
			}
		}
		a, _ := json.Marshal(call("dependency_graph", map[string]any{"root": "web", "depth": 20}))
		b, _ := json.Marshal(call("dependency_graph", map[string]any{"root": "web", "depth": 20}))
		if string(a) != string(b) {
			t.Errorf("dependency_graph is not deterministic")
		}
	})

	t.Run("index_status", func(t *testing.T) {
		st := call("index_status", nil)
		if st["package_count"] != float64(fixturePackageCount) || st["indexed_at"] == "" || st["root"] != e.root {
			t.Errorf("index_status: %v", st)
		}
		if _, ok := st["git_commit"].(string); !ok {
			t.Errorf("index_status lacks git_commit: %v", st)
		}
		if n, _ := st["spec_count"].(float64); n < 5 {
			t.Errorf("index_status spec_count: %v", st)
		}
	})
}

// TestPackagesErrors checks each error message of the packages tools, with
// and without an index.
func TestPackagesErrors(t *testing.T) {
	e := monorepoEnv(t)
	noIndex := "No index found for path: " + e.root + ". Run 'index_codebase' tool first."
	noIndexReadOnly := "No index found for path: " + e.root + ". Run 'lore index " + e.root + "' first."
	bare := connectSDK(t, e.server(t, nil), nil)
	readOnly := connectSDK(t, e.server(t, func(o *Options) { o.ReadOnly = true }), nil)
	withoutCode := connectSDK(t, e.server(t, func(o *Options) { o.Toolsets = []string{"packages"} }), nil)
	type errorCase struct {
		cs      *sdk.ClientSession
		tool    string
		args    map[string]any
		code    string
		message string
	}
	check := func(tests []errorCase, sc schemaChecker) {
		t.Helper()
		for _, tt := range tests {
			res := callTool(t, tt.cs, tt.tool, tt.args)
			te := toolErrorOf(t, res)
			if te["code"] != tt.code || te["message"] != tt.message || textOf(res) != tt.message {
				t.Errorf("%s(%v): code %v, text %q; want %s %q", tt.tool, tt.args, te["code"], textOf(res), tt.code, tt.message)
			}
			sc.check(t, tt.tool, res)
		}
	}
	// Before the index exists.
	check([]errorCase{
		{bare, "search_packages", map[string]any{"query": "ui"}, "NO_INDEX", noIndex},
		{bare, "get_package", map[string]any{"name": "web"}, "NO_INDEX", noIndex},
		{bare, "package_dependencies", map[string]any{"name": "web"}, "NO_INDEX", noIndex},
		{bare, "package_dependents", map[string]any{"name": "web"}, "NO_INDEX", noIndex},
		{bare, "dependency_graph", map[string]any{"root": "web"}, "NO_INDEX", noIndex},
		{bare, "list_packages", nil, "NO_INDEX", noIndex},
		{bare, "index_status", nil, "NO_INDEX", noIndex},
		{readOnly, "list_packages", nil, "NO_INDEX", noIndexReadOnly},
		{withoutCode, "index_status", nil, "NO_INDEX", noIndexReadOnly},
	}, newSchemaChecker(t, bare))

	indexedCS := indexed(t, e, nil, nil)
	check([]errorCase{
		{indexedCS, "search_packages", map[string]any{"query": ""}, "QUERY_EMPTY", "Search query must not be empty"},
		{indexedCS, "search_packages", map[string]any{"query": " \t\n "}, "QUERY_EMPTY", "Search query must not be empty"},
		{indexedCS, "search_packages", nil, "INVALID_ARGUMENT", "Missing required argument: query"},
		{indexedCS, "get_package", map[string]any{"name": "nope"}, "PACKAGE_NOT_FOUND", "Package 'nope' not found"},
		{indexedCS, "get_package", map[string]any{"name": "@ACME/UI"}, "PACKAGE_NOT_FOUND", "Package '@ACME/UI' not found"},
		{indexedCS, "get_package", map[string]any{}, "INVALID_ARGUMENT", "Missing required argument: name"},
		{indexedCS, "package_dependencies", map[string]any{"name": "nope"}, "PACKAGE_NOT_FOUND", "Package 'nope' not found"},
		{indexedCS, "package_dependencies", map[string]any{"name": "web", "internal_only": "yes"}, "INVALID_ARGUMENT", "Argument internal_only must be a boolean, got a string"},
		{indexedCS, "package_dependents", map[string]any{"name": "nope"}, "PACKAGE_NOT_FOUND", "Package 'nope' not found"},
		{indexedCS, "dependency_graph", map[string]any{"root": "nope"}, "PACKAGE_NOT_FOUND", "Package 'nope' not found"},
		{indexedCS, "dependency_graph", map[string]any{"root": "web", "depth": 1.5}, "INVALID_ARGUMENT", "Argument depth must be an integer, got 1.5"},
		{indexedCS, "list_packages", map[string]any{"kind": "rubygems"}, "INVALID_ARGUMENT",
			`Argument kind must be one of npm, go, cargo, python, maven, gradle, composer, gem, nuget, dart, swift; got "rubygems"`},
		{indexedCS, "index_status", map[string]any{"verbose": true}, "INVALID_ARGUMENT", "Unknown argument: verbose (this tool takes no arguments)"},
	}, newSchemaChecker(t, indexedCS))
	if !strings.Contains(e.log.String(), `msg="tool call failed" tool=get_package root=`+e.root) {
		t.Errorf("failed calls are not logged with their root:\n%s", e.log.String())
	}
}

// TestPackagesSharedNames: packages are told apart by kind and path. A
// name two packages of the build share is ambiguous: the error lists the
// candidates; kind or path chooses. A fixture with the name does not make
// a name ambiguous.
func TestPackagesSharedNames(t *testing.T) {
	e := newEnv(t, map[string]string{
		"package.json":                     `{"name": "root", "private": true, "workspaces": ["packages/*"]}`,
		"packages/core/package.json":       `{"name": "core", "version": "1.0.0"}`,
		"packages/app/package.json":        `{"name": "app", "dependencies": {"core": "workspace:*", "util": "*"}}`,
		"packages/util/package.json":       `{"name": "util", "dependencies": {"core": "workspace:*"}}`,
		"tools/core/package.json":          `{"name": "core", "version": "9.0.0"}`,
		"test/fixtures/util/package.json":  `{"name": "util", "version": "0.0.1"}`,
		"test/fixtures/other/package.json": `{"name": "other", "dependencies": {"util": "*"}}`,
	})
	cs := indexed(t, e, nil, nil)
	sc := newSchemaChecker(t, cs)

	res := callTool(t, cs, "get_package", map[string]any{"name": "core"})
	sc.check(t, "get_package", res)
	te := toolErrorOf(t, res)
	wantMsg := "Package 'core' is ambiguous: 2 packages have that name (npm packages/core, npm tools/core); give kind or path to choose"
	if te["code"] != "PACKAGE_AMBIGUOUS" || te["message"] != wantMsg || textOf(res) != wantMsg {
		t.Fatalf("get_package(core): %v", te)
	}
	details, _ := te["details"].(map[string]any)
	candidates, _ := details["candidates"].([]any)
	if details["name"] != "core" || len(candidates) != 2 || candidates[1].(map[string]any)["manifest"] != "tools/core/package.json" {
		t.Errorf("details = %v", details)
	}

	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res := callTool(t, cs, name, args)
		if res.IsError {
			t.Fatalf("%s(%v): %s", name, args, textOf(res))
		}
		sc.check(t, name, res)
		return structured(t, res)
	}
	if got := call("get_package", map[string]any{"name": "core", "path": "tools/core"}); got["version"] != "9.0.0" {
		t.Errorf("get_package(core, tools/core) = %v", got)
	}
	if got := call("get_package", map[string]any{"name": "core", "path": "packages/core/package.json", "kind": "npm"}); got["version"] != "1.0.0" {
		t.Errorf("get_package(core, its manifest) = %v", got)
	}
	// util: the workspace member wins over the fixture, and a fixture's
	// dependency may still resolve to it.
	if got := call("get_package", map[string]any{"name": "util"}); got["path"] != "packages/util" {
		t.Errorf("get_package(util) = %v", got)
	}
	dependents := call("package_dependents", map[string]any{"name": "core", "path": "packages/core"})
	if names := namesOf(t, dependents["dependents"]); !slices.Equal(names, []string{"app", "util"}) || dependents["path"] != "packages/core" {
		t.Errorf("package_dependents(core in packages/core) = %v", dependents)
	}
	if none := call("package_dependents", map[string]any{"name": "core", "path": "tools/core"}); len(none["dependents"].([]any)) != 0 {
		t.Errorf("package_dependents(core in tools/core) = %v", none)
	}
	deps := call("package_dependencies", map[string]any{"name": "app", "internal_only": true})
	var targets []string
	for _, d := range deps["dependencies"].([]any) {
		target := d.(map[string]any)["target"].(map[string]any)
		targets = append(targets, target["kind"].(string)+" "+target["path"].(string))
	}
	if !slices.Equal(targets, []string{"npm packages/core", "npm packages/util"}) {
		t.Errorf("targets of app's dependencies = %v", targets)
	}
	graph := call("dependency_graph", map[string]any{"root": "app", "depth": 5})
	edges := graph["edges"].([]any)
	if len(edges) != 3 || edges[0].(map[string]any)["to_path"] != "packages/core" || graph["path"] != "packages/app" {
		t.Errorf("dependency_graph(app) = %v", graph)
	}
	for _, tt := range []struct {
		args map[string]any
		code string
		msg  string
	}{
		{map[string]any{"name": "core", "kind": "cargo"}, "PACKAGE_NOT_FOUND", "Package 'core' not found of kind 'cargo'; packages of that name: npm packages/core, npm tools/core"},
		{map[string]any{"name": "core", "kind": "rust"}, "INVALID_ARGUMENT", `Argument kind must be one of npm, go, cargo, python, maven, gradle, composer, gem, nuget, dart, swift; got "rust"`},
		{map[string]any{"name": "nope", "path": "x"}, "PACKAGE_NOT_FOUND", "Package 'nope' not found"},
	} {
		res := callTool(t, cs, "get_package", tt.args)
		sc.check(t, "get_package", res)
		if te := toolErrorOf(t, res); te["code"] != tt.code || te["message"] != tt.msg {
			t.Errorf("get_package(%v) = %v, want %s %q", tt.args, te, tt.code, tt.msg)
		}
	}
}

// TestListPackagesAfterARun checks list_packages' answer, which is encoded
// once per index generation and kind: asked again it is the same, and
// after a run that adds a package it lists the new package, for every kind
// asked before.
func TestListPackagesAfterARun(t *testing.T) {
	e := newEnv(t, map[string]string{
		"go.mod":               "module example.com/first\n\ngo 1.22\n",
		"tools/a/Cargo.toml":   "[package]\nname = \"alpha\"\nversion = \"0.1.0\"\n",
		"web/app/package.json": `{"name": "webapp", "version": "1.0.0"}`,
	})
	cs := indexed(t, e, nil, nil)
	list := func(kind string) []string {
		t.Helper()
		args := map[string]any{}
		if kind != "" {
			args["kind"] = kind
		}
		res := callTool(t, cs, "list_packages", args)
		if res.IsError {
			t.Fatalf("list_packages(%q): %s", kind, textOf(res))
		}
		textIsStructuredJSON(t, res)
		return namesOf(t, structured(t, res)["packages"])
	}
	for _, tc := range []struct {
		kind   string
		before []string
	}{
		{"", []string{"alpha", "example.com/first", "webapp"}},
		{"cargo", []string{"alpha"}},
		{"go", []string{"example.com/first"}},
		{"npm", []string{"webapp"}},
	} {
		for range 2 {
			if got := list(tc.kind); !slices.Equal(got, tc.before) {
				t.Fatalf("kind %q before the run: %v, want %v", tc.kind, got, tc.before)
			}
		}
	}
	writeTree(t, e.root, map[string]string{"tools/b/Cargo.toml": "[package]\nname = \"beta\"\nversion = \"0.2.0\"\n"})
	if res := callTool(t, cs, "index_codebase", map[string]any{"path": e.root}); res.IsError {
		t.Fatalf("index_codebase: %s", textOf(res))
	}
	for _, tc := range []struct {
		kind  string
		after []string
	}{
		{"", []string{"alpha", "beta", "example.com/first", "webapp"}},
		{"cargo", []string{"alpha", "beta"}},
		{"go", []string{"example.com/first"}},
	} {
		if got := list(tc.kind); !slices.Equal(got, tc.after) {
			t.Fatalf("kind %q after the run: %v, want %v", tc.kind, got, tc.after)
		}
	}
}
