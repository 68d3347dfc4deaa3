package search

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"testing"
)

// dumpExtraWords are common words of code, with long posting lists and
// abbreviations (fetch, create, array, error), appended to the development
// queries so that a dump exercises long lists on every repository.
var dumpExtraWords = []string{"fetch", "create", "assign", "array", "kind", "remove", "error", "check"}

// TestDevBenchDump writes every development query's top 20 (path, lines,
// score, relevance), the same query with a common word appended, and
// the retrieval order without reranking, to the file LORE_DEVBENCH_DUMP
// names: two binaries that must rank alike write identical files. Skipped
// unless LORE_DEVBENCH and LORE_DEVBENCH_DUMP are set.
func TestDevBenchDump(t *testing.T) {
	out := os.Getenv("LORE_DEVBENCH_DUMP")
	if out == "" {
		t.Skip("set LORE_DEVBENCH_DUMP=<file>")
	}
	repos := devBenchRepos(t)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	ctx := context.Background()
	for _, r := range repos {
		for qi, q := range r.queries {
			variants := []Options{
				{Query: q.Query, Limit: 20},
				{Query: q.Query + " " + dumpExtraWords[qi%len(dumpExtraWords)], Limit: 20},
				{Query: q.Query, Limit: 20, NoRerank: true},
			}
			for _, opts := range variants {
				resp, err := r.eng.Search(ctx, opts)
				if err != nil {
					t.Fatalf("%s: %q: %v", r.name, opts.Query, err)
				}
				fmt.Fprintf(w, "%s\t%q\t%v\ttotal %d\n", r.name, opts.Query, opts.NoRerank, resp.Total)
				for _, res := range resp.Results {
					fmt.Fprintf(w, "\t%s:%d-%d\t%v\t%d\n", res.Path, res.StartLine, res.EndLine, res.Score, res.RelevancePercent)
				}
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}
