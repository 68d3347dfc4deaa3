package mcp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
	"github.com/lore-dev/lore/internal/symbols"
)

// researchSample picks, deterministically, up to n function and method
// names and up to n interface names that the index of root defines: every
// k-th distinct name in path order.
func researchSample(tb testing.TB, indexFile string, n int) (funcs, ifaces []string) {
	tb.Helper()
	ctx := context.Background()
	db, err := sqlite.OpenReadOnly(ctx, indexFile)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	err = r.Symbols(ctx, func(fs store.FileSymbols) error {
		for _, d := range fs.Symbols.Definitions {
			if seen[d.Name] || len(d.Name) < 3 {
				continue
			}
			seen[d.Name] = true
			switch d.Kind {
			case symbols.KindFunction, symbols.KindMethod:
				funcs = append(funcs, d.Name)
			case symbols.KindInterface, symbols.KindTrait:
				ifaces = append(ifaces, d.Name)
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	every := func(names []string) []string {
		if len(names) <= n {
			return names
		}
		var out []string
		for i := 0; i < len(names) && len(out) < n; i += len(names) / n {
			out = append(out, names[i])
		}
		return out
	}
	return every(funcs), every(ifaces)
}

// percentile returns the p-th percentile (0..100) of durations, in ms.
func percentile(ds []time.Duration, p int) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	i = max(0, min(len(s)-1, i-1))
	return float64(s[i].Microseconds()) / 1000
}

// BenchmarkCodeResearch measures code_research in a running server, through
// the SDK client, on a real repository named by LORE_BENCH_ROOT
// (LORE_BENCH_ROOT=~/bench/tokio go test ./internal/mcp -run '^$' -bench
// CodeResearch): the first call (which builds the symbol graph), then
// callers at depth 2 and 5, callees at depth 5 and implementations of a
// deterministic sample of the repository's own names; p50 and p95 in ms.
// Skipped without LORE_BENCH_ROOT.
func BenchmarkCodeResearch(b *testing.B) {
	root := os.Getenv("LORE_BENCH_ROOT")
	if root == "" {
		b.Skip("LORE_BENCH_ROOT names no repository")
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		b.Fatal(err)
	}
	e := &env{root: real, cache: b.TempDir(), log: &syncBuffer{}}
	cs := connectSDK(b, e.server(b, nil), nil)
	if res := callTool(b, cs, "index_codebase", map[string]any{"path": real}); res.IsError {
		b.Fatal(textOf(res))
	}
	funcs, ifaces := researchSample(b, e.indexFile(b, real), 100)
	if len(funcs) == 0 {
		b.Fatal("no functions in the index")
	}
	call := func(args map[string]any) time.Duration {
		start := time.Now()
		res := callTool(b, cs, "code_research", args)
		if res.IsError {
			b.Fatalf("%v: %s", args, textOf(res))
		}
		return time.Since(start)
	}
	first := call(map[string]any{"query": "what calls " + funcs[0], "depth": 2})

	type series struct {
		name  string
		query string
		depth int
		names []string
		times []time.Duration
	}
	all := []*series{
		{name: "callers-d2", query: "what calls ", depth: 2, names: funcs},
		{name: "callers-d5", query: "what calls ", depth: 5, names: funcs},
		{name: "callees-d5", query: "what does %s call", depth: 5, names: funcs},
		{name: "impls-d2", query: "all implementations of ", depth: 2, names: ifaces},
	}
	for b.Loop() {
		for _, s := range all {
			for _, name := range s.names {
				q := s.query + name
				if s.name == "callees-d5" {
					q = "what does " + name + " call"
				}
				s.times = append(s.times, call(map[string]any{"query": q, "depth": s.depth}))
			}
		}
	}
	b.ReportMetric(float64(first.Microseconds())/1000, "first-call-ms")
	for _, s := range all {
		if len(s.times) == 0 {
			continue
		}
		b.ReportMetric(percentile(s.times, 50), s.name+"-p50-ms")
		b.ReportMetric(percentile(s.times, 95), s.name+"-p95-ms")
	}
}
