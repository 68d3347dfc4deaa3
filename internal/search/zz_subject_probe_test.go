package search

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZSubjectProbe(t *testing.T) {
	qs := os.Getenv("ZZ_QUERIES")
	if qs == "" {
		t.Skip()
	}
	want := strings.Split(qs, "|")
	repos := devBenchRepos(t)
	ctx := context.Background()
	for _, r := range repos {
		for _, q := range r.queries {
			hit := false
			for _, w := range want {
				if q.Query == w {
					hit = true
				}
			}
			if !hit {
				continue
			}
			var tg []string
			for _, x := range q.targets {
				tg = append(tg, fmt.Sprintf("%s:%d-%d", x.Path, x.StartLine, x.EndLine))
			}
			an := Analyze(q.Query)
			var ws []string
			for _, w := range an.Words {
				ws = append(ws, w.Text)
			}
			fmt.Printf("== %s %q words=%v targets=%v\n", r.name, q.Query, ws, tg)
			for _, v := range []float64{0.3, 0} {
				old := weights.fileNameSubject
				weights.fileNameSubject = v
				resp, err := r.eng.Search(ctx, Options{Query: q.Query, Limit: 6})
				weights.fileNameSubject = old
				if err != nil {
					t.Fatal(err)
				}
				fmt.Printf("  w=%v share=%.4f\n", v, 0.0)
				for _, res := range resp.Results {
					fmt.Printf("     %s:%d-%d %.3f\n", res.Path, res.StartLine, res.EndLine, res.Score)
				}
			}
		}
	}
}
