package index_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/index"
)

// TestHiddenWorkspaceMembers: trpc's pnpm workspace lists "examples/.*/*";
// the members in hidden folders are packages (and their dependencies
// resolve), while their files stay out of the code index like any hidden
// file. A hidden folder no workspace names stays hidden, and so does one a
// workspace only reaches with "*".
func TestHiddenWorkspaceMembers(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"package.json":                                 `{"name": "trpc", "private": true}`,
		"pnpm-workspace.yaml":                          "packages:\n  - 'packages/*'\n  - 'examples/*'\n  - 'examples/.*/*'\n  - 'apps/*'\n",
		"packages/server/package.json":                 `{"name": "@trpc/server", "version": "11.0.0"}`,
		"examples/minimal/package.json":                `{"name": "minimal", "dependencies": {"@trpc/server": "workspace:*"}}`,
		"examples/.test/ssg/package.json":              `{"name": "ssg", "dependencies": {"@trpc/server": "workspace:*"}}`,
		"examples/.test/ssg/index.ts":                  "export const ssg = 1\n",
		"examples/.experimental/next-app/package.json": `{"name": "next-app-dir"}`,
		"examples/.test/ssg/.cache/package.json":       `{"name": "cached-copy"}`,
		"examples/.ignored/x/package.json":             `{"name": "ignored-one"}`,
		"examples/.gitignore":                          ".ignored/\n",
		"apps/.private/package.json":                   `{"name": "private-app"}`,
		".github/actions/setup/package.json":           `{"name": "setup-action"}`,
	})
	indexPath := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	stats, err := runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	r, err := openReader(t, ctx, indexPath)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := r.Packages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pkgs {
		names = append(names, p.Name+"@"+p.Path)
		if p.Name == "ssg" {
			if len(p.Dependencies) != 1 || !p.Dependencies[0].IsInternal || p.Dependencies[0].Target.Path != "packages/server" {
				t.Errorf("ssg's dependencies = %+v", p.Dependencies)
			}
			if p.Metadata["workspace"] != "." {
				t.Errorf("ssg is not a member of the workspace: %v", p.Metadata)
			}
		}
	}
	want := []string{"@trpc/server@packages/server", "minimal@examples/minimal", "next-app-dir@examples/.experimental/next-app", "ssg@examples/.test/ssg", "trpc@."}
	if !slices.Equal(names, want) || stats.Packages != len(want) {
		t.Errorf("packages = %q (stats %d), want %q", names, stats.Packages, want)
	}
	files, err := r.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(f.Path, "/.") {
			t.Errorf("%s, in a hidden folder, is in the code index", f.Path)
		}
	}
}
