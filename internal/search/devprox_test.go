package search

import (
	"context"
	"os"
	"testing"
)

// TestDevProxDiag prints, for line-span targets whose file shows another
// chunk in the top 10, the proximity of the target chunk and of the shown
// chunk, by shape.
func TestDevProxDiag(t *testing.T) {
	if os.Getenv("LORE_DEVBENCH_PROXDIAG") == "" {
		t.Skip()
	}
	repos := devBenchRepos(t)
	type tally struct{ better, worse, same int }
	var tl [5]tally
	for _, r := range repos {
		for _, q := range r.queries {
			an := Analyze(q.Query)
			if an.Symbolic || len(an.Words) < 2 {
				continue
			}
			resp, _ := r.eng.Search(context.Background(), Options{Query: q.Query, Limit: 10})
			deep, _ := r.eng.Search(context.Background(), Options{Query: q.Query, Limit: MaxLimit})
			for _, x := range q.targets {
				if x.StartLine == 0 {
					continue
				}
				hit := false
				shown := -1
				for i, res := range resp.Results {
					p := res.Path
					if r.sub != "" {
						p = r.sub + "/" + p
					}
					if x.covers(p, res.StartLine, res.EndLine) {
						hit = true
					}
					if (p == x.Path || len(p) > len(x.Path) && p[len(p)-len(x.Path)-1:] == "/"+x.Path) && shown < 0 {
						shown = i
					}
				}
				if hit || shown < 0 {
					continue
				}
				target := -1
				for i, res := range deep.Results {
					p := res.Path
					if r.sub != "" {
						p = r.sub + "/" + p
					}
					if x.covers(p, res.StartLine, res.EndLine) {
						target = i
						break
					}
				}
				if target < 0 {
					continue
				}
				m := newProxMatcher(an)
				line := ""
				for shape := 0; shape < 5; shape++ {
					old := weights.proxShape
					weights.proxShape = float64(shape)
					pt := m.proximity(deep.Results[target].Content)
					ps := m.proximity(resp.Results[shown].Content)
					weights.proxShape = old
					switch {
					case pt > ps+1e-9:
						tl[shape].better++
					case pt < ps-1e-9:
						tl[shape].worse++
					default:
						tl[shape].same++
					}
					line += " " + ftoa(pt) + "/" + ftoa(ps)
				}
				t.Logf("%-12s target@%d %s vs shown %d-%d%s %q", r.name, target+1, resp.Results[shown].Symbols, resp.Results[shown].StartLine, resp.Results[shown].EndLine, line, q.Query)
			}
		}
	}
	for s, x := range tl {
		t.Logf("shape %d: target closer %d, farther %d, same %d", s, x.better, x.worse, x.same)
	}
}

func ftoa(f float64) string {
	return string(rune('0'+int(f*10+0.5)/10)) + "." + string(rune('0'+int(f*10+0.5)%10))
}
