package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// SchemaVersion is the schema this lore reads and writes.
const SchemaVersion = 11

// schema creates a new database at SchemaVersion. Everything a collection
// holds names its collection, directly or through its file or chunk, so
// that removing a collection cascades.
const schema = `
CREATE TABLE meta (
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
CREATE TABLE collection_meta (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	key           TEXT NOT NULL,
	value         TEXT NOT NULL,
	PRIMARY KEY (collection_id, key)
) WITHOUT ROWID;
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
-- The text of each chunk, apart, so that ranking reads compact rows.
CREATE TABLE chunk_text (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	content  TEXT NOT NULL
);
-- The distinct terms of each chunk, to find the posting lists a removed
-- chunk must leave.
CREATE TABLE chunk_terms (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	terms    TEXT NOT NULL
);
-- lore's inverted index over stemmed code-aware terms (store.EncodePostings).
CREATE TABLE postings (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	term          TEXT NOT NULL,
	df            INTEGER NOT NULL,
	data          BLOB NOT NULL,
	PRIMARY KEY (collection_id, term)
) WITHOUT ROWID;
-- Per-collection tables kept whole: 'doclens', 'chunkmeta'.
CREATE TABLE blobs (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	name          TEXT NOT NULL,
	data          BLOB NOT NULL,
	PRIMARY KEY (collection_id, name)
) WITHOUT ROWID;
CREATE TABLE term_vectors (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	term          TEXT NOT NULL,
	idf           REAL NOT NULL,
	vec           BLOB NOT NULL,
	PRIMARY KEY (collection_id, term)
) WITHOUT ROWID;
CREATE TABLE chunk_vectors (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	vec      BLOB NOT NULL
);
` + factsSchema + symbolsSchema + gramsSchema + addFactTargets + segmentsSchema + changeLogSchema

// symbolsSchema holds what each file defines and refers to, one blob per
// file (store.EncodeSymbols), written and removed with the file.
const symbolsSchema = `
CREATE TABLE file_symbols (
	file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
	data    BLOB NOT NULL
);
`

// gramsSchema holds the exact search's n-gram index: one row per walked
// file, so that a run rewrites only the files it changed.
const gramsSchema = `
CREATE TABLE file_grams (
	id            INTEGER PRIMARY KEY,
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	path          TEXT NOT NULL,
	size          INTEGER NOT NULL,
	mtime_ns      INTEGER NOT NULL,
	binary        INTEGER NOT NULL,
	grams         BLOB,
	UNIQUE (collection_id, path)
);
`

// addGrams brings a version 7 database to version 8: the n-gram index;
// each collection's next run fills it (files without grams are searched
// by scanning until then).
const addGrams = gramsSchema

// factsSchema holds the packages and specs of each collection, as plain
// rows; they are ranked in Go (package search), not in SQL. It is their
// version 6 shape, which fromVersion5 makes too; addFactTargets (version
// 9) adds to it.
const factsSchema = `
CREATE TABLE packages (
	id            INTEGER PRIMARY KEY,
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	ord           INTEGER NOT NULL,
	name          TEXT NOT NULL,
	path          TEXT NOT NULL,
	kind          TEXT NOT NULL,
	version       TEXT NOT NULL,
	description   TEXT NOT NULL,
	manifest      TEXT NOT NULL,
	metadata      TEXT NOT NULL, -- JSON object
	UNIQUE (collection_id, ord)
);
CREATE TABLE package_deps (
	package_id  INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
	position    INTEGER NOT NULL,
	name        TEXT NOT NULL,
	version_req TEXT NOT NULL,
	dep_kind    TEXT NOT NULL,
	is_internal INTEGER NOT NULL,
	PRIMARY KEY (package_id, position)
);
CREATE TABLE specs (
	id            INTEGER PRIMARY KEY,
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	spec_id       TEXT NOT NULL,
	title         TEXT NOT NULL,
	purpose       TEXT NOT NULL,
	kind          TEXT NOT NULL,
	path          TEXT NOT NULL,
	change        TEXT NOT NULL,
	warnings      TEXT NOT NULL, -- JSON array of strings
	UNIQUE (collection_id, spec_id)
);
CREATE TABLE spec_requirements (
	id          INTEGER PRIMARY KEY,
	spec_row    INTEGER NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
	ord         INTEGER NOT NULL,
	name        TEXT NOT NULL,
	description TEXT NOT NULL,
	delta       TEXT NOT NULL,
	line        INTEGER NOT NULL,
	UNIQUE (spec_row, ord)
);
CREATE TABLE spec_scenarios (
	id             INTEGER PRIMARY KEY,
	requirement_id INTEGER NOT NULL REFERENCES spec_requirements(id) ON DELETE CASCADE,
	ord            INTEGER NOT NULL,
	name           TEXT NOT NULL,
	given_clauses  TEXT NOT NULL, -- JSON arrays of strings
	when_clauses   TEXT NOT NULL,
	then_clauses   TEXT NOT NULL,
	line           INTEGER NOT NULL,
	UNIQUE (requirement_id, ord)
);
`

