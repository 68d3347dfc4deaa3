package search

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fitGrid is the default set of numbers TestDevFit fits jointly, each
// with a small grid of plain values around its current one (the current
// value is always among them, so the fit can stay where it is): the BM25F
// field weights (body stays 1, the unit the others are measured in),
// length normalisation, k1, and the additive and multiplicative weights
// of the re-rank.
const fitGrid = "field.symbols:2,3,4,6;field.name:2,3,4;field.path:1,1.5,2;field.signature:1,2,3;field.doc:0.5,1,1.5;" +
	"b.symbols:0.1,0.3,0.5;b.name:0,0.2,0.4;b.body:0.5,0.75,0.9;b.doc:0.4,0.6,0.8;k1:0.9,1.2,1.6;fileB:0.3,0.5,0.7;" +
	"coverage:0.6,0.8,1;fileName:0.6,0.8,1;symbolField:0.2,0.3,0.4;exactSymbol:0.7,1,1.5;typeDefinition:0.1,0.2,0.3;" +
	"fileNameExact:0.35,0.5,0.65;fileNameSubject:0.2,0.3,0.4;folderNameExact:0.1,0.15,0.2;definition:0.05,0.1,0.15;" +
	"fileEvidence:0.3,0.4,0.5;fileLevel:0.15,0.25,0.35;lowValuePath:0.5,0.6,0.7;docFile:0.5,0.6,0.7;" +
	"pickCallable:0.3,0.5,0.7;pickLength:0.1,0.2,0.3"

// fitParam is one number the fit varies: where it lives and its grid.
type fitParam struct {
	name   string
	p      *float64
	values []float64
}

// parseFitGrid reads "name:v1,v2;name:v1,…" against sweepable().
func parseFitGrid(spec string) ([]fitParam, error) {
	known := sweepable()
	var out []fitParam
	for _, part := range strings.Split(spec, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, list, ok := strings.Cut(part, ":")
		p := known[name]
		if !ok || p == nil {
			return nil, fmt.Errorf("fit grid %q: unknown weight %q", part, name)
		}
		fp := fitParam{name: name, p: p}
		for _, s := range strings.Split(list, ",") {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("fit grid %q: %w", part, err)
			}
			fp.values = append(fp.values, v)
		}
		if !slicesContainsFloat(fp.values, *p) {
			fp.values = append(fp.values, *p)
			sort.Float64s(fp.values)
		}
		out = append(out, fp)
	}
	return out, nil
}

func slicesContainsFloat(s []float64, v float64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// fitter scores parameter vectors over every repository and remembers
// each vector's per-repository NDCG@10: the folds of a nested
// cross-validation walk mostly the same vectors, so each is scored once
// for all of them.
type fitter struct {
	t      *testing.T
	repos  []*benchRepo
	params []fitParam
	memo   map[string]map[string]float64
	evals  int
}

func (f *fitter) key(vec []float64) string {
	parts := make([]string, len(vec))
	for i, v := range vec {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// score is NDCG@10 by repository with the numbers set to vec.
func (f *fitter) score(vec []float64) map[string]float64 {
	k := f.key(vec)
	if r, ok := f.memo[k]; ok {
		return r
	}
	old := make([]float64, len(f.params))
	for i, p := range f.params {
		old[i] = *p.p
		*p.p = vec[i]
	}
	r := scoreParallel(f.t, f.repos)
	for i, p := range f.params {
		*p.p = old[i]
	}
	f.memo[k] = r
	f.evals++
	return r
}

// scoreParallel is devScore's per-repository NDCG@10, the repositories
// shared among as many workers as there are cores (each engine answers
// one query at a time; the weights are only read while they run).
func scoreParallel(t *testing.T, repos []*benchRepo) map[string]float64 {
	out := make(map[string]float64, len(repos))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan *benchRepo)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range next {
				res := devScore(t, []*benchRepo{r}, nil)
				mu.Lock()
				out[r.name] = res.perRepo[r.name]
				mu.Unlock()
			}
		}()
	}
	for _, r := range repos {
		next <- r
	}
	close(next)
	wg.Wait()
	return out
}

