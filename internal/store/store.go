// Package store keeps an index in one SQLite file: collections, files,
// chunks, a code-aware FTS5 table, and metadata, behind a versioned schema.
//
// Writers use one read-write connection and commit an index run as one
// transaction, so a crash at any moment leaves either the previous or the
// new index. Queries use a separate read-only connection; in WAL mode they
// never block on, or see half of, a running index.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	_ "modernc.org/sqlite" // registers the "sqlite" driver (SQLite with FTS5)

	"github.com/lore-dev/lore/internal/errs"
)

// Store is an open index file.
type Store struct {
	db       *sql.DB
	path     string
	readOnly bool
	cache    preparedCache
}

// Open opens (creating if needed) the index at path for writing and brings
// its schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating the index folder: %w", err)
	}
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	// One connection: SQLite allows one writer, and the index transaction
	// must see its own writes.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// OpenReadOnly opens an existing index for queries. A missing file is an
// *errs.Error of kind NoIndex.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errs.New(errs.NoIndex, "NO_INDEX", "no index at %s", path)
		}
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	s := &Store{db: db, path: path, readOnly: true}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("reading index %s: %w", path, err)
	}
	if v != SchemaVersion {
		db.Close()
		return nil, errs.New(errs.NoIndex, "INDEX_OUTDATED",
			"index %s has schema version %d, this lore needs %d; re-run lore index", path, v, SchemaVersion)
	}
	return s, nil
}

func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Add("mode", "ro")
		// Queries read pages through a memory map instead of a read call
		// per page: a fresh process (one CLI search) starts with no page
		// cache, and each call costs. 256 MiB of address space, not memory.
		q.Add("_pragma", "mmap_size(268435456)")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
	}
	q.Add("_txlock", "immediate")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Path is the index file.
func (s *Store) Path() string { return s.path }

// DB exposes the connection for packages that own tables of their own
// (packages, specs) and for queries.
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the index.
func (s *Store) Close() error {
	s.closePrepared()
	return s.db.Close()
}

// Generation returns the index's generation: it changes with every
// indexing run that changes the index. It is ErrNoRows before the first run.
func (s *Store) Generation(ctx context.Context) (string, error) {
	var g string
	err := s.queryRow(ctx, `SELECT value FROM meta WHERE key = 'generation'`).Scan(&g)
	return g, err
}

// Meta returns the metadata table as a map.
func (s *Store) Meta(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, fmt.Errorf("reading index metadata: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// SchemaVersion is the version recorded in the file (0 for a new file).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) || isNoSuchTable(err) {
			return 0, nil
		}
		return 0, err
	}
	return strconv.Atoi(v)
}
