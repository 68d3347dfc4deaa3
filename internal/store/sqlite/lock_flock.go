//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// tryLock opens the lock file at path and takes an exclusive flock on it
// without blocking. It returns the open file when the lock is taken, nil
// when another open file description (another process, or another run in
// this one) holds it. The kernel drops the lock when the file is closed,
// which happens when the holding process dies.
func tryLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err == nil || errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) {
		// A file system without flock (some network mounts) must not make
		// indexing impossible: the run goes on unlocked, as before locks.
		return f, nil
	}
	f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, nil
	}
	return nil, err
}

// unlock releases the lock taken by tryLock. The lock file stays: removing
// it would let a waiter lock the removed file while a newcomer locks a new
// one.
func unlock(f *os.File, path string) error {
	return f.Close()
}
