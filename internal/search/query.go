package search

import (
	"strings"

	"github.com/lore-dev/lore/internal/tokenize"
)

// Query is a query after analysis.
type Query struct {
	Raw string
	// Symbolic is true for queries that name code (RouteContext, parse_args,
	// fmt::format) rather than describe it in prose.
	Symbolic bool
	// Identifiers are the query's identifier-like words as typed, for exact
	// symbol matching (lower-cased).
	Identifiers []string
	// Terms are the distinct search terms after splitting and stop-word
	// removal, in query order.
	Terms []string
}

// stopWords are words of prose that carry no meaning in a code search.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"on": true, "for": true, "with": true, "by": true, "from": true, "at": true, "as": true, "is": true,
	"are": true, "be": true, "it": true, "its": true, "this": true, "that": true, "these": true,
	"how": true, "what": true, "where": true, "which": true, "who": true, "why": true, "when": true,
	"does": true, "do": true, "did": true, "can": true, "i": true, "we": true, "you": true,
	"into": true, "via": true, "using": true, "use": true, "used": true, "about": true,
	"find": true, "show": true, "me": true, "code": true, "implementation": true, "implement": true,
	"function": false, // kept: "function" can name a kind the user wants
}

// Analyze splits a raw query into terms and decides whether it names code.
func Analyze(raw string) Query {
	q := Query{Raw: raw}
	words := strings.Fields(raw)
	identLike := 0
	for _, w := range words {
		if tokenize.IsIdentifierLike(strings.Trim(w, "`'\"()[]{},;")) {
			identLike++
		}
	}
	// One word is a symbol lookup when it looks like code or is capitalised
	// like a type name ("Mux"); several words are when all of them look like code.
	switch {
	case len(words) == 1:
		w := strings.Trim(words[0], "`'\"()[]{},;")
		q.Symbolic = identLike == 1 || (w != "" && w[0] >= 'A' && w[0] <= 'Z')
	case len(words) > 1:
		q.Symbolic = identLike == len(words)
	}
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			q.Terms = append(q.Terms, t)
		}
	}
	var dropped []string
	for _, id := range tokenize.Identifiers(raw) {
		lower := strings.ToLower(id)
		if len(words) > 1 && tokenize.IsIdentifierLike(id) || q.Symbolic {
			q.Identifiers = append(q.Identifiers, lower)
		}
		for _, t := range tokenize.Terms(id) {
			if !q.Symbolic && stopWords[t] {
				dropped = append(dropped, t)
				continue
			}
			add(t)
		}
	}
	if len(q.Terms) == 0 { // a query of stop words only: search them anyway
		for _, t := range dropped {
			add(t)
		}
	}
	return q
}

// ftsMatch renders terms as an FTS5 OR-query; each term is quoted, so no
// FTS5 syntax in user input can reach SQLite.
func ftsMatch(terms []string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(parts, " OR ")
}
