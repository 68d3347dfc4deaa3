package search

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// ftsIndex is an immutable in-memory full-text index over rows of text
// columns, matching and scoring as an FTS5 table with the same tokenizer
// and bm25() column weights would. It is safe for concurrent use.
//
// Every distinct token is a term; a term's ID is its place in byte order,
// so the terms sharing a prefix have consecutive IDs.
type ftsIndex struct {
	tokenizer ftsTokenizer
	weights   []float64 // per column
	ncols     int
	rows      int
	rowLen    []int32 // tokens in each row, all columns together
	avgdl     float64 // average tokens per row
	terms     []string
	ids       map[string]int32
	// rowFreqs lists, per term, the rows holding it with its frequency
	// weighted by column, in row order: a one-token phrase's matches.
	rowFreqs [][]ftsRowFreq
	// fwd holds every column's term IDs, row after row; column c of row r
	// is fwd[colStart[r*ncols+c]:colStart[r*ncols+c+1]]. Longer phrases
	// are matched in it.
	fwd      []int32
	colStart []int32

	accums sync.Pool // *ftsAccum, for queries
}

// ftsRowFreq is a phrase's weighted frequency in one row: the sum of the
// column weights of its instances, as FTS5's bm25() counts it.
type ftsRowFreq struct {
	row  int32
	freq float64
}

// newFTSIndex indexes rows, each a slice of ncols column texts.
func newFTSIndex(tokenizer ftsTokenizer, weights []float64, rows [][]string) *ftsIndex {
	ncols := len(weights)
	x := &ftsIndex{
		tokenizer: tokenizer,
		weights:   weights,
		ncols:     ncols,
		rows:      len(rows),
		rowLen:    make([]int32, len(rows)),
		ids:       map[string]int32{},
		colStart:  make([]int32, 0, len(rows)*ncols+1),
	}
	// Tokenize, numbering terms as they come.
	total := int64(0)
	for r, cols := range rows {
		for c := 0; c < ncols; c++ {
			x.colStart = append(x.colStart, int32(len(x.fwd)))
			if c >= len(cols) {
				continue
			}
			n := len(x.fwd)
			tokenizer.each(cols[c], func(tok []byte) {
				id, ok := x.ids[string(tok)] // no allocation for a known term
				if !ok {
					id = int32(len(x.terms))
					x.terms = append(x.terms, string(tok))
					x.ids[x.terms[id]] = id
				}
				x.fwd = append(x.fwd, id)
			})
			x.rowLen[r] += int32(len(x.fwd) - n)
		}
		total += int64(x.rowLen[r])
	}
	x.colStart = append(x.colStart, int32(len(x.fwd)))
	if x.rows > 0 {
		x.avgdl = float64(total) / float64(x.rows)
	}
	// Renumber terms in byte order.
	order := make([]int32, len(x.terms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(x.terms[a], x.terms[b]) })
	newID := make([]int32, len(order))
	sorted := make([]string, len(order))
	for rank, old := range order {
		newID[old] = int32(rank)
		sorted[rank] = x.terms[old]
		x.ids[x.terms[old]] = int32(rank)
	}
	x.terms = sorted
	for i, id := range x.fwd {
		x.fwd[i] = newID[id]
	}
	// Per-term row lists, built in row order.
	x.rowFreqs = make([][]ftsRowFreq, len(x.terms))
	for r := 0; r < x.rows; r++ {
		for c := 0; c < ncols; c++ {
			w := weights[c]
			for _, id := range x.column(int32(r), c) {
				list := x.rowFreqs[id]
				if n := len(list); n > 0 && list[n-1].row == int32(r) {
					list[n-1].freq += w
				} else {
					x.rowFreqs[id] = append(list, ftsRowFreq{int32(r), w})
				}
			}
		}
	}
	return x
}

// column is the term IDs of column c of row r.
func (x *ftsIndex) column(r int32, c int) []int32 {
	k := int(r)*x.ncols + c
	return x.fwd[x.colStart[k]:x.colStart[k+1]]
}

// ftsPhrase is one quoted string of an FTS5 query: its tokens, the last
// one a prefix if prefix is set.
type ftsPhrase struct {
	tokens []string
	prefix bool
}

// phrase tokenizes a query term into a phrase.
func (x *ftsIndex) phrase(term string, prefix bool) ftsPhrase {
	return ftsPhrase{tokens: x.tokenizer.tokens(term), prefix: prefix}
}

// prefixRange is the IDs [lo, hi) of the terms starting with prefix
// (bytewise, as FTS5 matches prefixes).
func (x *ftsIndex) prefixRange(prefix string) (lo, hi int32) {
	l := sort.SearchStrings(x.terms, prefix)
	h := l + sort.Search(len(x.terms)-l, func(i int) bool { return !strings.HasPrefix(x.terms[l+i], prefix) })
	return int32(l), int32(h)
}

// ftsAccum gathers, for one query, each matching row's weighted frequency
// of every phrase.
type ftsAccum struct {
	slot    []int32 // per row: 1 + its place in rows, 0 if not matched
	rows    []int32
	freq    []float64 // per matched row, nphrase values
	nphrase int
	hits    []int // per phrase, the rows it matches
}

