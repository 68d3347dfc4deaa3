package index_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
)

// heldRun is an index run stopped in the middle, holding the writer lock,
// until release is called; done delivers its result.
type heldRun struct {
	release func()
	done    chan error
}

// startHeldRun starts a run of root into indexPath and returns once it is
// writing (it has the lock and an open transaction).
func startHeldRun(t *testing.T, root, indexPath string) *heldRun {
	t.Helper()
	writing := make(chan struct{})
	proceed := make(chan struct{})
	var once sync.Once
	h := &heldRun{done: make(chan error, 1)}
	var releaseOnce sync.Once
	h.release = func() { releaseOnce.Do(func() { close(proceed) }) }
	t.Cleanup(h.release)
	go func() {
		_, err := runAt(context.Background(), indexPath, index.Options{Root: root,
			Progress: func(index.Progress) {
				once.Do(func() {
					close(writing)
					<-proceed
				})
			}})
		h.done <- err
	}()
	select {
	case <-writing:
	case err := <-h.done:
		t.Fatalf("the first run ended before it wrote anything: %v", err)
	}
	return h
}

// busyMessage is the INDEX_BUSY message for an index held by this process.
func busyMessage(indexPath string) string {
	return fmt.Sprintf("index %s is being updated by another lore process (pid %d)", indexPath, os.Getpid())
}

// TestRunsTakeTurns is "two indexers at once" within one process, the way
// index_codebase and a file watcher call index.Run: the second run waits
// for the first one's commit (OnWait names the holder's pid), then
// updates the index the first one wrote instead of colliding with it
// (UNIQUE constraint failed: files.collection_id, files.path).
func TestRunsTakeTurns(t *testing.T) {
	root, indexPath := setup(t)
	first := startHeldRun(t, root, indexPath)

	waiting := make(chan int, 1)
	type result struct {
		stats *index.Stats
		err   error
	}
	second := make(chan result, 1)
	go func() {
		stats, err := runAt(context.Background(), indexPath, index.Options{Root: root,
			OnWait: func(pid int) { waiting <- pid }})
		second <- result{stats, err}
	}()
	select {
	case pid := <-waiting:
		if pid != os.Getpid() {
			t.Errorf("OnWait got pid %d, want the holder's %d", pid, os.Getpid())
		}
	case r := <-second:
		t.Fatalf("the second run did not wait for the first: stats %+v, err %v", r.stats, r.err)
	}
	first.release()
	if err := <-first.done; err != nil {
		t.Fatalf("first run: %v", err)
	}
	r := <-second
	if r.err != nil {
		t.Fatalf("second run: %v", r.err)
	}
	// It started after the first one's commit: every file was known.
	if r.stats.Indexed != 0 || r.stats.Unchanged != 4 {
		t.Errorf("second run stats = %+v, want 0 indexed, 4 unchanged", r.stats)
	}
	if res := query(t, indexPath, "RouteContext", nil); len(res) == 0 || res[0].Path != "router.go" {
		t.Errorf("index after two runs: %v", paths(res))
	}
}

// TestRunNoWait: with NoWait a run fails at once, while another one
// writes, with a typed INDEX_BUSY error naming the index and the holder's
// pid; once the holder is done the same call succeeds.
func TestRunNoWait(t *testing.T) {
	root, indexPath := setup(t)
	first := startHeldRun(t, root, indexPath)

	_, err := runAt(context.Background(), indexPath, index.Options{Root: root, NoWait: true})
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Busy || e.Code != "INDEX_BUSY" {
		t.Fatalf("NoWait run during another: %v (%#v), want kind busy, code INDEX_BUSY", err, e)
	}
	if e.Message != busyMessage(indexPath) {
		t.Errorf("message %q, want %q", e.Message, busyMessage(indexPath))
	}
	if e.Details["pid"] != os.Getpid() || e.Details["index"] != indexPath {
		t.Errorf("details %v, want pid and index", e.Details)
	}
	first.release()
	if err := <-first.done; err != nil {
		t.Fatalf("first run: %v", err)
	}
	if _, err := runAt(context.Background(), indexPath, index.Options{Root: root, NoWait: true}); err != nil {
		t.Errorf("NoWait run after the first one finished: %v", err)
	}
}

// TestLockWaitCancelled: a run waiting for the lock stops when its context
// is cancelled (an MCP task cancelled, Ctrl-C), with the CANCELLED error,
// and leaves the run holding the lock undisturbed.
func TestLockWaitCancelled(t *testing.T) {
	root, indexPath := setup(t)
	holder := startHeldRun(t, root, indexPath)
	defer holder.release()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := runAt(ctx, indexPath, index.Options{Root: root, OnWait: func(int) { cancel() }})
	if errs.KindOf(err) != errs.Cancelled {
		t.Fatalf("cancelled wait: %v, want a cancellation", err)
	}
	holder.release()
	if err := <-holder.done; err != nil {
		t.Errorf("the run holding the lock: %v", err)
	}
}

// TestSearchWhileLocked: readers never take the writer lock; a search
// answers while a run holds it.
func TestSearchWhileLocked(t *testing.T) {
	root, indexPath := setup(t)
	ctx := context.Background()
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	first := startHeldRun(t, root, indexPath)
	if res := query(t, indexPath, "parse_args", nil); len(res) == 0 || res[0].Path != "cart/cart.py" {
		t.Errorf("search during a run: %v", paths(res))
	}
	first.release()
	if err := <-first.done; err != nil {
		t.Fatal(err)
	}
}

// TestWALTruncatedAfterRun: every run ends with the write-ahead log
// checkpointed and truncated, also when a reader (lore serve's engine)
// keeps the index open, which keeps SQLite from deleting the log.
func TestWALTruncatedAfterRun(t *testing.T) {
	for _, withReader := range []bool{false, true} {
		t.Run(fmt.Sprintf("reader=%v", withReader), func(t *testing.T) {
			root, indexPath := setup(t)
			ctx := context.Background()
			if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
				t.Fatal(err)
			}
			if withReader {
				eng, err := openEngine(t, ctx, indexPath)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := eng.Search(ctx, search.Options{Query: "router"}); err != nil {
					t.Fatal(err)
				}
			}
			// A forced rebuild rewrites every page: without the checkpoint
			// the log holds all of them.
			if _, err := runAt(ctx, indexPath, index.Options{Root: root, Force: true}); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(indexPath + "-wal")
			switch {
			case err == nil && fi.Size() != 0:
				t.Errorf("-wal is %d bytes after the run, want 0", fi.Size())
			case err != nil && !os.IsNotExist(err):
				t.Fatal(err)
			}
		})
	}
}

// TestUnbuiltIndex: a file whose first run was killed before it committed
// (here cancelled) or an empty file is "not built yet" (NO_INDEX), not an
// outdated schema, so the CLI can say which file and what to run.
func TestUnbuiltIndex(t *testing.T) {
	root, indexPath := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := runAt(ctx, indexPath, index.Options{Root: root, Progress: func(index.Progress) { cancel() }})
	if errs.KindOf(err) != errs.Cancelled {
		t.Fatalf("cancelled first run: %v", err)
	}
	empty := indexPath + ".empty"
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{indexPath, empty} {
		_, err := openEngine(t, context.Background(), path)
		e, ok := errs.As(err)
		if !ok || e.Code != errs.CodeNoIndex || e.Kind != errs.NoIndex {
			t.Errorf("opening %s: %v, want NO_INDEX", path, err)
		}
	}
}
