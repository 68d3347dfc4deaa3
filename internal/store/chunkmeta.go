package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ChunkMeta is what ranking keeps in memory of every chunk: small, since
// a snapshot holds one per chunk and a one-shot search loads them all.
type ChunkMeta struct {
	ID, FileID         int64
	StartLine, EndLine int32
	Kind               string // function, class, block, …: shared strings
	Symbols            string // the names the chunk defines, one per line
}

// SymbolList returns the chunk's symbols as a list.
func (m *ChunkMeta) SymbolList() []string {
	if m.Symbols == "" {
		return []string{}
	}
	return strings.Split(m.Symbols, "\n")
}

// The metadata of every chunk is also kept as one blob ('chunkmeta'),
// maintained at each commit like the length table: a search process loads
// it with one read instead of a row per chunk (a 3,000-chunk index: about
// 0.5 ms instead of 6).

// ChunkMetaAt loads the metadata of every chunk in lens, aligned with its
// positions. Chunks not in lens (none, in a consistent index) are skipped.
func (s *Store) ChunkMetaAt(ctx context.Context, lens *DocLens) ([]ChunkMeta, error) {
	var blob sql.RawBytes
	rows, err := s.db.QueryContext(ctx, `SELECT data FROM blobs WHERE name = 'chunkmeta'`)
	if err != nil {
		return nil, fmt.Errorf("loading chunk metadata: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("loading chunk metadata: %w", err)
		}
		// An index written before the blob existed: read the table.
		all, err := readChunkMeta(ctx, s.db)
		if err != nil {
			return nil, err
		}
		return alignChunkMeta(all, lens), nil
	}
	if err := rows.Scan(&blob); err != nil {
		return nil, fmt.Errorf("loading chunk metadata: %w", err)
	}
	all, err := decodeChunkMeta(blob)
	if err != nil {
		return nil, fmt.Errorf("loading chunk metadata: %w", err)
	}
	return alignChunkMeta(all, lens), nil
}

// alignChunkMeta places metadata sorted by id at the positions of lens.
func alignChunkMeta(all []ChunkMeta, lens *DocLens) []ChunkMeta {
	if len(all) == lens.Len() {
		aligned := true
		for i := range all {
			if all[i].ID != lens.IDs[i] {
				aligned = false
				break
			}
		}
		if aligned {
			return all
		}
	}
	out := make([]ChunkMeta, lens.Len())
	r := lens.resolver(len(all))
	for _, m := range all {
		if pos, ok := r.find(m.ID); ok {
			out[pos] = m
		}
	}
	return out
}

