package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/files"
	"github.com/lore-dev/lore/internal/fsroot"
)

// BenchmarkFilesSearch measures the files search tool's service on the
// root LORE_BENCH_FILES_ROOT names (read, never written; its index goes
// to a temporary folder), interleaving per query:
//
//   - indexed: with the root's n-gram index, vouched by a watcher (what
//     lore serve does);
//   - walked: with the index but no watcher (each file compared by size
//     and time during a walk);
//   - scan: without an index (every file read);
//   - rg: ripgrep over the same root, when installed (all matches, not
//     the first 200; no ignore-rule differences are reconciled).
//
// It reports p50 and p95 per mode in ms, the cold index time and the
// n-gram index's size in memory. The queries are literal and regex,
// case-insensitive, the tool's defaults (limit 200).
//
//	LORE_BENCH_FILES_ROOT=/path/to/root go test -run XXX -bench FilesSearch -benchtime 5x ./internal/app
func BenchmarkFilesSearch(b *testing.B) {
	root := os.Getenv("LORE_BENCH_FILES_ROOT")
	if root == "" {
		b.Skip("set LORE_BENCH_FILES_ROOT to a large source tree")
	}
	fr, err := fsroot.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cache := b.TempDir()
	watched := New(Options{IndexFor: IndexUnder(cache), Collections: filepath.Join(cache, "c.db"), Watch: &WatchOptions{}})
	defer watched.Close()
	start := time.Now()
	if _, err := watched.Index(ctx, IndexRequest{Root: fr.Path()}); err != nil {
		b.Fatal(err)
	}
	indexTime := time.Since(start)
	plain := New(Options{IndexFor: IndexUnder(cache), Collections: filepath.Join(cache, "c.db")})
	defer plain.Close()
	start = time.Now()
	ix := watched.FileIndex(ctx, fr.Path())
	if ix == nil || !ix.Complete {
		b.Fatalf("no complete index: %+v", ix)
	}
	loadTime := time.Since(start)

	scan := files.New(nil, fr)
	modes := []struct {
		name string
		run  func(files.SearchQuery) (int, error)
	}{
		{"indexed", searchWith(scan.WithIndex(watched.FileIndex))},
		{"walked", searchWith(scan.WithIndex(plain.FileIndex))},
		{"scan", searchWith(scan)},
	}
	if rg, err := exec.LookPath("rg"); err == nil {
		modes = append(modes, struct {
			name string
			run  func(files.SearchQuery) (int, error)
		}{"rg", func(q files.SearchQuery) (int, error) {
			args := []string{"-n", "-i", "--no-heading", "--max-filesize", "1M"}
			if !q.Regex {
				args = append(args, "-F")
			}
			out, err := exec.Command(rg, append(args, "--", q.Query, fr.Path())...).Output()
			if err != nil && len(out) != 0 {
				return 0, err
			}
			return len(out), nil
		}})
	}
	queries := []files.SearchQuery{
		{Query: "ConcurrentHashMap"},
		{Query: "fn main"},
		{Query: "deprecated"},
		{Query: "xyzzy_never_there"},
		{Query: "unsafe impl"},
		{Query: `func \w+Handler\(`, Regex: true},
		{Query: `impl\s+\w+\s+for\s+Runtime`, Regex: true},
		{Query: `(TODO|FIXME)\(`, Regex: true},
	}
	// Identity first: every mode of lore answers the same.
	for _, q := range queries {
		want, err := scan.Search(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range []*files.Service{scan.WithIndex(watched.FileIndex), scan.WithIndex(plain.FileIndex)} {
			got, err := s.Search(ctx, q)
			if err != nil {
				b.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				b.Fatalf("%q: the indexed search differs from the scan", q.Query)
			}
		}
	}
	times := make([][]time.Duration, len(modes))
	perQuery := make([][][]time.Duration, len(modes))
	for m := range modes {
		perQuery[m] = make([][]time.Duration, len(queries))
	}
	b.ResetTimer()
	for range b.N {
		for qi, q := range queries {
			for m, mode := range modes {
				t0 := time.Now()
				if _, err := mode.run(q); err != nil {
					b.Fatalf("%s %q: %v", mode.name, q.Query, err)
				}
				d := time.Since(t0)
				times[m] = append(times[m], d)
				perQuery[m][qi] = append(perQuery[m][qi], d)
			}
		}
	}
	b.StopTimer()
	for qi, q := range queries {
		line := fmt.Sprintf("%-32q", q.Query)
		for m, mode := range modes {
			line += fmt.Sprintf(" %s %.1f ms", mode.name, pct(perQuery[m][qi], 50))
		}
		b.Log(line)
	}
	for m, mode := range modes {
		b.ReportMetric(pct(times[m], 50), mode.name+"-p50-ms")
		b.ReportMetric(pct(times[m], 95), mode.name+"-p95-ms")
	}
	b.ReportMetric(indexTime.Seconds(), "index-s")
	b.ReportMetric(loadTime.Seconds(), "load-s")
	b.ReportMetric(float64(ix.Grams.Size())/(1<<20), "grams-MiB")
	b.ReportMetric(float64(len(ix.Files)), "files")
}

func searchWith(s *files.Service) func(files.SearchQuery) (int, error) {
	return func(q files.SearchQuery) (int, error) {
		res, err := s.Search(context.Background(), q)
		if err != nil {
			return 0, err
		}
		return len(res.Results), nil
	}
}

// pct is the p-th percentile of ds, in milliseconds.
func pct(ds []time.Duration, p int) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	i := min(len(s)-1, (len(s)*p+99)/100-1)
	return float64(s[max(0, i)].Microseconds()) / 1000
}
