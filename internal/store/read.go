package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Weights are the BM25 column weights of the full-text table, in column
// order: symbols, path, signature, doc, body.
type Weights [5]float64

// Hit is a chunk that matched a full-text query, with its BM25 score
// (higher is better; SQLite's bm25() is negated here).
type Hit struct {
	ChunkID int64
	BM25    float64
}

// Match runs an FTS5 MATCH expression and returns up to limit chunks by
// descending BM25, ties broken by chunk id so the order is deterministic.
//
// When onlyFiles is non-nil, only chunks of those files are considered (the
// search filters: extensions, path globs, languages).
func (s *Store) Match(ctx context.Context, match string, w Weights, limit int, onlyFiles []int64) ([]Hit, error) {
	q := fmt.Sprintf(`SELECT rowid, -bm25(chunks_fts, %s, %s, %s, %s, %s) AS score
		FROM chunks_fts WHERE chunks_fts MATCH ?`, f(w[0]), f(w[1]), f(w[2]), f(w[3]), f(w[4]))
	args := []any{match}
	if onlyFiles != nil {
		q += ` AND rowid IN (SELECT id FROM chunks WHERE file_id IN (SELECT value FROM json_each(?)))`
		args = append(args, idList(onlyFiles, "[", "]"))
	}
	q += ` ORDER BY score DESC, rowid LIMIT ?`
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("full-text query: %w", err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.ChunkID, &h.BM25); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

func f(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// FileRow is an indexed file.
type FileRow struct {
	ID       int64
	Path     string
	Language string
	Lines    int
}

// Files lists every indexed file, by path.
func (s *Store) Files(ctx context.Context) ([]FileRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.id, f.path, f.language, f.lines FROM files f ORDER BY f.path`)
	if err != nil {
		return nil, fmt.Errorf("listing files: %w", err)
	}
	defer rows.Close()
	var out []FileRow
	for rows.Next() {
		var r FileRow
		if err := rows.Scan(&r.ID, &r.Path, &r.Language, &r.Lines); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// LanguageCount is how many files and chunks of one language an index holds.
type LanguageCount struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
	Chunks   int    `json:"chunks"`
}

// LanguageCounts counts files and chunks per language, most files first.
func (s *Store) LanguageCounts(ctx context.Context) ([]LanguageCount, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.language, count(DISTINCT f.id), count(c.id)
		FROM files f LEFT JOIN chunks c ON c.file_id = f.id
		GROUP BY f.language ORDER BY count(DISTINCT f.id) DESC, f.language`)
	if err != nil {
		return nil, fmt.Errorf("counting languages: %w", err)
	}
	defer rows.Close()
	var out []LanguageCount
	for rows.Next() {
		var lc LanguageCount
		if err := rows.Scan(&lc.Language, &lc.Files, &lc.Chunks); err != nil {
			return nil, err
		}
		out = append(out, lc)
	}
	return out, rows.Err()
}

// idList renders ids as a comma-separated list between open and close;
// ids are integers, so this is safe to splice into SQL.
func idList(ids []int64, open, close string) string {
	var b strings.Builder
	b.WriteString(open)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteString(close)
	return b.String()
}

// ChunkDetail is what a result shows beyond the ranking's metadata.
type ChunkDetail struct {
	Signature, Breadcrumb, DocComment, Content string
}

// ChunkDetails loads the signature, breadcrumb, doc comment and text of
// the given chunks.
func (s *Store) ChunkDetails(ctx context.Context, ids []int64) (map[int64]ChunkDetail, error) {
	out := make(map[int64]ChunkDetail, len(ids))
	err := inBatches(ids, func(marks string, args []any) error {
		rows, err := s.query(ctx, `SELECT c.id, c.signature, c.breadcrumb, c.doc_comment, t.content
			FROM chunks c JOIN chunk_text t ON t.chunk_id = c.id WHERE c.id IN (`+marks+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var d ChunkDetail
			if err := rows.Scan(&id, &d.Signature, &d.Breadcrumb, &d.DocComment, &d.Content); err != nil {
				return err
			}
			out[id] = d
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("loading chunk details: %w", err)
	}
	return out, nil
}

// maxInList bounds the values of one IN (?, …) list. SQLite refuses a
// statement with more host parameters than its limit (32766; 999 before
// SQLite 3.32) with "too many SQL variables", so every IN list of values
// goes through inBatches, which splits it: any number of values works.
const maxInList = 500

// inBatches calls query with consecutive batches of values, each at most
// maxInList long, as the placeholders of an IN list ("?,?,?") and their
// arguments, and stops at the first error. Nothing is called for no
// values. Full batches share one SQL text, so one prepared statement.
func inBatches[T any](values []T, query func(marks string, args []any) error) error {
	for start := 0; start < len(values); start += maxInList {
		batch := values[start:min(start+maxInList, len(values))]
		args := make([]any, len(batch))
		for i, v := range batch {
			args[i] = v
		}
		if err := query(strings.TrimSuffix(strings.Repeat("?,", len(batch)), ","), args); err != nil {
			return err
		}
	}
	return nil
}
