// Package querylimit defines the size limits of a query, the same for
// every entry point that takes one: search_code and search_docs (package
// search), search_packages (package packages), search_specs (package
// specs), the files tool search (package files), and their CLI commands.
//
// A query costs work in proportion to its length (analysis, one index
// lookup per term, one full-text phrase per term), so without a bound one
// call could hold a core for minutes. The limits sit far above any real
// query, so they only ever refuse pasted documents and attacks. Each core
// package checks them before doing any work and answers an *errs.Error of
// kind Invalid and code QUERY_TOO_LONG; front ends only map the error.
package querylimit

import (
	"fmt"

	"github.com/lore-dev/lore/internal/errs"
)

// Code is the error code of a query over a limit.
const Code = errs.CodeQueryTooLong

const (
	// MaxBytes bounds a query's length in bytes (of UTF-8). Natural-language
	// and identifier queries are under 200 bytes; a pasted error message or
	// function signature is under 2 KiB. 8 KiB leaves ample room for those
	// while bounding the work a query can cause before it is refused: the
	// check itself reads nothing but the length.
	MaxBytes = 8 << 10

	// MaxTerms bounds the distinct terms of a query after analysis (stop
	// words and repeats removed), the unit of index work: each term is one
	// posting-list read or one full-text phrase. 256 distinct words is a
	// page of prose, far more than a search needs, while a query at the
	// limit still answers in milliseconds.
	MaxTerms = 256

	// MaxRegexSize bounds how large a regular expression may grow once its
	// repetitions are expanded, in program instructions (as Go's regexp
	// counts them). Matching costs time proportional to the text times the
	// program's size, and a short pattern such as `(?:x{1000}){1000}` would
	// otherwise be a million instructions. The bound is MaxBytes: a regex
	// may cost no more than the longest literal query does.
	MaxRegexSize = MaxBytes
)

// CheckBytes returns a QUERY_TOO_LONG error naming the limit when query
// is longer than MaxBytes; what names the input ("query", "regex"). It
// reads only the length, so it costs nothing whatever the query.
func CheckBytes(what, query string) error {
	if len(query) <= MaxBytes {
		return nil
	}
	return tooLong(fmt.Sprintf("%s is too long: %d bytes (limit %d)", what, len(query), MaxBytes),
		"query_bytes", len(query), "max_bytes", MaxBytes)
}

// CheckTerms returns a QUERY_TOO_LONG error naming the limit when a query
// has more than MaxTerms distinct terms after analysis.
func CheckTerms(what string, terms int) error {
	if terms <= MaxTerms {
		return nil
	}
	return tooLong(fmt.Sprintf("%s is too long: %d distinct terms (limit %d)", what, terms, MaxTerms),
		"query_terms", terms, "max_terms", MaxTerms)
}

// CheckRegexSize returns a QUERY_TOO_LONG error when a regular expression
// expands to more than MaxRegexSize instructions; size is that expansion,
// as the caller estimated it before compiling.
func CheckRegexSize(size int) error {
	if size <= MaxRegexSize {
		return nil
	}
	return tooLong(fmt.Sprintf("regex is too large: it expands to %d instructions (limit %d)", size, MaxRegexSize),
		"regex_size", size, "max_regex_size", MaxRegexSize)
}

// tooLong is the QUERY_TOO_LONG error with its details. It never holds the
// query itself, which may be megabytes.
func tooLong(message string, details ...any) *errs.Error {
	e := &errs.Error{Kind: errs.Invalid, Code: Code, Message: message, Details: map[string]any{}}
	for i := 0; i+1 < len(details); i += 2 {
		e.Details[details[i].(string)] = details[i+1]
	}
	return e
}