func (x *ftsIndex) getAccum(nphrase int) *ftsAccum {
	a, _ := x.accums.Get().(*ftsAccum)
	if a == nil {
		a = &ftsAccum{slot: make([]int32, x.rows)}
	}
	a.nphrase = nphrase
	a.hits = slices.Grow(a.hits[:0], nphrase)[:nphrase]
	clear(a.hits)
	return a
}

func (x *ftsIndex) putAccum(a *ftsAccum) {
	for _, r := range a.rows {
		a.slot[r] = 0
	}
	a.rows = a.rows[:0]
	a.freq = a.freq[:0]
	x.accums.Put(a)
}

// add adds f to phrase p's frequency in row r.
func (a *ftsAccum) add(r int32, p int, f float64) {
	s := a.slot[r]
	if s == 0 {
		a.rows = append(a.rows, r)
		s = int32(len(a.rows))
		a.slot[r] = s
		a.freq = append(a.freq, make([]float64, a.nphrase)...)
	}
	v := &a.freq[int(s-1)*a.nphrase+p]
	if *v == 0 {
		a.hits[p]++
	}
	*v += f
}

// freqs is the phrase frequencies of the i-th matched row.
func (a *ftsAccum) freqs(i int) []float64 {
	return a.freq[i*a.nphrase : (i+1)*a.nphrase]
}

// match adds the rows holding phrase p (the p-th of the query) to a. A
// phrase without tokens matches nothing, as in FTS5.
func (x *ftsIndex) match(a *ftsAccum, p int, ph ftsPhrase) {
	n := len(ph.tokens)
	if n == 0 {
		return
	}
	// Each token's term IDs: one, or a range for the prefix.
	lo := make([]int32, n)
	hi := make([]int32, n)
	for i, tok := range ph.tokens {
		if ph.prefix && i == n-1 {
			lo[i], hi[i] = x.prefixRange(tok)
		} else if id, ok := x.ids[tok]; ok {
			lo[i], hi[i] = id, id+1
		}
		if lo[i] == hi[i] {
			return
		}
	}
	if n == 1 {
		for id := lo[0]; id < hi[0]; id++ {
			for _, rf := range x.rowFreqs[id] {
				a.add(rf.row, p, rf.freq)
			}
		}
		return
	}
	// A longer phrase: its tokens at consecutive positions of a column.
	// The first token is never the prefix one.
	for _, rf := range x.rowFreqs[lo[0]] {
		for c := 0; c < x.ncols; c++ {
			col := x.column(rf.row, c)
			for pos := 0; pos+n <= len(col); pos++ {
				if col[pos] != lo[0] {
					continue
				}
				ok := true
				for i := 1; i < n && ok; i++ {
					ok = col[pos+i] >= lo[i] && col[pos+i] < hi[i]
				}
				if ok {
					a.add(rf.row, p, x.weights[c])
				}
			}
		}
	}
}

// idf is FTS5's inverse document frequency of a phrase found in hits
// rows: log((N - hits + 0.5) / (hits + 0.5)), at least 1e-6.
func (x *ftsIndex) idf(hits int) float64 {
	idf := math.Log((float64(int64(x.rows)-int64(hits)) + 0.5) / (float64(hits) + 0.5))
	if idf <= 0 {
		idf = 1e-6
	}
	return idf
}

// bm25 is FTS5's bm25() of a row (without its sign flip: larger is
// better), given each query phrase's IDF and weighted frequency in the
// row, in query order. Every intermediate is rounded as in SQLite's C.
func (x *ftsIndex) bm25(row int32, idf, freq []float64) float64 {
	// Variables, not constants, so that k1+1 and 1-b are rounded as in C;
	// the conversions keep the compiler from fusing multiply-adds.
	k1, b := 1.2, 0.75
	d := float64(x.rowLen[row])
	norm := float64(k1 * float64(float64(1-b)+float64(float64(b*d)/x.avgdl)))
	score := 0.0
	for i := range idf {
		f := freq[i]
		score += float64(idf[i] * float64(float64(f*float64(k1+1.0))/float64(f+norm)))
	}
	return score
}

// ftsScored is a matching row, its BM25 (larger is better) and how many
// of the query's phrases it matches.
type ftsScored struct {
	row     int32
	score   float64
	matched int
}

// search scores the rows matching any of phrases, in no particular order.
// keep, when set, filters them by how many phrases they match.
func (x *ftsIndex) search(phrases []ftsPhrase, keep func(matched int) bool) []ftsScored {
	a := x.getAccum(len(phrases))
	defer x.putAccum(a)
	for p, ph := range phrases {
		x.match(a, p, ph)
	}
	idf := make([]float64, len(phrases))
	for p := range phrases {
		idf[p] = x.idf(a.hits[p])
	}
	out := make([]ftsScored, 0, len(a.rows))
	for i, r := range a.rows {
		f := a.freqs(i)
		matched := 0
		for _, v := range f {
			if v != 0 {
				matched++
			}
		}
		if keep != nil && !keep(matched) {
			continue
		}
		out = append(out, ftsScored{r, x.bm25(r, idf, f), matched})
	}
	return out
}
