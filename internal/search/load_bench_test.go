package search

import (
	"os"
	"testing"
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
