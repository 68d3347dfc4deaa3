package index_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/trigram"
)

// gramFiles reads the n-gram index of the file at path: each file's
// state, and "binary" or its trigrams decoded.
func gramFiles(t *testing.T, path string) map[string]store.GramFile {
	t.Helper()
	r, err := openReader(t, context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.GramFile{}
	var order []string
	if err := r.Grams(context.Background(), func(f store.GramFile) error {
		out[f.Path] = f
		order = append(order, f.Path)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(order) {
		t.Errorf("grams not in path order: %q", order)
	}
	return out
}

func hasTrigram(t *testing.T, f store.GramFile, s string) bool {
	t.Helper()
	want := trigram.Key(s[0], s[1], s[2])
	found := false
	if err := trigram.DecodeKeys(f.Grams, func(k uint32) { found = found || k == want }); err != nil {
		t.Fatalf("grams of %s: %v", f.Path, err)
	}
	return found
}

func TestGramsFollowRuns(t *testing.T) {
	root, indexPath := setup(t)
	ctx := context.Background()
	writeTree(t, root, map[string]string{"go.sum": "example.com/mod v1.0.0 h1:abc=\n"})
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	g := gramFiles(t, indexPath)
	// Every walked file: the indexed ones, the binary logo, the lock file
	// the ranked index leaves out; not the hidden or ignored ones.
	var got []string
	for p := range g {
		got = append(got, p)
	}
	slices.Sort(got)
	want := []string{"cart/cart.py", "docs/guide.md", "go.mod", "go.sum", "logo.png", "router.go"}
	if !slices.Equal(got, want) {
		t.Fatalf("files with grams %q, want %q", got, want)
	}
	if !g["logo.png"].Binary || g["logo.png"].Grams != nil {
		t.Errorf("logo.png = %+v, want binary without grams", g["logo.png"])
	}
	if !hasTrigram(t, g["router.go"], "rou") || !hasTrigram(t, g["go.sum"], "exa") || hasTrigram(t, g["go.mod"], "zzz") {
		t.Errorf("grams do not follow contents")
	}
	info, _ := os.Stat(filepath.Join(root, "router.go"))
	if f := g["router.go"]; f.Size != info.Size() || f.MTimeNS != info.ModTime().UnixNano() {
		t.Errorf("router.go recorded as %d bytes at %d, want %d at %d", f.Size, f.MTimeNS, info.Size(), info.ModTime().UnixNano())
	}

	// Edit one, remove one, add one: the next run follows.
	writeTree(t, root, map[string]string{"router.go": "package main\n\nfunc Quokka() {}\n", "new.txt": "wombat\n"})
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(root, "router.go"), later, later)
	os.Remove(filepath.Join(root, "go.sum"))
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	g = gramFiles(t, indexPath)
	if _, ok := g["go.sum"]; ok {
		t.Errorf("removed go.sum keeps grams")
	}
	if !hasTrigram(t, g["new.txt"], "wom") || !hasTrigram(t, g["router.go"], "quo") || hasTrigram(t, g["router.go"], "rou") {
		t.Errorf("grams not updated: new.txt %v, router.go %v", g["new.txt"], g["router.go"])
	}
	if g["router.go"].MTimeNS != later.UnixNano() {
		t.Errorf("router.go mtime %d, want %d", g["router.go"].MTimeNS, later.UnixNano())
	}

	// A run that walks differently (skipped folders) keeps no n-gram
	// index: it would not list what a search walks.
	if _, err := runAt(ctx, indexPath, index.Options{Root: root, SkipDirs: []string{"docs"}}); err != nil {
		t.Fatal(err)
	}
	if g := gramFiles(t, indexPath); len(g) != 0 {
		t.Errorf("a run with skipped folders keeps grams of %d files", len(g))
	}
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil { // keeps the skipped folders
		t.Fatal(err)
	}
	if g := gramFiles(t, indexPath); len(g) != 0 {
		t.Errorf("a run keeping the skipped folders keeps grams of %d files", len(g))
	}
	if _, err := runAt(ctx, indexPath, index.Options{Root: root, SkipDirs: []string{}}); err != nil {
		t.Fatal(err)
	}
	if g := gramFiles(t, indexPath); len(g) != 6 {
		t.Errorf("a default run after it: grams of %d files, want 6", len(g))
	}
}
