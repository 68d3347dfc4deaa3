//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package sqlite

import (
	"errors"
	"io/fs"
	"os"
)

// tryLock takes the lock by creating the lock file at path exclusively;
// nil means another process holds it. Without flock, a holder that dies
// leaves its file behind: it is taken over when the pid in it names no
// running process (os.FindProcess can tell on Windows; elsewhere the file
// must be removed by hand).
func tryLock(path string) (*os.File, error) {
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		pid := holderPID(path)
		if attempt > 0 || pid == 0 {
			return nil, nil
		}
		if _, err := os.FindProcess(pid); err == nil {
			return nil, nil
		}
		os.Remove(path) // a stale lock: its holder is gone
	}
}

// unlock releases the lock taken by tryLock by removing its file.
func unlock(f *os.File, path string) error {
	err := f.Close()
	if rmErr := os.Remove(path); err == nil {
		err = rmErr
	}
	return err
}
