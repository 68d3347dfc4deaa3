package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/lore-dev/lore/internal/store"
)

// reader reads one collection of a DB. It implements store.Reader.
type reader struct {
	d    *DB
	id   int64
	name string
}

var (
	_ store.Reader           = (*reader)(nil)
	_ store.SymbolBlobReader = (*reader)(nil)
)

// Collection describes the collection.
func (r *reader) Collection(ctx context.Context) (store.Collection, error) {
	c := store.Collection{Name: r.name}
	var created, indexed string
	err := r.d.queryRow(ctx, `SELECT root, created_at, coalesce(indexed_at, '') FROM collections WHERE id = ?`, r.id).
		Scan(&c.Root, &created, &indexed)
	if err != nil {
		return c, fmt.Errorf("reading collection %s: %w", r.name, err)
	}
	c.CreatedAt, c.IndexedAt = parseTime(created), parseTime(indexed)
	return c, nil
}

// Generation returns the collection's generation: it changes with every
// run that commits.
func (r *reader) Generation(ctx context.Context) (string, error) {
	g, err := r.d.generation(ctx, r.id, func() (string, error) {
		var g string
		err := r.d.queryRow(ctx, `SELECT value FROM collection_meta WHERE collection_id = ? AND key = 'generation'`, r.id).Scan(&g)
		return g, err
	})
	if err != nil {
		return "", fmt.Errorf("reading the generation of %s: %w", r.name, err)
	}
	return g, nil
}

// Meta returns the collection's metadata with the schema version.
func (r *reader) Meta(ctx context.Context) (map[string]string, error) {
	return collectionMeta(ctx, r.d.db, r.id)
}

// blob reads a blob of the collection; nil when absent.
func (r *reader) blob(ctx context.Context, name string) ([]byte, error) {
	var data []byte
	err := r.d.queryRow(ctx, `SELECT data FROM blobs WHERE collection_id = ? AND name = ?`, r.id, name).Scan(&data)
	if noRows(err) {
		return nil, nil
	}
	return data, err
}

// Files lists every indexed file, by path.
// FileStates returns what the collection knows of each file, by path.
func (r *reader) FileStates(ctx context.Context) (map[string]store.FileState, error) {
	return fileStates(ctx, r.d.query, r.id)
}

func (r *reader) Files(ctx context.Context) ([]store.FileRow, error) {
	rows, err := r.d.query(ctx, `SELECT id, path, language, lines FROM files WHERE collection_id = ? ORDER BY path`, r.id)
	if err != nil {
		return nil, fmt.Errorf("listing files: %w", err)
	}
	defer rows.Close()
	var out []store.FileRow
	for rows.Next() {
		var f store.FileRow
		if err := rows.Scan(&f.ID, &f.Path, &f.Language, &f.Lines); err != nil {
			return nil, fmt.Errorf("listing files: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// LanguageCounts counts files and chunks per language, most files first.
func (r *reader) LanguageCounts(ctx context.Context) ([]store.LanguageCount, error) {
	rows, err := r.d.db.QueryContext(ctx, `SELECT f.language, count(DISTINCT f.id), count(c.id)
		FROM files f LEFT JOIN chunks c ON c.file_id = f.id WHERE f.collection_id = ?
		GROUP BY f.language ORDER BY count(DISTINCT f.id) DESC, f.language`, r.id)
	if err != nil {
		return nil, fmt.Errorf("counting languages: %w", err)
	}
	defer rows.Close()
	out := []store.LanguageCount{}
	for rows.Next() {
		var lc store.LanguageCount
		if err := rows.Scan(&lc.Language, &lc.Files, &lc.Chunks); err != nil {
			return nil, fmt.Errorf("counting languages: %w", err)
		}
		out = append(out, lc)
	}
	return out, rows.Err()
}

// ChunkDetails loads the signature, breadcrumb, doc comment and text of
// the given chunks. Chunk ids are unique in the database, and a reader only
// asks for ids its own collection gave it, so no join on the collection is
// needed: this is on the path of every search.
func (r *reader) ChunkDetails(ctx context.Context, ids []int64) (map[int64]store.ChunkDetail, error) {
	out := make(map[int64]store.ChunkDetail, len(ids))
	err := inBatches(ids, func(marks string, args []any) error {
		rows, err := r.d.query(ctx, `SELECT c.id, c.signature, c.breadcrumb, c.doc_comment, t.content
			FROM chunks c JOIN chunk_text t ON t.chunk_id = c.id WHERE c.id IN (`+marks+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var d store.ChunkDetail
			if err := rows.Scan(&id, &d.Signature, &d.Breadcrumb, &d.DocComment, &d.Content); err != nil {
				return err
			}
			out[id] = d
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("loading chunk details: %w", err)
	}
	return out, nil
}

// Chunks calls fn with every chunk of the collection, by path then line.
func (r *reader) Chunks(ctx context.Context, fn func(store.ChunkRecord) error) error {
	rows, err := r.d.db.QueryContext(ctx, `SELECT c.id, f.path, f.language, c.start_line, c.end_line, c.kind, c.symbols,
			c.signature, c.breadcrumb, c.doc_comment, t.content
		FROM chunks c JOIN files f ON f.id = c.file_id JOIN chunk_text t ON t.chunk_id = c.id
		WHERE f.collection_id = ? ORDER BY f.path, c.start_line, c.id`, r.id)
	if err != nil {
		return fmt.Errorf("reading chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c store.ChunkRecord
		var symbols string
		if err := rows.Scan(&c.ID, &c.Path, &c.Language, &c.StartLine, &c.EndLine, &c.Kind, &symbols,
			&c.Signature, &c.Breadcrumb, &c.DocComment, &c.Content); err != nil {
			return fmt.Errorf("reading chunks: %w", err)
		}
		c.Symbols = []string{}
		if symbols != "" {
			c.Symbols = strings.Split(symbols, "\n")
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	return rows.Err()
}

// maxInList bounds the values of one IN (?, …) list. SQLite refuses a
// statement with more host parameters than its limit (32766; 999 before
// SQLite 3.32) with "too many SQL variables", so every IN list of values
// goes through inBatches, which splits it: any number of values works.
const maxInList = 500

// inBatches calls query with consecutive batches of values, each at most
// maxInList long, as the placeholders of an IN list ("?,?,?") and their
// arguments, and stops at the first error. Nothing is called for no
// values. Full batches share one SQL text, so one prepared statement.
func inBatches[T any](values []T, query func(marks string, args []any) error) error {
	for start := 0; start < len(values); start += maxInList {
		batch := values[start:min(start+maxInList, len(values))]
		args := make([]any, len(batch))
		for i, v := range batch {
			args[i] = v
		}
		if err := query(strings.TrimSuffix(strings.Repeat("?,", len(batch)), ","), args); err != nil {
			return err
		}
	}
	return nil
}
