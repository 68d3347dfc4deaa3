// Package sqlite is lore's embedded storage: a store.DB in one SQLite file,
// the default. It is the only place in lore with SQL.
//
// Writers take the file's writer lock (see Lock), then one read-write
// connection, and commit an index run as one transaction, so a crash at any
// moment leaves either the previous or the new generation. Queries use a
// read-only connection; in WAL mode they never block on, or see half of, a
// running index.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
)

// DB is an open index file. It implements store.DB.
type DB struct {
	db       *sql.DB
	path     string
	readOnly bool
	cache    preparedCache
	version  versionCheck // read-only: the data version and what was read under it
	// noFactTargets: an index of a schema before 9, read without migrating
	// it, has no dependency targets or template marks (see addFactTargets).
	noFactTargets bool
	// noSegments: an index of a schema before 10, read without migrating
	// it, is all base (see addSegments).
	noSegments bool
	// noChangeLog: an index of a schema before 11, read without migrating
	// it, has no change log (see addChangeLog).
	noChangeLog bool
}

var _ store.DB = (*DB)(nil)

// Open opens, creating if needed, the index file at path for writing.
// Its schema is brought up to date by the first Write, under the writer
// lock.
func Open(ctx context.Context, path string) (*DB, error) {
	if err := makeFolder(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	// One connection: SQLite allows one writer, and the index transaction
	// must see its own writes.
	db.SetMaxOpenConns(1)
	return &DB{db: db, path: path}, nil
}

// makeFolder creates the folder of the index at path if needed. A folder
// that cannot be created is an INDEX_NOT_WRITABLE error (see NotWritable).
func makeFolder(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		if e := NotWritable(path, err); e != nil {
			return e
		}
		return fmt.Errorf("creating the index folder %s: %w", filepath.Dir(path), err)
	}
	return nil
}

// OpenReadOnly opens an existing index file for queries. A missing file,
// or one no run ever committed to, is an *errs.Error of kind NoIndex; a
// file of another schema version is INDEX_OUTDATED.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errs.New(errs.NoIndex, errs.CodeNoIndex, "no index at %s", path)
		}
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	d, v, err := openReadOnly(ctx, path, false)
	if err != nil && accessDenied(err) && !exists(path+"-wal") {
		// A WAL-mode file is read through its -shm file, which SQLite
		// creates beside it: in a folder this process cannot write, that
		// fails (SQLITE_READONLY_DIRECTORY, SQLITE_CANTOPEN). With no
		// -wal file no writer is at work and the file holds the whole
		// index, so it can be read as immutable: no locks, no -shm.
		d, v, err = openReadOnly(ctx, path, true)
	}
	if err != nil {
		return nil, fmt.Errorf("reading index %s: %w", path, err)
	}
	if v != SchemaVersion && (v < oldestReadable || v > SchemaVersion) {
		d.Close()
		if v == 0 {
			return nil, errs.New(errs.NoIndex, errs.CodeNoIndex, "the index at %s has not been built yet", path)
		}
		return nil, errs.New(errs.NoIndex, errs.CodeIndexOutdated,
			"index %s has schema version %d, this lore needs %d; re-run lore index", path, v, SchemaVersion)
	}
	d.noFactTargets = v < 9
	d.noSegments = v < 10
	d.noChangeLog = v < 11
	return d, nil
}

// oldestReadable is the oldest schema this lore still reads: version 7
// lacks the n-gram index, which its readers see as empty, and versions 7
// and 8 lack the dependency targets and template marks of version 9,
// which read as none, and versions 7 to 9 lack the segments of version 10:
// their index is all base; versions before 11 lack the change log, so
// their readers read everything after each run.
const oldestReadable = 7

// openReadOnly opens path for queries and reads its schema version;
// immutable opens it without locks or a -shm file.
func openReadOnly(ctx context.Context, path string, immutable bool) (*DB, int, error) {
	name := dsn(path, true)
	if immutable {
		name += "&immutable=1"
	}
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return nil, 0, err
	}
	// A server's requests each run a few small queries, many at once:
	// connections stay open between them (the default keeps 2, and
	// opening one reads the schema again and prepares every statement
	// anew), and close after a while unused.
	db.SetMaxIdleConns(maxIdleReaders)
	db.SetConnMaxIdleTime(readerIdleTime)
	d := &DB{db: db, path: path, readOnly: true}
	v, err := schemaVersion(ctx, db)
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	return d, v, nil
}

// maxIdleReaders bounds the idle connections a read-only DB keeps, and
// readerIdleTime is how long one stays idle before it closes. Open
// connections are not bounded: a reader may hold rows while it queries
// again.
const (
	maxIdleReaders = 16
	readerIdleTime = 5 * time.Minute
)

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
	return "file:" + escapePath(path) + "?" + q.Encode()
}

// escapePath is path as the path of a file: URI.
func escapePath(path string) string { return (&url.URL{Path: path}).EscapedPath() }

// Location is the index file.
func (d *DB) Location() string { return d.path }

// Close closes the index file.
func (d *DB) Close() error {
	d.version.close()
	d.closePrepared()
	return d.db.Close()
}

