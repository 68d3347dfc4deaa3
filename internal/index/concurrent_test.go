package index_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
)

// TestConcurrentSearchesDuringReindex runs searches from many goroutines
// against one engine while the index is rewritten under it: every answer
// must be one of the two generations' answers, whole, and the race
// detector must stay quiet (snapshots are shared read-only; prepared
// statements are shared by the engine). The rewrite is an update, or a
// forced rebuild of the whole file.
func TestConcurrentSearchesDuringReindex(t *testing.T) {
	for _, force := range []bool{false, true} {
		t.Run(fmt.Sprintf("force=%v", force), func(t *testing.T) { searchDuringReindex(t, force) })
	}
}

func searchDuringReindex(t *testing.T, force bool) {
	ctx := context.Background()
	root, indexPath := setup(t)
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	eng, err := openEngine(t, ctx, indexPath)
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"RouteContext", "total price of the cart", "parse_args", "handler", "install the shop"}
	answers := func() map[string][]search.Result {
		out := map[string][]search.Result{}
		for _, q := range queries {
			resp, err := eng.Search(ctx, search.Options{Query: q, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			out[q] = resp.Results
		}
		return out
	}
	before := answers()

	// The second generation adds a file that matches every query.
	writeTree(t, root, map[string]string{"extra.go": "package shop\n\n// Extra mentions RouteContext, parse_args, handler, the total price of the cart and how to install the shop.\nfunc Extra() {}\n"})
	var wg sync.WaitGroup
	errc := make(chan error, 64)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := runAt(ctx, indexPath, index.Options{Root: root, Force: force}); err != nil {
			errc <- err
		}
	}()
	results := make(chan [2]any, 200)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				q := queries[(g+i)%len(queries)]
				resp, err := eng.Search(ctx, search.Options{Query: q, Limit: 5})
				if err != nil {
					errc <- fmt.Errorf("search %q: %w", q, err)
					return
				}
				results <- [2]any{q, resp.Results}
			}
		}(g)
	}
	wg.Wait()
	close(errc)
	close(results)
	for err := range errc {
		t.Fatal(err)
	}
	after := answers()
	for r := range results {
		q, got := r[0].(string), r[1].([]search.Result)
		if !reflect.DeepEqual(got, before[q]) && !reflect.DeepEqual(got, after[q]) {
			t.Errorf("search %q returned neither generation's answer: %+v", q, got)
		}
	}
	if reflect.DeepEqual(before["RouteContext"], after["RouteContext"]) {
		t.Errorf("the second generation did not change the answers; the test checks nothing")
	}
}
