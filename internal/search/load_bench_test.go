package search

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/store"
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
	eng := benchEngine(b)
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

// BenchmarkApplyOneFileChange times what a server's engine does after a
// one-file run, on an existing index (LORE_BENCH_INDEX): apply the run's
// change (a file's chunks removed and added again under new ids) to the
// snapshot in memory, each to the snapshot the previous one made, as a
// server following saves does. Skipped without LORE_BENCH_INDEX.
//
//	LORE_BENCH_INDEX=/path/index.db go test -run XXX -bench ApplyOneFileChange -benchtime 20x ./internal/search
func BenchmarkApplyOneFileChange(b *testing.B) {
	eng := benchEngine(b)
	for _, bench := range []struct {
		name string
		same bool // the same file each time: SQLite gives its row the same id again
	}{{"files", false}, {"same-file", true}} {
		b.Run(bench.name, func(b *testing.B) {
			snap := eng.snap.Load()
			chunks := len(snap.meta)
			// The first application after a read copies the chunk arrays
			// (they are the store's); the ones after it append.
			mid := len(snap.files) / 2
			snap = snap.applyChanges([]store.Change{oneFileChange(snap, mid, false)})
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				slot := mid
				if !bench.same {
					slot = (mid + (i+1)*7919) % len(snap.files)
				}
				change := oneFileChange(snap, slot, bench.same)
				b.StartTimer()
				snap = snap.applyChanges([]store.Change{change})
			}
			b.ReportMetric(float64(chunks), "chunks")
		})
	}
}

// oneFileChange is the change of a run that re-indexed the file at slot
// of snap unchanged: its row and chunks removed, and added again under
// chunk ids past every id in snap, and a file id past every id in snap
// unless sameID.
func oneFileChange(snap *snapshot, slot int, sameID bool) store.Change {
	f := snap.files[slot]
	var maxFile, maxChunk int64
	for _, r := range snap.files {
		maxFile = max(maxFile, r.ID)
	}
	c := store.Change{Generation: "bench", RemovedFiles: []int64{f.ID}, Lens: &store.DocLens{}}
	added := f
	if !sameID {
		added.ID = maxFile + 1
	}
	c.Files = []store.FileRow{added}
	for pos, m := range snap.meta {
		maxChunk = max(maxChunk, m.ID)
		if m.FileID == f.ID && snap.chunkFile[pos] >= 0 {
			c.RemovedChunks = append(c.RemovedChunks, m.ID)
			c.Lens.IDs = append(c.Lens.IDs, 0) // numbered below
			c.Lens.Lens = append(c.Lens.Lens, snap.lens.Lens[pos])
			m.FileID = added.ID
			c.Meta = append(c.Meta, m)
		}
	}
	for i := range c.Meta {
		c.Lens.IDs[i] = maxChunk + 1 + int64(i)
		c.Meta[i].ID = c.Lens.IDs[i]
	}
	return c
}

// benchEngine is an engine over the index LORE_BENCH_INDEX names; the
// benchmark is skipped without it.
func benchEngine(b *testing.B) *Engine {
	path := os.Getenv("LORE_BENCH_INDEX")
	if path == "" {
		b.Skip("set LORE_BENCH_INDEX to an index file")
	}
	eng, err := openTestEngine(b, path)
	if err != nil {
		b.Fatal(err)
	}
	return eng
}

// BenchmarkLoadImplementers times reading the files that implement each
// type from the symbol graph of an existing index (LORE_BENCH_INDEX), as
// the first symbol query naming an interface does. Skipped without it.
//
//	LORE_BENCH_INDEX=/path/index.db go test -run XXX -bench LoadImplementers -benchtime 20x ./internal/search
func BenchmarkLoadImplementers(b *testing.B) {
	path := os.Getenv("LORE_BENCH_INDEX")
	if path == "" {
		b.Skip("set LORE_BENCH_INDEX to an index file")
	}
	e, err := openTestEngine(b, path)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := e.load(context.Background(), false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := loadImplementers(context.Background(), e.st, snap.files); err != nil {
			b.Fatal(err)
		}
	}
}
