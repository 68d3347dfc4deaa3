package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store/sqlite"
	"github.com/lore-dev/lore/internal/testtree"
)

// TestAppliedChangesEqualReading checks that an engine following runs
// through the store's change log holds exactly the snapshot that reading
// the index whole gives, over random edits, additions and removals (in
// walk and changed-path runs), a forced rebuild, and a reader that fell
// further behind than the log reaches.
func TestAppliedChangesEqualReading(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	root := t.TempDir()
	words := []string{"router", "session", "token", "cache", "shader", "ledger", "widget", "tenant", "budget", "parser"}
	gen := func(name string, round int) string {
		var b []byte
		for i := range 1 + rng.IntN(4) {
			w, v := words[rng.IntN(len(words))], words[rng.IntN(len(words))]
			switch filepath.Ext(name) {
			case ".py":
				b = fmt.Appendf(b, "def %s_%s_%d_%d(x):\n    \"\"\"Handles the %s of a %s.\"\"\"\n    return x\n\n", w, v, round, i, w, v)
			case ".h":
				b = fmt.Appendf(b, "/* %s of a %s */\nint %s_%s_%d_%d(int x);\n", w, v, w, v, round, i)
			case ".c":
				b = fmt.Appendf(b, "/* %s of a %s */\nint %s_%s_%d_%d(int x) { return x; }\n", w, v, w, v, round, i)
			default:
				b = fmt.Appendf(b, "// %s%s%d%d handles the %s of a %s.\nfunc %s%s%d%d() {}\n\n", w, v, round, i, w, v, w, v, round, i)
			}
		}
		if filepath.Ext(name) == ".go" {
			b = append([]byte("package p\n\n"), b...)
		}
		return string(b)
	}
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("pkg%d/file%02d%s", i%4, i, []string{".go", ".py", ".c", ".h", ".go", "_test.go"}[i%6]))
	}
	names = append(names, "lib/idna.h", "lib/idna.c", "api/v1/client.go", "api/v2/client.go", "api/client.go")
	files := map[string]string{}
	for _, n := range names {
		files[n] = gen(n, 0)
	}
	testtree.Write(t, root, files)
	idx := filepath.Join(t.TempDir(), "index.db")
	db, err := sqlite.Open(ctx, idx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runIndex := func(opts index.Options) {
		t.Helper()
		opts.Root = root
		if _, err := index.Run(ctx, db, opts); err != nil {
			t.Fatal(err)
		}
	}
	runIndex(index.Options{})
	eng, err := openTestEngine(t, idx)
	if err != nil {
		t.Fatal(err)
	}
	mtime := time.Now().Add(time.Hour)
	applied := 0
	for round := 1; round <= 40; round++ {
		var changed []string
		for range 1 + rng.IntN(3) {
			name := names[rng.IntN(len(names))]
			if rng.IntN(5) == 0 {
				name = fmt.Sprintf("new%d/added%d.go", round%3, round)
				names = append(names, name)
			}
			changed = append(changed, name)
			abs := filepath.Join(root, filepath.FromSlash(name))
			if rng.IntN(5) == 0 {
				os.Remove(abs) // gone; a later round may bring it back
				continue
			}
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte(gen(name, round)), 0o644); err != nil {
				t.Fatal(err)
			}
			mtime = mtime.Add(time.Second)
			if err := os.Chtimes(abs, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
		opts := index.Options{}
		switch {
		case round%2 == 0:
			opts.Paths = changed
		case round == 25:
			opts.Force = true
		}
		runIndex(opts)
		if round >= 30 && round < 30+keptChangesForTest+2 {
			continue // fall behind the log: the next read is whole
		}
		if err := eng.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if eng.snap.Load().fromChanges {
			applied++
		}
		fresh, err := openTestEngine(t, idx)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameSnapshot(eng.snap.Load(), fresh.snap.Load()); err != nil {
			t.Fatalf("round %d (changed %v, applied from the log: %v): %v", round, changed, eng.snap.Load().fromChanges, err)
		}
	}
	if applied < 20 {
		t.Fatalf("only %d of the refreshes applied the change log", applied)
	}
}

// keptChangesForTest is at least the store's sqlite.keptChanges.
const keptChangesForTest = 16

// sameSnapshot reports the first field in which two snapshots differ.
func sameSnapshot(got, want *snapshot) error {
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"generation", got.generation, want.generation},
		{"files", got.files, want.files},
		{"plain facts", got.plain, want.plain},
		{"lengths", got.lens, want.lens},
		{"metadata", got.meta, want.meta},
		{"chunk files", got.chunkFile, want.chunkFile},
		{"implementation chunks", got.implChunks, want.implChunks},
		{"test regions", got.inTests, want.inTests},
		{"file stats", got.stats, want.stats},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			return fmt.Errorf("%s differ:\n got %+v\nwant %+v", f.name, f.got, f.want)
		}
	}
	if len(got.facts) != len(want.facts) {
		return fmt.Errorf("%d facts, want %d", len(got.facts), len(want.facts))
	}
	for i := range got.facts {
		if *got.facts[i] != *want.facts[i] {
			return fmt.Errorf("facts of %s: %+v, want %+v", got.files[i].Path, *got.facts[i], *want.facts[i])
		}
	}
	return nil
}

// TestSearchesDoNotQueueBehindALoad: while one caller reads a newer
// generation, a search answers from the snapshot in memory instead of
// waiting; Refresh then brings the new generation.
func TestSearchesDoNotQueueBehindALoad(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"a.go": "package a\n\n// Alpha handles the wombat.\nfunc Alpha() {}\n"})
	idx := filepath.Join(t.TempDir(), "index.db")
	indexAt(t, root, idx)
	eng, err := openTestEngine(t, idx)
	if err != nil {
		t.Fatal(err)
	}
	old := eng.snap.Load().generation
	testtree.Write(t, root, map[string]string{"b.go": "package a\n\n// Beta feeds the wombat.\nfunc Beta() {}\n"})
	indexAt(t, root, idx)

	eng.loading.Lock() // another caller is reading the new generation
	done := make(chan *Response, 1)
	go func() {
		res, err := eng.Search(ctx, Options{Query: "wombat", Limit: 10})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if eng.snap.Load().generation != old || res == nil || len(res.Results) != 1 {
			t.Errorf("during the load: %+v, want the previous generation's one result", res)
		}
	case <-time.After(time.Minute):
		t.Fatal("a search waited for the load")
	}
	eng.loading.Unlock()
	if err := eng.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := eng.Search(ctx, Options{Query: "wombat", Limit: 10})
	if err != nil || len(res.Results) != 2 {
		t.Fatalf("after Refresh: %+v, %v; want both files", res, err)
	}
}
