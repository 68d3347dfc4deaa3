package search

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/tokenize"
)

// TestDevBench scores the ranking in-process on the retrieval benchmark
// (NDCG@10, as ../shared/bench/eval.py computes it) over indexes already
// built by `lore index`. It is a tool for ranking work, skipped unless
// LORE_DEVBENCH=<bench dir>:<checkouts dir> is set.
func TestDevBench(t *testing.T) {
	repos := devBenchRepos(t)
	var verbose func(string)
	if os.Getenv("LORE_DEVBENCH_VERBOSE") != "" {
		verbose = func(s string) { t.Log(s) }
	}
	base := devScore(t, repos, verbose)
	t.Logf("repo-mean %.4f", base.mean)
	var all []float64
	for _, tooks := range base.tooks {
		all = append(all, tooks...)
	}
	sort.Float64s(all)
	t.Logf("took_ms over %d queries (warm, in-process): p50 %.2f, p95 %.2f", len(all), all[len(all)/2],
		all[int(math.Ceil(0.95*float64(len(all))))-1])
	sets := map[string][]float64{}
	floors := devFloors(t)
	below := 0
	for _, r := range repos {
		sets[r.set] = append(sets[r.set], base.perRepo[r.name])
	}
	for _, set := range sortedKeys(sets) {
		sum := 0.0
		for _, v := range sets[set] {
			sum += v
		}
		t.Logf("  set %-12s repo-mean %.4f over %d repositories", set, sum/float64(len(sets[set])), len(sets[set]))
	}
	for _, name := range base.names {
		tooks := base.tooks[name]
		sort.Float64s(tooks)
		floor := ""
		if f, ok := floors[name]; ok {
			floor = fmt.Sprintf("  BM25 %.3f (%+.3f)", f, base.perRepo[name]-f)
			if base.perRepo[name] < f {
				floor += " BELOW"
				below++
			}
		}
		t.Logf("  %-16s %.3f%s  took p50 %.2f ms  p95 %.2f ms (warm, in-process)", name, base.perRepo[name], floor,
			tooks[len(tooks)/2], tooks[int(math.Ceil(0.95*float64(len(tooks))))-1])
	}
	if floors != nil {
		t.Logf("repositories below their BM25 floor: %d", below)
	}
	if os.Getenv("LORE_DEVBENCH_CATS") != "" {
		for c, v := range base.perCat {
			t.Logf("  category %-12s %.3f", c, v)
		}
	}
}

// devBenchRepos loads the benchmarks named by LORE_DEVBENCH=<bench
// dir>:<checkouts dir>[,<bench dir>:<checkouts dir>…] (both development
// sets: ../shared/bench:~/bench,bench:~/bench2), or skips when it is not
// set.
func devBenchRepos(tb testing.TB) []*benchRepo {
	env := os.Getenv("LORE_DEVBENCH")
	if env == "" {
		tb.Skip("set LORE_DEVBENCH=<bench dir>:<checkouts dir>[,…]")
	}
	applyDevSettings(tb)
	var out []*benchRepo
	for _, pair := range strings.Split(env, ",") {
		benchDir, checkouts, _ := strings.Cut(pair, ":")
		out = append(out, loadBench(tb, benchDir, checkouts)...)
	}
	return out
}

// applyDevSettings sets the weights LORE_DEVBENCH_SET names
// (<weight>=<value>,…, the names of sweepable) for the rest of the test,
// so that a sweep or a leave-one-out run starts from other values.
func applyDevSettings(tb testing.TB) {
	spec := os.Getenv("LORE_DEVBENCH_SET")
	if spec == "" {
		return
	}
	for _, kv := range strings.Split(spec, ",") {
		name, value, _ := strings.Cut(kv, "=")
		p := sweepable()[name]
		if p == nil {
			tb.Fatalf("LORE_DEVBENCH_SET: unknown weight %q", name)
		}
		var v float64
		if _, err := fmt.Sscan(value, &v); err != nil {
			tb.Fatalf("LORE_DEVBENCH_SET: %s: %v", kv, err)
		}
		old := *p
		*p = v
		tb.Cleanup(func() { *p = old })
	}
}

type benchRepo struct {
	set     string // the benchmark folder, as LORE_DEVBENCH names it
	name    string
	lang    string // the main language, as repos.json names it
	sub     string
	eng     *Engine
	queries []benchQuery
}

type benchQuery struct {
	Query     string            `json:"query"`
	Category  string            `json:"category"`
	Relevant  []json.RawMessage `json:"relevant"`
	Secondary []json.RawMessage `json:"secondary"`
	targets   []benchTarget
	present   int
}

