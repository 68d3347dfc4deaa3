package search

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/testtree"
)

// TestDetailCache checks that searches answer the same with the chunk text
// cache as without it, under budgets from generous to tiny (which evict at
// every search), again and again, and after a run rewrote the text of
// chunks; that the cache stays within its budget; and that a search still
// on an older snapshot neither fills nor reads it.
func TestDetailCache(t *testing.T) {
	ctx := context.Background()
	files := cacheTestFiles()
	queries := []string{"router session", "token", "session token ledger", "widget nowhere", "router session",
		"budget parser tenant shader cache", "token router", "handles the ledger"}
	for _, tc := range []struct {
		name   string
		budget int
	}{
		{"default budget", 0},
		{"small budget", 1024},
		{"budget below every text", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			testtree.Write(t, root, files)
			idx := filepath.Join(t.TempDir(), "index.db")
			indexAt(t, root, idx)
			cached, err := openTestEngine(t, idx)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := openTestEngine(t, idx)
			if err != nil {
				t.Fatal(err)
			}
			cached.detailCache.budget, plain.detailCache.budget = tc.budget, -1
			budget := tc.budget
			if budget == 0 {
				budget = detailCacheBytes
			}
			check := func(when string) {
				t.Helper()
				for round := range 2 {
					for _, q := range queries {
						got, err := cached.Search(ctx, Options{Query: q, Limit: 5})
						if err != nil {
							t.Fatal(err)
						}
						want, err := plain.Search(ctx, Options{Query: q, Limit: 5})
						if err != nil {
							t.Fatal(err)
						}
						got.TookMS, want.TookMS = 0, 0
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("%s, %q, round %d: results differ with the cache:\n got %+v\nwant %+v", when, q, round, got, want)
						}
						if _, bytes := cached.detailCache.cached(); bytes > budget {
							t.Fatalf("%s: the cache holds %d bytes, over its budget of %d", when, bytes, budget)
						}
					}
				}
			}
			check("first searches")
			texts, _ := cached.detailCache.cached()
			switch {
			case tc.budget == 1 && texts != 0:
				t.Fatalf("%d texts kept under a budget no text fits", texts)
			case tc.budget == 0 && texts == 0:
				t.Fatal("nothing kept under the default budget")
			}

			// A run rewrites the text of a file's chunks: the next searches
			// show the new text, not the kept one.
			old := cached.snap.Load()
			rewriteLater(t, filepath.Join(root, "pkg0", "router_0.go"),
				"package p\n\n// router0 handles the ledger of a session, rewritten.\nfunc router0() {}\n\n// routerToken reads a router token.\nfunc routerToken0() {}\n")
			indexAt(t, root, idx)
			for _, e := range []*Engine{cached, plain} {
				if err := e.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if cached.snap.Load() == old {
				t.Fatal("the run did not make a new snapshot")
			}
			check("after the run")
			got, err := cached.Search(ctx, Options{Query: "router0 handles the ledger", Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Results) == 0 || !strings.Contains(got.Results[0].Content, "rewritten") {
				t.Fatalf("after the run, the best result is not the rewritten chunk: %+v", got.Results)
			}

			// A search still on the old snapshot reads the store and keeps
			// nothing.
			before, _ := cached.detailCache.cached()
			ranked := []scored{{row: &old.meta[0]}, {row: &old.meta[len(old.meta)-1]}}
			details, err := cached.details(ctx, old, ranked)
			if err != nil {
				t.Fatal(err)
			}
			want, err := cached.st.ChunkDetails(ctx, []int64{old.meta[0].ID, old.meta[len(old.meta)-1].ID})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(details, want) {
				t.Fatalf("texts read for an old snapshot differ from the store's:\n got %+v\nwant %+v", details, want)
			}
			if after, _ := cached.detailCache.cached(); after != before || cached.detailCache.snap != cached.snap.Load() {
				t.Fatalf("a search on an old snapshot changed the cache: %d texts, then %d", before, after)
			}
		})
	}
}

// BenchmarkDetailCache runs ranked searches, each query once in turn, with
// and without the chunk text cache, over an existing index file:
//
//	LORE_BENCH_INDEX=/path/to/index.db LORE_BENCH_QUERIES=queries.txt \
//		go test ./internal/search -run '^$' -bench DetailCache -benchtime 2000x
//
// Give more queries than -benchtime's count for distinct queries only
// (what a cache must help too); fewer, and they repeat.
func BenchmarkDetailCache(b *testing.B) {
	benchSearchesWithCache(b, func(e *Engine) *int { return &e.detailCache.budget },
		func(e *Engine) (int, int) { return e.detailCache.cached() }, "texts")
}
