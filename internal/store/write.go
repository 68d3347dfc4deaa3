package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"time"
)

// FileState is what the index remembers of a file, to decide whether it
// changed.
type FileState struct {
	ID      int64
	Hash    string
	Size    int64
	MTimeNS int64
}

// File is a file row to write.
type File struct {
	Path     string
	Language string
	Size     int64
	Hash     string
	MTimeNS  int64
	Lines    int
}

// Chunk is a chunk row to write, with its full-text terms.
type Chunk struct {
	StartLine, EndLine int
	Kind               string
	Symbols            []string
	Signature          string
	Breadcrumb         string
	DocComment         string
	Content            string
	Terms              Terms
	Stats              TermStats // stemmed terms for lore's inverted index
}

// Terms are the space-joined code-aware terms of each full-text column.
type Terms struct {
	Symbols, Path, Signature, Doc, Body string
}

// EnsureCollection returns the id of the named collection over root,
// creating it if needed.
func (s *Store) EnsureCollection(ctx context.Context, name, root string) (int64, error) {
	_, err := s.db.ExecContext(ctx, `INSERT INTO collections(name, root, created_at) VALUES(?, ?, ?)
		ON CONFLICT(name) DO UPDATE SET root = excluded.root`, name, root, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return 0, fmt.Errorf("recording collection %s: %w", name, err)
	}
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT id FROM collections WHERE name = ?`, name).Scan(&id); err != nil {
		return 0, fmt.Errorf("reading collection %s: %w", name, err)
	}
	return id, nil
}

// FileStates returns what the index knows of each file of a collection,
// by relative path.
func (s *Store) FileStates(ctx context.Context, collection int64) (map[string]FileState, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, path, hash, size, mtime_ns FROM files WHERE collection_id = ?`, collection)
	if err != nil {
		return nil, fmt.Errorf("reading indexed files: %w", err)
	}
	defer rows.Close()
	out := map[string]FileState{}
	for rows.Next() {
		var st FileState
		var path string
		if err := rows.Scan(&st.ID, &path, &st.Hash, &st.Size, &st.MTimeNS); err != nil {
			return nil, err
		}
		out[path] = st
	}
	return out, rows.Err()
}

// Tx is one index run's write transaction: everything it writes becomes
// visible at Commit, or not at all.
type Tx struct {
	tx         *sql.Tx
	collection int64
	insFile    *sql.Stmt
	insChunk   *sql.Stmt
	insFTS     *sql.Stmt
	insTerms   *sql.Stmt
	insText    *sql.Stmt
	delta      *postingsDelta
}

// Begin starts the write transaction of an index run over a collection.
func (s *Store) Begin(ctx context.Context, collection int64) (*Tx, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("starting the index transaction: %w", err)
	}
	t := &Tx{tx: tx, collection: collection, delta: newPostingsDelta()}
	prepare := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.PrepareContext(ctx, q)
		return st
	}
	t.insFile = prepare(`INSERT INTO files(collection_id, path, language, size, hash, mtime_ns, lines) VALUES(?, ?, ?, ?, ?, ?, ?)`)
	t.insChunk = prepare(`INSERT INTO chunks(file_id, ord, start_line, end_line, kind, symbols, signature, breadcrumb, doc_comment)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	t.insText = prepare(`INSERT INTO chunk_text(chunk_id, content) VALUES(?, ?)`)
	t.insFTS = prepare(`INSERT INTO chunks_fts(rowid, symbols, path, signature, doc, body) VALUES(?, ?, ?, ?, ?, ?)`)
	t.insTerms = prepare(`INSERT INTO chunk_terms(chunk_id, terms) VALUES(?, ?)`)
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("preparing index statements: %w", err)
	}
	return t, nil
}

// SQL exposes the transaction to packages that save tables of their own
// (packages, specs) in the same atomic commit.
func (t *Tx) SQL() *sql.Tx { return t.tx }

// DeleteAll removes every file and chunk of the collection (a forced rebuild).
func (t *Tx) DeleteAll(ctx context.Context) error {
	t.delta.reset = true
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM chunks_fts WHERE rowid IN
		(SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.collection_id = ?)`, t.collection); err != nil {
		return fmt.Errorf("clearing the full-text index: %w", err)
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM files WHERE collection_id = ?`, t.collection); err != nil {
		return fmt.Errorf("clearing files: %w", err)
	}
	return nil
}

// DeleteFile removes a file and its chunks.
func (t *Tx) DeleteFile(ctx context.Context, id int64) error {
	if err := t.forgetChunks(ctx, "c.file_id = ?", id); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE file_id = ?)`, id); err != nil {
		return fmt.Errorf("deleting full-text rows of file %d: %w", id, err)
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, id); err != nil {
		return fmt.Errorf("deleting file %d: %w", id, err)
	}
	return nil
}

