package specs

import (
	"strings"
	"unicode"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
)

// Hit is one requirement that matches a search (see search.SpecIndex,
// which ranks them).
type Hit struct {
	SpecID      string  `json:"spec_id"`
	Requirement string  `json:"requirement"`
	Score       float64 `json:"score"`
	Snippet     string  `json:"snippet"`
}

const (
	// DefaultSearchLimit is the number of hits a search returns when the
	// caller gives no positive limit.
	DefaultSearchLimit = 10

	// MinTermCoverage is the fraction of the query's terms (stop words
	// aside) a requirement must contain to be a hit. One shared word is not
	// enough for a three-word query, so an unrelated query returns nothing
	// rather than whatever shares its commonest word.
	MinTermCoverage = 0.5

	// SnippetLength bounds a hit's snippet, in characters.
	SnippetLength = 200

	// MaxQueryTerms bounds the terms taken from one query.
	MaxQueryTerms = 32
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

// CheckQuery validates a spec search query without touching an index: a
// query over querylimit.MaxBytes or with more than querylimit.MaxTerms
// distinct terms (stop words aside) is QUERY_TOO_LONG, a blank one
// QUERY_EMPTY.
func CheckQuery(query string) error {
	if err := querylimit.CheckBytes("query", query); err != nil {
		return err
	}
	if strings.TrimSpace(query) == "" {
		return errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	return querylimit.CheckTerms("query", len(QueryTerms(query)))
}

// QueryTerms splits a query into distinct lower-case words in order and
// drops stop words: the query's terms after analysis.
func QueryTerms(query string) []string {
	var terms []string
	seen := map[string]bool{}
	for _, w := range Words(query) {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			terms = append(terms, w)
		}
	}
	return terms
}

// Words splits text at everything but letters, digits and combining
// marks, like the unicode61 tokenizer, and lower-cases the words.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
}
