package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/store"
)

// TestProcessStaysAheadByAWindow: the workers parse at most a window of
// files ahead of the writer, as many as resultsAhead a worker for small
// files and fewer for large ones (aheadBytes of source, plus one file),
// and the writer gets every result in walk order. The writer here takes
// nothing until the whole window is parsed; a pool that handed out more
// files would have them parsed by then.
func TestProcessStaysAheadByAWindow(t *testing.T) {
	const workers = 2
	for _, tc := range []struct {
		name   string
		size   int64 // each file's size as the walk saw it
		window int   // how many files may be ahead of the writer
	}{
		{"small files", 1, workers * resultsAhead},
		{"large files", aheadBytes / 4, 4},
		{"files over the bytes", aheadBytes + 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			const n = 100
			files := make([]fsroot.File, n)
			for i := range files {
				rel := fmt.Sprintf("f%03d.go", i)
				abs := filepath.Join(dir, rel)
				if err := os.WriteFile(abs, []byte(fmt.Sprintf("package p\n\nfunc F%d() {}\n", i)), 0o644); err != nil {
					t.Fatal(err)
				}
				files[i] = fsroot.File{Rel: rel, Abs: abs, Size: tc.size, ModTime: time.Unix(1, 0)}
			}
			ctx := context.Background()
			r := process(ctx, listStream(files).files, map[string]store.FileState{}, map[string]store.GramState{}, false, workers)
			defer r.stop()
			if len(r.ring) != workers*resultsAhead {
				t.Fatalf("a ring of %d results, want %d", len(r.ring), workers*resultsAhead)
			}
			window := tc.window
			// Wait until every result of the window is ready (yielding,
			// not sleeping): the workers are idle from then on, and only
			// the bound keeps them from parsing more.
			for ready := 0; ready < window; {
				ready = 0
				for _, ch := range r.ring {
					ready += len(ch)
				}
				runtime.Gosched()
			}
			for i := range 1000 {
				if i%100 == 0 {
					runtime.Gosched()
				}
				if h := r.handed.Load(); h > int64(window) {
					t.Fatalf("%d files handed out before the writer took one, more than the window of %d", h, window)
				}
			}
			for i := range files {
				res, err := r.next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if res.file.Rel != files[i].Rel {
					t.Fatalf("result %d is %s, want %s", i, res.file.Rel, files[i].Rel)
				}
				if res.outcome != outChanged || len(res.chunks) == 0 {
					t.Fatalf("%s: outcome %v with %d chunks", res.file.Rel, res.outcome, len(res.chunks))
				}
				if h := r.handed.Load(); h > int64(r.read+window) {
					t.Fatalf("%d files handed out after %d taken: more than the window of %d ahead", h, r.read, window)
				}
			}
			if res, err := r.next(ctx); res != nil || err != nil {
				t.Fatalf("after the last file: %v, %v; want nothing", res, err)
			}
			if b := r.bytes.Load(); b != 0 {
				t.Fatalf("%d bytes still counted ahead after the last file", b)
			}
		})
	}
}

// TestProcessStops: a writer that gives up early (stop, or a cancelled
// context) ends the hand-out; nothing blocks.
func TestProcessStops(t *testing.T) {
	dir := t.TempDir()
	files := make([]fsroot.File, 64)
	for i := range files {
		abs := filepath.Join(dir, fmt.Sprintf("f%d.txt", i))
		if err := os.WriteFile(abs, []byte("text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files[i] = fsroot.File{Rel: filepath.Base(abs), Abs: abs, Size: 5, ModTime: time.Unix(1, 0)}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := process(ctx, listStream(files).files, map[string]store.FileState{}, map[string]store.GramState{}, false, 2)
	if _, err := r.next(ctx); err != nil {
		t.Fatal(err)
	}
	r.stop()
	r.stop() // twice is fine
	cancel()
	if _, err := r.next(ctx); err == nil {
		// A result already parsed may still be delivered; the one after
		// the window never is.
		for range len(r.ring) {
			if _, err = r.next(ctx); err != nil {
				break
			}
		}
		if err == nil {
			t.Fatal("results kept coming after stop and cancel")
		}
	}
}
