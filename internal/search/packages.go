package search

import (
	"sort"
	"strings"
	"unicode"

	"github.com/lore-dev/lore/internal/packages"
)

// Column weights of a package search, as packages.Search gave bm25():
// the name counts most, then its parts, its description, its path.
var packageColumnWeights = []float64{
	10.0, // name
	2.0,  // description
	1.0,  // path
	5.0,  // name parts: the name split at case changes and punctuation
}

// PackageIndex answers package searches over a fixed list of packages,
// in memory. Build one per index generation with NewPackageIndex; it is
// immutable and safe for concurrent use.
type PackageIndex struct {
	pkgs []packages.Package
	fts  *ftsIndex
	// order is each package's rank in name, path, kind, manifest order
	// (then input order), the tie-break of equal scores.
	order []int32
}

// NewPackageIndex indexes pkgs (as a store loads them) for Search. Its
// cost is linear in their text. The index keeps pkgs and returns its
// elements from Search; neither the caller nor Search's callers may
// modify them.
func NewPackageIndex(pkgs []packages.Package) *PackageIndex {
	rows := make([][]string, len(pkgs))
	for i, p := range pkgs {
		rows[i] = []string{p.Name, p.Description, p.Path, strings.Join(packageNameParts(p.Name), " ")}
	}
	byName := make([]int32, len(pkgs))
	for i := range byName {
		byName[i] = int32(i)
	}
	sort.SliceStable(byName, func(i, j int) bool {
		a, b := &pkgs[byName[i]], &pkgs[byName[j]]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Manifest < b.Manifest
	})
	order := make([]int32, len(pkgs))
	for rank, i := range byName {
		order[i] = int32(rank)
	}
	return &PackageIndex{
		pkgs:  pkgs,
		fts:   newFTSIndex(ftsTokenizer{}, packageColumnWeights, rows),
		order: order,
	}
}

// Len is the number of packages indexed.
func (x *PackageIndex) Len() int { return len(x.pkgs) }

// Search finds packages whose name, description or path match query,
// best first, at most limit of them (packages.DefaultSearchLimit when
// limit <= 0, never more than packages.MaxSearchLimit), with the contract
// of packages.Search:
//
//   - the query is checked by packages.CheckQuery first (QUERY_EMPTY,
//     QUERY_TOO_LONG);
//   - it is split at white space into terms (each searched as a phrase of
//     its tokens, so "foo-bar" finds "foo" followed by "bar"); the last
//     term may be a prefix;
//   - every term must match; if no package matches every term and there
//     are several, packages matching any term are returned instead;
//   - packages rank by BM25 (FTS5's formula and parameters) with the
//     column weights name 10, name parts 5, description 2, path 1; equal
//     scores are ordered by name, path, kind, manifest.
//
// The only errors are the query checks'. An empty result is an empty,
// non-nil slice.
func (x *PackageIndex) Search(query string, limit int) ([]packages.Package, error) {
	found, _, err := x.SearchCount(query, limit)
	return found, err
}

// SearchCount is Search that also returns how many packages matched,
// however many the limit let through.
func (x *PackageIndex) SearchCount(query string, limit int) ([]packages.Package, int, error) {
	if err := packages.CheckQuery(query); err != nil {
		return nil, 0, err
	}
	if limit <= 0 {
		limit = packages.DefaultSearchLimit
	}
	limit = min(limit, packages.MaxSearchLimit)
	terms := packages.SearchTerms(query)
	if len(terms) == 0 {
		return []packages.Package{}, 0, nil // only punctuation: nothing can match
	}
	phrases := make([]ftsPhrase, len(terms))
	for i, t := range terms {
		phrases[i] = x.fts.phrase(t, i == len(terms)-1)
	}
	found, total := x.rank(phrases, true, limit)
	if len(found) == 0 && len(terms) > 1 {
		found, total = x.rank(phrases, false, limit)
	}
	out := make([]packages.Package, len(found))
	for i, row := range found {
		out[i] = x.pkgs[row]
	}
	return out, total, nil
}

// rank returns the rows matching every phrase (all) or any phrase, best
// first, at most limit, and how many matched.
func (x *PackageIndex) rank(phrases []ftsPhrase, all bool, limit int) ([]int32, int) {
	var keep func(int) bool
	if all {
		keep = func(matched int) bool { return matched == len(phrases) }
	}
	matched := x.fts.search(phrases, keep)
	total := len(matched)
	best := topK(matched, limit, func(a, b ftsScored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return x.order[a.row] < x.order[b.row]
	})
	rows := make([]int32, len(best))
	for i, h := range best {
		rows[i] = h.row
	}
	return rows, total
}

// packageNameParts splits a package name into lower-cased words at
// punctuation, case changes and letter/digit boundaries:
// "@acme/HTTPServer2" → acme http server 2.
func packageNameParts(name string) []string {
	var parts []string
	runes := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, strings.ToLower(string(runes[start:end])))
		}
		start = -1
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := runes[i-1]
		boundary := unicode.IsDigit(r) != unicode.IsDigit(prev) ||
			unicode.IsUpper(r) && unicode.IsLower(prev) ||
			// the last capital of an acronym starts the next word: HTTPServer → HTTP Server
			unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1])
		if boundary {
			flush(i)
			start = i
		}
	}
	flush(len(runes))
	return parts
}
