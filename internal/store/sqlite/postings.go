package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/store"
)

// postingsDelta collects a run's changes to the inverted index and to the
// per-chunk tables kept as blobs (lengths, metadata). At commit a full
// build writes them as the collection's base; an incremental run writes
// them as a new segment (see segments.go), so that its cost follows the
// change, not the collection.
type postingsDelta struct {
	reset   bool                       // a forced rebuild: stored lists are dropped
	added   map[string][]store.Posting // term → new postings
	removed map[int64]bool             // chunks that left the index
	dirty   map[string]bool            // terms whose lists lose a removed chunk
	lens    map[int64][store.NumFields]uint16
	meta    []store.ChunkMeta // metadata of the new chunks
}

func newPostingsDelta() *postingsDelta {
	return &postingsDelta{
		added:   map[string][]store.Posting{},
		removed: map[int64]bool{},
		dirty:   map[string]bool{},
		lens:    map[int64][store.NumFields]uint16{},
	}
}

func (d *postingsDelta) empty() bool {
	return !d.reset && len(d.added) == 0 && len(d.removed) == 0
}

func (d *postingsDelta) add(chunkID int64, ts store.TermStats) {
	for term, f := range ts.Freqs {
		d.added[term] = append(d.added[term], store.Posting{ChunkID: chunkID, Freqs: f})
	}
	d.lens[chunkID] = ts.Lens
}

// dropOwnRemovals takes the chunks that the run both added and removed out
// of what it adds: they never reach the index.
func (d *postingsDelta) dropOwnRemovals() {
	own := false
	for id := range d.removed {
		if _, ok := d.lens[id]; ok {
			own = true
			delete(d.lens, id)
			delete(d.removed, id)
		}
	}
	if !own {
		return
	}
	live := func(p store.Posting) bool { _, ok := d.lens[p.ChunkID]; return ok }
	for term, list := range d.added {
		list = slices.DeleteFunc(list, func(p store.Posting) bool { return !live(p) })
		if len(list) == 0 {
			delete(d.added, term)
		} else {
			d.added[term] = list
		}
	}
	d.meta = slices.DeleteFunc(d.meta, func(m store.ChunkMeta) bool { _, ok := d.lens[m.ID]; return !ok })
}

