package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
)

// benchTree copies the tree LORE_BENCH_TREE names (a repository checkout)
// into a temporary folder the benchmark may write to; the benchmark is
// skipped without it.
func benchTree(b *testing.B) string {
	b.Helper()
	src := os.Getenv("LORE_BENCH_TREE")
	if src == "" {
		b.Skip("set LORE_BENCH_TREE to a repository checkout (it is copied, never written)")
	}
	dst := filepath.Join(b.TempDir(), "tree")
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		b.Fatalf("copying %s: %v\n%s", src, err, out)
	}
	return dst
}

// BenchmarkSaveToSearchable measures, on a watched copy of
// LORE_BENCH_TREE, the time from a file being saved to a search finding
// what it added, with the exact search's index kept current too; it
// reports p50 and p95. LORE_BENCH_INDEX may name an index of the tree to
// start from (copied) instead of indexing the copy cold, and
// LORE_BENCH_QUIET the watcher's quiet period (default: watch's, 300 ms),
// which the figures include.
//
//	LORE_BENCH_TREE=~/src/tokio go test -run XXX -bench SaveToSearchable -benchtime 20x ./internal/app
func BenchmarkSaveToSearchable(b *testing.B) {
	tree := benchTree(b)
	runs := make(chan error, 100)
	cache := b.TempDir()
	watch := &WatchOptions{OnIndexed: func(string, *index.Stats, error) { runs <- nil }}
	if q := os.Getenv("LORE_BENCH_QUIET"); q != "" {
		d, err := time.ParseDuration(q)
		if err != nil {
			b.Fatal(err)
		}
		watch.Quiet = d
	}
	if prebuilt := os.Getenv("LORE_BENCH_INDEX"); prebuilt != "" {
		loc, err := IndexUnder(cache)(tree)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(loc.Database), 0o755); err != nil {
			b.Fatal(err)
		}
		if out, err := exec.Command("cp", prebuilt, loc.Database).CombinedOutput(); err != nil {
			b.Fatalf("copying %s: %v\n%s", prebuilt, err, out)
		}
	}
	a := New(Options{IndexFor: IndexUnder(cache), Watch: watch})
	defer a.Close()
	if _, err := a.Index(ctx, IndexRequest{Root: tree}); err != nil {
		b.Fatal(err)
	}
	if ix := a.FileIndex(ctx, tree); ix == nil {
		b.Fatal("no n-gram index") // loaded now, so that each run refreshes it
	}
	// save writes a new file with word i and returns the time until a
	// search finds it.
	save := func(i int) time.Duration {
		word := fmt.Sprintf("zyzzyva%dqx", i)
		path := filepath.Join(tree, fmt.Sprintf("fresh_%d.rs", i))
		start := time.Now()
		if err := os.WriteFile(path, []byte(fmt.Sprintf("/// %s marks this function.\npub fn %s() {}\n", word, word)), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			select {
			case <-runs:
			case <-time.After(time.Minute):
				b.Fatal("no run within a minute")
			}
			res, err := a.Search(ctx, SearchRequest{Root: tree, Options: search.Options{Query: word, Limit: 1}})
			if err == nil && len(res.Results) > 0 && filepath.Base(res.Results[0].Path) == filepath.Base(path) {
				return time.Since(start)
			}
		}
	}
	save(b.N) // the watcher's first run walks the root: not what a save costs
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		lat = append(lat, save(i))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*95+99)/100-1].Milliseconds()), "p95-ms")
}

// BenchmarkWatchIdle reports the CPU a watcher of LORE_BENCH_TREE uses
// while nothing changes, per minute, with file events and with scans.
//
//	LORE_BENCH_TREE=~/src/tokio go test -run XXX -bench WatchIdle -benchtime 1x ./internal/app
func BenchmarkWatchIdle(b *testing.B) {
	tree := benchTree(b)
	for _, mode := range []struct {
		name string
		poll time.Duration
	}{{"events", 0}, {"scan-2s", 2 * time.Second}} {
		b.Run(mode.name, func(b *testing.B) {
			for range b.N {
				a := New(Options{IndexFor: IndexUnder(b.TempDir()), Watch: &WatchOptions{Poll: mode.poll}})
				if _, err := a.Index(ctx, IndexRequest{Root: tree}); err != nil {
					b.Fatal(err)
				}
				if err := a.Watch(ctx, tree); err != nil {
					b.Fatal(err)
				}
				const window = 20 * time.Second
				before := cpuTime()
				time.Sleep(window) // idle is what is measured
				used := cpuTime() - before
				a.Close()
				b.ReportMetric(float64(used.Milliseconds())*float64(time.Minute/window), "cpu-ms/min")
			}
		})
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
