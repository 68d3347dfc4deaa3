package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// NumFields is the number of searchable fields of a chunk.
const NumFields = 6

// The searchable fields, in the order of their frequencies and lengths.
const (
	FieldSymbols   = iota // the names the chunk defines
	FieldName             // the file's base name without extension
	FieldPath             // the folders of the file's path
	FieldSignature        // the declaration line
	FieldDoc              // the doc comment
	FieldBody             // the whole text
)

// TermStats are a chunk's terms for lore's own inverted index: how often
// each (stemmed) term occurs in each field, and each field's length.
type TermStats struct {
	Freqs map[string][NumFields]uint16
	Lens  [NumFields]uint16
}

// Posting is one chunk in a term's posting list.
type Posting struct {
	ChunkID int64
	Freqs   [NumFields]uint16
}

// DocLens are the field lengths of every chunk, sorted by chunk id, and
// their averages: what BM25 needs to normalise by length.
type DocLens struct {
	IDs  []int64
	Lens [][NumFields]uint16
	Avg  [NumFields]float64
}

// Pos returns the position of a chunk in IDs.
func (d *DocLens) Pos(id int64) (int, bool) {
	i := sort.Search(len(d.IDs), func(i int) bool { return d.IDs[i] >= id })
	return i, i < len(d.IDs) && d.IDs[i] == id
}

// PostingAt is a posting resolved to its chunk's position in a DocLens:
// what ranking iterates over.
type PostingAt struct {
	Pos   int32
	Freqs [NumFields]uint16
}

// resolver finds increasing chunk ids in a DocLens. Both posting lists
// and DocLens are sorted by chunk id, so resolving a list is one merge; a
// list much shorter than d gallops (binary search over the rest of d)
// instead of stepping through every chunk, so a rare term costs its own
// length.
type resolver struct {
	ids    []int64
	pos    int
	gallop bool
}

func (d *DocLens) resolver(listLen int) resolver {
	return resolver{ids: d.IDs, gallop: listLen*16 < len(d.IDs)}
}

// find returns the position of id, which must not be below the previous
// id asked for.
func (r *resolver) find(id int64) (int32, bool) {
	if r.gallop {
		rest := r.ids[r.pos:]
		r.pos += sort.Search(len(rest), func(i int) bool { return rest[i] >= id })
	} else {
		for r.pos < len(r.ids) && r.ids[r.pos] < id {
			r.pos++
		}
	}
	if r.pos < len(r.ids) && r.ids[r.pos] == id {
		return int32(r.pos), true
	}
	return 0, false
}

// Len is the number of chunks.
func (d *DocLens) Len() int { return len(d.IDs) }

// postingsDelta collects a run's changes to the inverted index and to the
// per-chunk tables kept as blobs (lengths, metadata); they are merged into
// the stored ones at commit.
type postingsDelta struct {
	reset   bool                 // a forced rebuild: stored lists are dropped
	added   map[string][]Posting // term → new postings
	removed map[int64]bool       // chunks that left the index
	dirty   map[string]bool      // terms whose lists lose a removed chunk
	lens    map[int64][NumFields]uint16
	meta    []ChunkMeta // metadata of the new chunks
}

func newPostingsDelta() *postingsDelta {
	return &postingsDelta{
		added:   map[string][]Posting{},
		removed: map[int64]bool{},
		dirty:   map[string]bool{},
		lens:    map[int64][NumFields]uint16{},
	}
}

func (d *postingsDelta) empty() bool {
	return !d.reset && len(d.added) == 0 && len(d.removed) == 0
}

func (d *postingsDelta) add(chunkID int64, ts TermStats) {
	for term, f := range ts.Freqs {
		d.added[term] = append(d.added[term], Posting{ChunkID: chunkID, Freqs: f})
	}
	d.lens[chunkID] = ts.Lens
}

// forgetChunks records that the chunks of a file are leaving the index,
// marking their terms dirty.
func (t *Tx) forgetChunks(ctx context.Context, where string, arg int64) error {
	rows, err := t.tx.QueryContext(ctx, `SELECT c.id, t.terms FROM chunks c JOIN chunk_terms t ON t.chunk_id = c.id WHERE `+where, arg)
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
		for _, term := range strings.Split(terms, "\n") {
			if term != "" {
				t.delta.dirty[term] = true
			}
		}
	}
	return rows.Err()
}

