package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/lore-dev/lore/internal/store"
)

// The metadata of every chunk is also kept as one blob ('chunkmeta'),
// maintained at each commit like the length table: a search process loads
// it with one read instead of a row per chunk (a 3,000-chunk index: about
// 0.5 ms instead of 6).

// ChunkMeta loads the metadata of every chunk in lens, aligned with its
// positions.
func (r *reader) ChunkMeta(ctx context.Context, lens *store.DocLens) ([]store.ChunkMeta, error) {
	blob, err := r.blob(ctx, blobChunkMeta)
	if err != nil {
		return nil, fmt.Errorf("loading chunk metadata: %w", err)
	}
	var all []store.ChunkMeta
	if blob == nil {
		// Written before the blob existed: read the table.
		if all, err = readChunkMeta(ctx, r.d.db, r.id); err != nil {
			return nil, err
		}
	} else if all, err = store.DecodeChunkMeta(blob); err != nil {
		return nil, fmt.Errorf("loading chunk metadata: %w", err)
	}
	return store.AlignChunkMeta(all, lens), nil
}

// readChunkMeta reads the metadata of every chunk of a collection from the
// chunks table, sorted by id.
func readChunkMeta(ctx context.Context, q querier, collection int64) ([]store.ChunkMeta, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.id, c.file_id, c.start_line, c.end_line, c.kind, c.symbols
		FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.collection_id = ? ORDER BY c.id`, collection)
	if err != nil {
		return nil, fmt.Errorf("loading chunk metadata: %w", err)
	}
	defer rows.Close()
	var out []store.ChunkMeta
	kinds := map[string]string{}
	for rows.Next() {
		var m store.ChunkMeta
		var kind sql.RawBytes
		if err := rows.Scan(&m.ID, &m.FileID, &m.StartLine, &m.EndLine, &kind, &m.Symbols); err != nil {
			return nil, fmt.Errorf("loading chunk metadata: %w", err)
		}
		m.Kind = intern(kinds, kind)
		out = append(out, m)
	}
	return out, rows.Err()
}

func intern(seen map[string]string, b []byte) string {
	if s, ok := seen[string(b)]; ok {
		return s
	}
	s := string(b)
	seen[s] = s
	return s
}

// flushChunkMeta rewrites the metadata blob: the stored one without the
// run's removed chunks, plus its new ones.
func (t *tx) flushChunkMeta(ctx context.Context) error {
	d := t.delta
	stored, err := t.blob(ctx, blobChunkMeta)
	if err != nil {
		return fmt.Errorf("reading chunk metadata: %w", err)
	}
	if d.empty() && stored != nil {
		return nil
	}
	var all []store.ChunkMeta
	switch {
	case d.reset:
	case stored == nil:
		// The first run since the blob was introduced: the table holds
		// every chunk, the run's new ones included.
		all, err := readChunkMeta(ctx, t.tx, t.collection)
		if err != nil {
			return err
		}
		return t.putChunkMeta(ctx, all)
	default:
		if all, err = store.DecodeChunkMeta(stored); err != nil {
			return fmt.Errorf("reading chunk metadata: %w", err)
		}
		all = slices.DeleteFunc(all, func(m store.ChunkMeta) bool { return d.removed[m.ID] })
	}
	all = append(all, d.meta...)
	slices.SortFunc(all, func(a, b store.ChunkMeta) int { return int(a.ID - b.ID) })
	return t.putChunkMeta(ctx, all)
}

func (t *tx) putChunkMeta(ctx context.Context, all []store.ChunkMeta) error {
	if err := t.putBlob(ctx, blobChunkMeta, store.EncodeChunkMeta(all)); err != nil {
		return fmt.Errorf("writing chunk metadata: %w", err)
	}
	return nil
}
