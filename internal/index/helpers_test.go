package index_test

import (
	"context"
	"testing"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// runAt indexes opts.Root into the default collection of the SQLite file
// at path, as lore index does.
func runAt(ctx context.Context, path string, opts index.Options) (*index.Stats, error) {
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return index.Run(ctx, db, opts)
}

// openReader opens the default collection of the file at path for
// reading, closed at the end of the test.
func openReader(t testing.TB, ctx context.Context, path string) (store.Reader, error) {
	db, err := sqlite.OpenReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { db.Close() })
	return db.Reader(ctx, store.DefaultCollection)
}

// openEngine opens a search engine over the default collection of the
// file at path, as lore search does.
func openEngine(t testing.TB, ctx context.Context, path string) (*search.Engine, error) {
	r, err := openReader(t, ctx, path)
	if err != nil {
		return nil, err
	}
	return search.New(ctx, r)
}
