package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lore-dev/lore/internal/store"
)

// Symbols calls fn with the symbols of every file of the collection that
// has any, by path. Each file's are one blob (store.EncodeSymbols), written
// by PutFile and removed with the file.
func (r *reader) Symbols(ctx context.Context, fn func(store.FileSymbols) error) error {
	rows, err := r.d.db.QueryContext(ctx, `SELECT f.id, f.path, f.language, s.data
		FROM file_symbols s JOIN files f ON f.id = s.file_id
		WHERE f.collection_id = ? ORDER BY f.path`, r.id)
	if err != nil {
		return fmt.Errorf("reading symbols: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var fs store.FileSymbols
		var data []byte
		if err := rows.Scan(&fs.FileID, &fs.Path, &fs.Language, &data); err != nil {
			return fmt.Errorf("reading symbols: %w", err)
		}
		if fs.Symbols, err = store.DecodeSymbols(data); err != nil {
			return fmt.Errorf("reading the symbols of %s: %w", fs.Path, err)
		}
		if err := fn(fs); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading symbols: %w", err)
	}
	return nil
}

// SymbolBlobs implements store.SymbolBlobReader: the blobs as stored,
// read without copying.
func (r *reader) SymbolBlobs(ctx context.Context, fn func(fileID int64, blob []byte) error) error {
	rows, err := r.d.db.QueryContext(ctx, `SELECT s.file_id, s.data
		FROM file_symbols s JOIN files f ON f.id = s.file_id
		WHERE f.collection_id = ?`, r.id)
	if err != nil {
		return fmt.Errorf("reading symbols: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var data sql.RawBytes
		if err := rows.Scan(&id, &data); err != nil {
			return fmt.Errorf("reading symbols: %w", err)
		}
		if err := fn(id, data); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading symbols: %w", err)
	}
	return nil
}
