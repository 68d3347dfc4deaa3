package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// ignoreHiddenAndModules is the tests' ignore rule: hidden names and
// node_modules folders.
func ignoreHiddenAndModules(rel string, isDir bool) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") || part == "node_modules" {
			return true
		}
	}
	return false
}

// harness runs a watcher over a temporary tree and collects its batches.
type harness struct {
	t       *testing.T
	root    string
	w       *Watcher
	batches chan Batch
	seen    []Batch
}

func start(t *testing.T, poll time.Duration, files map[string]string) *harness {
	t.Helper()
	root := t.TempDir()
	for rel, body := range files {
		write(t, root, rel, body)
	}
	w, err := New(root, Options{Ignored: ignoreHiddenAndModules, Quiet: 50 * time.Millisecond, MaxDelay: time.Second, Poll: poll})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, root: root, w: w, batches: make(chan Batch, 1000)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, func(b Batch) { h.batches <- b }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
	select {
	case <-w.Ready():
	case <-time.After(30 * time.Second):
		t.Fatal("the watcher did not start")
	}
	return h
}

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitFor collects batches until every path in want has been reported,
// and returns the batches that took.
func (h *harness) waitFor(want ...string) []Batch {
	h.t.Helper()
	missing := map[string]bool{}
	for _, p := range want {
		missing[p] = true
	}
	var got []Batch
	timeout := time.After(30 * time.Second)
	for len(missing) > 0 {
		select {
		case b := <-h.batches:
			got = append(got, b)
			h.seen = append(h.seen, b)
			for _, p := range b.Paths {
				delete(missing, p)
			}
		case <-timeout:
			h.t.Fatalf("no batch reported %v; got %+v", keys(missing), got)
		}
	}
	return got
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func reported(batches []Batch, path string) bool {
	for _, b := range batches {
		if slices.Contains(b.Paths, path) {
			return true
		}
	}
	return false
}

func TestWatch(t *testing.T) {
	modes := []struct {
		name string
		poll time.Duration
		want string
	}{
		{"events", 0, ModeNotify},
		{"scan", 20 * time.Millisecond, ModePoll},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			h := start(t, m.poll, map[string]string{"keep.go": "package a\n", "old.go": "package a\n", "gone.go": "x\n", "src/deep/x.go": "package x\n"})
			if got := h.w.Mode(); got != m.want {
				t.Errorf("Mode = %q, want %q", got, m.want)
			}
			// Created, written, removed, renamed, in a new folder.
			write(t, h.root, "new.go", "package a\n")
			h.waitFor("new.go")
			write(t, h.root, "src/deep/x.go", "package x\n\nfunc X() {}\n")
			h.waitFor("src/deep/x.go")
			if err := os.Remove(filepath.Join(h.root, "gone.go")); err != nil {
				t.Fatal(err)
			}
			h.waitFor("gone.go")
			if err := os.Rename(filepath.Join(h.root, "old.go"), filepath.Join(h.root, "renamed.go")); err != nil {
				t.Fatal(err)
			}
			h.waitFor("old.go", "renamed.go")
			write(t, h.root, "pkg/sub/made.go", "package sub\n")
			batches := h.waitFor("pkg")
			// A file written in the new folder right after is seen too,
			// whether before or after its watch was set.
			write(t, h.root, "pkg/sub/later.go", "package sub\n")
			batches = append(batches, h.waitFor("pkg/sub/later.go")...)
			_ = batches

			// Ignored paths do not count; ignore files do. The sentinel
			// comes after them: the batch that reports it has seen them.
			write(t, h.root, "node_modules/dep/index.js", "x")
			write(t, h.root, ".cache/blob", "x")
			write(t, h.root, ".gitignore", "*.log\n")
			write(t, h.root, "sentinel.go", "package a\n")
			got := h.waitFor(".gitignore", "sentinel.go")
			for _, p := range []string{"node_modules", "node_modules/dep/index.js", ".cache", ".cache/blob"} {
				if reported(got, p) {
					t.Errorf("ignored %s was reported: %+v", p, got)
				}
			}
			for _, b := range h.seen {
				if !slices.IsSorted(b.Paths) {
					t.Errorf("batch not sorted: %v", b.Paths)
				}
			}
		})
	}
}

