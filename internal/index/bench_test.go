package index_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
)

// benchRepo writes a synthetic repository of n Go files.
func benchRepo(b *testing.B, n int) string {
	root := b.TempDir()
	files := map[string]string{}
	topics := []string{"router", "cache", "session", "token", "parser", "logger", "metrics", "queue"}
	for i := 0; i < n; i++ {
		t := topics[i%len(topics)]
		files[fmt.Sprintf("pkg%02d/%s_%03d.go", i%20, t, i)] = fmt.Sprintf(`package pkg

// %[1]sHandler%[2]d handles %[1]s requests number %[2]d.
type %[1]sHandler%[2]d struct{ count int }

// Serve%[2]d processes one %[1]s event and updates the counters.
func (h *%[1]sHandler%[2]d) Serve%[2]d(key string) error {
	h.count++
	if key == "" {
		return fmt.Errorf("empty %[1]s key")
	}
	return nil
}
`, t, i)
	}
	writeTree(b, root, files)
	return root
}

func BenchmarkIndexCold(b *testing.B) {
	root := benchRepo(b, 1000)
	for b.Loop() {
		idx := filepath.Join(b.TempDir(), "index.db")
		if _, err := runAt(context.Background(), idx, index.Options{Root: root}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReindexOneFile(b *testing.B) {
	root := benchRepo(b, 1000)
	idx := filepath.Join(b.TempDir(), "index.db")
	ctx := context.Background()
	if _, err := runAt(ctx, idx, index.Options{Root: root}); err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(root, "pkg00", "router_000.go")
	for i := 0; b.Loop(); i++ {
		os.WriteFile(target, []byte(fmt.Sprintf("package pkg\n\n// Touched%d was edited.\nfunc Touched%d() {}\n", i, i)), 0o644)
		future := time.Now().Add(time.Duration(i+1) * time.Second)
		os.Chtimes(target, future, future)
		stats, err := runAt(ctx, idx, index.Options{Root: root})
		if err != nil || stats.Indexed != 1 {
			b.Fatalf("re-index: %+v, %v", stats, err)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	root := benchRepo(b, 1000)
	idx := filepath.Join(b.TempDir(), "index.db")
	ctx := context.Background()
	if _, err := runAt(ctx, idx, index.Options{Root: root}); err != nil {
		b.Fatal(err)
	}
	eng, err := openEngine(b, ctx, idx)
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"session token handler", "Serve42", "empty cache key error", "how are metrics events processed"}
	for i := 0; b.Loop(); i++ {
		if _, err := eng.Search(ctx, search.Options{Query: queries[i%len(queries)], Limit: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexRepo indexes a real checkout cold, one fresh index per
// iteration: LORE_BENCH_ROOT=~/bench/tokio go test ./internal/index
// -run '^$' -bench IndexRepo -cpuprofile cpu.out shows where a run's time
// goes. new-file is a first build (a new file, without the write-ahead
// log); existing-file builds into an existing empty file, in place
// through the log, as every cold build did before. Each reports its CPU
// time and the bytes it wrote an iteration. Skipped without
// LORE_BENCH_ROOT.
func BenchmarkIndexRepo(b *testing.B) {
	root := os.Getenv("LORE_BENCH_ROOT")
	if root == "" {
		b.Skip("LORE_BENCH_ROOT names no repository")
	}
	for _, existing := range []bool{false, true} {
		name := "new-file"
		if existing {
			name = "existing-file"
		}
		b.Run(name, func(b *testing.B) {
			cpu0, written0, measured := usage()
			for b.Loop() {
				idx := filepath.Join(b.TempDir(), "index.db")
				if existing {
					if err := os.WriteFile(idx, nil, 0o644); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := runAt(context.Background(), idx, index.Options{Root: root}); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, written1, ok := usage(); ok && measured {
				b.ReportMetric(float64((cpu1-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(written1-written0)/float64(b.N)/1e6, "written-MB/op")
			}
		})
	}
}

// BenchmarkReindexRepoOneFile measures the re-index of one edited file in
// a copy of the checkout LORE_BENCH_TREE names (copied, never written),
// indexed once cold before the timers start: each iteration appends a
// line with a new word to one source file of the middle of the tree and
// runs an index, which walks the root (walk) or is told the changed path,
// as a watching server's runs are (paths); it reports p50 and p95 of the
// run, and of the time until the engine a server keeps finds the edit
// (searchable-).
// Skipped without LORE_BENCH_TREE. LORE_BENCH_INDEX may name an index of
// the tree to start from (copied) instead of indexing it cold.
//
//	LORE_BENCH_TREE=/tmp/seg-root-1m go test ./internal/index -run '^$' -bench ReindexRepoOneFile -benchtime 20x
func BenchmarkReindexRepoOneFile(b *testing.B) {
	src := os.Getenv("LORE_BENCH_TREE")
	if src == "" {
		b.Skip("set LORE_BENCH_TREE to a repository checkout (it is copied, never written)")
	}
	tree := filepath.Join(b.TempDir(), "tree")
	if out, err := exec.Command("cp", "-a", src, tree).CombinedOutput(); err != nil {
		b.Fatalf("copying %s: %v\n%s", src, err, out)
	}
	idx := filepath.Join(b.TempDir(), "index.db")
	ctx := context.Background()
	if prebuilt := os.Getenv("LORE_BENCH_INDEX"); prebuilt != "" {
		// An index of LORE_BENCH_TREE, copied: the copy of the tree keeps
		// the files' times, so only the root's path changes.
		if out, err := exec.Command("cp", prebuilt, idx).CombinedOutput(); err != nil {
			b.Fatalf("copying %s: %v\n%s", prebuilt, err, out)
		}
	}
	if _, err := runAt(ctx, idx, index.Options{Root: tree}); err != nil {
		b.Fatal(err)
	}
	target := middleSource(b, tree, idx)
	rel, err := filepath.Rel(tree, target)
	if err != nil {
		b.Fatal(err)
	}
	orig, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	eng, err := openEngine(b, ctx, idx)
	if err != nil {
		b.Fatal(err)
	}
	edits := 0
	for _, mode := range []string{"walk", "paths"} {
		b.Run(mode, func(b *testing.B) {
			opts := index.Options{Root: tree}
			if mode == "paths" {
				opts.Paths = []string{filepath.ToSlash(rel)}
			}
			var lat, searchable []time.Duration
			for b.Loop() {
				edits++
				word := fmt.Sprintf("zyzzyva%dqx", edits)
				edit := fmt.Sprintf("%s\n// %s was edited\n", orig, word)
				if err := os.WriteFile(target, []byte(edit), 0o644); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				stats, err := runAt(ctx, idx, opts)
				if err != nil || stats.Indexed != 1 {
					b.Fatalf("re-index: %+v, %v", stats, err)
				}
				lat = append(lat, time.Since(start))
				// Searchable: the engine a server keeps follows the run
				// and finds the new word.
				res, err := eng.Search(ctx, search.Options{Query: word, Limit: 1})
				if err != nil || len(res.Results) == 0 || res.Results[0].Path != filepath.ToSlash(rel) {
					b.Fatalf("after the run, a search for %s: %+v, %v", word, res, err)
				}
				searchable = append(searchable, time.Since(start))
			}
			reportPercentiles(b, lat, "")
			reportPercentiles(b, searchable, "searchable-")
		})
	}
}

// reportPercentiles reports the p50 and p95 of lat, in milliseconds,
// named with prefix.
func reportPercentiles(b *testing.B, lat []time.Duration, prefix string) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*95+99)/100-1].Microseconds())/1000, prefix+"p95-ms")
}

// middleSource returns the indexed source file (.go, .rs, .py, .ts,
// .java) in the middle of the index's sorted paths: one a run indexes,
// not one an ignore file hides.
func middleSource(b *testing.B, tree, idx string) string {
	r, err := openReader(b, context.Background(), idx)
	if err != nil {
		b.Fatal(err)
	}
	files, err := r.Files(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		switch filepath.Ext(f.Path) {
		case ".go", ".rs", ".py", ".ts", ".java":
			paths = append(paths, f.Path)
		}
	}
	if len(paths) == 0 {
		b.Fatalf("no source file indexed in %s", tree)
	}
	return filepath.Join(tree, filepath.FromSlash(paths[len(paths)/2]))
}
