package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lore-dev/lore/internal/store"
)

// The metadata of every chunk is also kept as one blob ('chunkmeta'),
// maintained at each commit like the length table: a search process loads
// it with one read instead of a row per chunk (a 3,000-chunk index: about
// 0.5 ms instead of 6).

// ChunkMeta loads the metadata of every chunk in lens, aligned with its
// positions: the base's and each segment's, without the chunks the
// segments removed.
func (r *reader) ChunkMeta(ctx context.Context, lens *store.DocLens) ([]store.ChunkMeta, error) {
	var parts [][]byte
	dead := store.IDSet{}
	if r.d.noSegments {
		blob, err := r.blob(ctx, blobChunkMeta)
		if err != nil {
			return nil, fmt.Errorf("loading chunk metadata: %w", err)
		}
		parts = [][]byte{blob}
	} else {
		var err error
		if parts, dead, err = r.segmentBlobs(ctx, blobChunkMeta, "chunkmeta"); err != nil {
			return nil, fmt.Errorf("loading chunk metadata: %w", err)
		}
	}
	if parts[0] == nil {
		// Written before the blob existed: the table holds every chunk.
		all, err := readChunkMeta(ctx, r.d.db, r.id)
		if err != nil {
			return nil, err
		}
		return store.AlignChunkMeta(all, lens), nil
	}
	decoded := make([][]store.ChunkMeta, len(parts))
	for i, p := range parts {
		var err error
		if decoded[i], err = store.DecodeChunkMeta(p); err != nil {
			return nil, fmt.Errorf("loading chunk metadata: %w", err)
		}
	}
	all := decoded[0]
	if len(decoded) > 1 {
		all = store.JoinChunkMeta(decoded, dead)
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

func (t *tx) putChunkMeta(ctx context.Context, all []store.ChunkMeta) error {
	if err := t.putBlob(ctx, blobChunkMeta, store.EncodeChunkMeta(all)); err != nil {
		return fmt.Errorf("writing chunk metadata: %w", err)
	}
	return nil
}
