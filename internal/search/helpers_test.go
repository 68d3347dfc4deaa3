package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// openTestEngine opens an engine over the default collection of the index
// file at path, closed at the end of the test.
func openTestEngine(t testing.TB, path string) (*Engine, error) {
	ctx := context.Background()
	db, err := sqlite.OpenReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { db.Close() })
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		return nil, err
	}
	return New(ctx, r)
}

// indexAt indexes root into the index file at path.
func indexAt(t testing.TB, root, path string) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := index.Run(ctx, db, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
}

// engineOver writes files (a path relative to a new root → its content)
// under a temporary root, indexes it and opens an engine over the index.
func engineOver(t testing.TB, files map[string]string) *Engine {
	t.Helper()
	root := t.TempDir()
	for name, src := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx := filepath.Join(t.TempDir(), "index.db")
	indexAt(t, root, idx)
	e, err := openTestEngine(t, idx)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
