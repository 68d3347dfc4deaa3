package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
)

// segmentsSchema holds the segments of each collection's inverted index
// (see store/segments.go): the base is the postings table and the
// 'doclens' and 'chunkmeta' blobs, which a full build writes; every other
// run adds a segment row with the lengths, metadata and tombstones of its
// change and its postings in segment_postings. Commits merge the youngest
// segments while they are of similar size, and fold all of them into the
// base once they weigh an eighth of it, so there are few segments and a
// run's cost follows its change.
const segmentsSchema = `
CREATE TABLE segments (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	seg           INTEGER NOT NULL, -- increasing: older segments hold lower chunk ids
	size          INTEGER NOT NULL, -- chunks plus tombstones: what merging it costs
	chunks        INTEGER NOT NULL, -- chunks it holds
	doclens       BLOB NOT NULL,    -- store.EncodeDocLens of the chunks it added
	chunkmeta     BLOB NOT NULL,    -- store.EncodeChunkMeta of the same
	deleted       BLOB NOT NULL,    -- store.EncodeIDs: chunks of older segments or the base it removed
	dirty         TEXT NOT NULL,    -- terms of those chunks, newline-separated: base lists to rewrite
	PRIMARY KEY (collection_id, seg)
) WITHOUT ROWID;
CREATE TABLE segment_postings (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	term          TEXT NOT NULL,
	seg           INTEGER NOT NULL,
	data          BLOB NOT NULL, -- store.EncodePostings
	PRIMARY KEY (collection_id, term, seg)
) WITHOUT ROWID;
CREATE INDEX segment_postings_seg ON segment_postings(collection_id, seg);
-- What a run would otherwise count: the chunks of the base (the head of
-- its 'doclens' blob, which reading would load whole) and the files.
CREATE TABLE index_state (
	collection_id INTEGER PRIMARY KEY REFERENCES collections(id) ON DELETE CASCADE,
	base_chunks   INTEGER NOT NULL,
	files         INTEGER NOT NULL
);
`

// addSegments brings a version 9 database to version 10: every
// collection's index as it is becomes its base, with no segments.
const addSegments = segmentsSchema

// Merge policy.
const (
	// maxSegments bounds the segments of a collection.
	maxSegments = 12
	// baseShare: the segments are folded into the base when their size
	// times baseShare exceeds the base's chunks.
	baseShare = 8
)

// segment is one segment row, decoded.
type segment struct {
	seg     int64
	size    int
	lens    *store.DocLens
	meta    []store.ChunkMeta
	deleted []int64
	dirty   []string
}

// nextChunkID assigns chunk ids that never repeat in the database: a
// removed chunk's id may still be in an older segment's lists, so a new
// chunk must not take it (SQLite's own rowids would reuse the highest).
func (t *tx) nextChunkID(ctx context.Context) (int64, error) {
	if t.chunkSeq == 0 {
		err := t.tx.QueryRowContext(ctx, `SELECT max(coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'chunk_seq'), 0),
			coalesce((SELECT max(id) FROM chunks), 0))`).Scan(&t.chunkSeq)
		if err != nil {
			return 0, fmt.Errorf("reading the chunk sequence: %w", err)
		}
		t.chunkSeqStart = t.chunkSeq
	}
	t.chunkSeq++
	return t.chunkSeq, nil
}

// saveChunkSeq records the highest chunk id assigned.
func (t *tx) saveChunkSeq(ctx context.Context) error {
	if t.chunkSeq == t.chunkSeqStart {
		return nil
	}
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('chunk_seq', ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, strconv.FormatInt(t.chunkSeq, 10)); err != nil {
		return fmt.Errorf("recording the chunk sequence: %w", err)
	}
	t.chunkSeqStart = t.chunkSeq
	return nil
}

