package search

import (
	"bytes"
	"cmp"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// Term proximity, in the one form that paid on the development sets:
// two words adjacent in a prose query written as one identifier of the
// chunk's text ("exit code" in exit_code, EXIT_CODES or exitCode;
// "background worker" in BackgroundWorker). The index keeps per-field
// term frequencies, not positions, so BM25F cannot tell a chunk that
// names the query's phrase from one that holds its words apart; the run
// together compound term (lookupTerms) finds only the camelCase spelling
// of the unstemmed pair. The best few chunks are read (the page reads
// most of them anyway, and the detail cache keeps them) and rated by the
// share of the query's adjacent pairs they join. Wider windows (words
// within a few identifiers, on one line, the least distance between
// them, the shortest span holding them all) and the within-file choice
// of chunk were measured and lowered both sets (docs/ranking.md, "Issue
// 11, twelfth pass").

// textSource reads the texts of some ranked chunks (Engine.details).
type textSource func(ranked []scored) (map[int64]store.ChunkDetail, error)

// pairMatcher finds the query's words in the identifiers of a text, by
// the terms and stems the index gives them.
type pairMatcher struct {
	words  []Word
	prefix [][]byte // the first bytes of every form of every word (deduplicated)
	lower  []byte   // scratch: an identifier lower-cased
	terms  []string // scratch: an identifier's terms
	// seen maps an identifier to its pairBits: code repeats its
	// identifiers, and most are split and stemmed once a query.
	seen map[string]uint16
}

// newPairMatcher prepares the query's words for matching.
func newPairMatcher(q Query) *pairMatcher {
	m := &pairMatcher{words: q.Words[:min(len(q.Words), maxWords)], seen: map[string]uint16{}}
	addPrefix := func(s string) {
		p := []byte(s[:min(len(s), tokenize.KeptPrefix)])
		if len(p) > 0 && !slices.ContainsFunc(m.prefix, func(q []byte) bool { return bytes.Equal(p, q) }) {
			m.prefix = append(m.prefix, p)
		}
	}
	for i := range m.words {
		w := &m.words[i]
		addPrefix(w.Stem)
		for _, p := range w.Parts {
			addPrefix(p)
		}
		for _, a := range w.abbreviations() {
			addPrefix(a)
		}
	}
	return m
}

// joinedPairs is the share of the query's adjacent word pairs (i, i+1)
// that some identifier of text holds both words of, from 0 to 1.
func (m *pairMatcher) joinedPairs(text string) float64 {
	nw := len(m.words)
	if nw < 2 {
		return 0
	}
	var found uint16 // bit i: words i and i+1 joined
	start := -1
	flush := func(end int) {
		id := strings.Trim(text[start:end], "_")
		start = -1
		if len(id) < 2 || len(id) > tokenize.MaxTermLen || !compoundIdent(id) {
			return
		}
		b, ok := m.seen[id]
		if !ok {
			b = m.pairBits(id)
			m.seen[id] = b
		}
		found |= b
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		word := c >= utf8.RuneSelf || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			flush(i)
		}
	}
	if start >= 0 {
		flush(len(text))
	}
	mask := uint16(1)<<(nw-1) - 1
	return float64(bits.OnesCount16(found&mask)) / float64(nw-1)
}

// compoundIdent reports an identifier that may have several parts (an
// underscore, a capital after the first byte, a digit, a non-ASCII
// byte): only those can join two words.
func compoundIdent(id string) bool {
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c == '_' || c >= utf8.RuneSelf || '0' <= c && c <= '9' || i > 0 && 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// pairBits is, for identifier id, a bit i for each pair of adjacent query
// words (i, i+1) that its terms both hold.
func (m *pairMatcher) pairBits(id string) uint16 {
	if !m.mayHold(id) {
		return 0
	}
	m.terms = tokenize.AppendTerms(m.terms[:0], id)
	var b uint16
	for _, t := range m.terms {
		b |= m.wordBits(t)
	}
	return b & (b >> 1)
}

// mayHold reports whether id, lower-cased, contains the first bytes of
// some form of a query word: most identifiers do not, and need no
// splitting or stemming.
func (m *pairMatcher) mayHold(id string) bool {
	m.lower = m.lower[:0]
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		m.lower = append(m.lower, c)
	}
	for _, p := range m.prefix {
		if bytes.Contains(m.lower, p) {
			return true
		}
	}
	return false
}

// wordBits is the set of query words term (an index term, lower-cased)
// is a form of: its stem is the word's, one of its parts' or one of its
// abbreviations'.
func (m *pairMatcher) wordBits(term string) uint16 {
	var out uint16
	stem := "" // made once, for the first word whose forms may match
	matches := func(want string) bool {
		if !mayStemTo(term, want) {
			return false
		}
		if stem == "" {
			stem = tokenize.Stem(term)
		}
		return stem == want
	}
	for i := range m.words {
		w := &m.words[i]
		if matches(w.Stem) || slices.ContainsFunc(w.Parts, matches) || slices.ContainsFunc(w.abbreviations(), matches) {
			out |= 1 << i
		}
	}
	return out
}

// addJoinedPairs reads the texts of the best weights.pairDepth chunks of
// out (by score so far, ties by chunk id) and adds weights.joinedPairs
// times their joinedPairs, times the chunk's file multiplier (mults), to
// their scores.
func (sc *rankScratch) addJoinedPairs(q Query, out []scored, mults []float64, texts textSource) error {
	n := min(weights.pairDepth, len(out))
	if n <= 0 {
		return nil
	}
	idx := sc.pairIdx[:0]
	for i := range out {
		idx = append(idx, int32(i))
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if out[a].score != out[b].score {
			return cmp.Compare(out[b].score, out[a].score)
		}
		return cmp.Compare(out[a].row.ID, out[b].row.ID)
	})
	idx = idx[:n]
	sub := sc.pairSub[:0]
	for _, i := range idx {
		sub = append(sub, out[i])
	}
	sc.pairIdx, sc.pairSub = idx[:0], sub[:0]
	details, err := texts(sub)
	if err != nil {
		return err
	}
	m := newPairMatcher(q)
	for _, i := range idx {
		if p := m.joinedPairs(details[out[i].row.ID].Content); p > 0 {
			out[i].score += mults[i] * weights.joinedPairs * p
		}
	}
	return nil
}
