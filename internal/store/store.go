// Package store keeps an index in one SQLite file: collections, files,
// chunks, a code-aware FTS5 table, and metadata, behind a versioned schema.
//
// Writers use one read-write connection and commit an index run as one
// transaction, so a crash at any moment leaves either the previous or the
// new index. Queries use a separate read-only connection; in WAL mode they
// never block on, or see half of, a running index. One writer at a time is
// the indexer's business (index.Lock); a store does not lock.
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
	if err := MakeFolder(path); err != nil {
		return nil, err
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
		if e := NotWritable(path, err); e != nil {
			return nil, e
		}
		return nil, err
	}
	return s, nil
}

// MakeFolder creates the folder of the index at path if needed. A folder
// that cannot be created is an INDEX_NOT_WRITABLE error (see NotWritable).
func MakeFolder(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		if e := NotWritable(path, err); e != nil {
			return e
		}
		return fmt.Errorf("creating the index folder %s: %w", filepath.Dir(path), err)
	}
	return nil
}

// TruncateWAL moves the write-ahead log into the index file and empties
// it. SQLite deletes the log when its last connection closes, but while a
// reader (lore serve) keeps the file open the log stays, as large as the
// biggest run wrote; an indexing run calls this after its commit. A reader
// in the middle of a query makes the checkpoint partial, never an error.
func (s *Store) TruncateWAL(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("checkpointing the write-ahead log of %s: %w", s.path, err)
	}
	return nil
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
	s, v, err := openReadOnly(ctx, path, false)
	if err != nil && accessDenied(err) && !exists(path+"-wal") {
		// A WAL-mode file is read through its -shm file, which SQLite
		// creates beside it: in a folder this process cannot write, that
		// fails (SQLITE_READONLY_DIRECTORY, SQLITE_CANTOPEN). With no
		// -wal file no writer is at work and the file holds the whole
		// index, so it can be read as immutable: no locks, no -shm.
		s, v, err = openReadOnly(ctx, path, true)
	}
	if err != nil {
		return nil, fmt.Errorf("reading index %s: %w", path, err)
	}
	if v != SchemaVersion {
		built := s.built(ctx)
		s.Close()
		if v == 0 || !built {
			// An empty file, or one whose first run was killed before it
			// committed: there is no index in it yet.
			return nil, errs.New(errs.NoIndex, "NO_INDEX", "the index at %s has not been built yet", path)
		}
		return nil, errs.New(errs.NoIndex, "INDEX_OUTDATED",
			"index %s has schema version %d, this lore needs %d; re-run lore index", path, v, SchemaVersion)
	}
	return s, nil
}

// openReadOnly opens path for queries and reads its schema version;
// immutable opens it without locks or a -shm file.
func openReadOnly(ctx context.Context, path string, immutable bool) (*Store, int, error) {
	name := dsn(path, true)
	if immutable {
		name += "&immutable=1"
	}
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return nil, 0, err
	}
	s := &Store{db: db, path: path, readOnly: true}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	return s, v, nil
}

// built reports whether an indexing run ever committed into the file.
func (s *Store) built(ctx context.Context) bool {
	_, err := s.Generation(ctx)
	return err == nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
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