// forgetChunks records that the chunks of a file are leaving the index,
// marking their terms dirty.
func (t *tx) forgetChunks(ctx context.Context, fileID int64) error {
	rows, err := t.tx.QueryContext(ctx, `SELECT c.id, t.terms FROM chunks c JOIN chunk_terms t ON t.chunk_id = c.id WHERE c.file_id = ?`, fileID)
	if err != nil {
		return fmt.Errorf("reading terms of removed chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var terms string
		if err := rows.Scan(&id, &terms); err != nil {
			return err
		}
		t.delta.removed[id] = true
		t.change.removeChunk(id)
		for _, term := range strings.Split(terms, "\n") {
			if term != "" {
				t.delta.dirty[term] = true
			}
		}
	}
	return rows.Err()
}

// flushPostings writes the run's changes: a full build (a forced rebuild,
// or the first run of a collection) as the base, any other run as a new
// segment.
func (t *tx) flushPostings(ctx context.Context) error {
	d := t.delta
	if err := t.saveChunkSeq(ctx); err != nil {
		return err
	}
	if d.empty() {
		return t.completeChunkMeta(ctx) // writes the blob only if an older index lacks it
	}
	d.dropOwnRemovals()
	full := d.reset
	if !full {
		var err error
		if full, err = t.collectionEmpty(ctx); err != nil {
			return err
		}
	}
	if !full {
		if err := t.writeSegment(ctx); err != nil {
			return err
		}
		t.delta = newPostingsDelta() // flushed: a second flush has nothing to do
		return nil
	}
	if err := t.clearPostings(ctx); err != nil {
		return err
	}
	terms := make([]string, 0, len(d.added))
	for term := range d.added {
		terms = append(terms, term)
	}
	sort.Strings(terms)
	put, err := t.tx.PrepareContext(ctx, `INSERT INTO postings(collection_id, term, df, data) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer put.Close()
	for _, term := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		list := d.added[term]
		sortPostings(list)
		if _, err := put.ExecContext(ctx, t.collection, term, len(list), store.EncodePostings(list)); err != nil {
			return fmt.Errorf("writing postings of %q: %w", term, err)
		}
	}
	if err := t.putBlob(ctx, blobDocLens, store.EncodeDocLens(d.lens)); err != nil {
		return fmt.Errorf("writing chunk lengths: %w", err)
	}
	if err := t.setBaseChunks(ctx, len(d.lens)); err != nil {
		return err
	}
	meta := slices.Clone(d.meta)
	slices.SortFunc(meta, func(a, b store.ChunkMeta) int { return cmpID(a.ID, b.ID) })
	if err := t.putChunkMeta(ctx, meta); err != nil {
		return err
	}
	t.delta = newPostingsDelta()
	return nil
}

// clearPostings drops the collection's base and segments (a full build
// writes them anew).
func (t *tx) clearPostings(ctx context.Context) error {
	for _, q := range []string{
		`DELETE FROM postings WHERE collection_id = ?`,
		`DELETE FROM segment_postings WHERE collection_id = ?`,
		`DELETE FROM segments WHERE collection_id = ?`,
	} {
		if _, err := t.tx.ExecContext(ctx, q, t.collection); err != nil {
			return fmt.Errorf("clearing postings: %w", err)
		}
	}
	return nil
}

// collectionEmpty reports whether the collection has no base and no
// segment yet: its first run writes the base.
func (t *tx) collectionEmpty(ctx context.Context) (bool, error) {
	base, err := t.baseChunks(ctx)
	if err != nil || base >= 0 {
		return false, err
	}
	var n int
	if err := t.tx.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM segments WHERE collection_id = ?)`, t.collection).Scan(&n); err != nil {
		return false, fmt.Errorf("reading the index's segments: %w", err)
	}
	return n == 0, nil
}

func sortPostings(list []store.Posting) {
	slices.SortFunc(list, func(a, b store.Posting) int { return cmpID(a.ChunkID, b.ChunkID) })
}

func cmpID(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The blobs of a collection.
const (
	blobDocLens   = "doclens"
	blobChunkMeta = "chunkmeta"
)

// blob reads a blob of the collection inside the run; nil when absent.
func (t *tx) blob(ctx context.Context, name string) ([]byte, error) {
	var data []byte
	err := t.tx.QueryRowContext(ctx, `SELECT data FROM blobs WHERE collection_id = ? AND name = ?`, t.collection, name).Scan(&data)
	if noRows(err) {
		return nil, nil
	}
	return data, err
}

// putBlob writes a blob of the collection.
func (t *tx) putBlob(ctx context.Context, name string, data []byte) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO blobs(collection_id, name, data) VALUES(?, ?, ?)
		ON CONFLICT(collection_id, name) DO UPDATE SET data = excluded.data`, t.collection, name, data)
	return err
}

// readPostings reads the stored base lists of terms inside the
// transaction, a few hundred terms per query.
func (t *tx) readPostings(ctx context.Context, terms []string) (map[string][]store.Posting, error) {
	out := make(map[string][]store.Posting, len(terms))
	err := inBatches(terms, func(marks string, args []any) error {
		rows, err := t.tx.QueryContext(ctx, `SELECT term, data FROM postings WHERE collection_id = ? AND term IN (`+marks+`)`,
			append([]any{t.collection}, args...)...)
		if err != nil {
			return fmt.Errorf("reading postings: %w", err)
		}
		return scanPostings(rows, func(term string, list []store.Posting) { out[term] = list })
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanPostings decodes rows of (term, data) and closes them.
func scanPostings(rows *sql.Rows, each func(term string, list []store.Posting)) error {
	defer rows.Close()
	for rows.Next() {
		var term string
		var blob []byte
		if err := rows.Scan(&term, &blob); err != nil {
			return err
		}
		list, err := store.DecodePostings(blob)
		if err != nil {
			return fmt.Errorf("postings of %q: %w", term, err)
		}
		each(term, list)
	}
	return rows.Err()
}

// Postings reads the posting lists of terms, resolved to positions in
// lens, one list per term in order (nil for a term not in the index): the
// base list followed by each segment's, oldest first, read by one query
// per batch of terms so that they come from one snapshot. It decodes
// straight from SQLite's buffer into the resolved lists: a search touches
// no other memory for them, which matters most to a one-shot process,
// where every fresh page costs a fault.
func (r *reader) Postings(ctx context.Context, terms []string, lens *store.DocLens) ([][]store.PostingAt, error) {
	out := make([][]store.PostingAt, len(terms))
	if len(terms) == 0 {
		return out, nil
	}
	index := make(map[string]int, len(terms))
	for i, t := range terms {
		index[t] = i
	}
	err := inBatches(terms, func(marks string, args []any) error {
		q := `SELECT term, data FROM postings WHERE collection_id = ? AND term IN (` + marks + `)`
		qargs := append([]any{r.id}, args...)
		if !r.d.noSegments {
			q = `SELECT term, 0 AS seg, data FROM postings WHERE collection_id = ? AND term IN (` + marks + `)
				UNION ALL SELECT term, seg, data FROM segment_postings WHERE collection_id = ? AND term IN (` + marks + `)
				ORDER BY 1, 2`
			qargs = append(append(qargs, r.id), args...)
		}
		rows, err := r.d.query(ctx, q, qargs...)
		if err != nil {
			return err
		}
		defer rows.Close()
		begun := map[int]bool{} // terms whose first part this batch read
		for rows.Next() {
			var term string
			var seg int64
			var blob sql.RawBytes
			dest := []any{&term, &seg, &blob}
			if r.d.noSegments {
				dest = []any{&term, &blob}
			}
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			i, ok := index[term]
			if !ok {
				continue
			}
			list, err := store.DecodePostingsAt(blob, lens)
			if err != nil {
				return fmt.Errorf("postings of %q: %w", term, err)
			}
			if !begun[i] {
				// The first part; a term asked twice is read again by a
				// later batch, which replaces it.
				begun[i] = true
				out[i] = list
			} else {
				out[i] = append(out[i], list...)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading postings: %w", err)
	}
	return out, nil
}
