package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lore-dev/lore/internal/store"
)

// The exact search's n-gram index: one file_grams row per walked file.

// GramStates returns what the n-gram index holds of each file, by path.
func (t *tx) GramStates(ctx context.Context) (map[string]store.GramState, error) {
	return gramStates(ctx, t.tx.QueryContext, t.collection)
}

// GramStates returns what the n-gram index holds of each file, by path;
// nothing in a database of the previous schema.
func (r *reader) GramStates(ctx context.Context) (map[string]store.GramState, error) {
	states, err := gramStates(ctx, r.d.query, r.id)
	if isNoSuchTable(err) {
		return map[string]store.GramState{}, nil
	}
	return states, err
}

func gramStates(ctx context.Context, query func(context.Context, string, ...any) (*sql.Rows, error), collection int64) (map[string]store.GramState, error) {
	rows, err := query(ctx, `SELECT path, size, mtime_ns FROM file_grams WHERE collection_id = ?`, collection)
	if err != nil {
		return nil, fmt.Errorf("reading the n-gram index: %w", err)
	}
	defer rows.Close()
	out := map[string]store.GramState{}
	for rows.Next() {
		var path string
		var st store.GramState
		if err := rows.Scan(&path, &st.Size, &st.MTimeNS); err != nil {
			return nil, fmt.Errorf("reading the n-gram index: %w", err)
		}
		out[path] = st
	}
	return out, rows.Err()
}

// PutGrams records or replaces a file of the n-gram index.
func (t *tx) PutGrams(ctx context.Context, f store.GramFile) error {
	var grams []byte
	if !f.Binary {
		grams = f.Grams
		if grams == nil {
			grams = []byte{}
		}
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO file_grams(collection_id, path, size, mtime_ns, binary, grams) VALUES(?, ?, ?, ?, ?, ?)
		ON CONFLICT(collection_id, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
		binary = excluded.binary, grams = excluded.grams`, t.collection, f.Path, f.Size, f.MTimeNS, f.Binary, grams)
	if err != nil {
		return fmt.Errorf("writing the grams of %s: %w", f.Path, err)
	}
	t.change.putGrams(f.Path, &f)
	return nil
}

// DeleteGrams removes a file from the n-gram index.
func (t *tx) DeleteGrams(ctx context.Context, path string) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM file_grams WHERE collection_id = ? AND path = ?`, t.collection, path); err != nil {
		return fmt.Errorf("deleting the grams of %s: %w", path, err)
	}
	t.change.putGrams(path, nil)
	return nil
}

// DeleteAllGrams empties the collection's n-gram index.
func (t *tx) DeleteAllGrams(ctx context.Context) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM file_grams WHERE collection_id = ?`, t.collection); err != nil {
		return fmt.Errorf("clearing the n-gram index: %w", err)
	}
	t.change.resetGrams()
	return nil
}

// Grams calls fn with every file of the n-gram index, by path. A database
// of the previous schema has none.
func (r *reader) Grams(ctx context.Context, fn func(store.GramFile) error) error {
	rows, err := r.d.query(ctx, `SELECT path, size, mtime_ns, binary, grams FROM file_grams WHERE collection_id = ? ORDER BY path`, r.id)
	if err != nil {
		if isNoSuchTable(err) {
			return nil
		}
		return fmt.Errorf("reading the n-gram index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f store.GramFile
		if err := rows.Scan(&f.Path, &f.Size, &f.MTimeNS, &f.Binary, &f.Grams); err != nil {
			return fmt.Errorf("reading the n-gram index: %w", err)
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return rows.Err()
}
