package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/lore-dev/lore/internal/testtree"
	"path/filepath"
	"strings"
	"testing"
)

func copyDir(t *testing.T, src, dst string) { testtree.Copy(t, src, dst) }

// factsFixture is an indexed copy of the packages fixture monorepo (every
// manifest kind, a cycle, invalid manifests) with the specs fixture tree,
// and an index file for it; unindexed is a root with specs and no index.
type factsFixture struct {
	root, index string
	unindexed   string
}

func newFactsFixture(t *testing.T) *factsFixture {
	t.Helper()
	t.Setenv("LORE_CACHE_DIR", t.TempDir())
	t.Setenv("LORE_INDEX", "")
	f := &factsFixture{root: t.TempDir(), index: filepath.Join(t.TempDir(), "index.db"), unindexed: t.TempDir()}
	copyDir(t, filepath.Join("..", "..", "internal", "packages", "testdata", "monorepo"), f.root)
	copyDir(t, filepath.Join("..", "..", "internal", "specs", "testdata", "repo"), f.root)
	copyDir(t, filepath.Join("..", "..", "internal", "specs", "testdata", "repo"), f.unindexed)
	var stdout, stderr bytes.Buffer
	if code := runMain(context.Background(), []string{"--index", f.index, "index", "--quiet", f.root}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("lore index: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "packages        33") || !strings.Contains(out, "warning: packages/broken/package.json: invalid JSON") {
		t.Errorf("lore index does not report packages and manifest problems:\n%s", out)
	}
	return f
}

// cliCase is one lore invocation and what it must print.
type cliCase struct {
	name       string
	args       []string // after "lore --index <index>"
	code       int
	stdout     []string // substrings of stdout, in order
	stdoutNot  []string
	stderr     string // substring of stderr
	jsonLength int    // when > 0, stdout is a JSON array of this length
}

func runCases(t *testing.T, f *factsFixture, tests []cliCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"--index", f.index}, tt.args...)
			code := runMain(context.Background(), args, nil, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("lore %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(tt.args, " "), code, tt.code, stdout.String(), stderr.String())
			}
			out := stdout.String()
			rest := out
			for _, want := range tt.stdout {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in order):\n%s", want, out)
				}
				rest = rest[i+len(want):]
			}
			for _, not := range tt.stdoutNot {
				if strings.Contains(out, not) {
					t.Errorf("stdout holds %q:\n%s", not, out)
				}
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr = %q, want it to hold %q", stderr.String(), tt.stderr)
			}
			if tt.jsonLength > 0 {
				var list []any
				if err := json.Unmarshal(stdout.Bytes(), &list); err != nil || len(list) != tt.jsonLength {
					t.Errorf("want a JSON array of %d, got %d (%v):\n%s", tt.jsonLength, len(list), err, out)
				}
			}
		})
	}
}

