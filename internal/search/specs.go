package search

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/specs"
)

// Column weights of a spec search (as specs.Search gave bm25()): a term in
// the requirement's name says more than one in its description, which
// says more than one in a scenario.
var specColumnWeights = []float64{
	4.0, // name
	1.5, // description
	1.0, // scenarios
}

// SpecIndex answers requirement searches over a fixed set of specs, in
// memory. Build one per index generation with NewSpecIndex; it is
// immutable and safe for concurrent use.
type SpecIndex struct {
	reqs []specRequirement
	fts  *ftsIndex
}

// specRequirement is one searchable requirement: where it is and the text
// its snippets come from.
type specRequirement struct {
	specID    string
	ord       int // its place in its spec
	name      string
	lines     []string     // name, description lines, scenario lines: the snippet candidates
	words     [][]specWord // the words of each line
	specOrder int          // rank of (specID, ord) among all requirements
}

// NewSpecIndex indexes every requirement of specList (as specs.Discover
// returns them) for Search: each is one row of its name, its description
// and the text of its scenarios. Its cost is linear in their text.
func NewSpecIndex(specList []specs.Spec) *SpecIndex {
	x := &SpecIndex{}
	var rows [][]string
	for _, s := range specList {
		for ord, r := range s.Requirements {
			scenarios := specScenarioText(r.Scenarios)
			lines := append([]string{r.Name}, specSplitNonBlank(r.Description)...)
			lines = append(lines, specSplitNonBlank(scenarios)...)
			words := make([][]specWord, len(lines))
			for i, l := range lines {
				words[i] = newSpecWords(specs.Words(l))
			}
			x.reqs = append(x.reqs, specRequirement{specID: s.ID, ord: ord, name: r.Name, lines: lines, words: words})
			rows = append(rows, []string{r.Name, r.Description, scenarios})
		}
	}
	byID := make([]int, len(x.reqs))
	for i := range byID {
		byID[i] = i
	}
	sort.SliceStable(byID, func(i, j int) bool {
		a, b := &x.reqs[byID[i]], &x.reqs[byID[j]]
		if a.specID != b.specID {
			return a.specID < b.specID
		}
		return a.ord < b.ord
	})
	for rank, i := range byID {
		x.reqs[i].specOrder = rank
	}
	x.fts = newFTSIndex(ftsTokenizer{porter: true}, specColumnWeights, rows)
	return x
}

// Len is the number of requirements indexed.
func (x *SpecIndex) Len() int { return len(x.reqs) }

// Search ranks the requirements against query with the contract of
// specs.Search:
//
//   - the query is checked by specs.CheckQuery first (QUERY_EMPTY,
//     QUERY_TOO_LONG); its terms are its distinct lower-cased words, stop
//     words aside, the first 32 of them, each stemmed (Porter);
//   - a requirement must contain at least specs.MinTermCoverage of the
//     terms (a query of only stop words finds nothing);
//   - its score, in 0..1 and rounded to 4 decimals, is coverage × (0.5 +
//     0.5 × bm25 / best bm25 among the hits), BM25 being FTS5's over the
//     name (weight 4), description (1.5) and scenarios (1);
//   - hits are ordered by descending score, then spec ID and requirement
//     order; at most limit are returned (specs.DefaultSearchLimit when
//     limit <= 0), each with a snippet of its lines that hold the most
//     terms.
//
// The only errors are the query checks'. An empty result is an empty,
// non-nil slice.
func (x *SpecIndex) Search(query string, limit int) ([]specs.Hit, error) {
	if err := specs.CheckQuery(query); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = specs.DefaultSearchLimit
	}
	terms := specs.QueryTerms(query)
	if len(terms) > specs.MaxQueryTerms {
		terms = terms[:specs.MaxQueryTerms]
	}
	if len(terms) == 0 {
		return []specs.Hit{}, nil
	}

	phrases := make([]ftsPhrase, len(terms))
	for i, t := range terms {
		phrases[i] = x.fts.phrase(t, false)
	}
	matched := x.fts.search(phrases, func(matched int) bool {
		return float64(matched)/float64(len(terms)) >= specs.MinTermCoverage
	})
	type candidate struct {
		row   int32
		score float64
	}
	best := 0.0
	for _, m := range matched {
		best = math.Max(best, m.score)
	}
	kept := make([]candidate, len(matched))
	for i, m := range matched {
		ratio := 1.0
		if best > 0 {
			ratio = m.score / best
		}
		coverage := float64(m.matched) / float64(len(terms))
		kept[i] = candidate{m.row, math.Round(coverage*(0.5+0.5*ratio)*1e4) / 1e4}
	}
	kept = topK(kept, limit, func(a, b candidate) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return x.reqs[a.row].specOrder < x.reqs[b.row].specOrder
	})
	hits := make([]specs.Hit, 0, len(kept))
	termWords := newSpecWords(terms)
	for _, c := range kept {
		r := &x.reqs[c.row]
		hits = append(hits, specs.Hit{SpecID: r.specID, Requirement: r.name, Score: c.score, Snippet: specSnippet(r.lines, r.words, terms, termWords)})
	}
	return hits, nil
}