// fromVersion5 brings a version 5 database (one collection, named
// "default", with global posting lists, metadata and FTS5 tables) to
// version 6 without re-indexing: the per-collection data is re-keyed to
// that collection, and the FTS5 tables, which nothing reads any more, are
// dropped. Packages and specs are recreated empty: every index run writes
// them whole, and the run that migrates does so before it commits.
const fromVersion5 = `
CREATE TABLE collection_meta (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	key           TEXT NOT NULL,
	value         TEXT NOT NULL,
	PRIMARY KEY (collection_id, key)
) WITHOUT ROWID;
INSERT INTO collection_meta(collection_id, key, value)
	SELECT c.id, m.key, m.value FROM collections c, meta m WHERE m.key <> 'schema_version';
DELETE FROM meta WHERE key <> 'schema_version';
ALTER TABLE postings RENAME TO postings_v5;
CREATE TABLE postings (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	term          TEXT NOT NULL,
	df            INTEGER NOT NULL,
	data          BLOB NOT NULL,
	PRIMARY KEY (collection_id, term)
) WITHOUT ROWID;
INSERT INTO postings SELECT c.id, p.term, p.df, p.data FROM collections c, postings_v5 p;
DROP TABLE postings_v5;
ALTER TABLE blobs RENAME TO blobs_v5;
CREATE TABLE blobs (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	name          TEXT NOT NULL,
	data          BLOB NOT NULL,
	PRIMARY KEY (collection_id, name)
) WITHOUT ROWID;
INSERT INTO blobs SELECT c.id, b.name, b.data FROM collections c, blobs_v5 b;
DROP TABLE blobs_v5;
ALTER TABLE term_vectors RENAME TO term_vectors_v5;
CREATE TABLE term_vectors (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	term          TEXT NOT NULL,
	idf           REAL NOT NULL,
	vec           BLOB NOT NULL,
	PRIMARY KEY (collection_id, term)
) WITHOUT ROWID;
INSERT INTO term_vectors SELECT c.id, t.term, t.idf, t.vec FROM collections c, term_vectors_v5 t;
DROP TABLE term_vectors_v5;
DROP TABLE chunks_fts;
DROP TABLE packages_fts;
DROP TABLE spec_fts;
DROP TABLE package_deps;
DROP TABLE packages;
DROP TABLE spec_scenarios;
DROP TABLE spec_requirements;
DROP TABLE specs;
` + factsSchema

// addFactTargets brings a version 8 database to version 9 (issue 15):
// internal dependencies name the package they resolve to, specs can be
// marked as unfilled templates, and what the parsers made of each manifest
// and spec file is kept between runs (parsed_files). The rows already there
// lack the new facts; the next run of each collection, finding no record
// of how its packages and specs were made (packages_state, specs_state),
// reads its manifests and specs again; its files stay as they are.
const addFactTargets = `
ALTER TABLE package_deps ADD COLUMN target_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE package_deps ADD COLUMN target_path TEXT NOT NULL DEFAULT '';
ALTER TABLE specs ADD COLUMN template INTEGER NOT NULL DEFAULT 0;
CREATE TABLE parsed_files (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	kind          TEXT NOT NULL, -- manifest, spec
	path          TEXT NOT NULL,
	size          INTEGER NOT NULL,
	mtime_ns      INTEGER NOT NULL,
	hash          TEXT NOT NULL,
	data          BLOB NOT NULL,
	PRIMARY KEY (collection_id, kind, path)
) WITHOUT ROWID;
DELETE FROM collection_meta WHERE key IN ('packages_state', 'specs_state');
`

