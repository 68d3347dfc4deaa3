package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lore-dev/lore/internal/store"
)

// tx is one index run's write transaction over a collection. It holds the
// file's writer lock until Commit or Rollback.
type tx struct {
	d          *DB
	tx         *sql.Tx
	lock       *WriterLock
	collection int64
	insFile    *sql.Stmt
	insChunk   *sql.Stmt
	insTerms   *sql.Stmt
	insText    *sql.Stmt
	insSymbols *sql.Stmt
	delta      *postingsDelta
	budget     int64     // bytes of postings held before they are spilled (see spill.go)
	change     runChange // for the change log
	// deferMerges: Commit leaves merging segments to Maintain.
	deferMerges bool
	// chunkSeq is the last chunk id assigned (0: not read yet), and
	// chunkSeqStart the one recorded in the database.
	chunkSeq, chunkSeqStart int64
	st                      *indexState // read on first use, written at commit
	// fresh is the new file of a first build, put in place at commit;
	// nil when the run writes the index file itself.
	fresh *freshBuild
	done  bool
}

var _ store.WriteTx = (*tx)(nil)

// begin starts the transaction of a run over collection on conn (d's
// connection, or a first build's file), which will release lock when it
// ends.
func (d *DB) begin(ctx context.Context, conn *sql.DB, collection int64, lock *WriterLock, budget int64) (*tx, error) {
	sqlTx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("starting the index transaction: %w", err)
	}
	if budget <= 0 {
		budget = store.DefaultMemoryBudget
	}
	t := &tx{d: d, tx: sqlTx, lock: lock, collection: collection, delta: newPostingsDelta(), budget: budget}
	prepare := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = sqlTx.PrepareContext(ctx, q)
		return st
	}
	t.insFile = prepare(`INSERT INTO files(collection_id, path, language, size, hash, mtime_ns, lines) VALUES(?, ?, ?, ?, ?, ?, ?)`)
	t.insChunk = prepare(`INSERT INTO chunks(id, file_id, ord, start_line, end_line, kind, symbols, signature, breadcrumb, doc_comment)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	t.insText = prepare(`INSERT INTO chunk_text(chunk_id, content) VALUES(?, ?)`)
	t.insTerms = prepare(`INSERT INTO chunk_terms(chunk_id, terms) VALUES(?, ?)`)
	t.insSymbols = prepare(`INSERT INTO file_symbols(file_id, data) VALUES(?, ?)`)
	if err != nil {
		sqlTx.Rollback()
		return nil, fmt.Errorf("preparing index statements: %w", err)
	}
	return t, nil
}

// Meta is the collection's metadata as the previous run left it, with the
// database's schema version.
func (t *tx) Meta(ctx context.Context) (map[string]string, error) {
	return collectionMeta(ctx, t.tx, t.collection)
}

// collectionMeta reads a collection's metadata and the schema version.
func collectionMeta(ctx context.Context, q querier, collection int64) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM collection_meta WHERE collection_id = ?
		UNION ALL SELECT key, value FROM meta WHERE key = 'schema_version'`, collection)
	if err != nil {
		return nil, fmt.Errorf("reading index metadata: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("reading index metadata: %w", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}

// FileStates returns what the collection knows of each file, by path.
func (t *tx) FileStates(ctx context.Context) (map[string]store.FileState, error) {
	return fileStates(ctx, t.tx.QueryContext, t.collection)
}

// fileStates reads what a collection knows of each file, by path, through
// query (a transaction's or the database's).
func fileStates(ctx context.Context, query func(context.Context, string, ...any) (*sql.Rows, error), collection int64) (map[string]store.FileState, error) {
	rows, err := query(ctx, `SELECT id, path, hash, size, mtime_ns FROM files WHERE collection_id = ?`, collection)
	if err != nil {
		return nil, fmt.Errorf("reading indexed files: %w", err)
	}
	defer rows.Close()
	out := map[string]store.FileState{}
	for rows.Next() {
		var st store.FileState
		var path string
		if err := rows.Scan(&st.ID, &path, &st.Hash, &st.Size, &st.MTimeNS); err != nil {
			return nil, fmt.Errorf("reading indexed files: %w", err)
		}
		out[path] = st
	}
	return out, rows.Err()
}

// DeleteAll removes every file, chunk and parsed file of the collection (a
// forced rebuild); its posting lists and segments are dropped at Commit.
func (t *tx) DeleteAll(ctx context.Context) error {
	t.delta.reset = true
	t.change = runChange{full: true}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM files WHERE collection_id = ?`, t.collection); err != nil {
		return fmt.Errorf("clearing files: %w", err)
	}
	t.st = &indexState{baseChunks: -1, files: 0}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM parsed_files WHERE collection_id = ?`, t.collection); err != nil {
		return fmt.Errorf("clearing parsed files: %w", err)
	}
	return nil
}

// DeleteFile removes a file with its chunks and symbols.
func (t *tx) DeleteFile(ctx context.Context, id int64) error {
	if _, err := t.state(ctx); err != nil { // counted before the change
		return err
	}
	if err := t.forgetChunks(ctx, id); err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, `DELETE FROM files WHERE id = ? AND collection_id = ?`, id, t.collection)
	if err != nil {
		return fmt.Errorf("deleting file %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err
	}
	t.change.removeFile(id)
	return t.addFiles(ctx, -1)
}

// TouchFile records a new modification time for a file whose content did
// not change.
func (t *tx) TouchFile(ctx context.Context, id int64, mtimeNS int64) error {
	if _, err := t.tx.ExecContext(ctx, `UPDATE files SET mtime_ns = ? WHERE id = ? AND collection_id = ?`, mtimeNS, id, t.collection); err != nil {
		return fmt.Errorf("updating file %d: %w", id, err)
	}
	return nil
}

// PutFile inserts a file with its chunks and symbols.
func (t *tx) PutFile(ctx context.Context, f store.File, chunks []store.Chunk) error {
	if _, err := t.state(ctx); err != nil { // counted before the change
		return err
	}
	res, err := t.insFile.ExecContext(ctx, t.collection, f.Path, f.Language, f.Size, f.Hash, f.MTimeNS, f.Lines)
	if err != nil {
		return fmt.Errorf("inserting file %s: %w", f.Path, err)
	}
	fileID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if err := t.addFiles(ctx, 1); err != nil {
		return err
	}
	t.change.addFile(store.FileRow{ID: fileID, Path: f.Path, Language: f.Language, Lines: f.Lines})
	if blob := store.EncodeSymbols(f.Symbols); blob != nil {
		if _, err := t.insSymbols.ExecContext(ctx, fileID, blob); err != nil {
			return fmt.Errorf("inserting the symbols of %s: %w", f.Path, err)
		}
	}
	for i, c := range chunks {
		chunkID, err := t.nextChunkID(ctx)
		if err != nil {
			return err
		}
		if _, err := t.insChunk.ExecContext(ctx, chunkID, fileID, i, c.StartLine, c.EndLine, c.Kind,
			strings.Join(c.Symbols, "\n"), c.Signature, c.Breadcrumb, c.DocComment); err != nil {
			return fmt.Errorf("inserting a chunk of %s: %w", f.Path, err)
		}
		if _, err := t.insText.ExecContext(ctx, chunkID, c.Content); err != nil {
			return fmt.Errorf("inserting the text of a chunk of %s: %w", f.Path, err)
		}
		terms := c.Stats.InOrder()
		if _, err := t.insTerms.ExecContext(ctx, chunkID, joinTerms(terms)); err != nil {
			return fmt.Errorf("recording terms of a chunk of %s: %w", f.Path, err)
		}
		meta := store.ChunkMeta{ID: chunkID, FileID: fileID, StartLine: int32(c.StartLine),
			EndLine: int32(c.EndLine), Kind: c.Kind, Symbols: strings.Join(c.Symbols, "\n")}
		t.delta.add(meta, c.Stats.Lens, terms)
		t.change.addChunk(c.Stats.Lens, meta)
	}
	if t.delta.size > t.budget {
		return t.spillPostings(ctx)
	}
	return nil
}

// joinTerms is a chunk's terms, in order, one a line: the row of
// chunk_terms.
func joinTerms(terms []store.TermFreq) string {
	if len(terms) == 0 {
		return ""
	}
	n := len(terms) - 1
	for _, t := range terms {
		n += len(t.Term)
	}
	var b strings.Builder
	b.Grow(n)
	for i, t := range terms {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t.Term)
	}
	return b.String()
}

