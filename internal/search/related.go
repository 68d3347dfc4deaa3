package search

import (
	"context"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/tokenize"
)

// RelatedTerms returns up to n terms from the index's own vocabulary that
// are related to the query: the names defined by the query's best results
// (split into words), weighted by rank. It is the built-in query expansion:
// "rate limit" brings "throttle" when the code that limits rates is called
// Throttle.
func (e *Engine) RelatedTerms(ctx context.Context, query string, n int) ([]string, error) {
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