// querier is what reading chunk metadata needs of a database or a
// transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readChunkMeta reads the metadata of every chunk from the chunks table,
// sorted by id.
func readChunkMeta(ctx context.Context, db querier) ([]ChunkMeta, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, file_id, start_line, end_line, kind, symbols FROM chunks ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("loading chunk metadata: %w", err)
	}
	defer rows.Close()
	var out []ChunkMeta
	kinds := map[string]string{}
	for rows.Next() {
		var m ChunkMeta
		var kind sql.RawBytes
		if err := rows.Scan(&m.ID, &m.FileID, &m.StartLine, &m.EndLine, &kind, &m.Symbols); err != nil {
			return nil, err
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
func (t *Tx) flushChunkMeta(ctx context.Context) error {
	d := t.delta
	if d.empty() {
		var one int
		err := t.tx.QueryRowContext(ctx, `SELECT 1 FROM blobs WHERE name = 'chunkmeta'`).Scan(&one)
		if err == nil || !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	var all []ChunkMeta
	if !d.reset {
		var blob []byte
		err := t.tx.QueryRowContext(ctx, `SELECT data FROM blobs WHERE name = 'chunkmeta'`).Scan(&blob)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			// The first run since the blob was introduced: the table holds
			// every chunk, the run's new ones included.
			all, err = readChunkMeta(ctx, t.tx)
			if err != nil {
				return err
			}
			return t.putChunkMeta(ctx, all)
		case err != nil:
			return fmt.Errorf("reading chunk metadata: %w", err)
		}
		if all, err = decodeChunkMeta(blob); err != nil {
			return fmt.Errorf("reading chunk metadata: %w", err)
		}
		all = slices.DeleteFunc(all, func(m ChunkMeta) bool { return d.removed[m.ID] })
	}
	all = append(all, d.meta...)
	slices.SortFunc(all, func(a, b ChunkMeta) int { return int(a.ID - b.ID) })
	return t.putChunkMeta(ctx, all)
}

func (t *Tx) putChunkMeta(ctx context.Context, all []ChunkMeta) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO blobs(name, data) VALUES('chunkmeta', ?)
		ON CONFLICT(name) DO UPDATE SET data = excluded.data`, encodeChunkMeta(all))
	if err != nil {
		return fmt.Errorf("writing chunk metadata: %w", err)
	}
	return nil
}

// encodeChunkMeta writes metadata sorted by id as: the number of kinds and
// each kind (length, bytes); the number of chunks; per chunk the id delta,
// the file id as a zigzag delta from the previous chunk's, the start line,
// the line count, the kind's index and the length of its symbols; then all
// symbols back to back, so decoding makes one string of them.
func encodeChunkMeta(all []ChunkMeta) []byte {
	kindIndex := map[string]int{}
	var kinds []string
	for _, m := range all {
		if _, ok := kindIndex[m.Kind]; !ok {
			kindIndex[m.Kind] = len(kinds)
			kinds = append(kinds, m.Kind)
		}
	}
	buf := binary.AppendUvarint(make([]byte, 0, 16+len(all)*8), uint64(len(kinds)))
	for _, k := range kinds {
		buf = binary.AppendUvarint(buf, uint64(len(k)))
		buf = append(buf, k...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(all)))
	var prevID, prevFile int64
	for _, m := range all {
		buf = binary.AppendUvarint(buf, uint64(m.ID-prevID))
		buf = binary.AppendVarint(buf, m.FileID-prevFile)
		prevID, prevFile = m.ID, m.FileID
		buf = binary.AppendUvarint(buf, uint64(max(m.StartLine, 0)))
		buf = binary.AppendUvarint(buf, uint64(max(m.EndLine-m.StartLine, 0)))
		buf = binary.AppendUvarint(buf, uint64(kindIndex[m.Kind]))
		buf = binary.AppendUvarint(buf, uint64(len(m.Symbols)))
	}
	for _, m := range all {
		buf = append(buf, m.Symbols...)
	}
	return buf
}

func decodeChunkMeta(b []byte) ([]ChunkMeta, error) {
	if len(b) == 0 {
		return nil, nil
	}
	r := uvarintReader{b: b}
	nk := r.next()
	if r.bad || nk > uint64(len(b)) {
		return nil, errCorrupt
	}
	kinds := make([]string, nk)
	for i := range kinds {
		l := r.next()
		if r.bad || l > uint64(len(r.b)) {
			return nil, errCorrupt
		}
		kinds[i], r.b = string(r.b[:l]), r.b[l:]
	}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return nil, errCorrupt
	}
	out := make([]ChunkMeta, n)
	symLens := make([]uint64, n)
	var id, file int64
	for i := range out {
		id += int64(r.next())
		delta, k := binary.Varint(r.b)
		if k <= 0 {
			return nil, errCorrupt
		}
		r.b = r.b[k:]
		file += delta
		start := r.next()
		lines := r.next()
		kind := r.next()
		symLens[i] = r.next()
		if r.bad || kind >= nk {
			return nil, errCorrupt
		}
		out[i] = ChunkMeta{ID: id, FileID: file, StartLine: int32(start), EndLine: int32(start + lines), Kind: kinds[kind]}
	}
	symbols := string(r.b) // one allocation for every chunk's symbols
	off := uint64(0)
	for i, l := range symLens {
		if off+l > uint64(len(symbols)) {
			return nil, errCorrupt
		}
		out[i].Symbols = symbols[off : off+l]
		off += l
	}
	if off != uint64(len(symbols)) {
		return nil, errCorrupt
	}
	return out, nil
}