// writeSegment writes the run's changes as a new segment, without the
// chunks in own (added and removed by the run).
func (t *tx) writeSegment(ctx context.Context, own store.IDSet) error {
	d := t.delta
	var last int64
	if err := t.tx.QueryRowContext(ctx, `SELECT coalesce(max(seg), 0) FROM segments WHERE collection_id = ?`, t.collection).Scan(&last); err != nil {
		return fmt.Errorf("reading the index's segments: %w", err)
	}
	lens, meta, err := d.chunks(own)
	if err != nil {
		return fmt.Errorf("joining the run's chunk lengths and metadata: %w", err)
	}
	s := &segment{seg: last + 1, lens: lens, meta: meta}
	for id := range d.removed {
		s.deleted = append(s.deleted, id)
	}
	slices.Sort(s.deleted)
	for term := range d.dirty {
		s.dirty = append(s.dirty, term)
	}
	sort.Strings(s.dirty)
	put, err := newBatchInsert(ctx, t.tx, `INSERT INTO segment_postings(collection_id, term, seg, data) VALUES`, "", 4)
	if err != nil {
		return err
	}
	defer put.close()
	err = t.eachList(ctx, own, func(term string, _ int, data []byte) error {
		if err := put.add(ctx, t.collection, term, s.seg, data); err != nil {
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
	return t.putSegment(ctx, s, true)
}

// docLensOf makes a DocLens (without averages) of lengths by id.
func docLensOf(m map[int64][store.NumFields]uint16) *store.DocLens {
	d := &store.DocLens{IDs: make([]int64, 0, len(m)), Lens: make([][store.NumFields]uint16, 0, len(m))}
	for id := range m {
		d.IDs = append(d.IDs, id)
	}
	slices.Sort(d.IDs)
	for _, id := range d.IDs {
		d.Lens = append(d.Lens, m[id])
	}
	return d
}

// putSegmentPostings writes the lists of a segment.
func (t *tx) putSegmentPostings(ctx context.Context, seg int64, lists map[string][]store.Posting) error {
	put, err := t.tx.PrepareContext(ctx, `INSERT INTO segment_postings(collection_id, term, seg, data) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer put.Close()
	terms := make([]string, 0, len(lists))
	for term, list := range lists {
		if len(list) > 0 {
			terms = append(terms, term)
		}
	}
	sort.Strings(terms)
	for _, term := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := put.ExecContext(ctx, t.collection, term, seg, store.EncodePostings(lists[term])); err != nil {
			return fmt.Errorf("writing postings of %q: %w", term, err)
		}
	}
	return nil
}

// putSegment writes a segment's row, inserting or replacing it.
func (t *tx) putSegment(ctx context.Context, s *segment, insert bool) error {
	s.size = s.lens.Len() + len(s.deleted)
	q := `INSERT INTO segments(collection_id, seg, size, chunks, doclens, chunkmeta, deleted, dirty) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`
	if !insert {
		q = `UPDATE segments SET size = ?3, chunks = ?4, doclens = ?5, chunkmeta = ?6, deleted = ?7, dirty = ?8 WHERE collection_id = ?1 AND seg = ?2`
	}
	_, err := t.tx.ExecContext(ctx, q, t.collection, s.seg, s.size, s.lens.Len(), store.EncodeDocLensOf(s.lens),
		store.EncodeChunkMeta(s.meta), store.EncodeIDs(s.deleted), strings.Join(s.dirty, "\n"))
	if err != nil {
		return fmt.Errorf("writing segment %d: %w", s.seg, err)
	}
	return nil
}

// segmentSizes lists the collection's segments, oldest first, with their
// sizes.
func (t *tx) segmentSizes(ctx context.Context) ([]segment, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT seg, size FROM segments WHERE collection_id = ? ORDER BY seg`, t.collection)
	if err != nil {
		return nil, fmt.Errorf("reading the index's segments: %w", err)
	}
	defer rows.Close()
	var out []segment
	for rows.Next() {
		var s segment
		if err := rows.Scan(&s.seg, &s.size); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// loadSegments reads segments whole: those numbered in only, or all.
func (t *tx) loadSegments(ctx context.Context, only ...int64) ([]*segment, error) {
	q := `SELECT seg, doclens, chunkmeta, deleted, dirty FROM segments WHERE collection_id = ? ORDER BY seg`
	rows, err := t.tx.QueryContext(ctx, q, t.collection)
	if err != nil {
		return nil, fmt.Errorf("reading the index's segments: %w", err)
	}
	defer rows.Close()
	var out []*segment
	for rows.Next() {
		var s segment
		var lens, meta, deleted []byte
		var dirty string
		if err := rows.Scan(&s.seg, &lens, &meta, &deleted, &dirty); err != nil {
			return nil, err
		}
		if len(only) > 0 && !slices.Contains(only, s.seg) {
			continue
		}
		if s.lens, err = store.DecodeDocLens(lens); err != nil {
			return nil, fmt.Errorf("segment %d: %w", s.seg, err)
		}
		if s.meta, err = store.DecodeChunkMeta(meta); err != nil {
			return nil, fmt.Errorf("segment %d: %w", s.seg, err)
		}
		if s.deleted, err = store.DecodeIDs(deleted); err != nil {
			return nil, fmt.Errorf("segment %d: %w", s.seg, err)
		}
		if dirty != "" {
			s.dirty = strings.Split(dirty, "\n")
		}
		out = append(out, &s)
	}
	return out, rows.Err()
}

// segmentLists reads the posting lists of segments (all when none are
// named): term → one list per segment, oldest first.
func (t *tx) segmentLists(ctx context.Context, segs ...int64) (map[string][][]store.Posting, error) {
	q := `SELECT term, data FROM segment_postings WHERE collection_id = ? ORDER BY term, seg`
	args := []any{t.collection}
	if len(segs) > 0 {
		q = `SELECT term, data FROM segment_postings WHERE collection_id = ? AND seg IN (` +
			strings.TrimSuffix(strings.Repeat("?,", len(segs)), ",") + `) ORDER BY term, seg`
		for _, s := range segs {
			args = append(args, s)
		}
	}
	rows, err := t.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("reading segment postings: %w", err)
	}
	out := map[string][][]store.Posting{}
	err = scanPostings(rows, func(term string, list []store.Posting) { out[term] = append(out[term], list) })
	return out, err
}

// maintainSegments keeps the segments few: it merges the two youngest
// while the younger weighs at least half the older (or there are too
// many), so that sizes fall by half or more from oldest to youngest, and
// folds every segment into the base once they weigh baseShare-th of it.
func (t *tx) maintainSegments(ctx context.Context) error {
	segs, err := t.segmentSizes(ctx)
	if err != nil {
		return err
	}
	for n := len(segs); n >= 2 && (segs[n-1].size*2 >= segs[n-2].size || n > maxSegments); n = len(segs) {
		size, err := t.mergePair(ctx, segs[n-2].seg, segs[n-1].seg)
		if err != nil {
			return err
		}
		segs[n-2].size = size
		segs = segs[:n-1]
	}
	if len(segs) == 0 {
		return nil
	}
	total := 0
	for _, s := range segs {
		total += s.size
	}
	base, err := t.baseChunks(ctx)
	if err != nil {
		return err
	}
	if total*baseShare > base {
		return t.mergeIntoBase(ctx)
	}
	return nil
}

// indexState is a collection's index_state row: base chunks and files
// (both -1 for a collection without a base).
type indexState struct{ baseChunks, files int }

// state reads the collection's index_state row, making it by counting
// when a collection written before the table (or by its first run) lacks
// it.
func (t *tx) state(ctx context.Context) (indexState, error) {
	if t.st != nil {
		return *t.st, nil
	}
	var st indexState
	err := t.tx.QueryRowContext(ctx, `SELECT base_chunks, files FROM index_state WHERE collection_id = ?`, t.collection).
		Scan(&st.baseChunks, &st.files)
	if noRows(err) {
		if st.baseChunks, err = t.countBaseChunks(ctx); err == nil {
			err = t.tx.QueryRowContext(ctx, `SELECT count(*) FROM files WHERE collection_id = ?`, t.collection).Scan(&st.files)
		}
	}
	if err != nil {
		return st, fmt.Errorf("reading the index's state: %w", err)
	}
	t.st = &st
	return st, nil
}

// saveState records the collection's index_state row.
func (t *tx) saveState(ctx context.Context) error {
	if t.st == nil {
		return nil
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO index_state(collection_id, base_chunks, files) VALUES(?, ?, ?)
		ON CONFLICT(collection_id) DO UPDATE SET base_chunks = excluded.base_chunks, files = excluded.files`,
		t.collection, t.st.baseChunks, t.st.files)
	if err != nil {
		return fmt.Errorf("recording the index's state: %w", err)
	}
	return nil
}

// baseChunks is how many chunks the base holds; -1 when there is none.
func (t *tx) baseChunks(ctx context.Context) (int, error) {
	st, err := t.state(ctx)
	return st.baseChunks, err
}

// setBaseChunks records the chunks of a base just written.
func (t *tx) setBaseChunks(ctx context.Context, n int) error {
	if _, err := t.state(ctx); err != nil {
		return err
	}
	t.st.baseChunks = n
	return nil
}

// addFiles counts files written (n > 0) or removed (n < 0).
func (t *tx) addFiles(ctx context.Context, n int) error {
	if _, err := t.state(ctx); err != nil {
		return err
	}
	t.st.files += n
	return nil
}

// countBaseChunks reads the count that starts the base's length blob; -1
// without a base.
func (t *tx) countBaseChunks(ctx context.Context) (int, error) {
	var head []byte
	err := t.tx.QueryRowContext(ctx, `SELECT substr(data, 1, 10) FROM blobs WHERE collection_id = ? AND name = ?`,
		t.collection, blobDocLens).Scan(&head)
	if noRows(err) {
		return -1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading the index's base: %w", err)
	}
	n, k := binary.Uvarint(head)
	if k <= 0 {
		return 0, nil
	}
	return int(n), nil
}

// mergePair merges segment b into the older segment a, which it
// immediately follows, and returns the merged size: the chunks of a that
// b removed are dropped with their tombstones.
func (t *tx) mergePair(ctx context.Context, a, b int64) (int, error) {
	segs, err := t.loadSegments(ctx, a, b)
	if err != nil {
		return 0, err
	}
	if len(segs) != 2 {
		return 0, fmt.Errorf("merging segments %d and %d: %d found", a, b, len(segs))
	}
	sa, sb := segs[0], segs[1]
	dead := store.IDSet{}
	dead.AddAll(sb.deleted)
	inA := make(store.IDSet, sa.lens.Len())
	inA.AddAll(sa.lens.IDs)
	merged := &segment{seg: a,
		lens: store.JoinDocLens([]*store.DocLens{sa.lens, sb.lens}, dead),
		meta: store.JoinChunkMeta([][]store.ChunkMeta{sa.meta, sb.meta}, dead)}
	merged.deleted = slices.Clone(sa.deleted)
	for _, id := range sb.deleted {
		if !inA.Has(id) {
			merged.deleted = append(merged.deleted, id)
		}
	}
	slices.Sort(merged.deleted)
	merged.dirty = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(sa.dirty), sb.dirty...))))
	lists, err := t.segmentLists(ctx, a, b)
	if err != nil {
		return 0, err
	}
	joined := make(map[string][]store.Posting, len(lists))
	for term, parts := range lists {
		joined[term] = store.JoinPostings(parts, dead)
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM segment_postings WHERE collection_id = ? AND seg IN (?, ?)`, t.collection, a, b); err != nil {
		return 0, fmt.Errorf("merging segments: %w", err)
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM segments WHERE collection_id = ? AND seg = ?`, t.collection, b); err != nil {
		return 0, fmt.Errorf("merging segments: %w", err)
	}
	if err := t.putSegmentPostings(ctx, a, joined); err != nil {
		return 0, err
	}
	if err := t.putSegment(ctx, merged, false); err != nil {
		return 0, err
	}
	return merged.size, nil
}

// mergeIntoBase folds every segment into the base: the base lists of the
// segments' terms and of their removed chunks' terms are rewritten, and
// the length and metadata blobs.
func (t *tx) mergeIntoBase(ctx context.Context) error {
	segs, err := t.loadSegments(ctx)
	if err != nil {
		return err
	}
	dead := store.IDSet{}
	for _, s := range segs {
		dead.AddAll(s.deleted)
	}
	lists, err := t.segmentLists(ctx)
	if err != nil {
		return err
	}
	termSet := make(map[string]bool, len(lists))
	for term := range lists {
		termSet[term] = true
	}
	for _, s := range segs {
		for _, term := range s.dirty {
			termSet[term] = true
		}
	}
	terms := make([]string, 0, len(termSet))
	for term := range termSet {
		terms = append(terms, term)
	}
	sort.Strings(terms)
	stored, err := t.readPostings(ctx, terms)
	if err != nil {
		return err
	}
	put, err := t.tx.PrepareContext(ctx, `INSERT INTO postings(collection_id, term, df, data) VALUES(?, ?, ?, ?)
		ON CONFLICT(collection_id, term) DO UPDATE SET df = excluded.df, data = excluded.data`)
	if err != nil {
		return err
	}
	defer put.Close()
	del, err := t.tx.PrepareContext(ctx, `DELETE FROM postings WHERE collection_id = ? AND term = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	for _, term := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		list := store.JoinPostings(append([][]store.Posting{stored[term]}, lists[term]...), dead)
		if len(list) == 0 {
			if _, err := del.ExecContext(ctx, t.collection, term); err != nil {
				return err
			}
			continue
		}
		if _, err := put.ExecContext(ctx, t.collection, term, len(list), store.EncodePostings(list)); err != nil {
			return fmt.Errorf("writing postings of %q: %w", term, err)
		}
	}
	blob, err := t.blob(ctx, blobDocLens)
	if err != nil {
		return fmt.Errorf("reading chunk lengths: %w", err)
	}
	baseLens, err := store.DecodeDocLens(blob)
	if err != nil {
		return err
	}
	lensParts := []*store.DocLens{baseLens}
	metaParts := [][]store.ChunkMeta{nil}
	for _, s := range segs {
		lensParts = append(lensParts, s.lens)
		metaParts = append(metaParts, s.meta)
	}
	lens := store.JoinDocLens(lensParts, dead)
	if err := t.putBlob(ctx, blobDocLens, store.EncodeDocLensOf(lens)); err != nil {
		return fmt.Errorf("writing chunk lengths: %w", err)
	}
	if err := t.setBaseChunks(ctx, lens.Len()); err != nil {
		return err
	}
	metaBlob, err := t.blob(ctx, blobChunkMeta)
	if err != nil {
		return fmt.Errorf("reading chunk metadata: %w", err)
	}
	var meta []store.ChunkMeta
	if metaBlob == nil {
		// Written before the blob existed: the table holds every chunk.
		if meta, err = readChunkMeta(ctx, t.tx, t.collection); err != nil {
			return err
		}
	} else {
		if metaParts[0], err = store.DecodeChunkMeta(metaBlob); err != nil {
			return fmt.Errorf("reading chunk metadata: %w", err)
		}
		meta = store.JoinChunkMeta(metaParts, dead)
	}
	if err := t.putChunkMeta(ctx, meta); err != nil {
		return err
	}
	for _, q := range []string{`DELETE FROM segment_postings WHERE collection_id = ?`, `DELETE FROM segments WHERE collection_id = ?`} {
		if _, err := t.tx.ExecContext(ctx, q, t.collection); err != nil {
			return fmt.Errorf("folding segments into the base: %w", err)
		}
	}
	return nil
}

// chunkCount is how many chunks the collection holds in the run's view,
// without counting rows: the base's count, plus each segment's chunks
// less its tombstones (each names a chunk of the base or an older segment,
// once), plus the run's own change not yet written.
func (t *tx) chunkCount(ctx context.Context) (int, error) {
	d := t.delta
	n := len(d.ids) - len(d.removed)
	if d.reset {
		return n, nil
	}
	base, err := t.baseChunks(ctx)
	if err != nil {
		return 0, err
	}
	base = max(base, 0)
	var segs int
	if err := t.tx.QueryRowContext(ctx, `SELECT coalesce(sum(2 * chunks - size), 0) FROM segments WHERE collection_id = ?`,
		t.collection).Scan(&segs); err != nil {
		return 0, fmt.Errorf("counting the index: %w", err)
	}
	return base + segs + n, nil
}

// completeChunkMeta writes the base's metadata blob from the chunks table
// when an index written before the blob existed lacks it.
func (t *tx) completeChunkMeta(ctx context.Context) error {
	var n int
	err := t.tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM blobs WHERE collection_id = ?1 AND name = ?2)
		+ (SELECT count(*) FROM segments WHERE collection_id = ?1)`, t.collection, blobChunkMeta).Scan(&n)
	if err != nil {
		return fmt.Errorf("reading chunk metadata: %w", err)
	}
	if n > 0 {
		return nil
	}
	all, err := readChunkMeta(ctx, t.tx, t.collection)
	if err != nil {
		return err
	}
	return t.putChunkMeta(ctx, all)
}

// deadChunks is the union of the segments' tombstones, read in the run.
func (t *tx) deadChunks(ctx context.Context) (store.IDSet, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT deleted FROM segments WHERE collection_id = ?`, t.collection)
	if err != nil {
		return nil, fmt.Errorf("reading the index's segments: %w", err)
	}
	return scanDead(rows)
}

// scanDead decodes rows of tombstone blobs into one set and closes them.
func scanDead(rows *sql.Rows) (store.IDSet, error) {
	defer rows.Close()
	dead := store.IDSet{}
	for rows.Next() {
		var blob []byte
		if err := rows.Scan(&blob); err != nil {
			return nil, err
		}
		ids, err := store.DecodeIDs(blob)
		if err != nil {
			return nil, err
		}
		dead.AddAll(ids)
	}
	return dead, rows.Err()
}

// DocLens reads the field lengths of every live chunk: the base's and
// each segment's, without the chunks the segments removed, in one query so
// that they come from one snapshot.
func (r *reader) DocLens(ctx context.Context) (*store.DocLens, error) {
	if r.d.noSegments {
		blob, err := r.blob(ctx, blobDocLens)
		if err != nil {
			return nil, fmt.Errorf("reading chunk lengths: %w", err)
		}
		return store.DecodeDocLens(blob)
	}
	parts, dead, err := r.segmentBlobs(ctx, blobDocLens, "doclens")
	if err != nil {
		return nil, fmt.Errorf("reading chunk lengths: %w", err)
	}
	if len(parts) == 1 && len(dead) == 0 {
		return store.DecodeDocLens(parts[0])
	}
	lens := make([]*store.DocLens, len(parts))
	for i, p := range parts {
		if lens[i], err = store.DecodeDocLens(p); err != nil {
			return nil, err
		}
	}
	return store.JoinDocLens(lens, dead), nil
}

// segmentBlobs reads a base blob (nil when absent) and the same column of
// every segment, oldest first, with the segments' tombstones.
func (r *reader) segmentBlobs(ctx context.Context, blob, column string) ([][]byte, store.IDSet, error) {
	rows, err := r.d.query(ctx, `SELECT 0, data, NULL FROM blobs WHERE collection_id = ?1 AND name = ?2
		UNION ALL SELECT seg, `+column+`, deleted FROM segments WHERE collection_id = ?1 ORDER BY 1`, r.id, blob)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	parts := [][]byte{nil}
	dead := store.IDSet{}
	for rows.Next() {
		var seg int64
		var data, deleted []byte
		if err := rows.Scan(&seg, &data, &deleted); err != nil {
			return nil, nil, err
		}
		if seg == 0 {
			parts[0] = data
			continue
		}
		parts = append(parts, data)
		ids, err := store.DecodeIDs(deleted)
		if err != nil {
			return nil, nil, err
		}
		dead.AddAll(ids)
	}
	return parts, dead, rows.Err()
}

// Maintain merges a collection's segments as a commit would (see
// maintainSegments), for runs that deferred it; the merged index holds
// the same chunks, so the generation and the change log stay as they
// are. It does nothing while a writer holds the index.
func (d *DB) Maintain(ctx context.Context, collection string) error {
	if d.readOnly {
		return fmt.Errorf("index %s is open read-only", d.path)
	}
	lock, err := Lock(ctx, d.path, store.WriteOptions{NoWait: true})
	if errs.KindOf(err) == errs.Busy {
		return nil
	}
	if err != nil {
		return err
	}
	var id int64
	err = d.db.QueryRowContext(ctx, `SELECT id FROM collections WHERE name = ?`, collection).Scan(&id)
	if err != nil {
		lock.Release()
		if noRows(err) || isNoSuchTable(err) {
			return nil
		}
		return fmt.Errorf("reading collection %s: %w", collection, err)
	}
	t, err := d.begin(ctx, d.db, id, lock, 0)
	if err != nil {
		lock.Release()
		return err
	}
	defer t.Rollback()
	if err := t.maintainSegments(ctx); err != nil {
		return fmt.Errorf("merging the segments of %s: %w", collection, err)
	}
	if err := t.saveState(ctx); err != nil {
		return err
	}
	if err := t.tx.Commit(); err != nil {
		return fmt.Errorf("merging the segments of %s: %w", collection, err)
	}
	t.d.truncateWAL(ctx)
	t.end()
	return nil
}