func meanOver(per map[string]float64, names []string) float64 {
	s := 0.0
	for _, n := range names {
		s += per[n]
	}
	return s / float64(len(names))
}

// hurtCount is how many of names score lower under a than under base.
func hurtCount(a, base map[string]float64, names []string) int {
	n := 0
	for _, x := range names {
		if a[x] < base[x]-1e-9 {
			n++
		}
	}
	return n
}

// passes applies the project's rule for a ranking change inside a fit: a
// move hurts at most a quarter of train against the numbers it moves
// from (cur), and the numbers it reaches hurt at most a quarter against
// where the fit started (base).
func (f *fitter) passes(s, cur, base map[string]float64, train []string) bool {
	return 4*hurtCount(s, cur, train) <= len(train) && 4*hurtCount(s, base, train) <= len(train)
}

// ascend fits the numbers on the repositories in train by coordinate
// ascent from start: number by number, the grid value with the highest
// mean over train (the current value unless another is strictly higher;
// among equals the first in grid order), pass after pass until a pass
// changes nothing or maxPasses is reached. With rule set, a move is taken
// only when it passes the project's rule (passes).
func (f *fitter) ascend(train []string, start []float64, maxPasses int, rule bool) []float64 {
	cur := append([]float64{}, start...)
	base := f.score(start)
	best := meanOver(f.score(cur), train)
	for pass := 0; pass < maxPasses; pass++ {
		moved := false
		for i := range f.params {
			bestV := cur[i]
			f.eachMove(cur, i, train, func(v float64, _ []float64, s map[string]float64, m float64) {
				if m > best+1e-9 && (!rule || f.passes(s, f.score(cur), base, train)) {
					best, bestV = m, v
				}
			})
			if bestV != cur[i] {
				cur[i] = bestV
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	return cur
}

// eachMove calls fn with every single move of number i from cur to
// another value of its grid: the value, the moved numbers, their scores
// and their mean over train.
func (f *fitter) eachMove(cur []float64, i int, train []string, fn func(v float64, cand []float64, s map[string]float64, m float64)) {
	for _, v := range f.params[i].values {
		if v == cur[i] {
			continue
		}
		cand := append([]float64{}, cur...)
		cand[i] = v
		s := f.score(cand)
		fn(v, cand, s, meanOver(s, train))
	}
}

// stepwise fits the numbers on train greedily from start: each step
// tries every single move (one number to another value of its grid) and
// takes the one that raises the mean over train most, when it raises it by
// at least minGain (and, with rule set, when it passes the project's
// rule: passes); at most maxSteps steps. It changes few
// numbers, those that carry the gain, where ascend changes any number that
// moves the mean at all.
func (f *fitter) stepwise(train []string, start []float64, maxSteps int, minGain float64, rule bool) []float64 {
	cur := append([]float64{}, start...)
	base := f.score(start)
	best := meanOver(base, train)
	for step := 0; step < maxSteps; step++ {
		var next []float64
		nextMean := best + minGain - 1e-9
		for i := range f.params {
			f.eachMove(cur, i, train, func(_ float64, cand []float64, s map[string]float64, m float64) {
				if m > nextMean+1e-12 && (!rule || f.passes(s, f.score(cur), base, train)) {
					next, nextMean = cand, m
				}
			})
		}
		if next == nil {
			break
		}
		cur, best = next, nextMean
	}
	return cur
}

// TestDevFit fits several ranking numbers jointly by coordinate ascent
// over a small grid per number, and estimates by nested cross-validation
// by repository whether the re-fitted set scores higher than today's on
// repositories it was not fitted on: for each fold, the numbers are
// fitted on the other repositories and scored on the fold's. It is a tool
// for ranking work, run only when LORE_DEVBENCH_FIT is set (with
// LORE_DEVBENCH, as TestDevBench):
//
//	LORE_DEVBENCH_FIT=default                 the grid of fitGrid
//	LORE_DEVBENCH_FIT='k1:0.9,1.2;coverage:…'  a grid of one's own (names as TestDevSweep reads them)
//	LORE_DEVBENCH_FOLDS=k                     k folds, repository i (sorted by name) in fold i mod k; 0 or unset: leave one repository out
//	LORE_DEVBENCH_FIT_PASSES=n                at most n coordinate passes (default 3)
//	LORE_DEVBENCH_FIT_RULE=1                  take a move only when it hurts at most a quarter of the fold's repositories, against the numbers before the move and against today's
//	LORE_DEVBENCH_FIT_MOVES=1                 list every single move from today's numbers, best first
//	LORE_DEVBENCH_QUERIES=1                   list the queries the numbers fitted on all change, and the categories' means
//	LORE_DEVBENCH_FIT_STEPWISE=g              fit stepwise instead (the best single move at a time, while it gains at least g; at most 8 steps, or LORE_DEVBENCH_FIT_PASSES)
func TestDevFit(t *testing.T) {
	spec := os.Getenv("LORE_DEVBENCH_FIT")
	if spec == "" {
		t.Skip("set LORE_DEVBENCH_FIT=default or <weight>:<v1>,<v2>;…")
	}
	if spec == "default" {
		spec = fitGrid
	}
	params, err := parseFitGrid(spec)
	if err != nil {
		t.Fatal(err)
	}
	repos := devBenchRepos(t)
	passes := 3
	if s := os.Getenv("LORE_DEVBENCH_FIT_PASSES"); s != "" {
		if passes, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	k := 0
	if s := os.Getenv("LORE_DEVBENCH_FOLDS"); s != "" {
		if k, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	rule := os.Getenv("LORE_DEVBENCH_FIT_RULE") != ""
	f := &fitter{t: t, repos: repos, params: params, memo: map[string]map[string]float64{}}
	fit := func(train []string, start []float64) []float64 { return f.ascend(train, start, passes, rule) }
	mode := "coordinate ascent"
	if s := os.Getenv("LORE_DEVBENCH_FIT_STEPWISE"); s != "" {
		g, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		mode = fmt.Sprintf("stepwise, minimum gain %g", g)
		if os.Getenv("LORE_DEVBENCH_FIT_PASSES") == "" {
			passes = 8
		}
		fit = func(train []string, start []float64) []float64 { return f.stepwise(train, start, passes, g, rule) }
	}
	var names []string
	for _, r := range repos {
		names = append(names, r.name)
	}
	sort.Strings(names)
	if k <= 0 || k > len(names) {
		k = len(names)
	}
	start := make([]float64, len(params))
	for i, p := range params {
		start[i] = *p.p
	}
	base := f.score(start)
	t.Logf("%d numbers, %d repositories, %d folds, %s, at most %d passes or steps, rule in the fit: %v", len(params), len(names), k, mode, passes, rule)
	t.Logf("today's numbers: repo-mean %.4f", meanOver(base, names))

	// Nested cross-validation: each fold's numbers are fitted on the
	// other folds' repositories and scored on its own.
	cv := map[string]float64{}
	for fold := 0; fold < k; fold++ {
		var train, held []string
		for i, n := range names {
			if i%k == fold {
				held = append(held, n)
			} else {
				train = append(train, n)
			}
		}
		vec := fit(train, start)
		s := f.score(vec)
		for _, n := range held {
			cv[n] = s[n]
		}
		t.Logf("fold %2d held out %-40s train %.4f → %.4f, held out %.4f → %.4f  %s", fold, strings.Join(held, ","),
			meanOver(base, train), meanOver(s, train), meanOver(base, held), meanOver(s, held), f.changes(start, vec))
	}
	t.Logf("cross-validated: today's numbers %.4f, re-fitted %.4f (%+.4f); %d of %d repositories lower, %d higher (%d vectors scored)",
		meanOver(base, names), meanOver(cv, names), meanOver(cv, names)-meanOver(base, names),
		hurtCount(cv, base, names), len(names), hurtCount(base, cv, names), f.evals)

	// The numbers fitted on every repository: what a change would set.
	all := fit(names, start)
	in := f.score(all)
	t.Logf("fitted on all: in-sample %.4f (%+.4f), %d lower, %d higher  %s", meanOver(in, names),
		meanOver(in, names)-meanOver(base, names), hurtCount(in, base, names), hurtCount(base, in, names), f.changes(start, all))
	t.Logf("%-18s %7s %7s %7s %7s", "repository", "today", "cv", "in", "cv-today")
	for _, n := range names {
		t.Logf("%-18s %.4f %.4f %.4f %+.4f", n, base[n], cv[n], in[n], cv[n]-base[n])
	}
	// What each changed number carries: alone from today's numbers, and
	// left out of the fitted set.
	for i, p := range params {
		if all[i] == start[i] {
			continue
		}
		one := append([]float64{}, start...)
		one[i] = all[i]
		without := append([]float64{}, all...)
		without[i] = start[i]
		so, sw := f.score(one), f.score(without)
		t.Logf("  %-16s %g → %g: alone %+.4f (%d lower, %d higher); left out of the fit %+.4f", p.name, start[i], all[i],
			meanOver(so, names)-meanOver(base, names), hurtCount(so, base, names), hurtCount(base, so, names),
			meanOver(sw, names)-meanOver(in, names))
	}
	if math.IsNaN(meanOver(cv, names)) {
		t.Fatal("no fold scored")
	}
	if os.Getenv("LORE_DEVBENCH_FIT_MOVES") != "" {
		f.logMoves(start, names)
	}
	if os.Getenv("LORE_DEVBENCH_QUERIES") != "" {
		f.logQueries(start, all)
	}
}

// logMoves lists every single move from start (one number to another
// value of its grid), best first: what each number carries alone.
func (f *fitter) logMoves(start []float64, names []string) {
	base := f.score(start)
	type move struct {
		what          string
		delta         float64
		lower, higher int
	}
	var moves []move
	for i, p := range f.params {
		f.eachMove(start, i, names, func(v float64, _ []float64, s map[string]float64, m float64) {
			moves = append(moves, move{fmt.Sprintf("%s %g→%g", p.name, start[i], v), m - meanOver(base, names),
				hurtCount(s, base, names), hurtCount(base, s, names)})
		})
	}
	sort.SliceStable(moves, func(a, b int) bool { return moves[a].delta > moves[b].delta })
	f.t.Logf("single moves from today's numbers:")
	for _, m := range moves {
		f.t.Logf("  %-28s %+.4f  %2d lower, %2d higher", m.what, m.delta, m.lower, m.higher)
	}
}

// logQueries lists every query whose NDCG@10 differs between the numbers
// start and vec.
func (f *fitter) logQueries(start, vec []float64) {
	per := func(v []float64) devResult {
		old := make([]float64, len(f.params))
		for i, p := range f.params {
			old[i] = *p.p
			*p.p = v[i]
		}
		defer func() {
			for i, p := range f.params {
				*p.p = old[i]
			}
		}()
		return devScore(f.t, f.repos, nil)
	}
	a, b := per(start), per(vec)
	for _, r := range f.repos {
		for i, q := range r.queries {
			x, y := a.perQuery[r.name][i], b.perQuery[r.name][i]
			if math.Abs(x-y) > 1e-9 {
				f.t.Logf("  %-16s [%s] %.3f → %.3f %q", r.name, q.Category, x, y, q.Query)
			}
		}
	}
	for _, c := range sortedKeys(a.perCat) {
		f.t.Logf("  category %-12s %.3f → %.3f", c, a.perCat[c], b.perCat[c])
	}
}

// changes lists the numbers vec sets differently from start.
func (f *fitter) changes(start, vec []float64) string {
	var parts []string
	for i, p := range f.params {
		if vec[i] != start[i] {
			parts = append(parts, fmt.Sprintf("%s %g→%g", p.name, start[i], vec[i]))
		}
	}
	if len(parts) == 0 {
		return "(no change)"
	}
	return strings.Join(parts, " ")
}