// benchTarget is a file, or a line range of one, that answers a query.
type benchTarget struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

func (t benchTarget) covers(path string, start, end int) bool {
	if path != t.Path && !strings.HasSuffix(path, "/"+t.Path) {
		return false
	}
	if t.StartLine == 0 || t.EndLine == 0 {
		return true
	}
	return !(end < t.StartLine || start > t.EndLine)
}

func loadBench(t testing.TB, benchDir, checkouts string) []*benchRepo {
	var specs []struct {
		Name          string `json:"name"`
		Language      string `json:"language"`
		BenchmarkRoot string `json:"benchmark_root"`
	}
	b, err := os.ReadFile(filepath.Join(benchDir, "repos.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &specs)
	var out []*benchRepo
	for _, s := range specs {
		if only := os.Getenv("LORE_DEVBENCH_REPOS"); only != "" && !strings.Contains(","+only+",", ","+s.Name+",") {
			continue
		}
		checkout := filepath.Join(checkouts, s.Name)
		sub := strings.Trim(s.BenchmarkRoot, "/")
		root := filepath.Join(checkout, sub)
		real, _ := filepath.EvalSymlinks(root)
		idx, _ := config.DefaultIndexPath(real)
		eng, err := openTestEngine(t, idx)
		if err != nil {
			t.Fatalf("%s: %v (run lore index %s)", s.Name, err, root)
		}
		r := &benchRepo{set: filepath.Clean(benchDir), name: s.Name, lang: s.Language, sub: sub, eng: eng}
		ab, err := os.ReadFile(filepath.Join(benchDir, "annotations", s.Name+".json"))
		if err != nil {
			continue
		}
		if err := json.Unmarshal(ab, &r.queries); err != nil {
			t.Fatalf("%s annotations: %v", s.Name, err)
		}
		for i := range r.queries {
			q := &r.queries[i]
			for _, raw := range append(append([]json.RawMessage{}, q.Relevant...), q.Secondary...) {
				var tg benchTarget
				if err := json.Unmarshal(raw, &tg.Path); err != nil {
					json.Unmarshal(raw, &tg)
				}
				q.targets = append(q.targets, tg)
				if _, err := os.Stat(filepath.Join(checkout, tg.Path)); err == nil && (sub == "" || strings.HasPrefix(tg.Path, sub+"/")) {
					q.present++
				}
			}
		}
		out = append(out, r)
	}
	return out
}

type devResult struct {
	mean     float64
	names    []string
	perRepo  map[string]float64
	perCat   map[string]float64
	perQuery map[string][]float64 // NDCG@10 of each query, by repo, in annotation order
	tooks    map[string][]float64 // took_ms of each query, by repo
}

// devScore runs every query of repos and scores it as eval.py does. With
// verbose set, each query below 1 is described to it: the targets and the
// top ten results with their lines and scores.
func devScore(t testing.TB, repos []*benchRepo, verbose func(string)) devResult {
	res := devResult{perRepo: map[string]float64{}, perCat: map[string]float64{}, tooks: map[string][]float64{},
		perQuery: map[string][]float64{}}
	catN := map[string]int{}
	for _, r := range repos {
		sum := 0.0
		for _, q := range r.queries {
			opts := Options{Query: q.Query, Limit: 10}
			if os.Getenv("LORE_DEVBENCH_EXPAND") != "" {
				// The built-in query expansion, as search_code's
				// expand_query applies it without a model: the query plus
				// up to 8 related terms it does not already have.
				opts.Query = expandedQuery(t, r.eng, q.Query)
			}
			if sw := os.Getenv("LORE_DEVBENCH_SW"); sw != "" {
				var w float64
				fmt.Sscan(sw, &w)
				opts.SemanticWeight = &w
			}
			resp, err := r.eng.Search(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			res.tooks[r.name] = append(res.tooks[r.name], resp.TookMS)
			var ranks []int
			for _, x := range q.targets {
				for i, res := range resp.Results {
					p := res.Path
					if r.sub != "" {
						p = r.sub + "/" + p
					}
					if x.covers(p, res.StartLine, res.EndLine) {
						ranks = append(ranks, i+1)
						break
					}
				}
			}
			s := ndcg(ranks, q.present)
			if verbose != nil && s < 1 {
				verbose(describeMiss(r, q, resp, s, ranks))
			}
			res.perQuery[r.name] = append(res.perQuery[r.name], s)
			sum += s
			res.perCat[q.Category] += s
			catN[q.Category]++
		}
		res.perRepo[r.name] = sum / float64(len(r.queries))
		res.names = append(res.names, r.name)
		res.mean += res.perRepo[r.name]
	}
	sort.Strings(res.names)
	res.mean /= float64(len(repos))
	for c := range res.perCat {
		res.perCat[c] /= float64(catN[c])
	}
	return res
}

// ndcg is NDCG@10 as ../shared/bench/eval.py computes it: ranks holds,
// per target, the rank of the first result that covers it, and a result
// counts once however many targets it covers (two targets answered by one
// result do not earn two gains).
// describeMiss is what TestDevBench prints of a query that scored below 1.
func describeMiss(r *benchRepo, q benchQuery, resp *Response, s float64, ranks []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s] %.3f ranks=%v q=%q\n", r.name, q.Category, s, ranks, q.Query)
	var deep *Response
	for _, x := range q.targets {
		if x.StartLine > 0 {
			fmt.Fprintf(&b, "    want %s:%d-%d", x.Path, x.StartLine, x.EndLine)
		} else {
			fmt.Fprintf(&b, "    want %s", x.Path)
		}
		// Where the target ranks when every result is shown, and the
		// file's best chunk.
		if deep == nil {
			deep, _ = r.eng.Search(context.Background(), Options{Query: q.Query, Limit: MaxLimit})
		}
		fileRank := 0
		for i, res := range deep.Results {
			p := res.Path
			if r.sub != "" {
				p = r.sub + "/" + p
			}
			if (p == x.Path || strings.HasSuffix(p, "/"+x.Path)) && fileRank == 0 {
				fileRank = i + 1
			}
			if x.covers(p, res.StartLine, res.EndLine) {
				fmt.Fprintf(&b, "  (at %d: %d-%d %s %s %.3f; file first at %d)", i+1, res.StartLine, res.EndLine, res.Kind,
					strings.Join(res.Symbols[:min(len(res.Symbols), 3)], ","), res.Score, fileRank)
				break
			}
		}
		b.WriteString("\n")
	}
	for i, res := range resp.Results {
		fmt.Fprintf(&b, "    %2d %.3f %s:%d-%d %s %s\n", i+1, res.Score, res.Path, res.StartLine, res.EndLine, res.Kind,
			strings.Join(res.Symbols[:min(len(res.Symbols), 3)], ","))
	}
	return b.String()
}

func ndcg(ranks []int, present int) float64 {
	if present == 0 {
		return 0
	}
	var hit [11]bool
	for _, r := range ranks {
		if r >= 1 && r <= 10 {
			hit[r] = true
		}
	}
	dcg := 0.0
	for r := 1; r <= 10; r++ {
		if hit[r] {
			dcg += 1 / math.Log2(float64(r)+1)
		}
	}
	ideal := 0.0
	for i := 0; i < present && i < 10; i++ {
		ideal += 1 / math.Log2(float64(i)+2)
	}
	return dcg / ideal
}

// TestDevAblation scores the ranking with each signal switched off in
// turn, and with all of them off (BM25F alone); same switch as TestDevBench.
func TestDevAblation(t *testing.T) {
	repos := devBenchRepos(t)
	full := devScore(t, repos, nil)
	t.Logf("%-34s %.4f", "full ranking", full.mean)
	signals := []struct {
		name string
		p    *float64
	}{
		{"word coverage", &weights.coverage},
		{"file name share", &weights.fileName},
		{"symbol-field share", &weights.symbolField},
		{"exact symbol", &weights.exactSymbol},
		{"type definition", &weights.typeDefinition},
		{"file named after a query word", &weights.fileNameExact},
		{"file named after the first word", &weights.fileNameSubject},
		{"folder named after a query word", &weights.folderNameExact},
		{"definition kind", &weights.definition},
		{"file evidence (best other chunk)", &weights.fileEvidence},
		{"file-level BM25", &weights.fileLevel},
	}
	multipliers := []struct {
		name string
		p    *float64
	}{
		{"tests/examples demoted", &weights.lowValuePath},
		{"older version folders demoted", &weights.supersededPath},
		{"headers beside their source demoted", &weights.headerBeside},
		{"docs demoted for code queries", &weights.docFile},
	}
	saved := weights
	var signalValues, multiplierValues []float64
	for _, s := range signals {
		signalValues = append(signalValues, *s.p)
	}
	for _, m := range multipliers {
		multiplierValues = append(multiplierValues, *m.p)
	}
	for _, s := range signals {
		orig := *s.p
		*s.p = 0
		r := devScore(t, repos, nil)
		t.Logf("%-34s %.4f (%+.4f)", "without "+s.name, r.mean, r.mean-full.mean)
		*s.p = orig
	}
	for _, m := range multipliers {
		orig := *m.p
		*m.p = 1
		r := devScore(t, repos, nil)
		t.Logf("%-34s %.4f (%+.4f)", "without "+m.name, r.mean, r.mean-full.mean)
		*m.p = orig
	}
	for _, s := range signals {
		*s.p = 0
	}
	for _, m := range multipliers {
		*m.p = 1
	}
	r := devScore(t, repos, nil)
	t.Logf("%-34s %.4f (%+.4f)", "BM25F alone", r.mean, r.mean-full.mean)
	alone := r.mean
	for i, s := range signals {
		*s.p = signalValues[i]
		r := devScore(t, repos, nil)
		t.Logf("%-34s %.4f (%+.4f over BM25F alone)", "BM25F + "+s.name, r.mean, r.mean-alone)
		*s.p = 0
	}
	for i, m := range multipliers {
		*m.p = multiplierValues[i]
		r := devScore(t, repos, nil)
		t.Logf("%-34s %.4f (%+.4f over BM25F alone)", "BM25F + "+m.name, r.mean, r.mean-alone)
		*m.p = 1
	}
	weights = saved
}

// BenchmarkDevQueries runs every query of the retrieval benchmark against
// a warm engine; ns/op is the mean time of one query. Same switch as
// TestDevBench (LORE_DEVBENCH); LORE_DEVBENCH_REPOS narrows it.
func BenchmarkDevQueries(b *testing.B) {
	repos := devBenchRepos(b)
	var all []Options
	var engines []*Engine
	for _, r := range repos {
		for _, q := range r.queries {
			all = append(all, Options{Query: q.Query, Limit: 10})
			engines = append(engines, r.eng)
		}
	}
	ctx := context.Background()
	b.ResetTimer()
	b.ReportAllocs()
	cpu := processCPU(b)
	for i := 0; i < b.N; i++ {
		k := i % len(all)
		if _, err := engines[k].Search(ctx, all[k]); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time depends less than ns/op on what else the machine runs.
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
}

// devFloors reads the plain-BM25 figures named by LORE_DEVBENCH_FLOOR
// (comma-separated JSON files in the format of eval.py's --json-out or
// ../shared/bench/reference-bm25.json): repository → NDCG@10. Nil when
// it is not set.
func devFloors(t testing.TB) map[string]float64 {
	env := os.Getenv("LORE_DEVBENCH_FLOOR")
	if env == "" {
		return nil
	}
	out := map[string]float64{}
	for _, file := range strings.Split(env, ",") {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var ref struct {
			Repos []struct {
				Repo   string  `json:"repo"`
				NDCG10 float64 `json:"ndcg10"`
			} `json:"repos"`
		}
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, r := range ref.Repos {
			out[r.Repo] = r.NDCG10
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// expandedQuery is query with relatedTerms appended, as internal/assist
// applied them (at most 8, none the query already has).
func expandedQuery(t testing.TB, eng *Engine, query string) string {
	terms, err := relatedTerms(context.Background(), eng, query, 16)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(query)) {
		have[w] = true
	}
	var add []string
	for _, x := range terms {
		if !have[x] && len(add) < 8 {
			have[x] = true
			add = append(add, x)
		}
	}
	if len(add) == 0 {
		return query
	}
	return query + " " + strings.Join(add, " ")
}

// relatedTerms is the built-in query expansion lore had without a model,
// kept here to measure it (LORE_DEVBENCH_EXPAND): up to n words of the
// names its best results define, weighted by rank. It lowered both
// development sets, so search_code's expand_query no longer uses it
// (assist.NeedsModel).
func relatedTerms(ctx context.Context, e *Engine, query string, n int) ([]string, error) {
	resp, err := e.Search(ctx, Options{Query: query, Limit: 10})
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, w := range Analyze(query).Words {
		known[w.Stem] = true
		for _, p := range w.Parts {
			known[p] = true
		}
	}
	weight := map[string]float64{}
	for rank, r := range resp.Results {
		for _, sym := range r.Symbols {
			for _, part := range tokenize.SplitIdentifier(sym) {
				if len(part) < 3 || stopWords[part] || known[tokenize.Stem(part)] {
					continue
				}
				weight[part] += 1 / float64(rank+1)
			}
		}
	}
	terms := make([]string, 0, len(weight))
	for t := range weight {
		terms = append(terms, t)
	}
	sort.Slice(terms, func(i, j int) bool {
		if weight[terms[i]] != weight[terms[j]] {
			return weight[terms[i]] > weight[terms[j]]
		}
		return terms[i] < terms[j]
	})
	if len(terms) > n {
		terms = terms[:n]
	}
	for i, t := range terms {
		terms[i] = strings.ToLower(t)
	}
	return terms, nil
}
