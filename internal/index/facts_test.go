package index_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/specs"
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

// TestIncrementalPackagesAndSpecs: a run reads only the manifests and spec
// files that are new or changed, and replaces packages and specs only when
// one is (issue 15, defect 8); the answers are those of a full rebuild.
func TestIncrementalPackagesAndSpecs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"package.json":                           `{"name": "root", "private": true, "workspaces": ["packages/*"]}`,
		"packages/a/package.json":                `{"name": "a", "dependencies": {"b": "*"}}`,
		"packages/b/package.json":                `{"name": "b", "version": "1.0.0"}`,
		"packages/broken/package.json":           `{`,
		"go/go.mod":                              "module example.com/x\n\ngo 1.22\n",
		"openspec/specs/auth/spec.md":            "# Auth\n\n## Purpose\n\nLog in.\n\n## Requirements\n\n### Requirement: Login\n\n#### Scenario: Ok\n\n- **WHEN** w\n- **THEN** t\n",
		"openspec/changes/c1/proposal.md":        "# C1\n\n## Why\n\nBecause.\n",
		"openspec/changes/c1/specs/auth/spec.md": "## ADDED Requirements\n\n### Requirement: Logout\n\n#### Scenario: Bye\n\n- **WHEN** w\n- **THEN** t\n",
	})
	indexPath := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	future := time.Now().Add(time.Hour)
	touch := func(rel string) {
		t.Helper()
		future = future.Add(time.Second)
		if err := os.Chtimes(filepath.Join(root, rel), future, future); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(rel, content string) {
		t.Helper()
		writeTree(t, root, map[string]string{rel: content})
		touch(rel)
	}
	type want struct {
		manifestsRead, specFilesRead  int
		packagesUpdated, specsUpdated bool
		packages                      []string // name@path and internal targets
	}
	steps := []struct {
		name   string
		change func()
		opts   index.Options
		want   want
	}{
		{"first run reads everything", func() {}, index.Options{},
			want{5, 3, true, true, []string{"a@packages/a -> packages/b", "b@packages/b", "example.com/x@go", "root@."}}},
		{"nothing changed: nothing read", func() {}, index.Options{},
			want{0, 0, false, false, []string{"a@packages/a -> packages/b", "b@packages/b", "example.com/x@go", "root@."}}},
		{"touched, same content: read, not resolved", func() { touch("packages/b/package.json"); touch("openspec/specs/auth/spec.md") }, index.Options{},
			want{1, 1, false, false, []string{"a@packages/a -> packages/b", "b@packages/b", "example.com/x@go", "root@."}}},
		{"touched again: nothing read (the new time was kept)", func() {}, index.Options{},
			want{0, 0, false, false, []string{"a@packages/a -> packages/b", "b@packages/b", "example.com/x@go", "root@."}}},
		{"a manifest changed: read and resolved", func() { edit("packages/b/package.json", `{"name": "c"}`) }, index.Options{},
			want{1, 0, true, false, []string{"a@packages/a", "c@packages/b", "example.com/x@go", "root@."}}},
		{"a manifest added", func() { edit("packages/d/package.json", `{"name": "b"}`) }, index.Options{},
			want{1, 0, true, false, []string{"a@packages/a -> packages/d", "b@packages/d", "c@packages/b", "example.com/x@go", "root@."}}},
		{"a manifest removed", func() { os.Remove(filepath.Join(root, "go", "go.mod")) }, index.Options{},
			want{0, 0, true, false, []string{"a@packages/a -> packages/d", "b@packages/d", "c@packages/b", "root@."}}},
		{"a proposal changed", func() { edit("openspec/changes/c1/proposal.md", "# C1\n\n## Why\n\nBecause of a reason.\n") }, index.Options{},
			want{0, 1, false, true, []string{"a@packages/a -> packages/d", "b@packages/d", "c@packages/b", "root@."}}},
		{"forced: everything read again", func() {}, index.Options{Force: true},
			want{5, 3, true, true, []string{"a@packages/a -> packages/d", "b@packages/d", "c@packages/b", "root@."}}},
	}
	for _, step := range steps {
		step.change()
		opts := step.opts
		opts.Root = root
		stats, err := runAt(ctx, indexPath, opts)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got := want{stats.ManifestsRead, stats.SpecFilesRead, stats.PackagesUpdated, stats.SpecsUpdated, packageLines(t, ctx, indexPath)}
		if !reflect.DeepEqual(got, step.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", step.name, got, step.want)
		}
		// The broken manifest is reported by every run, resolved or not.
		if !slices.ContainsFunc(stats.Warnings, func(w index.FileError) bool { return w.Path == "packages/broken/package.json" }) {
			t.Errorf("%s: the broken manifest is not reported: %+v", step.name, stats.Warnings)
		}
		if stats.Packages != len(step.want.packages) || stats.Specs != 2 || stats.Manifests != len(step.want.packages)+1 {
			t.Errorf("%s: stats packages %d specs %d manifests %d", step.name, stats.Packages, stats.Specs, stats.Manifests)
		}
		if stats.PackagesMS < 0 || stats.SpecsMS < 0 || stats.PackagesMS+stats.SpecsMS > stats.DurationMS {
			t.Errorf("%s: packages %d ms + specs %d ms of %d ms", step.name, stats.PackagesMS, stats.SpecsMS, stats.DurationMS)
		}
	}
	// The kept specs are those a fresh discovery gives.
	r, err := openReader(t, ctx, indexPath)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := r.Specs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := specs.Discover(root, "")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(kept)
	b, _ := json.Marshal(fresh)
	if string(a) != string(b) || kept[1].Purpose != "Because of a reason." {
		t.Errorf("stored specs differ from a fresh discovery:\n%+v\n%+v", kept, fresh)
	}
}

// packageLines renders the stored packages as name@path, with the targets
// of their internal dependencies.
func packageLines(t *testing.T, ctx context.Context, indexPath string) []string {
	t.Helper()
	r, err := openReader(t, ctx, indexPath)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := r.Packages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range pkgs {
		line := p.Name + "@" + p.Path
		for _, d := range p.Dependencies {
			if d.Target != nil {
				line += " -> " + d.Target.Path
			}
		}
		lines = append(lines, line)
	}
	return lines
}