// Collections lists the collections, by name.
func (d *DB) Collections(ctx context.Context) ([]store.Collection, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT name, root, created_at, coalesce(indexed_at, '') FROM collections ORDER BY name`)
	if err != nil {
		if isNoSuchTable(err) {
			return []store.Collection{}, nil
		}
		return nil, fmt.Errorf("listing the collections of %s: %w", d.path, err)
	}
	defer rows.Close()
	out := []store.Collection{}
	for rows.Next() {
		var c store.Collection
		var created, indexed string
		if err := rows.Scan(&c.Name, &c.Root, &created, &indexed); err != nil {
			return nil, fmt.Errorf("listing the collections of %s: %w", d.path, err)
		}
		c.CreatedAt, c.IndexedAt = parseTime(created), parseTime(indexed)
		out = append(out, c)
	}
	return out, rows.Err()
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Reader returns a read view of a collection whose first run committed.
func (d *DB) Reader(ctx context.Context, collection string) (store.Reader, error) {
	id, err := d.collectionID(ctx, collection, func() (int64, error) {
		var id int64
		err := d.queryRow(ctx, `SELECT c.id FROM collections c JOIN collection_meta m ON m.collection_id = c.id
			WHERE c.name = ? AND m.key = 'generation'`, collection).Scan(&id)
		return id, err
	})
	switch {
	case noRows(err) || isNoSuchTable(err):
		return nil, errs.New(errs.NoIndex, errs.CodeNoIndex, "no collection %q in %s has been indexed", collection, d.path).
			With("collection", collection)
	case err != nil:
		return nil, fmt.Errorf("opening collection %s of %s: %w", collection, d.path, err)
	}
	return &reader{d: d, id: id, name: collection}, nil
}

// Write starts an index run over a collection: it takes the file's writer
// lock, brings the schema up to date and begins the run's transaction.
func (d *DB) Write(ctx context.Context, collection, root string, opts store.WriteOptions) (_ store.WriteTx, err error) {
	if d.readOnly {
		return nil, fmt.Errorf("index %s is open read-only", d.path)
	}
	lock, err := Lock(ctx, d.path, opts)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			lock.Release()
			if e := NotWritable(d.path, err); e != nil {
				err = e
			}
		}
	}()
	// A first build writes a new file beside the index, without the
	// write-ahead log, and puts it in place at commit (see fresh.go).
	fresh, err := d.startFresh()
	if err != nil {
		return nil, err
	}
	conn := d.db
	if fresh != nil {
		conn = fresh.db
		defer func() {
			if err != nil {
				fresh.abandon()
			}
		}()
	}
	if err := d.migrate(ctx, conn); err != nil {
		return nil, err
	}
	_, err = conn.ExecContext(ctx, `INSERT INTO collections(name, root, created_at) VALUES(?, ?, ?)
		ON CONFLICT(name) DO UPDATE SET root = excluded.root`, collection, root, formatTime(time.Now()))
	if err != nil {
		return nil, fmt.Errorf("recording collection %s: %w", collection, err)
	}
	var id int64
	if err := conn.QueryRowContext(ctx, `SELECT id FROM collections WHERE name = ?`, collection).Scan(&id); err != nil {
		return nil, fmt.Errorf("reading collection %s: %w", collection, err)
	}
	t, err := d.begin(ctx, conn, id, lock, opts.MemoryBudget)
	if err != nil {
		return nil, err
	}
	t.deferMerges = opts.DeferMerges
	t.fresh = fresh
	return t, nil
}

// RemoveCollection deletes a collection and everything indexed in it,
// under the writer lock.
func (d *DB) RemoveCollection(ctx context.Context, collection string) error {
	if d.readOnly {
		return fmt.Errorf("index %s is open read-only", d.path)
	}
	lock, err := Lock(ctx, d.path, store.WriteOptions{})
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := d.migrate(ctx, d.db); err != nil {
		return err
	}
	res, err := d.db.ExecContext(ctx, `DELETE FROM collections WHERE name = ?`, collection)
	if err != nil {
		return fmt.Errorf("removing collection %s: %w", collection, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.New(errs.NotFound, errs.CodeNotFound, "no collection %q in %s", collection, d.path).With("collection", collection)
	}
	d.truncateWAL(ctx)
	return nil
}

// truncateWAL moves the write-ahead log into the index file and empties
// it. SQLite deletes the log when its last connection closes, but while a
// reader (lore serve) keeps the file open the log stays, as large as the
// biggest run wrote. A reader in the middle of a query makes the
// checkpoint partial; the run is committed either way, so a failure here
// costs only disk space and is not reported.
func (d *DB) truncateWAL(ctx context.Context) {
	d.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
}

// Check verifies the file's integrity (SQLite's integrity_check): what a
// crash test or a support question asks of an index.
func (d *DB) Check(ctx context.Context) error {
	var result string
	if err := d.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil {
		return fmt.Errorf("checking %s: %w", d.path, err)
	}
	if result != "ok" {
		return fmt.Errorf("index %s is damaged: %s", d.path, result)
	}
	return nil
}
