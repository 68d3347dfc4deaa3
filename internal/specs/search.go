package specs

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
)

// Hit is one requirement that matches a search.
type Hit struct {
	SpecID      string  `json:"spec_id"`
	Requirement string  `json:"requirement"`
	Score       float64 `json:"score"`
	Snippet     string  `json:"snippet"`
}

const (
	// DefaultSearchLimit is the number of hits Search returns when the
	// caller gives no positive limit.
	DefaultSearchLimit = 10

	// MinTermCoverage is the fraction of the query's terms (stop words
	// aside) a requirement must contain to be a hit. One shared word is not
	// enough for a three-word query, so an unrelated query returns nothing
	// rather than whatever shares its commonest word.
	MinTermCoverage = 0.5

	// SnippetLength bounds a hit's snippet, in characters.
	SnippetLength = 200

	// maxQueryTerms bounds the terms taken from one query; each costs one
	// full-text lookup.
	maxQueryTerms = 32

	// BM25 column weights: a term in the requirement's name says more than
	// one in its description, which says more than one in a scenario.
	nameWeight        = 4.0
	descriptionWeight = 1.5
	scenarioWeight    = 1.0
)

// stopWords are dropped from queries: they match nearly every requirement.
// The normative keywords of specs (must, shall, should) are among them.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "any": true, "are": true, "as": true, "at": true,
	"be": true, "by": true, "can": true, "do": true, "does": true, "for": true, "from": true,
	"how": true, "i": true, "if": true, "in": true, "into": true, "is": true, "it": true,
	"its": true, "must": true, "of": true, "on": true, "or": true, "shall": true, "should": true,
	"so": true, "that": true, "the": true, "their": true, "then": true, "there": true,
	"this": true, "to": true, "was": true, "we": true, "what": true, "when": true,
	"where": true, "which": true, "who": true, "why": true, "will": true, "with": true,
}

// Search ranks stored requirements against query.
//
// Each requirement is one full-text row (name, description, scenario text),
// so its BM25 score aggregates all of them, with the name weighted highest.
// A requirement must contain at least MinTermCoverage of the query's terms,
// stop words aside (a query of only stop words finds nothing). Its score,
// in 0..1, is coverage × (0.5 + 0.5 × bm25 / best bm25 among the hits):
// a requirement with every term and the best BM25 scores 1. Hits are
// ordered by descending score, then spec ID and requirement order; at most
// limit are returned (DefaultSearchLimit when limit ≤ 0). Query text is
// only ever used as quoted terms, so FTS5 syntax in it is plain text.
//
// CheckQuery validates a spec search query without touching an index: a
// query over querylimit.MaxBytes or with more than querylimit.MaxTerms
// distinct terms (stop words aside) is QUERY_TOO_LONG, a blank one
// QUERY_EMPTY.
func CheckQuery(query string) error {
	if err := querylimit.CheckBytes("query", query); err != nil {
		return err
	}
	if strings.TrimSpace(query) == "" {
		return errs.New(errs.Invalid, "QUERY_EMPTY", "Query cannot be empty")
	}
	return querylimit.CheckTerms("query", len(distinctTerms(query)))
}

// A query over querylimit.MaxBytes, or with more than querylimit.MaxTerms
// distinct terms (stop words aside), is refused with QUERY_TOO_LONG before
// any index work; within the limits only the first maxQueryTerms terms
// are searched.
func Search(ctx context.Context, db *sql.DB, query string, limit int) ([]Hit, error) {
	if err := CheckQuery(query); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	terms := distinctTerms(query)
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	if len(terms) == 0 {
		return []Hit{}, nil
	}

	type candidate struct {
		rowID       int64
		specID      string
		ord         int
		name        string
		rel         float64 // -bm25: larger is better
		matched     int     // query terms the requirement contains
		score       float64
		description string
		scenarios   string
	}
	byRow := map[int64]*candidate{}
	var candidates []*candidate
	rows, err := db.QueryContext(ctx, fmt.Sprintf(`
		SELECT spec_fts.rowid, bm25(spec_fts, %g, %g, %g), r.spec_id, r.ord, spec_fts.name, spec_fts.description, spec_fts.scenarios
		FROM spec_fts JOIN spec_requirements r ON r.id = spec_fts.rowid
		WHERE spec_fts MATCH ?`, nameWeight, descriptionWeight, scenarioWeight), ftsAny(terms))
	if err != nil {
		return nil, searchError(err)
	}
	for rows.Next() {
		c := &candidate{}
		var bm25 float64
		if err := rows.Scan(&c.rowID, &bm25, &c.specID, &c.ord, &c.name, &c.description, &c.scenarios); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading spec search results: %w", err)
		}
		c.rel = -bm25
		byRow[c.rowID] = c
		candidates = append(candidates, c)
	}
	if err := rows.Close(); err != nil {
		return nil, searchError(err)
	}
	if err := rows.Err(); err != nil {
		return nil, searchError(err)
	}
	if len(candidates) == 0 {
		return []Hit{}, nil
	}

	// Count, per requirement, how many distinct query terms it contains.
	for _, term := range terms {
		ids, err := matchingRows(ctx, db, term)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if c := byRow[id]; c != nil {
				c.matched++
			}
		}
	}

	kept := candidates[:0]
	best := 0.0
	for _, c := range candidates {
		if float64(c.matched)/float64(len(terms)) >= MinTermCoverage {
			kept = append(kept, c)
			best = math.Max(best, c.rel)
		}
	}
	for _, c := range kept {
		ratio := 1.0
		if best > 0 {
			ratio = c.rel / best
		}
		coverage := float64(c.matched) / float64(len(terms))
		c.score = math.Round(coverage*(0.5+0.5*ratio)*1e4) / 1e4
	}
	sort.Slice(kept, func(i, j int) bool {
		a, b := kept[i], kept[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.specID != b.specID {
			return a.specID < b.specID
		}
		return a.ord < b.ord
	})
	if len(kept) > limit {
		kept = kept[:limit]
	}
	hits := make([]Hit, 0, len(kept))
	for _, c := range kept {
		lines := append([]string{c.name}, splitNonBlank(c.description)...)
		lines = append(lines, splitNonBlank(c.scenarios)...)
		hits = append(hits, Hit{SpecID: c.specID, Requirement: c.name, Score: c.score, Snippet: snippet(lines, terms)})
	}
	return hits, nil
}

