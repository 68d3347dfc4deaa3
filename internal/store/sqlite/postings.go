package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/store"
)

// postingsDelta collects a run's changes to the inverted index and to the
// per-chunk tables kept as blobs (lengths, metadata); they are merged into
// the stored ones at commit.
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
func (t *tx) flushPostings(ctx context.Context) error {
	d := t.delta
	if d.empty() {
		return t.flushChunkMeta(ctx) // writes the blob only if an older index lacks it
	}
	if d.reset {
		if _, err := t.tx.ExecContext(ctx, `DELETE FROM postings WHERE collection_id = ?`, t.collection); err != nil {
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
	var stored map[string][]store.Posting
	if !d.reset {
		if stored, err = t.readPostings(ctx, terms); err != nil {
			return err
		}
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
			if _, err := del.ExecContext(ctx, t.collection, term); err != nil {
				return err
			}
			continue
		}
		sort.Slice(list, func(i, j int) bool { return list[i].ChunkID < list[j].ChunkID })
		if _, err := put.ExecContext(ctx, t.collection, term, len(list), store.EncodePostings(list)); err != nil {
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

func (t *tx) flushLens(ctx context.Context) error {
	d := t.delta
	all := map[int64][store.NumFields]uint16{}
	if !d.reset {
		blob, err := t.blob(ctx, blobDocLens)
		if err != nil {
			return fmt.Errorf("reading chunk lengths: %w", err)
		}
		old, err := store.DecodeDocLens(blob)
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
	if err := t.putBlob(ctx, blobDocLens, store.EncodeDocLens(all)); err != nil {
		return fmt.Errorf("writing chunk lengths: %w", err)
	}
	return nil
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

// readPostings reads the stored lists of terms inside the transaction, a
// few hundred terms per query.
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
// lens, one list per term in order (nil for a term not in the index). It
// decodes straight from SQLite's buffer into the resolved lists: a search
// touches no other memory for them, which matters most to a one-shot
// process, where every fresh page costs a fault.
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
		rows, err := r.d.query(ctx, `SELECT term, data FROM postings WHERE collection_id = ? AND term IN (`+marks+`)`,
			append([]any{r.id}, args...)...)
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
			list, err := store.DecodePostingsAt(blob, lens)
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
func (r *reader) DocLens(ctx context.Context) (*store.DocLens, error) {
	blob, err := r.blob(ctx, blobDocLens)
	if err != nil {
		return nil, fmt.Errorf("reading chunk lengths: %w", err)
	}
	return store.DecodeDocLens(blob)
}
