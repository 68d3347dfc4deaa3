package app

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lore-dev/lore/internal/files"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/testtree"
)

// The exact search's index follows the collection's generations, and is
// vouched complete only while the watcher has nothing pending.
func TestFileIndexFollowsTheWatcher(t *testing.T) {
	a, runs := watchingApp(t, 0)
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"web/router.go": "package web\n\n// Router dispatches needle requests.\ntype Router struct{}\n",
		"go.sum":        "example.com/needle v1.0.0 h1:abc=\n",
		"README.md":     "A needle in a haystack.\n",
	})
	if _, err := a.Index(ctx, IndexRequest{Root: root}); err != nil {
		t.Fatal(err)
	}
	fr, err := fsroot.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	scan := files.New(nil, fr)
	indexed := scan.WithIndex(a.FileIndex)
	same := func(query string, wantHits int) {
		t.Helper()
		want, err := scan.Search(ctx, files.SearchQuery{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		got, err := indexed.Search(ctx, files.SearchQuery{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || len(got.Results) != wantHits {
			t.Fatalf("%q: indexed %+v, scan %+v, want %d hits", query, got.Results, want.Results, wantHits)
		}
	}

	ix := a.FileIndex(ctx, fr.Path())
	if ix == nil || !ix.Complete || len(ix.Files) != 3 {
		t.Fatalf("FileIndex after indexing a watched root = %+v, want 3 files, complete", ix)
	}
	same("needle", 3)

	// A change the watcher holds makes the index incomplete until its run
	// has committed; then the new generation is loaded and complete.
	a.watchers.mu.Lock()
	var st *watched
	for _, w := range a.watchers.byLoc {
		st = w
	}
	a.watchers.mu.Unlock()
	testtree.Write(t, root, map[string]string{"web/quokka.go": "package web\n\n// Quokka finds the needle.\nfunc Quokka() {}\n"})
	st.w.Changed("web/quokka.go")
	if ix := a.FileIndex(ctx, fr.Path()); ix == nil || ix.Complete {
		t.Fatalf("FileIndex with a change pending = %+v, want not complete", ix)
	}
	same("needle", 4) // read from the tree, compared with the index
	nextRun(t, runs)
	// The file event of the write may come after the change told, and
	// start another run: wait for the runs until nothing is pending.
	loc, err := a.Locate(fr.Path())
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if ix = a.FileIndex(ctx, fr.Path()); ix != nil && ix.Complete {
			break
		}
		if a.unchangedSinceRun(loc) {
			// Nothing pending: the run's refresh was loading the new
			// generation, so this call got the previous one. Wait for
			// the load, not for a run that will not come.
			e := a.fileIndexes.entry(loc)
			e.load.Lock()
			e.load.Unlock()
			continue
		}
		nextRun(t, runs)
	}
	if ix == nil || !ix.Complete || len(ix.Files) != 4 {
		t.Fatalf("FileIndex after the run = %+v, want 4 files, complete", ix)
	}
	same("needle", 4)
	same("quokka", 2)

	// Without a watcher nothing vouches for the tree: the index is used
	// file by file, compared with what the walk finds.
	b := New(Options{IndexFor: a.indexFor, Collections: filepath.Join(t.TempDir(), "c.db")})
	defer b.Close()
	if ix := b.FileIndex(ctx, fr.Path()); ix == nil || ix.Complete || len(ix.Files) != 4 {
		t.Fatalf("FileIndex of an unwatched root = %+v, want 4 files, not complete", ix)
	}
	if ix := b.FileIndex(ctx, t.TempDir()); ix != nil {
		t.Fatalf("FileIndex of a root without an index = %+v, want nil", ix)
	}
}
