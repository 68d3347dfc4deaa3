package research

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/chunk"
	"github.com/lore-dev/lore/internal/lang"
)

// BenchmarkNewGraph builds the research graph of a real repository named by
// LORE_BENCH_ROOT (parsed once, as the indexer does, outside the timing)
// and reports the heap the graph holds per 100k references:
// LORE_BENCH_ROOT=~/bench/tokio go test ./internal/research -run '^$'
// -bench NewGraph. Skipped without LORE_BENCH_ROOT.
func BenchmarkNewGraph(b *testing.B) {
	root := os.Getenv("LORE_BENCH_ROOT")
	if root == "" {
		b.Skip("LORE_BENCH_ROOT names no repository")
	}
	var files []File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "target") {
				return filepath.SkipDir
			}
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		language := lang.Detect(rel, src)
		if !lang.HasGrammar(language) {
			return nil
		}
		_, syms := chunk.Analyze(rel, language, src)
		files = append(files, File{Path: rel, Language: language, Symbols: syms})
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	var g *Graph
	for b.Loop() {
		g = NewGraph(files, nil)
	}
	// The heap the graph holds: measured apart from the loop, with the
	// files (the decoded symbols) kept alive on both sides.
	var before, after runtime.MemStats
	g = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	g = NewGraph(files, nil)
	g.goUniverse() // built on first Go query
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := g.Stats()
	runtime.KeepAlive(files)
	held := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	b.ReportMetric(float64(st.References), "references")
	b.ReportMetric(float64(st.Definitions), "definitions")
	if st.References > 0 {
		b.ReportMetric(held/float64(st.References)*1e5/(1<<20), "MiB/100k-refs")
	}
}