// Counts returns how many files and chunks the collection holds.
func (t *tx) Counts(ctx context.Context) (files, chunks int, err error) {
	st, err := t.state(ctx)
	if err != nil {
		return 0, 0, err
	}
	files = st.files
	if chunks, err = t.chunkCount(ctx); err != nil {
		return 0, 0, err
	}
	return files, chunks, nil
}

// SetMeta records key = value in the collection's metadata.
func (t *tx) SetMeta(ctx context.Context, key, value string) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO collection_meta(collection_id, key, value) VALUES(?, ?, ?)
		ON CONFLICT(collection_id, key) DO UPDATE SET value = excluded.value`, t.collection, key, value)
	if err != nil {
		return fmt.Errorf("recording %s: %w", key, err)
	}
	return nil
}

// DeleteMeta removes key from the collection's metadata.
func (t *tx) DeleteMeta(ctx context.Context, key string) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM collection_meta WHERE collection_id = ? AND key = ?`, t.collection, key); err != nil {
		return fmt.Errorf("removing %s: %w", key, err)
	}
	return nil
}

// Commit writes the run's posting lists, a new generation and the time of
// the run, makes them visible, and releases the writer lock.
func (t *tx) Commit(ctx context.Context, at time.Time) error {
	if t.done {
		return fmt.Errorf("the index transaction has already ended")
	}
	if err := t.flushPostings(ctx); err != nil {
		return err
	}
	if !t.deferMerges {
		if err := t.maintainSegments(ctx); err != nil {
			return err
		}
	}
	if err := t.saveState(ctx); err != nil {
		return err
	}
	generation := strconv.FormatInt(at.UnixNano(), 10)
	if err := t.logChange(ctx, generation); err != nil {
		return err
	}
	if err := t.SetMeta(ctx, store.MetaGeneration, generation); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(ctx, `UPDATE collections SET indexed_at = ? WHERE id = ?`, formatTime(at), t.collection); err != nil {
		return fmt.Errorf("recording the run: %w", err)
	}
	if err := t.tx.Commit(); err != nil {
		return fmt.Errorf("committing the index: %w", err)
	}
	if t.fresh != nil {
		// The run is committed to the new file; it becomes the index
		// when it is in place, which a cancelled ctx must not stop.
		err := t.fresh.install(context.WithoutCancel(ctx))
		if err != nil {
			t.fresh.abandon()
		}
		t.end()
		return err
	}
	t.d.truncateWAL(ctx)
	t.end()
	return nil
}

// Rollback abandons the run, leaving the previous generation as it was,
// and releases the writer lock. It does nothing after Commit.
func (t *tx) Rollback() error {
	if t.done {
		return nil
	}
	err := t.tx.Rollback()
	t.dropSpill()
	if t.fresh != nil {
		t.fresh.abandon()
	}
	t.end()
	return err
}

func (t *tx) end() {
	t.done = true
	for _, st := range []*sql.Stmt{t.insFile, t.insChunk, t.insText, t.insTerms, t.insSymbols} {
		st.Close()
	}
	t.lock.Release()
}
