package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/lore-dev/lore/internal/store"
)

// postingsDelta collects a run's changes to the inverted index and to the
// per-chunk tables kept as blobs (lengths, metadata). At commit a full
// build writes them as the collection's base; an incremental run writes
// them as a new segment (see segments.go), so that its cost follows the
// change, not the collection. Past the run's memory budget the gathered
// lists are spilled and the lengths and metadata encoded (see spill.go).
type postingsDelta struct {
	reset   bool            // a forced rebuild: stored lists are dropped
	added   postingLists    // term → new postings
	removed map[int64]bool  // chunks that left the index
	dirty   map[string]bool // terms whose lists lose a removed chunk
	// ids are the chunks the run added, increasing (ids only grow); lens
	// and meta the lengths and metadata of those added since the last
	// spill, in the same order, and lensParts and metaParts those of the
	// earlier ones, encoded, one per spill.
	ids                  []int64
	lens                 [][store.NumFields]uint16
	meta                 []store.ChunkMeta
	lensParts, metaParts [][]byte
	// size estimates the memory added, lens and meta hold; parts counts
	// the spills, written to spill (see spill.go).
	size  int64
	parts int
	spill *spillFile
}

// postingLists holds each term's new postings behind a pointer, so that
// adding a posting is one map lookup (the writer does one a chunk and
// term): a map of slices needs a lookup and an assignment.
type postingLists map[string]*[]store.Posting

func newPostingsDelta() *postingsDelta {
	return &postingsDelta{
		added:   postingLists{},
		removed: map[int64]bool{},
		dirty:   map[string]bool{},
	}
}

func (d *postingsDelta) empty() bool {
	return !d.reset && len(d.added) == 0 && d.parts == 0 && len(d.removed) == 0
}

// What add counts toward a run's memory budget: a posting in a list (24
// bytes, in a list grown by doubling, so about half as much again), a
// term's map entry, list header and first list besides its bytes, and a
// chunk's id, lengths and metadata besides its symbols. Checked against
// the live heap of a 4M-line build (GODEBUG=gctrace=1): the heap between
// spills grows by about the budget.
const (
	postingCost = 40
	termCost    = 96
	chunkCost   = 100
)

// add gathers a new chunk, its field lengths and its terms (each once);
// its id is higher than any added before.
func (d *postingsDelta) add(m store.ChunkMeta, lens [store.NumFields]uint16, terms []store.TermFreq) {
	for _, t := range terms {
		list := d.added[t.Term]
		if list == nil {
			list = new([]store.Posting)
			d.added[t.Term] = list
			d.size += termCost + int64(len(t.Term))
		}
		*list = append(*list, store.Posting{ChunkID: m.ID, Freqs: t.Freqs})
	}
	d.size += int64(len(terms))*postingCost + chunkCost + int64(len(m.Symbols))
	d.ids = append(d.ids, m.ID)
	d.lens = append(d.lens, lens)
	d.meta = append(d.meta, m)
}

// addedByRun reports whether the run added chunk id.
func (d *postingsDelta) addedByRun(id int64) bool {
	_, ok := slices.BinarySearch(d.ids, id)
	return ok
}

// dropOwnRemovals takes the chunks that the run both added and removed out
// of what it adds: they never reach the index. It returns them, for what
// was already spilled.
func (d *postingsDelta) dropOwnRemovals() store.IDSet {
	own := store.IDSet{}
	for id := range d.removed {
		if d.addedByRun(id) {
			own[id] = struct{}{}
			delete(d.removed, id)
		}
	}
	if len(own) == 0 {
		return own
	}
	d.ids = slices.DeleteFunc(d.ids, own.Has)
	for term, list := range d.added {
		*list = slices.DeleteFunc(*list, func(p store.Posting) bool { return own.Has(p.ChunkID) })
		if len(*list) == 0 {
			delete(d.added, term)
		}
	}
	var lens [][store.NumFields]uint16
	for i, m := range d.meta {
		if !own.Has(m.ID) {
			lens = append(lens, d.lens[i])
		}
	}
	d.lens = lens
	d.meta = slices.DeleteFunc(d.meta, func(m store.ChunkMeta) bool { return own.Has(m.ID) })
	return own
}

