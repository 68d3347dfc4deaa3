package sqlite

import (
	"context"
	"database/sql"

	"github.com/lore-dev/lore/internal/store"
)

// underPaths is the condition on a path column that selects a path and,
// as a folder, everything under it: '/' + 1 is '0', so the range holds
// exactly the paths that start with "p/". Both use the (collection_id,
// path) index.
const underPaths = `(path = ?1 OR (path > ?1 || '/' AND path < ?1 || '0'))`

// FileStatesOf is FileStates for paths and the files under them.
func (t *tx) FileStatesOf(ctx context.Context, paths []string) (map[string]store.FileState, error) {
	out := map[string]store.FileState{}
	for _, p := range paths {
		more, err := fileStates(ctx, withPath(t.tx.QueryContext, p, `id, path, hash, size, mtime_ns FROM files`), t.collection)
		if err != nil {
			return nil, err
		}
		for k, v := range more {
			out[k] = v
		}
	}
	return out, nil
}

// GramStatesOf is GramStates for paths and the files under them.
func (t *tx) GramStatesOf(ctx context.Context, paths []string) (map[string]store.GramState, error) {
	out := map[string]store.GramState{}
	for _, p := range paths {
		more, err := gramStates(ctx, withPath(t.tx.QueryContext, p, `path, size, mtime_ns FROM file_grams`), t.collection)
		if err != nil {
			return nil, err
		}
		for k, v := range more {
			out[k] = v
		}
	}
	return out, nil
}

// withPath wraps a query function so that the whole-collection query of
// fileStates or gramStates (SELECT <what> WHERE collection_id = ?) reads
// only path and what is under it.
func withPath(query func(context.Context, string, ...any) (*sql.Rows, error), path, what string) func(context.Context, string, ...any) (*sql.Rows, error) {
	return func(ctx context.Context, _ string, args ...any) (*sql.Rows, error) {
		return query(ctx, `SELECT `+what+` WHERE collection_id = ?2 AND `+underPaths, path, args[0])
	}
}
