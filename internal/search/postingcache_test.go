package search

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
	"github.com/lore-dev/lore/internal/testtree"
)

// TestPostingCache checks that the lists the engine serves from its cache
// are the store's, before and after a run commits a new generation, under
// budgets from generous to tiny (which evict at every search), and that a
// search still on an older snapshot neither reads nor fills the cache.
func TestPostingCache(t *testing.T) {
	ctx := context.Background()
	files := cacheTestFiles()
	queries := [][]string{
		{"router", "session"}, {"token"}, {"session", "token", "ledger"}, {"widget", "nowhere"},
		{"router", "session"}, {"budget", "parser", "tenant", "shader", "cache"}, {"token", "router"},
	}
	for _, tc := range []struct {
		name   string
		budget int
	}{
		{"default budget", 0},
		{"small budget", 2048},
		{"budget below every list", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			testtree.Write(t, root, files)
			idx := filepath.Join(t.TempDir(), "index.db")
			indexAt(t, root, idx)
			eng, err := openTestEngine(t, idx)
			if err != nil {
				t.Fatal(err)
			}
			eng.postingCache.budget = tc.budget
			check := func(when string) {
				t.Helper()
				snap := eng.snap.Load()
				for _, terms := range queries {
					got, err := eng.postings(ctx, snap, terms)
					if err != nil {
						t.Fatal(err)
					}
					want, err := eng.st.Postings(ctx, terms, snap.lens)
					if err != nil {
						t.Fatal(err)
					}
					snap.dropDead(want)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: postings of %v from the cache differ from the store's", when, terms)
					}
					budget := tc.budget
					if budget == 0 {
						budget = postingCacheBytes
					}
					if _, bytes := eng.postingCache.cached(); bytes > budget {
						t.Fatalf("%s: the cache holds %d bytes, over its budget of %d", when, bytes, budget)
					}
				}
			}
			check("first reads")
			check("second reads")
			lists, _ := eng.postingCache.cached()
			if tc.budget == 1 && lists != 0 {
				t.Fatalf("%d lists kept under a budget no list fits", lists)
			}
			if tc.budget == 0 && lists == 0 {
				t.Fatal("nothing kept under the default budget")
			}

			// A run changes which chunks hold "router": the next search reads
			// the new generation's lists, not the cached ones.
			old := eng.snap.Load()
			rewriteLater(t, filepath.Join(root, "pkg0", "router_0.go"), "package p\n\n// Ledger keeps a widget.\nfunc Ledger() {}\n")
			indexAt(t, root, idx)
			if err := eng.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			if eng.snap.Load() == old {
				t.Fatal("the run did not make a new snapshot")
			}
			check("after the run")

			// A search still on the old snapshot reads the store and keeps
			// nothing.
			before, _ := eng.postingCache.cached()
			got, err := eng.postings(ctx, old, []string{"zzz-absent", "router"})
			if err != nil {
				t.Fatal(err)
			}
			want, err := eng.st.Postings(ctx, []string{"zzz-absent", "router"}, old.lens)
			if err != nil {
				t.Fatal(err)
			}
			old.dropDead(want)
			if !reflect.DeepEqual(got, want) {
				t.Fatal("postings read for an old snapshot differ from the store's")
			}
			if after, _ := eng.postingCache.cached(); after != before || eng.postingCache.snap != eng.snap.Load() {
				t.Fatalf("a search on an old snapshot changed the cache: %d lists, then %d", before, after)
			}
		})
	}
}

// cacheTestFiles is the tree the cache tests index: 24 small Go files in
// three folders, each defining two functions that share words with others.
func cacheTestFiles() map[string]string {
	words := []string{"router", "session", "token", "cache", "shader", "ledger", "widget", "tenant", "budget", "parser"}
	files := map[string]string{}
	for i := range 24 {
		w, v := words[i%len(words)], words[(i/len(words)+i)%len(words)]
		files[fmt.Sprintf("pkg%d/%s_%d.go", i%3, w, i)] = fmt.Sprintf(
			"package p\n\n// %s%d handles the %s of a %s.\nfunc %s%d() {}\n\n// %sToken reads a %s token.\nfunc %sToken%d() {}\n",
			w, i, w, v, w, i, v, v, v, i)
	}
	return files
}

