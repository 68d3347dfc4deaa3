package search

import (
	"path"
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// weights holds every ranking weight in one place.
var weights = struct {
	columns store.Weights // BM25 column weights: symbols, path, signature, doc, body

	exactSymbol   float64 // a chunk defines exactly the identifier the query names
	symbolTerms   float64 // the chunk's symbols contain every query term
	pathTerms     float64 // share of query terms found in the file's path
	coverage      float64 // share of distinct query terms found anywhere in the chunk
	definition    float64 // the chunk is a definition, not a loose block
	fileEvidence  float64 // other strong chunks of the same file
	lowValuePath  float64 // multiplier for tests, examples, vendored and generated code
	sameFileDecay float64 // multiplier applied per earlier result from the same file
}{
	columns:       store.Weights{8, 4, 3, 1.5, 1},
	exactSymbol:   1.0,
	symbolTerms:   0.35,
	pathTerms:     0.35,
	coverage:      0.6,
	definition:    0.1,
	fileEvidence:  0.15,
	lowValuePath:  0.6,
	sameFileDecay: 0.6,
}

// scored is a candidate chunk with its final score.
type scored struct {
	row   store.ChunkRow
	score float64
}

// rank scores full-text hits with the code-aware signals and orders them.
func rank(q Query, hits []store.Hit, rows map[int64]store.ChunkRow) []scored {
	if len(hits) == 0 {
		return nil
	}
	maxBM25 := hits[0].BM25
	if maxBM25 <= 0 {
		maxBM25 = 1
	}
	wantsTests := queryMentionsTests(q)
	out := make([]scored, 0, len(hits))
	for _, h := range hits {
		row, ok := rows[h.ChunkID]
		if !ok {
			continue
		}
		s := h.BM25 / maxBM25
		s += weights.exactSymbol * exactSymbolMatch(q, row)
		s += weights.symbolTerms * symbolTermsMatch(q, row)
		s += weights.pathTerms * pathTermShare(q, row.Path)
		s += weights.coverage * termCoverage(q, row)
		s += weights.definition * definitionKind(row.Kind)
		if !wantsTests && isLowValuePath(row.Path) {
			s *= weights.lowValuePath
		}
		out = append(out, scored{row: row, score: s})
	}
	addFileEvidence(out)
	sortScored(out)
	return diversify(out)
}

// exactSymbolMatch is 1 when the chunk defines a symbol spelled exactly
// like one of the query's identifiers (case-insensitive).
func exactSymbolMatch(q Query, row store.ChunkRow) float64 {
	for _, id := range q.Identifiers {
		for _, sym := range row.Symbols {
			if strings.EqualFold(lastSegment(sym), id) || strings.EqualFold(sym, id) {
				return 1
			}
		}
	}
	return 0
}

// lastSegment is the final name of a qualified symbol (pkg.Type → Type).
func lastSegment(sym string) string {
	if i := strings.LastIndexAny(sym, ".:#>"); i >= 0 {
		return sym[i+1:]
	}
	return sym
}

// symbolTermsMatch is 1 when some symbol of the chunk contains every query
// term among its parts, so "route context" finds RouteContext.
func symbolTermsMatch(q Query, row store.ChunkRow) float64 {
	if len(q.Terms) < 2 {
		return 0
	}
	for _, sym := range row.Symbols {
		parts := map[string]bool{}
		for _, p := range tokenize.Terms(sym) {
			parts[p] = true
		}
		all := true
		for _, t := range q.Terms {
			if !parts[t] {
				all = false
				break
			}
		}
		if all {
			return 1
		}
	}
	return 0
}

// pathTermShare is the share of query terms that occur among the terms of
// the file's path, with the file's base name counting double.
func pathTermShare(q Query, p string) float64 {
	if len(q.Terms) == 0 {
		return 0
	}
	base := map[string]bool{}
	for _, t := range tokenize.Terms(strings.TrimSuffix(path.Base(p), path.Ext(p))) {
		base[stem(t)] = true
	}
	dirs := map[string]bool{}
	for _, t := range tokenize.Terms(path.Dir(p)) {
		dirs[stem(t)] = true
	}
	var got float64
	for _, t := range q.Terms {
		switch st := stem(t); {
		case base[st]:
			got += 1
		case dirs[st]:
			got += 0.5
		}
	}
	return got / float64(len(q.Terms))
}

// termCoverage is the share of distinct query terms present in the chunk's
// text, path or symbols (by stem prefix), which rewards chunks that match
// the whole query over chunks that repeat one word.
func termCoverage(q Query, row store.ChunkRow) float64 {
	if len(q.Terms) < 2 {
		return 0
	}
	text := strings.ToLower(row.Content + "\n" + row.Path + "\n" + strings.Join(row.Symbols, " "))
	n := 0
	for _, t := range q.Terms {
		if strings.Contains(text, stem(t)) {
			n++
		}
	}
	return float64(n) / float64(len(q.Terms))
}

// stem folds a term to a crude common prefix (plurals and -ing/-ed/-er
// endings) so that "handlers", "handling" and "handler" meet.
func stem(t string) string {
	for _, suf := range []string{"ing", "ies", "ers", "ed", "es", "er", "s"} {
		if len(t) > len(suf)+3 && strings.HasSuffix(t, suf) {
			return t[:len(t)-len(suf)]
		}
	}
	return t
}

// definitionKind is 1 for chunks that define something and 0 for loose
// blocks, preambles and doc sections.
func definitionKind(kind string) float64 {
	switch kind {
	case "block", "preamble", "section", "mixed", "":
		return 0
	}
	return 1
}

// queryMentionsTests reports whether the user asks for tests, examples or
// benchmarks, in which case they are not demoted.
func queryMentionsTests(q Query) bool {
	for _, t := range q.Terms {
		switch t {
		case "test", "tests", "testing", "spec", "specs", "example", "examples", "benchmark", "bench", "mock", "fixture":
			return true
		}
	}
	return false
}

// isLowValuePath reports tests, examples, benchmarks, vendored and
// generated code: useful, but rarely what a search for behaviour wants.
func isLowValuePath(p string) bool {
	lower := strings.ToLower(p)
	base := path.Base(lower)
	for _, dir := range []string{"test/", "tests/", "__tests__/", "spec/", "specs/", "testdata/", "testing/",
		"example/", "examples/", "benchmark/", "benchmarks/", "bench/", "vendor/", "third_party/", "fixtures/", "docs_src/"} {
		if strings.HasPrefix(lower, dir) || strings.Contains(lower, "/"+dir) {
			return true
		}
	}
	stemName := strings.TrimSuffix(base, path.Ext(base))
	origStem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	return strings.HasSuffix(stemName, "_test") || strings.HasPrefix(stemName, "test_") ||
		strings.HasSuffix(stemName, ".test") || strings.HasSuffix(stemName, ".spec") ||
		strings.HasSuffix(stemName, "_spec") || strings.HasSuffix(origStem, "Test") || strings.HasSuffix(origStem, "Tests") ||
		strings.Contains(base, ".generated.") || strings.HasSuffix(stemName, ".pb") || strings.HasSuffix(stemName, "_pb2")
}

// addFileEvidence lifts each chunk by the strength of the other chunks of
// its file: a file with several strong chunks is likely the answer.
func addFileEvidence(s []scored) {
	sum := map[string]float64{}
	best := map[string]float64{}
	for _, c := range s {
		sum[c.row.Path] += c.score
		if c.score > best[c.row.Path] {
			best[c.row.Path] = c.score
		}
	}
	for i := range s {
		others := sum[s[i].row.Path] - s[i].score
		if others > best[s[i].row.Path] {
			others = best[s[i].row.Path] // bounded: many weak chunks are not one strong one
		}
		s[i].score += weights.fileEvidence * others
	}
}

// diversify demotes repeated chunks of one file so the first results span
// several files, then restores the documented order.
func diversify(s []scored) []scored {
	seen := map[string]int{}
	for i := range s {
		n := seen[s[i].row.Path]
		for k := 0; k < n; k++ {
			s[i].score *= weights.sameFileDecay
		}
		seen[s[i].row.Path] = n + 1
	}
	sortScored(s)
	return s
}
