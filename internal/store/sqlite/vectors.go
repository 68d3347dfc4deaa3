package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"

	"github.com/lore-dev/lore/internal/embed"
	"github.com/lore-dev/lore/internal/store"
)

// AddedChunks returns the ids of the chunks this run inserted, sorted.
func (t *tx) AddedChunks() []int64 {
	return slices.Clone(t.delta.ids)
}

// ChangedChunks is how many chunks this run added or removed.
func (t *tx) ChangedChunks() int { return len(t.delta.ids) + len(t.delta.removed) }

// ChunkTermFreqs returns, for the given chunks (nil: every chunk), each
// chunk's stemmed terms with their total frequency over all fields, read
// from the posting lists written so far in this transaction (the base's
// and the segments', without the chunks the segments removed).
func (t *tx) ChunkTermFreqs(ctx context.Context, only map[int64]bool) (map[int64]map[string]float32, error) {
	if err := t.flushPostings(ctx); err != nil {
		return nil, err
	}
	dead, err := t.deadChunks(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT term, data FROM postings WHERE collection_id = ?1
		UNION ALL SELECT term, data FROM segment_postings WHERE collection_id = ?1`, t.collection)
	if err != nil {
		return nil, fmt.Errorf("reading postings: %w", err)
	}
	out := map[int64]map[string]float32{}
	err = scanPostings(rows, func(term string, list []store.Posting) {
		for _, p := range list {
			if (only != nil && !only[p.ChunkID]) || dead.Has(p.ChunkID) {
				continue
			}
			var n float32
			for _, f := range p.Freqs {
				n += float32(f)
			}
			m := out[p.ChunkID]
			if m == nil {
				m = map[string]float32{}
				out[p.ChunkID] = m
			}
			m[term] = n
		}
	})
	return out, err
}

// ReplaceTermVectors stores a fitted built-in model's term vectors.
func (t *tx) ReplaceTermVectors(ctx context.Context, terms []string, vec func(string) []float32, idf func(string) float32) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM term_vectors WHERE collection_id = ?`, t.collection); err != nil {
		return fmt.Errorf("clearing term vectors: %w", err)
	}
	st, err := t.tx.PrepareContext(ctx, `INSERT INTO term_vectors(collection_id, term, idf, vec) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, term := range terms {
		if _, err := st.ExecContext(ctx, t.collection, term, idf(term), embed.EncodeInt8(embed.QuantizeInt8(vec(term)))); err != nil {
			return fmt.Errorf("writing the vector of %q: %w", term, err)
		}
	}
	return nil
}

// ClearChunkVectors removes every chunk vector (the embedder changed).
func (t *tx) ClearChunkVectors(ctx context.Context) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM chunk_vectors WHERE chunk_id IN
		(SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.collection_id = ?)`, t.collection)
	if err != nil {
		return fmt.Errorf("clearing chunk vectors: %w", err)
	}
	return nil
}

// PutChunkVectors stores chunk vectors, int8-quantised.
func (t *tx) PutChunkVectors(ctx context.Context, vecs map[int64][]float32) error {
	st, err := t.tx.PrepareContext(ctx, `INSERT INTO chunk_vectors(chunk_id, vec) VALUES(?, ?)
		ON CONFLICT(chunk_id) DO UPDATE SET vec = excluded.vec`)
	if err != nil {
		return err
	}
	defer st.Close()
	ids := make([]int64, 0, len(vecs))
	for id := range vecs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		if _, err := st.ExecContext(ctx, id, embed.EncodeInt8(embed.QuantizeInt8(vecs[id]))); err != nil {
			return fmt.Errorf("writing a chunk vector: %w", err)
		}
	}
	return nil
}

// AllChunkIDs lists every chunk id in the transaction's view, sorted.
func (t *tx) AllChunkIDs(ctx context.Context) ([]int64, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id
		WHERE f.collection_id = ? ORDER BY c.id`, t.collection)
	if err != nil {
		return nil, fmt.Errorf("listing chunks: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// ChunkTexts reads chunk texts with their paths inside the transaction,
// for embedders that read text.
func (t *tx) ChunkTexts(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	err := inBatches(ids, func(marks string, args []any) error {
		rows, err := t.tx.QueryContext(ctx, `SELECT c.id, f.path, x.content FROM chunks c JOIN files f ON f.id = c.file_id
			JOIN chunk_text x ON x.chunk_id = c.id WHERE f.collection_id = ? AND c.id IN (`+marks+`)`,
			append([]any{t.collection}, args...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var path, text string
			if err := rows.Scan(&id, &path, &text); err != nil {
				return err
			}
			out[id] = path + "\n" + text
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading chunk texts: %w", err)
	}
	return out, nil
}

// TermVectors reads the built-in model's vectors of the given terms.
func (r *reader) TermVectors(ctx context.Context, terms []string) (map[string]embed.Int8Vector, map[string]float32, error) {
	vecs, idfs := map[string]embed.Int8Vector{}, map[string]float32{}
	err := inBatches(terms, func(marks string, args []any) error {
		rows, err := r.d.db.QueryContext(ctx, `SELECT term, idf, vec FROM term_vectors WHERE collection_id = ? AND term IN (`+marks+`)`,
			append([]any{r.id}, args...)...)
		if err != nil {
			return err
		}
		return scanTermVectors(rows, func(term string, idf float32, v embed.Int8Vector) {
			vecs[term], idfs[term] = v, idf
		})
	})
	if err != nil {
		return nil, nil, fmt.Errorf("reading term vectors: %w", err)
	}
	return vecs, idfs, nil
}

// scanTermVectors decodes rows of (term, idf, vec) and closes them.
func scanTermVectors(rows *sql.Rows, each func(term string, idf float32, v embed.Int8Vector)) error {
	defer rows.Close()
	for rows.Next() {
		var term string
		var idf float64
		var blob []byte
		if err := rows.Scan(&term, &idf, &blob); err != nil {
			return err
		}
		v, err := embed.DecodeInt8(blob)
		if err != nil {
			return fmt.Errorf("the vector of %q: %w", term, err)
		}
		each(term, float32(idf), v)
	}
	return rows.Err()
}

// TermVectors reads every term vector of the built-in model inside an
// index transaction.
func (t *tx) TermVectors(ctx context.Context) (map[string][]float32, map[string]float32, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT term, idf, vec FROM term_vectors WHERE collection_id = ?`, t.collection)
	if err != nil {
		return nil, nil, fmt.Errorf("reading term vectors: %w", err)
	}
	vecs, idfs := map[string][]float32{}, map[string]float32{}
	err = scanTermVectors(rows, func(term string, idf float32, v embed.Int8Vector) {
		vecs[term], idfs[term] = v.Float32(), idf
	})
	return vecs, idfs, err
}

// ChunkVectors reads every chunk vector of the collection, by chunk id.
func (r *reader) ChunkVectors(ctx context.Context) (map[int64]embed.Int8Vector, error) {
	rows, err := r.d.db.QueryContext(ctx, `SELECT v.chunk_id, v.vec FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id
		JOIN files f ON f.id = c.file_id WHERE f.collection_id = ?`, r.id)
	if err != nil {
		return nil, fmt.Errorf("reading chunk vectors: %w", err)
	}
	defer rows.Close()
	out := map[int64]embed.Int8Vector{}
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, err
		}
		v, err := embed.DecodeInt8(blob)
		if err != nil {
			return nil, err
		}
		out[id] = v
	}
	return out, rows.Err()
}
