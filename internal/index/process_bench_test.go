package index

import (
	"context"
	"os"
	"testing"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/store"
)

// BenchmarkProcessRepo parses every file of the checkout LORE_BENCH_ROOT
// names on one goroutine, as a build's workers do, with no store: the
// worker's share of a cold build (read, parse, chunk, symbols, terms,
// grams). Skipped without LORE_BENCH_ROOT.
//
//	LORE_BENCH_ROOT=~/bench/tokio go test ./internal/index -run '^$' -bench ProcessRepo -cpuprofile cpu.out
func BenchmarkProcessRepo(b *testing.B) {
	rootDir := os.Getenv("LORE_BENCH_ROOT")
	if rootDir == "" {
		b.Skip("LORE_BENCH_ROOT names no repository")
	}
	root, err := fsroot.Open(rootDir)
	if err != nil {
		b.Fatal(err)
	}
	files, err := walk(context.Background(), root, "", fsroot.WalkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range files {
		size += f.Size
	}
	b.SetBytes(size)
	cpu0, measured := processCPU()
	for b.Loop() {
		w := newWorker()
		for _, f := range files {
			r := w.processFile(f, store.FileState{}, false, gramJob{want: true})
			if r.outcome == outFailed {
				b.Fatalf("%s: %v", f.Rel, r.err)
			}
		}
	}
	if cpu1, ok := processCPU(); ok && measured {
		b.ReportMetric(float64((cpu1-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
