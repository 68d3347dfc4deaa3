package sqlite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/lore-dev/lore/internal/errs"
)

// SQLite's primary result codes that mean "this file or its folder cannot
// be written" (extended codes carry them in their low byte).
const (
	sqliteReadOnly = 8  // SQLITE_READONLY: attempt to write a readonly database
	sqliteCantOpen = 14 // SQLITE_CANTOPEN: unable to open the database file
)

// sqliteCode returns the primary SQLite result code in err's chain, or 0.
func sqliteCode(err error) int {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		return coded.Code() & 0xff
	}
	return 0
}

// accessDenied reports errors that say the file system refused a write:
// permission denied, a read-only file system, or SQLite's READONLY and
// CANTOPEN codes (which is how those reach SQLite's callers).
func accessDenied(err error) bool {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return true
	}
	switch sqliteCode(err) {
	case sqliteReadOnly, sqliteCantOpen:
		return true
	}
	return false
}

// accessProbe says why an index cannot be written: dirErr is the error of
// creating a file in the index's folder (os.ErrNotExist when the folder is
// missing), fileErr the error of opening the index file for writing (nil
// when it is writable or does not exist yet).
type accessProbe func(dir, file string) (dirErr, fileErr error)

// probeAccess tries what writing the index needs: creating a file in its
// folder (the -wal, -shm and lock files) and writing the file itself.
func probeAccess(dir, file string) (dirErr, fileErr error) {
	if f, err := os.CreateTemp(dir, ".lore-probe-*"); err != nil {
		dirErr = err
	} else {
		f.Close()
		os.Remove(f.Name())
	}
	if f, err := os.OpenFile(file, os.O_WRONLY, 0); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		fileErr = err
	}
	return dirErr, fileErr
}

// NotWritable turns err, a failure to create or write the index at
// indexPath, into an *errs.Error of code INDEX_NOT_WRITABLE that says
// what is read-only and what to do, when err is about access (permission
// denied, read-only file system, SQLite's READONLY or CANTOPEN). For any
// other error, or when the folder and file turn out writable after all, it
// returns nil and the caller keeps err.
func NotWritable(indexPath string, err error) *errs.Error {
	return notWritable(indexPath, err, probeAccess)
}

func notWritable(indexPath string, err error, probe accessProbe) *errs.Error {
	if err == nil || !accessDenied(err) {
		return nil
	}
	dir := filepath.Dir(indexPath)
	dirErr, fileErr := probe(dir, indexPath)
	const hint = "choose another location with --index or LORE_CACHE_DIR"
	var e *errs.Error
	switch {
	case errors.Is(dirErr, fs.ErrNotExist):
		// The folder is missing: the error was creating it (or a parent).
		e = errs.New(errs.Internal, errs.CodeIndexNotWritable,
			"cannot write the index %s: its folder %s cannot be created (%s); %s", indexPath, dir, reason(err), hint)
	case dirErr != nil && accessDenied(dirErr):
		e = errs.New(errs.Internal, errs.CodeIndexNotWritable,
			"cannot write the index %s: its folder %s is read-only (%s); %s", indexPath, dir, reason(dirErr), hint)
	case fileErr != nil && accessDenied(fileErr):
		e = errs.New(errs.Internal, errs.CodeIndexNotWritable,
			"cannot write the index %s: the file is read-only (%s); make it writable or %s", indexPath, reason(fileErr), hint)
	default:
		return nil
	}
	return e.With("index", indexPath).Wrap(err)
}

// reason is the short cause of an access error, for a message.
func reason(err error) string {
	if errors.Is(err, syscall.EROFS) {
		return "read-only file system"
	}
	return "permission denied"
}