// specScenarioText is the searchable text of a requirement's scenarios,
// one line per scenario name and clause; Search takes its snippets from
// these lines.
func specScenarioText(scenarios []specs.Scenario) string {
	var b strings.Builder
	line := func(prefix, text string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(prefix)
		b.WriteString(strings.ReplaceAll(text, "\n", " "))
	}
	for _, s := range scenarios {
		line("Scenario: ", s.Name)
		for _, c := range s.Given {
			line("GIVEN ", c)
		}
		for _, c := range s.When {
			line("WHEN ", c)
		}
		for _, c := range s.Then {
			line("THEN ", c)
		}
	}
	return b.String()
}

// specSplitNonBlank returns the lines of text that are not blank, trimmed.
func specSplitNonBlank(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// specSnippet picks the lines of a requirement that contain the most
// query terms, in document order, within specs.SnippetLength characters;
// a long line is cut around its first matching word. lineWords are the
// words of each line, termWords the terms', as newSpecWords makes them.
// The words of lines and terms are analysed once, when the index is
// built, not on every comparison.
func specSnippet(lines []string, lineWords [][]specWord, terms []string, termWords []specWord) string {
	type scored struct{ index, hits int }
	var matching []scored
	for i := range lines {
		if n := specTermHits(lineWords[i], termWords); n > 0 {
			matching = append(matching, scored{i, n})
		}
	}
	if len(matching) == 0 {
		return specClip(lines[0], specs.SnippetLength)
	}
	sort.SliceStable(matching, func(i, j int) bool { return matching[i].hits > matching[j].hits })
	best := lines[matching[0].index]
	if len([]rune(best)) > specs.SnippetLength {
		return specWindow(best, terms)
	}
	picked := []int{matching[0].index}
	length := len([]rune(best))
	const separator = " … "
	for _, m := range matching[1:] {
		n := len([]rune(lines[m.index])) + len([]rune(separator))
		if length+n <= specs.SnippetLength {
			picked = append(picked, m.index)
			length += n
		}
	}
	sort.Ints(picked)
	parts := make([]string, len(picked))
	for i, idx := range picked {
		parts[i] = lines[idx]
	}
	return strings.Join(parts, separator)
}

// specWord is a word with its rough stem, for specSameWord.
type specWord struct {
	word, stem string
	stemRunes  int
}

func newSpecWords(words []string) []specWord {
	out := make([]specWord, len(words))
	for i, w := range words {
		stem := specRoughStem(w)
		out[i] = specWord{w, stem, utf8.RuneCountInString(stem)}
	}
	return out
}

// same is specSameWord(a.word, b.word).
func (a specWord) same(b specWord) bool {
	if a.word == b.word || a.stem == b.stem {
		return true
	}
	if len(a.stem) > len(b.stem) {
		a, b = b, a
	}
	return a.stemRunes >= 4 && strings.HasPrefix(b.stem, a.stem)
}

// specTermHits counts the query terms that occur in a line.
func specTermHits(lineWords, terms []specWord) int {
	n := 0
	for _, t := range terms {
		for _, w := range lineWords {
			if w.same(t) {
				n++
				break
			}
		}
	}
	return n
}

// specWindow cuts a long line to specs.SnippetLength characters, starting
// a little before its first word that matches a query term.
func specWindow(line string, terms []string) string {
	runes := []rune(line)
	start := 0
	lower := []rune(strings.ToLower(line))
	for i := 0; i < len(lower); {
		for i < len(lower) && !specIsWordRune(lower[i]) {
			i++
		}
		j := i
		for j < len(lower) && specIsWordRune(lower[j]) {
			j++
		}
		if i < j && specAnySameWord(string(lower[i:j]), terms) {
			start = i
			break
		}
		i = j
	}
	// Keep some words of context before the match, starting at a word.
	if start > 40 {
		start -= 40
		for start > 0 && specIsWordRune(runes[start-1]) {
			start++
		}
	} else {
		start = 0
	}
	end := min(len(runes), start+specs.SnippetLength-2)
	out := strings.TrimSpace(string(runes[start:end]))
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}

func specIsWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

func specAnySameWord(w string, terms []string) bool {
	for _, t := range terms {
		if specSameWord(w, t) {
			return true
		}
	}
	return false
}

// specSameWord approximates the stemmer the index uses, for choosing
// snippet lines only: equal after dropping common suffixes, or one a
// prefix of the other of at least four letters.
func specSameWord(a, b string) bool {
	if a == b {
		return true
	}
	a, b = specRoughStem(a), specRoughStem(b)
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len([]rune(a)) >= 4 && strings.HasPrefix(b, a)
}

func specRoughStem(w string) string {
	for _, suffix := range []string{"ations", "ation", "ings", "ing", "ies", "ers", "er", "ed", "es", "s"} {
		if strings.HasSuffix(w, suffix) && len(w)-len(suffix) >= 3 {
			return strings.TrimSuffix(w, suffix)
		}
	}
	return w
}

// specClip shortens s to at most n characters, marking the cut with "…".
func specClip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