// spillChunks encodes the lengths and metadata gathered since the last
// spill as one more part of each.
func (d *postingsDelta) spillChunks() {
	if len(d.meta) == 0 {
		return
	}
	ids := make([]int64, len(d.meta))
	for i, m := range d.meta {
		ids[i] = m.ID
	}
	d.lensParts = append(d.lensParts, store.EncodeDocLensOf(&store.DocLens{IDs: ids, Lens: d.lens}))
	d.metaParts = append(d.metaParts, store.EncodeChunkMeta(d.meta))
	d.lens, d.meta = nil, nil
}

// chunks returns the lengths and metadata of every chunk the run added,
// in id order, without those in own.
func (d *postingsDelta) chunks(own store.IDSet) (*store.DocLens, []store.ChunkMeta, error) {
	lensParts := make([]*store.DocLens, 0, len(d.lensParts)+1)
	metaParts := make([][]store.ChunkMeta, 0, len(d.metaParts)+1)
	for i := range d.lensParts {
		lens, err := store.DecodeDocLens(d.lensParts[i])
		if err != nil {
			return nil, nil, err
		}
		meta, err := store.DecodeChunkMeta(d.metaParts[i])
		if err != nil {
			return nil, nil, err
		}
		lensParts, metaParts = append(lensParts, lens), append(metaParts, meta)
	}
	ids := make([]int64, len(d.meta))
	for i, m := range d.meta {
		ids[i] = m.ID
	}
	lensParts = append(lensParts, &store.DocLens{IDs: ids, Lens: d.lens})
	metaParts = append(metaParts, d.meta)
	return store.JoinDocLens(lensParts, own), store.JoinChunkMeta(metaParts, own), nil
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
	own := d.dropOwnRemovals()
	full := d.reset
	if !full {
		var err error
		if full, err = t.collectionEmpty(ctx); err != nil {
			return err
		}
	}
	if !full {
		if err := t.writeSegment(ctx, own); err != nil {
			return err
		}
		t.delta = newPostingsDelta() // flushed: a second flush has nothing to do
		return nil
	}
	if err := t.clearPostings(ctx); err != nil {
		return err
	}
	put, err := newBatchInsert(ctx, t.tx, `INSERT INTO postings(collection_id, term, df, data) VALUES`, "", 4)
	if err != nil {
		return err
	}
	defer put.close()
	err = t.eachList(ctx, own, func(term string, df int, data []byte) error {
		if err := put.add(ctx, t.collection, term, df, data); err != nil {
			return fmt.Errorf("writing postings up to %q: %w", term, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := put.flush(ctx); err != nil {
		return fmt.Errorf("writing postings: %w", err)
	}
	// The base's blobs are joined from the encoded parts, never decoded
	// whole: a large build's commit holds the parts and the blobs only.
	d.spillChunks()
	lens, n, err := store.ConcatDocLens(d.lensParts, own)
	if err != nil {
		return fmt.Errorf("joining the run's chunk lengths: %w", err)
	}
	if err := t.putBlob(ctx, blobDocLens, lens); err != nil {
		return fmt.Errorf("writing chunk lengths: %w", err)
	}
	lens = nil
	if err := t.setBaseChunks(ctx, n); err != nil {
		return err
	}
	meta, err := store.ConcatChunkMeta(d.metaParts, own)
	if err != nil {
		return fmt.Errorf("joining the run's chunk metadata: %w", err)
	}
	if err := t.putBlob(ctx, blobChunkMeta, meta); err != nil {
		return fmt.Errorf("writing chunk metadata: %w", err)
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