// A burst of changes (a branch switch) arrives as few batches, not one
// per file.
func TestWatchBurstIsBatched(t *testing.T) {
	h := start(t, 0, map[string]string{"a.go": "package a\n"})
	var want []string
	for i := range 200 {
		rel := fmt.Sprintf("burst/f%03d.go", i)
		want = append(want, rel)
		write(t, h.root, rel, "package burst\n")
	}
	got := h.waitFor(append(want, "burst")...)
	if len(got) >= 20 {
		t.Errorf("200 changes came in %d batches; a burst should be collapsed", len(got))
	}
}

// A symlink to a folder outside the root is not followed: changes there
// are not the root's.
func TestWatchDoesNotFollowLinks(t *testing.T) {
	outside := t.TempDir()
	h := start(t, 0, map[string]string{"a.go": "package a\n"})
	if err := os.Symlink(outside, filepath.Join(h.root, "link")); err != nil {
		t.Fatal(err)
	}
	h.waitFor("link")
	write(t, outside, "secret.go", "package s\n")
	write(t, h.root, "sentinel.go", "package a\n")
	got := h.waitFor("sentinel.go")
	if reported(got, "link/secret.go") {
		t.Errorf("a change behind a link out of the root was reported: %+v", got)
	}
}

func TestNewRefusesNonFolders(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "f", "x")
	for _, root := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "f")} {
		if _, err := New(root, Options{}); err == nil {
			t.Errorf("New(%s) = nil error", root)
		}
	}
}

// TestPendingCoversTheBatchBeingDelivered checks that a change stays in
// Pending until its batch has been handled: a reader of Pending never
// misses it between the watcher and its consumer.
func TestPendingCoversTheBatchBeingDelivered(t *testing.T) {
	root := t.TempDir()
	w, err := New(root, Options{Quiet: time.Millisecond, MaxDelay: time.Second, Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	inDeliver := make(chan []string, 1)
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- w.Run(ctx, func(b Batch) {
			inDeliver <- w.Pending().Paths
			<-release
		})
	}()
	<-w.Ready()
	w.Changed("a.txt", "b/c.go")
	select {
	case got := <-inDeliver:
		if !slices.Equal(got, []string{"a.txt", "b/c.go"}) {
			t.Errorf("Pending during delivery = %q, want the batch", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no batch delivered")
	}
	w.Changed("d.txt")
	if got := w.Pending().Paths; !slices.Equal(got, []string{"a.txt", "b/c.go", "d.txt"}) {
		t.Errorf("Pending with a new change during delivery = %q", got)
	}
	close(release)
	// The next batch (d.txt) is delivered once the first returns; by then
	// the first is no longer pending.
	select {
	case got := <-inDeliver:
		if !slices.Equal(got, []string{"d.txt"}) {
			t.Errorf("Pending during the second delivery = %q, want only d.txt", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no second batch delivered")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := w.Pending().Paths; len(got) != 0 {
		t.Errorf("Pending after delivery = %q, want none", got)
	}
}

// TestDeliveredEndsTheBatch checks that a consumer that has handled its
// batch can say so before deliver returns (to tell others the change is
// in): the batch then leaves Pending, and a change seen meanwhile stays.
func TestDeliveredEndsTheBatch(t *testing.T) {
	w, err := New(t.TempDir(), Options{Quiet: time.Millisecond, MaxDelay: time.Second, Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pending := make(chan [2][]string, 1)
	go w.Run(ctx, func(b Batch) {
		w.Changed("later.go")
		before := w.Pending().Paths
		w.Delivered()
		pending <- [2][]string{before, w.Pending().Paths}
		cancel()
	})
	<-w.Ready()
	w.Changed("a.go")
	select {
	case got := <-pending:
		if !slices.Equal(got[0], []string{"a.go", "later.go"}) || !slices.Equal(got[1], []string{"later.go"}) {
			t.Errorf("Pending before and after Delivered = %q, %q; want [a.go later.go], [later.go]", got[0], got[1])
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no batch delivered")
	}
}
