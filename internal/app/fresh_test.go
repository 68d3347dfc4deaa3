package app

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/testtree"
)

// watchingApp is an App that keeps what it indexes fresh, and tells the
// test about each run its watchers make.
func watchingApp(t *testing.T, poll time.Duration) (*App, chan error) {
	t.Helper()
	runs := make(chan error, 100)
	a := New(Options{IndexFor: IndexUnder(t.TempDir()), Collections: filepath.Join(t.TempDir(), "collections.db"),
		Watch: &WatchOptions{Quiet: 20 * time.Millisecond, MaxDelay: time.Second, Poll: poll,
			OnIndexed: func(root string, _ *index.Stats, err error) { runs <- err }}})
	t.Cleanup(func() { a.Close() })
	return a, runs
}

// nextRun waits for the next run of a watcher.
func nextRun(t *testing.T, runs chan error) {
	t.Helper()
	select {
	case err := <-runs:
		if err != nil {
			t.Fatalf("the watcher's run failed: %v", err)
		}
	case <-time.After(60 * time.Second):
		// Every goroutine's stack says where the run stopped.
		buf := make([]byte, 1<<20)
		t.Fatalf("no run of the watcher within 60 s of a change; goroutines:\n%s", buf[:runtime.Stack(buf, true)])
	}
}

// runsUntil waits for the watcher's runs until ok holds, checking after
// each. One change may take several runs: a save seen half-written (its
// creation, then its content) is two batches on a busy machine.
func runsUntil(t *testing.T, runs chan error, ok func() bool) {
	t.Helper()
	for !ok() {
		nextRun(t, runs)
	}
}

// paths are the result paths of a search.
func searchPaths(t *testing.T, a *App, root, query string) []string {
	t.Helper()
	res, err := a.Search(ctx, SearchRequest{Root: root, Options: search.Options{Query: query}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res.Results {
		out = append(out, r.Path)
	}
	return out
}

// A watched root stays fresh by itself: a file saved, added or removed is
// searchable (or gone) after the watcher's run, without anyone indexing.
func TestWatchKeepsIndexFresh(t *testing.T) {
	for _, mode := range []struct {
		name string
		poll time.Duration
	}{{"events", 0}, {"scan", 25 * time.Millisecond}} {
		t.Run(mode.name, func(t *testing.T) {
			a, runs := watchingApp(t, mode.poll)
			root := t.TempDir()
			testtree.Write(t, root, map[string]string{"router.go": "package web\n\n// Router dispatches requests.\ntype Router struct{}\n"})
			if _, err := a.Index(ctx, IndexRequest{Root: root}); err != nil {
				t.Fatal(err)
			}
			if err := a.Watch(ctx, root); err != nil { // already watched since indexed: no second watcher
				t.Fatal(err)
			}
			f, err := a.Freshness(ctx, root)
			if err != nil || !f.Watching || f.PendingChanges != 0 || f.Indexing {
				t.Fatalf("Freshness after indexing = %+v, %v", f, err)
			}

			testtree.Write(t, root, map[string]string{"quokka.go": "package web\n\n// Quokka hops between handlers.\nfunc Quokka() {}\n"})
			runsUntil(t, runs, func() bool {
				got := searchPaths(t, a, root, "quokka hops")
				return len(got) > 0 && got[0] == "quokka.go"
			})
			testtree.Write(t, root, map[string]string{"router.go": "package web\n\n// Router wombats requests.\ntype Router struct{}\n"})
			runsUntil(t, runs, func() bool {
				got := searchPaths(t, a, root, "wombats")
				return len(got) > 0 && got[0] == "router.go"
			})
			if err := os.Remove(filepath.Join(root, "quokka.go")); err != nil {
				t.Fatal(err)
			}
			runsUntil(t, runs, func() bool { return !slices.Contains(searchPaths(t, a, root, "quokka hops"), "quokka.go") })
			f, err = a.Freshness(ctx, root)
			if err != nil || !f.Watching || f.LastRun == nil || f.LastRun.Deleted != 1 || f.LastError != "" {
				t.Errorf("Freshness after runs = %+v (last run %+v), %v", f, f.LastRun, err)
			}
			if want := map[time.Duration]string{0: "notify"}[mode.poll]; want != "" && f.WatchMode != want {
				t.Errorf("WatchMode = %q, want %q", f.WatchMode, want)
			}
		})
	}
}

// A named collection is watched like a root.
func TestWatchCollection(t *testing.T) {
	a, runs := watchingApp(t, 0)
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"a.go": "package a\n\n// Alpha starts.\nfunc Alpha() {}\n"})
	if _, _, err := a.IndexCollection(ctx, "alpha", IndexRequest{Root: root}); err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, root, map[string]string{"b.go": "package a\n\n// Numbat digs.\nfunc Numbat() {}\n"})
	runsUntil(t, runs, func() bool {
		hits, err := a.SearchFulltext(ctx, FulltextRequest{Collection: "alpha", Text: "numbat", TopK: 10})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits) == 1 && hits[0].Payload.FilePath == "/b.go"
	})
	f, err := a.CollectionFreshness(ctx, "alpha")
	if err != nil || !f.Watching || f.LastRun == nil {
		t.Errorf("CollectionFreshness = %+v, %v", f, err)
	}
}

// Without a watcher, freshness compares the files with the index: what the
// next run would pick up, binary files left out as runs leave them.
func TestFreshnessWithoutWatching(t *testing.T) {
	a := New(Options{IndexFor: IndexUnder(t.TempDir())})
	t.Cleanup(func() { a.Close() })
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "c.go": "package c\n"})
	if _, err := a.Index(ctx, IndexRequest{Root: root}); err != nil {
		t.Fatal(err)
	}
	f, err := a.Freshness(ctx, root)
	if err != nil || f.Watching || f.PendingChanges != 0 || len(f.PendingPaths) != 0 {
		t.Fatalf("Freshness of a fresh index = %+v, %v", f, err)
	}
	testtree.Write(t, root, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "d.go": "package d\n", "logo.png": "\x89PNG\r\n\x1a\n\x00\x00\x00"})
	if err := os.Remove(filepath.Join(root, "c.go")); err != nil {
		t.Fatal(err)
	}
	f, err = a.Freshness(ctx, root)
	if err != nil || f.PendingChanges != 3 || !slices.Equal(f.PendingPaths, []string{"a.go", "c.go", "d.go"}) {
		t.Errorf("Freshness after changes = %+v, %v; want a.go changed, c.go removed, d.go added", f, err)
	}
	if err := a.Watch(ctx, root); err != nil {
		t.Errorf("Watch on an App that does not watch = %v, want nil (nothing done)", err)
	}
	if f, _ := a.Freshness(ctx, root); f.Watching {
		t.Error("an App without Options.Watch watches")
	}
}

// Watching a root without an index is NoIndex.
func TestWatchNeedsAnIndex(t *testing.T) {
	a, _ := watchingApp(t, 0)
	err := a.Watch(ctx, t.TempDir())
	if err == nil {
		t.Fatal("Watch of a root without an index = nil")
	}
}