// matchingRows returns the requirements that contain term.
func matchingRows(ctx context.Context, db *sql.DB, term string) ([]int64, error) {
	rows, err := db.QueryContext(ctx, `SELECT rowid FROM spec_fts WHERE spec_fts MATCH ?`, ftsQuote(term))
	if err != nil {
		return nil, searchError(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("reading spec search results: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, searchError(err)
	}
	return ids, nil
}

// searchError names a missing index as such; the tables exist once an
// index has been built.
func searchError(err error) error {
	if err != nil && strings.Contains(err.Error(), "no such table") {
		return errs.New(errs.NoIndex, "NO_INDEX", "The spec search index has not been built; build the index first").Wrap(err)
	}
	return fmt.Errorf("searching specs: %w", err)
}

// queryTerms splits a query into distinct lower-case words in order, drops
// stop words and keeps at most maxQueryTerms.
func queryTerms(query string) []string {
	terms := distinctTerms(query)
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	return terms
}

// distinctTerms splits a query into distinct lower-case words in order
// and drops stop words: the query's terms after analysis.
func distinctTerms(query string) []string {
	var terms []string
	seen := map[string]bool{}
	for _, w := range words(query) {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			terms = append(terms, w)
		}
	}
	return terms
}

// words splits text at everything but letters, digits and combining marks,
// like the unicode61 tokenizer, and lower-cases the words.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
}

// ftsQuote makes term an FTS5 string, so no character in it is syntax.
func ftsQuote(term string) string {
	return `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
}

// ftsAny is an FTS5 query matching rows that contain any of terms.
func ftsAny(terms []string) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = ftsQuote(t)
	}
	return strings.Join(quoted, " OR ")
}

func splitNonBlank(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// snippet picks the lines of a requirement that contain the most query
// terms, in document order, within SnippetLength characters; a long line
// is cut around its first matching word.
func snippet(lines, terms []string) string {
	type scored struct{ index, hits int }
	var matching []scored
	for i, l := range lines {
		if n := termHits(l, terms); n > 0 {
			matching = append(matching, scored{i, n})
		}
	}
	if len(matching) == 0 {
		return clip(lines[0], SnippetLength)
	}
	sort.SliceStable(matching, func(i, j int) bool { return matching[i].hits > matching[j].hits })
	best := lines[matching[0].index]
	if len([]rune(best)) > SnippetLength {
		return window(best, terms)
	}
	picked := []int{matching[0].index}
	length := len([]rune(best))
	const separator = " … "
	for _, m := range matching[1:] {
		n := len([]rune(lines[m.index])) + len([]rune(separator))
		if length+n <= SnippetLength {
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

// termHits counts the query terms that occur in line.
func termHits(line string, terms []string) int {
	lineWords := words(line)
	n := 0
	for _, t := range terms {
		for _, w := range lineWords {
			if sameWord(w, t) {
				n++
				break
			}
		}
	}
	return n
}

// window cuts a long line to SnippetLength characters, starting a little
// before its first word that matches a query term.
func window(line string, terms []string) string {
	runes := []rune(line)
	start := 0
	lower := []rune(strings.ToLower(line))
	for i := 0; i < len(lower); {
		for i < len(lower) && !isWordRune(lower[i]) {
			i++
		}
		j := i
		for j < len(lower) && isWordRune(lower[j]) {
			j++
		}
		if i < j && anySameWord(string(lower[i:j]), terms) {
			start = i
			break
		}
		i = j
	}
	// Keep some words of context before the match, starting at a word.
	if start > 40 {
		start -= 40
		for start > 0 && isWordRune(runes[start-1]) {
			start++
		}
	} else {
		start = 0
	}
	end := min(len(runes), start+SnippetLength-2)
	out := strings.TrimSpace(string(runes[start:end]))
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

func anySameWord(w string, terms []string) bool {
	for _, t := range terms {
		if sameWord(w, t) {
			return true
		}
	}
	return false
}

// sameWord approximates the stemmer the index uses, for choosing snippet
// lines only: equal after dropping common suffixes, or one a prefix of the
// other of at least four letters.
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	a, b = roughStem(a), roughStem(b)
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len([]rune(a)) >= 4 && strings.HasPrefix(b, a)
}

func roughStem(w string) string {
	for _, suffix := range []string{"ations", "ation", "ings", "ing", "ies", "ers", "er", "ed", "es", "s"} {
		if strings.HasSuffix(w, suffix) && len(w)-len(suffix) >= 3 {
			return strings.TrimSuffix(w, suffix)
		}
	}
	return w
}