// rewriteLater writes body to the file at abs, dated an hour ahead so that
// the next index run sees it changed however fast it follows.
func rewriteLater(t *testing.T, abs, body string) {
	t.Helper()
	if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(abs, later, later); err != nil {
		t.Fatal(err)
	}
}

// TestPostingCacheSearchesUnchanged checks that ranked results are the same
// whether the posting lists come from the store or from the cache.
func TestPostingCacheSearchesUnchanged(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"net/tcp.go":     "package net\n\n// ReadStream reads bytes from a TCP stream.\nfunc ReadStream() {}\n",
		"net/udp.go":     "package net\n\n// ReadPacket reads a packet from a UDP socket with a timeout.\nfunc ReadPacket() {}\n",
		"rt/spawn.go":    "package rt\n\n// Spawn runs a background task on the pool.\nfunc Spawn() {}\n",
		"rt/shutdown.go": "package rt\n\n// Shutdown waits for a graceful shutdown signal, then cancels every task.\nfunc Shutdown() {}\n",
		"README.md":      "# demo\n\nTasks, streams and timeouts.\n",
	})
	idx := filepath.Join(t.TempDir(), "index.db")
	indexAt(t, root, idx)
	cached, err := openTestEngine(t, idx)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.OpenReadOnly(ctx, idx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{"read bytes from a TCP stream", "background task", "shutdown signal task", "read timeout", "task"} {
		for round := range 3 {
			got, err := cached.Search(ctx, Options{Query: q, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			r, err := db.Reader(ctx, store.DefaultCollection)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := New(ctx, r) // an empty cache: every list from the store
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.Search(ctx, Options{Query: q, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			got.TookMS, want.TookMS = 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q, round %d: results differ with the cache:\n got %+v\nwant %+v", q, round, got, want)
			}
		}
	}
}

// TestPostingCacheWithDeadChunks: on a snapshot made from a run's changes,
// which keeps the chunks the run removed in place as dead, searches with
// the cache (several at once, again and again) rank exactly as an engine
// that reads every list, and the kept lists hold no dead chunk (so that no
// search ever writes to one: -race). The store here is made to return
// postings of the dead chunks too (deadPostings), as one whose deletions
// are not yet merged away may, so that Search has some to drop.
func TestPostingCacheWithDeadChunks(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("net/conn%d.go", i)] = fmt.Sprintf(
			"package net\n\n// ReadStream%d reads bytes from a TCP stream with a timeout.\nfunc ReadStream%d() {}\n\n// Spawn%d runs a background task.\nfunc Spawn%d() {}\n", i, i, i, i)
	}
	testtree.Write(t, root, files)
	idx := filepath.Join(t.TempDir(), "index.db")
	indexAt(t, root, idx)
	cached, plain := deadPostingsEngine(t, idx), deadPostingsEngine(t, idx)
	plain.postingCache.budget = -1
	later := time.Now().Add(time.Hour)
	// Rewrite a third of the files, none of the first: their old chunks
	// die, and chunk 0 (what a zeroed posting would point to) stays live.
	for i := 5; i < 9; i++ {
		abs := filepath.Join(root, "net", fmt.Sprintf("conn%d.go", i))
		body := fmt.Sprintf("package net\n\n// Shutdown%d waits for a graceful shutdown signal of the stream.\nfunc Shutdown%d() {}\n", i, i)
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, later, later); err != nil {
			t.Fatal(err)
		}
	}
	indexAt(t, root, idx)
	for _, e := range []*Engine{cached, plain} {
		if err := e.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	snap := cached.snap.Load()
	if !snap.fromChanges || snap.live == len(snap.chunkFile) {
		t.Skipf("the run's change was not applied with dead chunks (from changes %v, %d live of %d)",
			snap.fromChanges, snap.live, len(snap.chunkFile))
	}
	queries := []string{"read bytes from a TCP stream", "background task", "graceful shutdown signal", "stream timeout"}
	want := map[string]*Response{}
	for _, q := range queries {
		r, err := plain.Search(ctx, Options{Query: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		r.TookMS = 0
		want[q] = r
	}
	var wg sync.WaitGroup
	errc := make(chan error, 4*len(queries))
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for _, q := range queries {
					got, err := cached.Search(ctx, Options{Query: q, Limit: 10})
					if err != nil {
						errc <- err
						return
					}
					got.TookMS = 0
					if !reflect.DeepEqual(got, want[q]) {
						errc <- fmt.Errorf("%q, round %d: results differ with the cache:\n got %+v\nwant %+v", q, round, got, want[q])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	c := &cached.postingCache
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.lru.Front(); el != nil; el = el.Next() {
		ent := el.Value.(*snapEntry[string, []store.PostingAt])
		for _, h := range ent.value {
			if snap.chunkFile[h.Pos] < 0 {
				t.Fatalf("the kept list of %q holds dead chunk %d", ent.key, h.Pos)
			}
		}
	}
}

// deadPostings is a store.Reader whose posting lists also name every dead
// chunk of the engine's current snapshot, with a frequency of 1.
type deadPostings struct {
	store.Reader
	eng *Engine
}

func (d *deadPostings) Postings(ctx context.Context, terms []string, lens *store.DocLens) ([][]store.PostingAt, error) {
	lists, err := d.Reader.Postings(ctx, terms, lens)
	if err != nil || d.eng == nil {
		return lists, err
	}
	snap := d.eng.snap.Load()
	if snap == nil || snap.lens != lens {
		return lists, nil
	}
	for i := range lists {
		for pos, slot := range snap.chunkFile {
			if slot < 0 {
				var h store.PostingAt
				h.Pos, h.Freqs[0] = int32(pos), 1
				lists[i] = append(lists[i], h)
			}
		}
		slices.SortFunc(lists[i], func(a, b store.PostingAt) int { return cmp.Compare(a.Pos, b.Pos) })
	}
	return lists, nil
}

// deadPostingsEngine opens an engine over the default collection of the
// index file at path through deadPostings.
func deadPostingsEngine(t *testing.T, path string) *Engine {
	ctx := context.Background()
	db, err := sqlite.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	d := &deadPostings{Reader: r}
	e, err := New(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	d.eng = e
	return e
}

// BenchmarkPostingCache runs ranked searches, each query once in turn,
// with and without the posting cache, over an existing index file:
//
//	LORE_BENCH_INDEX=/path/to/index.db LORE_BENCH_QUERIES=queries.txt \
//		go test ./internal/search -run '^$' -bench PostingCache -benchtime 2000x
//
// Give more queries than -benchtime's count for distinct queries only
// (what a cache must help too); fewer, and they repeat.
func BenchmarkPostingCache(b *testing.B) {
	benchSearchesWithCache(b, func(e *Engine) *int { return &e.postingCache.budget },
		func(e *Engine) (int, int) { return e.postingCache.cached() }, "lists")
}

// benchSearchesWithCache runs ranked searches over the index file
// LORE_BENCH_INDEX, each query of the file LORE_BENCH_QUERIES once in
// turn, with the cache whose budget budgetOf points at on and off, and
// reports the CPU a search took and what the cache kept (cached; its
// values are named unit).
func benchSearchesWithCache(b *testing.B, budgetOf func(*Engine) *int, cached func(*Engine) (int, int), unit string) {
	path, qfile := os.Getenv("LORE_BENCH_INDEX"), os.Getenv("LORE_BENCH_QUERIES")
	if path == "" || qfile == "" {
		b.Skip("set LORE_BENCH_INDEX and LORE_BENCH_QUERIES")
	}
	data, err := os.ReadFile(qfile)
	if err != nil {
		b.Fatal(err)
	}
	var queries []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			queries = append(queries, l)
		}
	}
	for _, bc := range []struct {
		name   string
		budget int
	}{{"cache", 0}, {"no cache", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			eng, err := openTestEngine(b, path)
			if err != nil {
				b.Fatal(err)
			}
			*budgetOf(eng) = bc.budget
			ctx := context.Background()
			b.ResetTimer()
			cpu0 := processCPU(b)
			for i := range b.N {
				if _, err := eng.Search(ctx, Options{Query: queries[i%len(queries)], Limit: 10}); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, unlike ns/op, does not depend on how much of a busy
			// machine the benchmark was given.
			b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
			values, bytes := cached(eng)
			b.ReportMetric(float64(values), unit+"-kept")
			b.ReportMetric(float64(bytes)/(1<<20), "MiB-kept")
		})
	}
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
