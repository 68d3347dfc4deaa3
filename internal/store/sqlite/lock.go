package sqlite

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
)

// A database file has one writer at a time (SQLite allows no more): every
// index run takes the writer lock, an advisory lock on "<index>.lock"
// beside the file (flock on Unix), which the operating system releases
// when its holder exits or is killed. The lock file holds the holder's
// pid, for the message of whoever waits. Readers (searches) never take it:
// SQLite's WAL lets them read the last committed generation while a run
// writes the next one.

// lockPollMin and lockPollMax bound how often a waiting run tries the lock
// again; the wait is a poll so that cancelling ctx ends it at once.
const (
	lockPollMin = 5 * time.Millisecond
	lockPollMax = 200 * time.Millisecond
)

// pidGrace is how long a run that finds the lock taken waits for its
// holder's pid to appear in the lock file (a holder writes it right after
// it takes the lock) before reporting the holder without one.
const pidGrace = time.Second

// WriterLock is a held writer lock of one index.
type WriterLock struct {
	indexPath string
	f         *os.File
}

// LockPath is the lock file of the index at indexPath.
func LockPath(indexPath string) string { return indexPath + ".lock" }

// Lock takes the writer lock of the index at indexPath, creating the
// index's folder if needed. While another process (or another run in this
// one) holds it, Lock waits until it is released or ctx is done (a
// CANCELLED error); with opts.NoWait it returns at once an *errs.Error of
// kind Busy and code INDEX_BUSY whose message names the index and the
// holder's pid. A folder where the lock cannot be created is an
// INDEX_NOT_WRITABLE error.
func Lock(ctx context.Context, indexPath string, opts store.WriteOptions) (*WriterLock, error) {
	if err := makeFolder(indexPath); err != nil {
		return nil, err
	}
	path := LockPath(indexPath)
	poll := lockPollMin
	var firstRefused time.Time
	waiting := false
	for {
		f, err := tryLock(path)
		if err != nil {
			if e := NotWritable(indexPath, err); e != nil {
				return nil, e
			}
			return nil, fmt.Errorf("locking index %s: %w", indexPath, err)
		}
		if f != nil {
			if err := writePID(f); err != nil {
				unlock(f, path)
				return nil, fmt.Errorf("writing the lock file %s: %w", path, err)
			}
			return &WriterLock{indexPath: indexPath, f: f}, nil
		}
		if firstRefused.IsZero() {
			firstRefused = time.Now()
		}
		pid := holderPID(path)
		if !waiting && (pid != 0 || time.Since(firstRefused) >= pidGrace) {
			if opts.NoWait {
				return nil, busy(indexPath, pid)
			}
			waiting = true
			if opts.OnWait != nil {
				opts.OnWait(pid)
			}
		}
		select {
		case <-ctx.Done():
			return nil, (&errs.Error{Kind: errs.Cancelled, Code: errs.CodeCancelled,
				Message: "cancelled while waiting for index " + indexPath}).Wrap(ctx.Err())
		case <-time.After(poll):
		}
		poll = min(2*poll, lockPollMax)
	}
}

// Release gives the lock up. It is safe to call more than once.
func (l *WriterLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	f.Truncate(0) // no stale pid for the next holder's waiters
	return unlock(f, LockPath(l.indexPath))
}

// busy is the error of an index whose lock another process holds.
func busy(indexPath string, pid int) *errs.Error {
	msg := fmt.Sprintf("index %s is being updated by another lore process", indexPath)
	if pid != 0 {
		msg += fmt.Sprintf(" (pid %d)", pid)
	}
	return (&errs.Error{Kind: errs.Busy, Code: errs.CodeIndexBusy, Message: msg}).With("index", indexPath).With("pid", pid)
}

// writePID records this process as the holder of the lock file f.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// holderPID reads the pid in the lock file at path; 0 when there is none
// (yet).
func holderPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
