package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/specs"
)

// SchemaVersion is the schema this lore reads and writes.
const SchemaVersion = 5

// migrations[i] brings a file from version i to i+1. Each runs in its own
// transaction together with the version bump.
var migrations = []string{
	// 0 → 1: the core index.
	`
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE collections (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	root       TEXT NOT NULL,
	created_at TEXT NOT NULL,
	indexed_at TEXT
);
CREATE TABLE files (
	id            INTEGER PRIMARY KEY,
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	path          TEXT NOT NULL,
	language      TEXT NOT NULL,
	size          INTEGER NOT NULL,
	hash          TEXT NOT NULL,
	mtime_ns      INTEGER NOT NULL,
	lines         INTEGER NOT NULL,
	UNIQUE (collection_id, path)
);
CREATE TABLE chunks (
	id          INTEGER PRIMARY KEY,
	file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	ord         INTEGER NOT NULL,
	start_line  INTEGER NOT NULL,
	end_line    INTEGER NOT NULL,
	kind        TEXT NOT NULL,
	symbols     TEXT NOT NULL, -- newline-separated
	signature   TEXT NOT NULL,
	breadcrumb  TEXT NOT NULL,
	doc_comment TEXT NOT NULL
);
CREATE INDEX chunks_file ON chunks(file_id, ord);
-- The text of each chunk, apart, so that ranking reads compact metadata rows.
CREATE TABLE chunk_text (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	content  TEXT NOT NULL
);
-- Code-aware terms (see package tokenize), one column per field so BM25 can
-- weight symbols and paths above body text. Contentless: the text lives in
-- chunks; rowid = chunks.id.
CREATE VIRTUAL TABLE chunks_fts USING fts5(
	symbols, path, signature, doc, body,
	content = '', contentless_delete = 1,
	tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'"
);
`,
	// 1 → 2: the package graph and the specs, whose packages own their tables.
	packages.Schema + "\n" + specs.Schema,
	// 2 → 3: lore's own inverted index over stemmed code-aware terms, read
	// term by term at query time (faster than FTS5's bm25() per row).
	`
CREATE TABLE postings (
	term TEXT PRIMARY KEY,
	df   INTEGER NOT NULL,
	data BLOB NOT NULL
) WITHOUT ROWID;
-- The distinct terms of each chunk, to find the posting lists a removed
-- chunk must leave.
CREATE TABLE chunk_terms (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	terms    TEXT NOT NULL
);
CREATE TABLE blobs (
	name TEXT PRIMARY KEY,
	data BLOB NOT NULL
);
`,
	// 3 → 4: vectors of the semantic side, from the embedder recorded in
	// meta (built-in term vectors, or a model's chunk vectors).
	`
CREATE TABLE term_vectors (
	term TEXT PRIMARY KEY,
	idf  REAL NOT NULL,
	vec  BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE chunk_vectors (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	vec      BLOB NOT NULL
);
`,
	// 4 → 5: posting lists store only the fields a term occurs in; the old
	// lists are dropped and the next run rebuilds them (rebuild_required).
	`
DELETE FROM postings;
`,
}

func (s *Store) migrate(ctx context.Context) error {
	current, err := s.SchemaVersion(ctx)
	if err != nil {
		return fmt.Errorf("reading schema version of %s: %w", s.path, err)
	}
	if current > SchemaVersion {
		return fmt.Errorf("index %s has schema version %d, newer than this lore (%d); upgrade lore or delete the index", s.path, current, SchemaVersion)
	}
	// Schema changes add derived data (terms, postings) that only a full
	// re-index fills, so an upgraded index asks for one.
	if current > 0 && current < SchemaVersion {
		defer func() {
			s.db.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('rebuild_required', '1')
				ON CONFLICT(key) DO UPDATE SET value = '1'`)
		}()
	}
	for v := current; v < SchemaVersion; v++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for _, stmt := range splitStatements(migrations[v]) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				tx.Rollback()
				return fmt.Errorf("migrating %s to schema %d: %w", s.path, v+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('schema_version', ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, strconv.Itoa(v+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrating %s to schema %d: %w", s.path, v+1, err)
		}
	}
	return nil
}

// splitStatements splits a migration at semicolons that end a line; the
// schema has no semicolons inside literals.
func splitStatements(script string) []string {
	var out []string
	for _, part := range strings.Split(script, ";\n") {
		if strings.TrimSpace(stripComments(part)) != "" {
			out = append(out, part)
		}
	}
	return out
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func isNoSuchTable(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no such table")
}
