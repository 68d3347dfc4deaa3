package packages

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// loadFixture reads every manifest under testdata/<name> the way the
// indexer hands them over: root-relative slash paths, IsManifest-filtered.
func loadFixture(t testing.TB, name string) []Manifest {
	t.Helper()
	root := filepath.Join("testdata", name)
	var manifests []Manifest
	err := filepath.WalkDir(root, func(p string, entry fs.DirEntry, err error) error {
		if err != nil || entry.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !IsManifest(rel) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		manifests = append(manifests, Manifest{Path: rel, Data: data})
		return nil
	})
	if err != nil {
		t.Fatalf("loading fixture %s: %v", name, err)
	}
	return manifests
}

// summarize renders packages one line each plus one line per dependency,
// the shape most tests compare against.
func summarize(pkgs []Package) []string {
	var lines []string
	for _, p := range pkgs {
		line := fmt.Sprintf("%s %s %s", p.Kind, p.Path, p.Name)
		if p.Version != "" {
			line += "@" + p.Version
		}
		lines = append(lines, line)
		for _, d := range p.Dependencies {
			dep := fmt.Sprintf("  %s %s", d.DepKind, d.Name)
			if d.VersionReq != "" {
				dep += " " + d.VersionReq
			}
			if d.IsInternal {
				dep += " (internal)"
			}
			lines = append(lines, dep)
		}
	}
	return lines
}

func assertLines(t *testing.T, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func findPackage(t *testing.T, pkgs []Package, name string) Package {
	t.Helper()
	for _, p := range pkgs {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("package %q not found among %d packages", name, len(pkgs))
	return Package{}
}

// TestBuildMonorepoGolden pins the whole result for a fixture monorepo with
// every manifest kind. Run `go test -run Golden -update` after an intended
// change and review the diff.
func TestBuildMonorepoGolden(t *testing.T) {
	pkgs, problems := Build(loadFixture(t, "monorepo"))
	got, err := json.MarshalIndent(map[string]any{"packages": pkgs, "problems": problems}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "monorepo.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Build result differs from %s; run with -update and review the diff.\ngot:\n%s", golden, got)
	}
}

func TestBuildMonorepo(t *testing.T) {
	pkgs, problems := Build(loadFixture(t, "monorepo"))

	wantProblems := []string{
		"packages/broken/package.json: invalid JSON at line 6, column 4",
		"rust/crates/bad/Cargo.toml: invalid TOML at line 2, column 12",
	}
	if len(problems) != len(wantProblems) {
		t.Fatalf("problems = %+v, want %d", problems, len(wantProblems))
	}
	for i, p := range problems {
		if got := p.Path + ": " + p.Message; !strings.HasPrefix(got, wantProblems[i]) {
			t.Errorf("problem %d = %q, want prefix %q", i, got, wantProblems[i])
		}
	}

	kinds := map[string]bool{}
	for i, p := range pkgs {
		kinds[p.Kind] = true
		if i > 0 && (pkgs[i-1].Name > p.Name || pkgs[i-1].Name == p.Name && pkgs[i-1].Path > p.Path) {
			t.Errorf("packages not sorted: %s (%s) before %s (%s)", pkgs[i-1].Name, pkgs[i-1].Path, p.Name, p.Path)
		}
		if p.Name == "left-pad" {
			t.Errorf("a package under node_modules was read: %+v", p)
		}
	}
	for _, kind := range []string{KindNPM, KindGo, KindCargo, KindPython, KindMaven, KindGradle, KindComposer, KindGem, KindNuGet, KindDart, KindSwift} {
		if !kinds[kind] {
			t.Errorf("no %s package found", kind)
		}
	}

	// Workspace membership of every flavour.
	for _, tc := range []struct{ name, workspace string }{
		{"@acme/ui", "."},        // npm workspaces
		{"web", "."},             // npm workspaces, unnamed → folder name
		{"site", "pnpm"},         // pnpm-workspace.yaml
		{"acme-core", "rust"},    // Cargo virtual workspace
		{"example.com/api", "."}, // go.work
		{"shared", "kotlin"},     // Gradle settings
		{"com.acme:acme-core", "java"},
		{"dart_app", "dart"},
		{"@acme/legacy", ""},     // excluded by "!packages/legacy"
		{"experimental", ""},     // excluded from the Cargo workspace
		{"example.com/tool", ""}, // not in go.work
	} {
		p := findPackage(t, pkgs, tc.name)
		got, _ := p.Metadata["workspace"].(string)
		if got != tc.workspace {
			t.Errorf("%s: workspace = %q, want %q", tc.name, got, tc.workspace)
		}
	}
	root := findPackage(t, pkgs, "acme-root")
	if got := root.Metadata["workspace_members"]; !reflect.DeepEqual(got, []any{"apps/web", "packages/ui", "packages/utils"}) {
		t.Errorf("acme-root workspace_members = %v", got)
	}
}

// TestBuildIsDeterministic feeds the manifests in shuffled orders.
func TestBuildIsDeterministic(t *testing.T) {
	manifests := loadFixture(t, "monorepo")
	want, wantProblems := Build(manifests)
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 10; round++ {
		shuffled := append([]Manifest(nil), manifests...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, gotProblems := Build(shuffled)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProblems, wantProblems) {
			t.Fatalf("round %d: result depends on input order", round)
		}
	}
}
