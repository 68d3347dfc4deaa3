package packages

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
)

// DefaultSearchLimit is the number of results a package search returns
// when the caller gives no positive limit; MaxSearchLimit caps any limit.
// The ranking itself is search.PackageIndex.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 1000
)

// CheckQuery validates a package search query without touching an index:
// a query over querylimit.MaxBytes or with more than querylimit.MaxTerms
// distinct terms is QUERY_TOO_LONG, a blank one QUERY_EMPTY.
func CheckQuery(query string) error {
	if err := querylimit.CheckBytes("query", query); err != nil {
		return err
	}
	if strings.TrimSpace(query) == "" {
		return errs.New(errs.Invalid, errs.CodeQueryEmpty, "Search query must not be empty")
	}
	return querylimit.CheckTerms("query", len(SearchTerms(query)))
}

// SearchTerms splits a package search query into its terms: control
// characters and invalid UTF-8 become spaces, and terms without a letter
// or digit are discarded. A term repeated (ignoring case) is kept once, at
// its last place, so the last term, the one that may be a prefix, stays
// last.
func SearchTerms(query string) []string {
	query = strings.ToValidUTF8(query, " ")
	query = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, query)
	fields := strings.Fields(query)
	var terms []string
	seen := make(map[string]bool, len(fields))
	for i := len(fields) - 1; i >= 0; i-- {
		field := fields[i]
		key := strings.ToLower(field)
		if seen[key] || strings.IndexFunc(field, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			continue
		}
		seen[key] = true
		terms = append(terms, field)
	}
	slices.Reverse(terms)
	return terms
}
