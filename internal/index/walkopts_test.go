package index_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/index"
)

// A run that names no walk options keeps the last run's, as a watching
// server's runs must: what the user skipped stays skipped, and Pending
// does not count it as a change.
func TestRecordedWalkOptions(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"main.go":           "package main\n\nfunc main() {}\n",
		"vendor/dep/dep.go": "package dep\n\nfunc Dep() {}\n",
		"big.txt":           strings.Repeat("word ", 400) + "\n",
	})
	db := filepath.Join(t.TempDir(), "index.db")
	pending := func() int {
		t.Helper()
		r, err := openReader(t, ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := fsroot.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		c, err := index.Pending(ctx, r, fr, db)
		if err != nil {
			t.Fatal(err)
		}
		return c.Total()
	}

	steps := []struct {
		name    string
		opts    index.Options
		touch   string // a file changed before the run
		scanned int    // files the walk finds
	}{
		{"the user skips vendor and files over 1 KiB", index.Options{SkipDirs: []string{"vendor"}, MaxFileSize: 1024}, "", 1},
		{"a run naming nothing keeps both", index.Options{}, "main.go", 1},
		{"a new size limit keeps the skipped folder", index.Options{MaxFileSize: -1}, "", 2},
		{"an empty list clears the skipped folders", index.Options{SkipDirs: []string{}}, "", 3},
	}
	for _, s := range steps {
		if s.touch != "" {
			if err := os.WriteFile(filepath.Join(root, s.touch), []byte("package main\n\nfunc main() { println() }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s.opts.Root = root
		stats, err := runAt(ctx, db, s.opts)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if stats.Scanned != s.scanned {
			t.Errorf("%s: scanned %d files, want %d", s.name, stats.Scanned, s.scanned)
		}
		if n := pending(); n != 0 {
			t.Errorf("%s: %d pending changes right after the run, want 0", s.name, n)
		}
	}
}