// addSymbols brings a version 6 database to version 7: the table of each
// file's symbols. Symbols come from parsing, which a version 6 run did not
// keep, so every collection is marked to be rebuilt by its next run
// (store.MetaRebuildRequired); until then it reads as having no symbols.
const addSymbols = symbolsSchema + `
INSERT OR REPLACE INTO collection_meta(collection_id, key, value)
	SELECT id, 'rebuild_required', '1' FROM collections;
`

// migrations are the in-place steps, by the version each starts from; each
// brings the database to the next version and is self-contained, so a
// step can be renumbered when another lands first. A database older than
// the first step is recreated.
var migrations = map[int]string{
	5:  fromVersion5,
	6:  addSymbols,
	7:  addGrams,
	8:  addFactTargets,
	9:  addSegments,
	10: addChangeLog,
}

// oldestMigrated is the oldest version migrated in place.
const oldestMigrated = 5

// migrate brings the database to SchemaVersion inside one transaction that
// reads the version it starts from, so two processes cannot both run a
// step. A new file gets the schema; versions from oldestMigrated on run
// their steps in order, in place; an older index, which only caches what
// its files say, is recreated and its next run indexes everything again.
func (d *DB) migrate(ctx context.Context, conn *sql.DB) error {
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock first
	if err != nil {
		return fmt.Errorf("migrating %s: %w", d.path, err)
	}
	defer tx.Rollback()
	current, err := schemaVersion(ctx, tx)
	if err != nil {
		return fmt.Errorf("reading the schema version of %s: %w", d.path, err)
	}
	var scripts []string
	switch {
	case current == SchemaVersion:
		return nil
	case current > SchemaVersion:
		return fmt.Errorf("index %s has schema version %d, newer than this lore (%d); upgrade lore or delete the index", d.path, current, SchemaVersion)
	case current >= oldestMigrated:
		for v := current; v < SchemaVersion; v++ {
			step, ok := migrations[v]
			if !ok {
				return fmt.Errorf("no migration of %s from schema %d", d.path, v)
			}
			scripts = append(scripts, step)
		}
	case current == 0:
		scripts = []string{schema}
	default:
		if err := dropAll(ctx, tx); err != nil {
			return fmt.Errorf("recreating %s: %w", d.path, err)
		}
		scripts = []string{schema}
	}
	for _, script := range scripts {
		for _, stmt := range splitStatements(script) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migrating %s to schema %d: %w", d.path, SchemaVersion, err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('schema_version', ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, strconv.Itoa(SchemaVersion)); err != nil {
		return fmt.Errorf("migrating %s: %w", d.path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrating %s to schema %d: %w", d.path, SchemaVersion, err)
	}
	return nil
}

// dropAll removes every table of an index too old to migrate.
func dropAll(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
		AND name NOT LIKE '%_data' AND name NOT LIKE '%_idx' AND name NOT LIKE '%_docsize' AND name NOT LIKE '%_config' AND name NOT LIKE '%_content'`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
		return err
	}
	for _, t := range tables {
		if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+strings.ReplaceAll(t, `"`, `""`)+`"`); err != nil {
			return err
		}
	}
	return nil
}

// schemaVersion is the version recorded in the database (0 for a new one).
func schemaVersion(ctx context.Context, q querier) (int, error) {
	rows, err := q.QueryContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`)
	if err != nil {
		if isNoSuchTable(err) {
			return 0, nil
		}
		return 0, err
	}
	defer rows.Close()
	if !rows.Next() {
		return 0, rows.Err()
	}
	var v string
	if err := rows.Scan(&v); err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("schema version %q: %w", v, err)
	}
	return n, nil
}

// querier is what a read needs of a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// splitStatements splits a script at semicolons that end a line; the
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

var errNoRows = sql.ErrNoRows

// noRows reports whether err says a query found no row.
func noRows(err error) bool { return errors.Is(err, errNoRows) }