func TestPackagesCommand(t *testing.T) {
	f := newFactsFixture(t)
	root := []string{"--root", f.root}
	with := func(args ...string) []string { return append(args, root...) }
	runCases(t, f, []cliCase{
		{name: "list", args: with("packages", "list"), stdout: []string{"NAME", "KIND", "VERSION", "PATH", "@acme/legacy", "@acme/ui", "web"}, stdoutNot: []string{"left-pad"}},
		{name: "list json", args: with("packages", "list", "--format", "json"), jsonLength: 33},
		{name: "list kind", args: with("packages", "list", "--kind", "cargo"), stdout: []string{"acme-cli", "acme-core", "experimental"}, stdoutNot: []string{"@acme/ui"}},
		{name: "list kind json", args: with("packages", "list", "--kind", "go", "--format", "json"), jsonLength: 3},
		{name: "search", args: with("packages", "search", "ui"), stdout: []string{"NAME", "@acme/ui", "npm", "packages/ui"}},
		{name: "search words", args: with("packages", "search", "shared", "react"), stdout: []string{"@acme/ui"}},
		{name: "search syntax is text", args: with("packages", "search", `"ui`, "AND", "(core*")},
		{name: "search nothing", args: with("packages", "search", "zzzzqqq"), stdout: []string{`no packages match "zzzzqqq"`}},
		{name: "search blank", args: with("packages", "search", "  "), code: exitUsage, stderr: "lore: Search query must not be empty"},
		{name: "show", args: with("packages", "show", "@acme/ui"), stdout: []string{"@acme/ui (npm)", "packages/ui/package.json", "dependencies:", "@acme/utils", "internal"}},
		{name: "show json", args: with("packages", "show", "example.com/api", "--format", "json"), stdout: []string{`"name": "example.com/api"`, `"kind": "go"`, `"dependencies"`}},
		{name: "show unknown", args: with("packages", "show", "nope"), code: 1, stderr: "lore: Package 'nope' not found"},
		{name: "deps", args: with("packages", "deps", "example.com/api"), stdout: []string{"example.com/lib", "internal"}, stdoutNot: []string{"example.com/tool"}},
		{name: "deps internal json", args: with("packages", "deps", "example.com/api", "--internal", "--format", "json"), jsonLength: 1, stdout: []string{`"name": "example.com/lib"`}},
		{name: "deps unknown", args: with("packages", "deps", "nope"), code: 1, stderr: "lore: Package 'nope' not found"},
		{name: "dependents", args: with("packages", "dependents", "@acme/ui"), stdout: []string{"@acme/utils", "site", "web"}},
		{name: "dependents none", args: with("packages", "dependents", "web"), stdout: []string{"no package depends on web"}},
		{name: "dependents json", args: with("packages", "dependents", "example.com/lib", "--format", "json"), jsonLength: 2},
		{name: "graph cycle", args: with("packages", "graph", "@acme/ui"), stdout: []string{"@acme/ui -> @acme/utils (runtime)\n@acme/utils -> @acme/ui (runtime)\n"}},
		{name: "graph depth", args: with("packages", "graph", "web", "--depth", "1"), stdout: []string{"web -> @acme/ui (runtime)\n"}, stdoutNot: []string{"@acme/utils"}},
		{name: "graph clamped", args: with("packages", "graph", "web", "--depth", "500", "--format", "json"), stdout: []string{`"depth": 20`, `"from": "web"`}},
		{name: "graph leaf", args: with("packages", "graph", "example.com/lib"), stdout: []string{"example.com/lib depends on no package of this repository"}},
		// --kind and --path choose among packages sharing a name.
		{name: "show kind", args: with("packages", "show", "acme-core", "--kind", "cargo"), stdout: []string{"acme-core (cargo)", "rust/crates/core/Cargo.toml"}},
		{name: "show path", args: with("packages", "show", "acme-core", "--path", "./rust/crates/core/"), stdout: []string{"acme-core (cargo)"}},
		{name: "show wrong kind", args: with("packages", "show", "acme-core", "--kind", "npm"), code: 1,
			stderr: "lore: Package 'acme-core' not found of kind 'npm'; packages of that name: cargo rust/crates/core"},
		{name: "deps internal target", args: with("packages", "deps", "web", "--internal"), stdout: []string{"@acme/ui", "internal (npm packages/ui)"}},
		{name: "graph path", args: with("packages", "graph", "web", "--path", "apps/web", "--depth", "1", "--format", "json"), stdout: []string{`"to_path": "packages/ui"`, `"path": "apps/web"`}},
		{name: "dependents kind", args: with("packages", "dependents", "@acme/ui", "--kind", "npm"), stdout: []string{"@acme/utils", "site", "web"}},
		{name: "bad choice kind", args: with("packages", "deps", "web", "--kind", "rust"), code: 2, stderr: `--kind must be one of npm, go,`},
		{name: "status", args: with("packages", "status"), stdout: []string{"root", f.root, "indexed at", "packages    33"}},
		{name: "status json", args: with("packages", "status", "--format", "json"), stdout: []string{`"indexed_at": "`, `"package_count": 33`, `"spec_count": 8`}},
		{name: "help", args: []string{"packages", "--help"}, stdout: []string{"Usage: lore packages", "graph ROOT"}},
		{name: "no command", args: []string{"packages"}, code: 2, stderr: "Usage: lore packages"},
		{name: "unknown command", args: []string{"packages", "explode"}, code: 2, stderr: `unknown packages command "explode"`},
		{name: "show without name", args: with("packages", "show"), code: 2, stderr: "usage: lore packages show NAME"},
		{name: "list with argument", args: with("packages", "list", "extra"), code: 2, stderr: "usage: lore packages list"},
		{name: "bad format", args: with("packages", "list", "--format", "xml"), code: 2, stderr: `--format must be human or json, got "xml"`},
		{name: "bad kind", args: with("packages", "list", "--kind", "rubygems"), code: 2, stderr: `--kind must be one of npm, go,`},
		{name: "bad flag", args: with("packages", "deps", "web", "--deep"), code: 2, stderr: "flag provided but not defined: -deep"},
		{name: "bad root", args: []string{"packages", "list", "--root", filepath.Join(f.root, "missing")}, code: 1, stderr: "missing"},
	})
}

func TestPackagesCommandWithoutIndex(t *testing.T) {
	f := newFactsFixture(t)
	f.index = filepath.Join(t.TempDir(), "none.db")
	for _, args := range [][]string{
		{"packages", "list", "--root", f.unindexed},
		{"packages", "status", "--root", f.unindexed},
		{"packages", "search", "ui", "--root", f.unindexed},
	} {
		runCases(t, f, []cliCase{{name: strings.Join(args[:2], " "), args: args, code: exitNoIndex,
			// --index chose the file, so the message names it.
			stderr: `lore: no index at ` + f.index + ` for ` + realPath(t, f.unindexed) + `; run "lore --index ` + f.index + ` index ` + realPath(t, f.unindexed) + `" first`}})
	}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