// flushPostings merges the run's changes into the stored posting lists and
// the length table.
func (t *Tx) flushPostings(ctx context.Context) error {
	d := t.delta
	if d.empty() {
		return t.flushChunkMeta(ctx) // writes the blob only if an older index lacks it
	}
	if d.reset {
		if _, err := t.tx.ExecContext(ctx, `DELETE FROM postings`); err != nil {
			return fmt.Errorf("clearing postings: %w", err)
		}
	}
	terms := make([]string, 0, len(d.added)+len(d.dirty))
	for term := range d.added {
		terms = append(terms, term)
	}
	for term := range d.dirty {
		if _, ok := d.added[term]; !ok {
			terms = append(terms, term)
		}
	}
	sort.Strings(terms)
	var err error
	var stored map[string][]Posting
	if !d.reset {
		if stored, err = t.readPostings(ctx, terms); err != nil {
			return err
		}
	}
	put, err := t.tx.PrepareContext(ctx, `INSERT INTO postings(term, df, data) VALUES(?, ?, ?)
		ON CONFLICT(term) DO UPDATE SET df = excluded.df, data = excluded.data`)
	if err != nil {
		return err
	}
	defer put.Close()
	del, err := t.tx.PrepareContext(ctx, `DELETE FROM postings WHERE term = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	for _, term := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		list := stored[term]
		if len(d.removed) > 0 {
			kept := list[:0]
			for _, p := range list {
				if !d.removed[p.ChunkID] {
					kept = append(kept, p)
				}
			}
			list = kept
		}
		list = append(list, d.added[term]...)
		if len(list) == 0 {
			if _, err := del.ExecContext(ctx, term); err != nil {
				return err
			}
			continue
		}
		sort.Slice(list, func(i, j int) bool { return list[i].ChunkID < list[j].ChunkID })
		if _, err := put.ExecContext(ctx, term, len(list), encodePostings(list)); err != nil {
			return fmt.Errorf("writing postings of %q: %w", term, err)
		}
	}
	if err := t.flushLens(ctx); err != nil {
		return err
	}
	if err := t.flushChunkMeta(ctx); err != nil {
		return err
	}
	t.delta = newPostingsDelta() // flushed: a second flush has nothing to do
	return nil
}

func (t *Tx) flushLens(ctx context.Context) error {
	d := t.delta
	all := map[int64][NumFields]uint16{}
	if !d.reset {
		var blob []byte
		err := t.tx.QueryRowContext(ctx, `SELECT data FROM blobs WHERE name = 'doclens'`).Scan(&blob)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("reading chunk lengths: %w", err)
		}
		old, err := decodeDocLens(blob)
		if err != nil {
			return err
		}
		for i, id := range old.IDs {
			if !d.removed[id] {
				all[id] = old.Lens[i]
			}
		}
	}
	for id, l := range d.lens {
		all[id] = l
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO blobs(name, data) VALUES('doclens', ?)
		ON CONFLICT(name) DO UPDATE SET data = excluded.data`, encodeDocLens(all))
	if err != nil {
		return fmt.Errorf("writing chunk lengths: %w", err)
	}
	return nil
}