// TouchFile records a new modification time for a file whose content did
// not change.
func (t *Tx) TouchFile(ctx context.Context, id int64, mtimeNS int64) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE files SET mtime_ns = ? WHERE id = ?`, mtimeNS, id)
	return err
}

// PutFile inserts a file with its chunks.
func (t *Tx) PutFile(ctx context.Context, f File, chunks []Chunk) error {
	res, err := t.insFile.ExecContext(ctx, t.collection, f.Path, f.Language, f.Size, f.Hash, f.MTimeNS, f.Lines)
	if err != nil {
		return fmt.Errorf("inserting file %s: %w", f.Path, err)
	}
	fileID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	for i, c := range chunks {
		res, err := t.insChunk.ExecContext(ctx, fileID, i, c.StartLine, c.EndLine, c.Kind,
			strings.Join(c.Symbols, "\n"), c.Signature, c.Breadcrumb, c.DocComment)
		if err != nil {
			return fmt.Errorf("inserting a chunk of %s: %w", f.Path, err)
		}
		chunkID, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := t.insText.ExecContext(ctx, chunkID, c.Content); err != nil {
			return fmt.Errorf("inserting the text of a chunk of %s: %w", f.Path, err)
		}
		if _, err := t.insFTS.ExecContext(ctx, chunkID, c.Terms.Symbols, c.Terms.Path, c.Terms.Signature, c.Terms.Doc, c.Terms.Body); err != nil {
			return fmt.Errorf("indexing a chunk of %s: %w", f.Path, err)
		}
		terms := make([]string, 0, len(c.Stats.Freqs))
		for term := range c.Stats.Freqs {
			terms = append(terms, term)
		}
		sort.Strings(terms)
		if _, err := t.insTerms.ExecContext(ctx, chunkID, strings.Join(terms, "\n")); err != nil {
			return fmt.Errorf("recording terms of a chunk of %s: %w", f.Path, err)
		}
		t.delta.add(chunkID, c.Stats)
		t.delta.meta = append(t.delta.meta, ChunkMeta{ID: chunkID, FileID: fileID, StartLine: int32(c.StartLine),
			EndLine: int32(c.EndLine), Kind: c.Kind, Symbols: strings.Join(c.Symbols, "\n")})
	}
	return nil
}

// SetMeta records key = value in the metadata table.
func (t *Tx) SetMeta(ctx context.Context, key, value string) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("recording %s: %w", key, err)
	}
	return nil
}

// MarkIndexed records when the collection was last indexed.
func (t *Tx) MarkIndexed(ctx context.Context, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE collections SET indexed_at = ? WHERE id = ?`, at.UTC().Format(time.RFC3339), t.collection)
	return err
}

// Commit makes the run's writes visible.
func (t *Tx) Commit(ctx context.Context) error {
	if err := t.flushPostings(ctx); err != nil {
		return err
	}
	if err := t.tx.Commit(); err != nil {
		return fmt.Errorf("committing the index: %w", err)
	}
	return nil
}

// Rollback abandons the run; the previous index stays as it was.
func (t *Tx) Rollback() error { return t.tx.Rollback() }
