package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A first build (no index file yet) is written without the write-ahead
// log. Through the log every page of the new index would be written twice,
// once into the log and once by the checkpoint that copies it into the
// file (7.8 s of a 4M-line build's commit on a disk that writes 95 MB/s).
// Instead the run writes a new file beside the index, "<index>.build",
// with a rollback journal kept in memory and no syncs: a rollback journal
// holds only the pages that existed when the transaction began (the
// schema), so each page is written once. At commit the file is switched to
// WAL mode, synced, and renamed to the index's name.
//
// No reader can have the build file open: its name is lore's own, and
// readers open only the index's name, which does not exist until the
// rename, so until then they see no index, as they would during any first
// build. A crash or a cancel before the rename leaves at most the build
// file, which nothing opens as an index and the next first build removes;
// after it, the whole synced index. Rebuilds of an existing file are not
// done this way: a reader (lore serve) may hold the old file open, and
// SQLite finds a file's -wal and -shm companions by its name, so a new
// file renamed over it would share them with the old one.

// freshBuild is the new file of a first build.
type freshBuild struct {
	path string  // the index file it becomes
	tmp  string  // the file being built
	db   *sql.DB // one connection to tmp
}

// BuildPath is the file a first build of the index at path writes: while
// it exists without the index, a first build runs or was killed.
func BuildPath(path string) string { return path + ".build" }

// startFresh returns the new file of a first build when the index file
// does not exist, nil when it does. It runs under the writer lock, so no
// other run writes either file.
func (d *DB) startFresh() (*freshBuild, error) {
	if _, err := os.Lstat(d.path); !errors.Is(err, fs.ErrNotExist) {
		return nil, nil // there is a file (or it cannot be told): update it in place
	}
	f := &freshBuild{path: d.path, tmp: BuildPath(d.path)}
	// A build a crash interrupted left its file: start again.
	if err := removeFiles(f.tmp, f.tmp+"-journal", f.tmp+"-wal", f.tmp+"-shm"); err != nil {
		return nil, fmt.Errorf("removing an unfinished build of %s: %w", d.path, err)
	}
	db, err := sql.Open("sqlite", buildDSN(f.tmp))
	if err != nil {
		return nil, fmt.Errorf("opening a new index %s: %w", f.tmp, err)
	}
	db.SetMaxOpenConns(1) // as Open: one writer, which sees its own writes
	f.db = db
	return f, nil
}

// buildDSN opens a first build's file: a rollback journal in memory (a
// failed statement, or the run, can still be rolled back) and no syncs
// until install makes the finished file durable.
func buildDSN(path string) string {
	q := "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(MEMORY)&_pragma=synchronous(OFF)&_txlock=immediate"
	return "file:" + escapePath(path) + "?" + q
}

// install puts a committed first build in place as the index: switched to
// WAL mode (which readers and later runs need), synced, and renamed to the
// index's name, whose folder is then synced so that the name survives a
// crash too.
func (f *freshBuild) install(ctx context.Context) error {
	var mode string
	if err := f.db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode); err != nil {
		return fmt.Errorf("switching the new index %s to WAL mode: %w", f.tmp, err)
	}
	if mode != "wal" {
		return fmt.Errorf("switching the new index %s to WAL mode: the journal mode stayed %q", f.tmp, mode)
	}
	if err := f.db.Close(); err != nil {
		return fmt.Errorf("closing the new index %s: %w", f.tmp, err)
	}
	if err := syncFile(f.tmp); err != nil {
		return fmt.Errorf("syncing the new index %s: %w", f.tmp, err)
	}
	// A -wal or -shm file without its index is what a deleted index left;
	// SQLite would apply that log to the new file.
	if err := removeFiles(f.tmp+"-wal", f.tmp+"-shm", f.path+"-wal", f.path+"-shm"); err != nil {
		return fmt.Errorf("removing the log of a deleted index %s: %w", f.path, err)
	}
	if err := os.Rename(f.tmp, f.path); err != nil {
		return fmt.Errorf("putting the new index in place at %s: %w", f.path, err)
	}
	// Without the folder's sync a crash may lose the name, not the file's
	// content: the next run then builds again. Some systems cannot sync a
	// folder, so its failure is not the run's.
	syncFile(filepath.Dir(f.path))
	return nil
}

// abandon closes and removes a build that will not be installed.
func (f *freshBuild) abandon() {
	f.db.Close()
	removeFiles(f.tmp, f.tmp+"-journal", f.tmp+"-wal", f.tmp+"-shm")
}

// syncFile flushes the file or folder at path to the disk.
func syncFile(path string) error {
	h, err := os.Open(path)
	if err != nil {
		return err
	}
	err = h.Sync()
	if cerr := h.Close(); err == nil {
		err = cerr
	}
	return err
}

// removeFiles removes the files at paths; missing ones are not an error.
func removeFiles(paths ...string) error {
	var errList []error
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errList = append(errList, err)
		}
	}
	return errors.Join(errList...)
}
