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
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
	"github.com/lore-dev/lore/internal/testtree"
)

// TestAppliedChangesEqualReading checks that an engine following runs
// through the store's change log holds exactly the snapshot that reading
// the index whole gives, over random edits, additions and removals (in
// walk and changed-path runs), a forced rebuild, and a reader that fell
// further behind than the log reaches: with the removed chunks kept dead
// in place, and with them dropped at each application.
func TestAppliedChangesEqualReading(t *testing.T) {
	for _, mode := range []struct {
		name      string
		minDead   int
		deadShare float64
	}{{"dead kept", 1 << 30, 1e9}, {"dead dropped", 0, 0}} {
		t.Run(mode.name, func(t *testing.T) {
			defer func(n int, s float64) { compactMinDead, compactDeadShare = n, s }(compactMinDead, compactDeadShare)
			compactMinDead, compactDeadShare = mode.minDead, mode.deadShare
			testAppliedChangesEqualReading(t)
		})
	}
}

func testAppliedChangesEqualReading(t *testing.T) {
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
			case ".rs":
				b = fmt.Appendf(b, "/// Handles the %s of a %s.\npub fn %s_%s_%d_%d(x: u32) -> u32 {\n    x\n}\n\n", w, v, w, v, round, i)
			default:
				b = fmt.Appendf(b, "// %s%s%d%d handles the %s of a %s.\nfunc %s%s%d%d() {}\n\n", w, v, round, i, w, v, w, v, round, i)
			}
		}
		if filepath.Ext(name) == ".rs" && rng.IntN(2) == 0 {
			// The file's own tests: a test region (markTestRegions).
			b = fmt.Appendf(b, "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn checks_the_%s() {\n        assert_eq!(1, 1);\n    }\n}\n", words[rng.IntN(len(words))])
		}
		if filepath.Ext(name) == ".go" {
			b = append([]byte("package p\n\n"), b...)
		}
		return string(b)
	}
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("pkg%d/file%02d%s", i%4, i, []string{".go", ".py", ".c", ".h", ".rs", "_test.go"}[i%6]))
	}
	names = append(names, "lib/idna.h", "lib/idna.c", "api/v1/client.go", "api/v2/client.go", "api/client.go",
		"crate/src/lexer.rs", "crate/src/parser.rs", "crate/src/ledger.rs")
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
	applied, withDead := 0, 0
	lastWritten := names[0]
	for round := 1; round <= 40; round++ {
		var changed []string
		edits := 1 + rng.IntN(3)
		if round%4 == 0 {
			edits = 1 // the same file again, alone: SQLite gives its row the same id
		}
		for range edits {
			name := names[rng.IntN(len(names))]
			if round%4 == 0 {
				name = lastWritten
			} else if rng.IntN(5) == 0 {
				name = fmt.Sprintf("new%d/added%d.go", round%3, round)
				names = append(names, name)
			}
			changed = append(changed, name)
			abs := filepath.Join(root, filepath.FromSlash(name))
			if round%4 != 0 && rng.IntN(5) == 0 {
				os.Remove(abs) // gone; a later round may bring it back
				continue
			}
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte(gen(name, round)), 0o644); err != nil {
				t.Fatal(err)
			}
			lastWritten = name
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
		if err := sameSnapshot(withoutDead(eng.snap.Load()), fresh.snap.Load()); err != nil {
			t.Fatalf("round %d (changed %v, applied from the log: %v): %v", round, changed, eng.snap.Load().fromChanges, err)
		}
		if snap := eng.snap.Load(); snap.live < len(snap.meta) {
			withDead++
		}
		for _, q := range []string{"router session", "ledger of a widget", "tenant budget parser", "cache"} {
			got, err := eng.Search(ctx, Options{Query: q, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.Search(ctx, Options{Query: q, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			got.TookMS, want.TookMS = 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: %q applied %+v, read whole %+v", round, q, got.Results, want.Results)
			}
		}
	}
	if applied < 20 {
		t.Fatalf("only %d of the refreshes applied the change log", applied)
	}
	if keepDead := compactMinDead > 1000; keepDead && withDead < 10 || !keepDead && withDead > 0 {
		t.Fatalf("%d snapshots held dead chunks", withDead)
	}
}

// withoutDead is s with its dead chunks left out, as reading its
// generation whole makes it.
func withoutDead(s *snapshot) *snapshot {
	out := &snapshot{generation: s.generation, files: s.files, plain: s.plain, facts: s.facts, stats: s.stats,
		implChunks: s.implChunks, lens: &store.DocLens{Avg: s.lens.Avg}}
	for pos, slot := range s.chunkFile {
		if slot < 0 {
			continue
		}
		out.lens.IDs = append(out.lens.IDs, s.lens.IDs[pos])
		out.lens.Lens = append(out.lens.Lens, s.lens.Lens[pos])
		out.meta = append(out.meta, s.meta[pos])
		out.chunkFile = append(out.chunkFile, slot)
		if s.inTests != nil {
			out.inTests = append(out.inTests, s.inTests[pos])
		}
	}
	if out.live = len(out.meta); out.live != s.live {
		out.live = -1 // counted wrong: differs
	}
	return out
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
		{"live chunks", got.live, want.live},
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