// readPostings reads the stored lists of terms inside the transaction, a
// few hundred terms per query.
func (t *Tx) readPostings(ctx context.Context, terms []string) (map[string][]Posting, error) {
	out := make(map[string][]Posting, len(terms))
	err := inBatches(terms, func(marks string, args []any) error {
		rows, err := t.tx.QueryContext(ctx, `SELECT term, data FROM postings WHERE term IN (`+marks+`)`, args...)
		if err != nil {
			return fmt.Errorf("reading postings: %w", err)
		}
		return scanPostings(rows, func(term string, list []Posting) { out[term] = list })
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanPostings decodes rows of (term, data) and closes them.
func scanPostings(rows *sql.Rows, each func(term string, list []Posting)) error {
	defer rows.Close()
	for rows.Next() {
		var term string
		var blob []byte
		if err := rows.Scan(&term, &blob); err != nil {
			return err
		}
		list, err := decodePostings(blob)
		if err != nil {
			return fmt.Errorf("postings of %q: %w", term, err)
		}
		each(term, list)
	}
	return rows.Err()
}

// PostingsAt reads the posting lists of terms, resolved to positions in
// lens, one list per term in order (nil for a term not in the index). It
// decodes straight from SQLite's buffer into the resolved lists: a search
// touches no other memory for them, which matters most to a one-shot
// process, where every fresh page costs a fault.
func (s *Store) PostingsAt(ctx context.Context, terms []string, lens *DocLens) ([][]PostingAt, error) {
	out := make([][]PostingAt, len(terms))
	if len(terms) == 0 {
		return out, nil
	}
	index := make(map[string]int, len(terms))
	for i, t := range terms {
		index[t] = i
	}
	err := inBatches(terms, func(marks string, args []any) error {
		rows, err := s.query(ctx, `SELECT term, data FROM postings WHERE term IN (`+marks+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var term string
			var blob sql.RawBytes
			if err := rows.Scan(&term, &blob); err != nil {
				return err
			}
			i, ok := index[term]
			if !ok {
				continue
			}
			list, err := decodePostingsAt(blob, lens)
			if err != nil {
				return fmt.Errorf("postings of %q: %w", term, err)
			}
			out[i] = list
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading postings: %w", err)
	}
	return out, nil
}

// DocLens reads the field lengths of every chunk.
func (s *Store) DocLens(ctx context.Context) (*DocLens, error) {
	var blob []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM blobs WHERE name = 'doclens'`).Scan(&blob)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("reading chunk lengths: %w", err)
	}
	return decodeDocLens(blob)
}

// encodePostings writes a sorted list as: count, then per posting the id
// delta, a bit mask of the fields the term occurs in, and the frequency of
// each of those fields, all as uvarints. Most terms occur in one or two
// fields, so this is about half the size of writing every field, and a
// query reads and decodes half as much.
func encodePostings(list []Posting) []byte {
	buf := make([]byte, 0, len(list)*4)
	buf = binary.AppendUvarint(buf, uint64(len(list)))
	var prev int64
	for _, p := range list {
		buf = binary.AppendUvarint(buf, uint64(p.ChunkID-prev))
		prev = p.ChunkID
		var mask uint64
		for f, n := range p.Freqs {
			if n != 0 {
				mask |= 1 << f
			}
		}
		buf = binary.AppendUvarint(buf, mask)
		for _, n := range p.Freqs {
			if n != 0 {
				buf = binary.AppendUvarint(buf, uint64(n))
			}
		}
	}
	return buf
}

var errCorrupt = errors.New("corrupt index data; rebuild with lore index --force")

func decodePostings(b []byte) ([]Posting, error) {
	var list []Posting
	err := eachEncodedPosting(b, func(n int) { list = make([]Posting, 0, n) }, func(p Posting) {
		list = append(list, p)
	})
	return list, err
}

// decodePostingsAt decodes a posting list resolved to positions in lens.
func decodePostingsAt(b []byte, lens *DocLens) ([]PostingAt, error) {
	var list []PostingAt
	var r resolver
	err := eachEncodedPosting(b, func(n int) {
		list = make([]PostingAt, 0, n)
		r = lens.resolver(n)
	}, func(p Posting) {
		if pos, ok := r.find(p.ChunkID); ok {
			list = append(list, PostingAt{Pos: pos, Freqs: p.Freqs})
		}
	})
	return list, err
}

// eachEncodedPosting decodes an encoded list: it calls start with the
// number of postings, then each with every posting in order.
func eachEncodedPosting(b []byte, start func(n int), each func(Posting)) error {
	if len(b) == 0 {
		return nil
	}
	r := uvarintReader{b: b}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return errCorrupt
	}
	start(int(n))
	var id int64
	for i := uint64(0); i < n; i++ {
		var p Posting
		id += int64(r.next())
		p.ChunkID = id
		mask := r.next()
		if mask >= 1<<NumFields {
			return errCorrupt
		}
		for f := 0; mask != 0; f, mask = f+1, mask>>1 {
			if mask&1 != 0 {
				p.Freqs[f] = uint16(r.next())
			}
		}
		if r.bad {
			return errCorrupt
		}
		each(p)
	}
	return nil
}

func encodeDocLens(all map[int64][NumFields]uint16) []byte {
	ids := make([]int64, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	buf := binary.AppendUvarint(make([]byte, 0, len(ids)*7), uint64(len(ids)))
	var prev int64
	for _, id := range ids {
		buf = binary.AppendUvarint(buf, uint64(id-prev))
		prev = id
		for _, l := range all[id] {
			buf = binary.AppendUvarint(buf, uint64(l))
		}
	}
	return buf
}

func decodeDocLens(b []byte) (*DocLens, error) {
	d := &DocLens{}
	if len(b) == 0 {
		return d, nil
	}
	r := uvarintReader{b: b}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return nil, errCorrupt
	}
	d.IDs = make([]int64, n)
	d.Lens = make([][NumFields]uint16, n)
	var id int64
	var sum [NumFields]float64
	for i := range d.IDs {
		id += int64(r.next())
		d.IDs[i] = id
		for f := 0; f < NumFields; f++ {
			d.Lens[i][f] = uint16(r.next())
			sum[f] += float64(d.Lens[i][f])
		}
	}
	if r.bad {
		return nil, errCorrupt
	}
	for f := range sum {
		if n > 0 {
			d.Avg[f] = sum[f] / float64(n)
		}
		if d.Avg[f] == 0 {
			d.Avg[f] = 1
		}
	}
	return d, nil
}

type uvarintReader struct {
	b   []byte
	bad bool
}

func (r *uvarintReader) next() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}
