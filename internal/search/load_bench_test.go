package search

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkEngineLoad times reading what ranking needs of an existing
// index into memory, as a server does after a run commits: LORE_BENCH_INDEX
// names the index file (opened read-only). Skipped without it.
//
//	LORE_BENCH_INDEX=/path/index.db go test -run XXX -bench EngineLoad -benchtime 5x ./internal/search
func BenchmarkEngineLoad(b *testing.B) {
	path := os.Getenv("LORE_BENCH_INDEX")
	if path == "" {
		b.Skip("set LORE_BENCH_INDEX to an index file")
	}
	for b.Loop() {
		if _, err := openTestEngine(b, path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexQueries times warm ranked queries over an existing index
// (LORE_BENCH_INDEX), such as one of a 20M-line root, and reports the
// p50 and p95 of a set of everyday queries. Skipped without it.
//
//	LORE_BENCH_INDEX=/path/index.db go test -run XXX -bench IndexQueries -benchtime 100x ./internal/search
func BenchmarkIndexQueries(b *testing.B) {
	path := os.Getenv("LORE_BENCH_INDEX")
	if path == "" {
		b.Skip("set LORE_BENCH_INDEX to an index file")
	}
	eng, err := openTestEngine(b, path)
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"http server request handler", "parse json configuration file", "retry with exponential backoff",
		"database connection pool", "error handling middleware", "hash map implementation", "thread pool executor",
		"read file into buffer", "command line argument parsing", "cache eviction policy", "NewClient", "websocket upgrade",
		"serialize struct to bytes", "schedule a timer", "authentication token validation", "log rotation"}
	ctx := context.Background()
	for _, q := range queries { // warm: the first query of each reads its lists cold
		if _, err := eng.Search(ctx, Options{Query: q, Limit: 10}); err != nil {
			b.Fatal(err)
		}
	}
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := eng.Search(ctx, Options{Query: queries[i%len(queries)], Limit: 10}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*95+99)/100-1].Microseconds())/1000, "p95-ms")
}
