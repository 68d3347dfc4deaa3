package fsroot

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lore-dev/lore/internal/errs"
)

// BinarySniffLen is how much of a file's head IsBinary looks at.
const BinarySniffLen = 8 << 10

// IsBinary reports whether a file whose first bytes are head is binary: it
// has a NUL byte within the first BinarySniffLen bytes (the heuristic git
// and ripgrep use).
func IsBinary(head []byte) bool {
	if len(head) > BinarySniffLen {
		head = head[:BinarySniffLen]
	}
	return bytes.IndexByte(head, 0) >= 0
}

// OpenFile opens the regular file rel for reading. The path is checked like
// Resolve, then opened through os.Root so that a symlink swapped in after
// the check still cannot lead outside the root, and with O_NONBLOCK where
// available so that a FIFO put in its place cannot block. Folders and other
// non-regular files give NOT_A_FILE, missing ones NOT_FOUND, permission
// problems UNREADABLE.
func (r *Root) OpenFile(rel string) (*os.File, fs.FileInfo, error) {
	real, err := r.Resolve(rel)
	if err != nil {
		return nil, nil, err
	}
	inside, err := filepath.Rel(r.path, real)
	if err != nil {
		return nil, nil, outsideRoot(rel, "%v", err)
	}
	root, err := os.OpenRoot(r.path)
	if err != nil {
		return nil, nil, errs.New(errs.Internal, CodeUnreadable, "cannot open root %s: %v", r.path, err).Wrap(err)
	}
	defer root.Close()
	info, err := root.Stat(inside)
	if err != nil {
		return nil, nil, statError(rel, err)
	}
	if err := requireRegular(rel, info); err != nil {
		return nil, nil, err
	}
	f, err := root.OpenFile(inside, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, statError(rel, err)
	}
	info, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, statError(rel, err)
	}
	if err := requireRegular(rel, info); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

func requireRegular(rel string, info fs.FileInfo) *errs.Error {
	switch {
	case info.IsDir():
		return errs.New(errs.Invalid, CodeNotAFile, "path %q is a directory, not a file", rel).With("path", rel)
	case !info.Mode().IsRegular():
		return errs.New(errs.Invalid, CodeNotAFile, "path %q is not a regular file", rel).With("path", rel)
	}
	return nil
}

// Open opens a file reported by Walk for reading, with O_NONBLOCK where
// available so that a file replaced by a FIFO since the walk cannot block
// the reader.
func (f File) Open() (*os.File, error) {
	file, err := os.OpenFile(f.Abs, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, statError(f.Rel, err)
	}
	return file, nil
}

// maxSmallFile caps what readSmallFile reads: ignore files and ".git" files
// are small, and a bigger one is a mistake or a trap (a symlink to
// /dev/zero).
const maxSmallFile = 4 << 20

// readSmallFile reads a regular file of at most maxSmallFile bytes without
// ever blocking on a FIFO or reading a device.
func readSmallFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if info.Size() > maxSmallFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxSmallFile)
	}
	return io.ReadAll(io.LimitReader(f, maxSmallFile))
}
