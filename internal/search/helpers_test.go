package search

import (
	"context"
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
