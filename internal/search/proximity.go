package search

import (
	"bytes"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// Term proximity, in the one form that paid on the development sets:
// two words adjacent in a prose query written as one identifier of a
// chunk's text ("exit status" in exit_status, EXIT_STATUSES or
// exitStatus; "background worker" in BackgroundWorker). The index keeps
// per-field term frequencies, not positions, so BM25F cannot tell a chunk
// that names the query's phrase from one that holds its words apart; the
// run-together compound term (lookupTerms) finds only the camelCase
// spelling of the unstemmed pair. Once ranked, the best pairDepth chunks
// (the page, whose texts are read for the answer anyway) are lifted by
// the share of the query's adjacent pairs they join, and reordered: the
// chunks on the page stay those the ranking chose, whatever the limit.
// Wider windows (words within a few identifiers, on one line, the least
// distance between them, the shortest span holding them all), idf
// weights, a scatter penalty, every pair rather than adjacent ones, and
// the choice of a file's chunk were measured and lowered the development
// sets, and so did, later, counting only the declaration line, grading a
// pair by how many identifiers join it, sparing demoted files and words
// one apart (docs/ranking.md, "Issue 11, twelfth pass").
//
// A word asking for tests, benchmarks or examples (testWords) joins no
// pair, and its pairs are not counted: code names tests and benchmarks
// by convention (test_capture_output, BenchmarkParse), so "tests" joined
// to the next word is the convention, not the query's phrase, and lifted
// a test above the helper the query asked about.

// joinsPairs reports whether joined pairs apply to q: a prose query of
// two words or more.
func joinsPairs(q Query) bool {
	return weights.joinedPairs != 0 && weights.pairDepth > 0 && !q.Symbolic && len(q.Words) >= 2
}

// liftJoinedPairs adds weights.joinedPairs times joinedPairs, times the
// file's demotions, to the scores of the best weights.pairDepth chunks of
// ranked (best first, their texts in details) and orders ranked again.
// Only those chunks rise, so none from below them passes them: the best
// pairDepth stay the same chunks, reordered.
func liftJoinedPairs(q Query, snap *snapshot, ranked []scored, details map[int64]store.ChunkDetail) []scored {
	m := newPairMatcher(q)
	for i := range ranked[:min(weights.pairDepth, len(ranked))] {
		if p := m.joinedPairs(details[ranked[i].row.ID].Content); p > 0 {
			ranked[i].score += ranked[i].mult * weights.joinedPairs * p
		}
	}
	slices.SortFunc(ranked, snap.compareScored)
	return ranked
}

// pairMatcher finds the query's words in the identifiers of a text, by
// the terms and stems the index gives them.
type pairMatcher struct {
	words  []Word
	prefix [][]byte // the first bytes of every form of every word (deduplicated)
	lower  []byte   // scratch: an identifier lower-cased
	ascii  bool     // ... and whether it is all ASCII
	terms  []string // scratch: an identifier's terms
	// seen maps an identifier to its pairBits: code repeats its
	// identifiers, and each is split and stemmed once a search.
	seen map[string]uint16
	// dead marks the words that join nothing: those asking for tests,
	// when weights.pairTestWords holds.
	dead uint16
	// pairs is the number of adjacent pairs of words neither of which is
	// dead: joinedPairs' denominator.
	pairs int
}

// newPairMatcher prepares the query's words for matching.
func newPairMatcher(q Query) *pairMatcher {
	m := &pairMatcher{words: q.Words[:min(len(q.Words), maxWords)], seen: map[string]uint16{}}
	addPrefix := func(s string) {
		p := s[:min(len(s), tokenize.KeptPrefix)]
		if p != "" && !slices.ContainsFunc(m.prefix, func(q []byte) bool { return string(q) == p }) {
			m.prefix = append(m.prefix, []byte(p))
		}
	}
	for i := range m.words {
		if weights.pairTestWords && testWords[m.words[i].Stem] {
			m.dead |= 1 << i
		}
	}
	for i := 0; i+1 < len(m.words); i++ {
		if m.dead&(1<<i|1<<(i+1)) == 0 {
			m.pairs++
		}
	}
	for i := range m.words {
		w := &m.words[i]
		if m.dead&(1<<i) != 0 {
			continue
		}
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

// joinedPairs is the share of the query's adjacent word pairs (i, i+1),
// neither word dead, that some identifier of text holds both words of,
// from 0 to 1.
func (m *pairMatcher) joinedPairs(text string) float64 {
	if m.pairs == 0 {
		return 0
	}
	var found uint16 // bit i: words i and i+1 joined
	for i := 0; i < len(text); {
		if !identByte[text[i]] {
			i++
			continue
		}
		start, compound := i, false
		for ; i < len(text) && identByte[text[i]]; i++ {
			if c := text[i]; c == '_' || c >= utf8.RuneSelf || '0' <= c && c <= '9' || i > start && 'A' <= c && c <= 'Z' {
				compound = true
			}
		}
		if compound {
			found |= m.identPairs(text[start:i])
		}
	}
	return float64(bits.OnesCount16(found)) / float64(m.pairs)
}

// identByte marks the bytes an identifier is read from: ASCII letters,
// digits and underscores, and every byte of a non-ASCII character (the
// index's tokenizer decides what those are).
var identByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c == '_' || c >= utf8.RuneSelf || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// identPairs is pairBits of one identifier that may have several parts
// (an underscore, a capital after the first byte, a digit, a non-ASCII
// byte: only those can join two words), from the memo when it was met
// before.
func (m *pairMatcher) identPairs(id string) uint16 {
	id = strings.Trim(id, "_")
	if len(id) < 2 || len(id) > tokenize.MaxTermLen {
		return 0
	}
	b, ok := m.seen[id]
	if !ok {
		b = m.pairBits(id)
		m.seen[id] = b
	}
	return b
}

// pairBits is, for identifier id, a bit i for each pair of adjacent query
// words (i, i+1) that its terms both hold.
func (m *pairMatcher) pairBits(id string) uint16 {
	if !m.mayHold(id) {
		return 0
	}
	var b uint16
	if !m.ascii {
		m.terms = tokenize.AppendTerms(m.terms[:0], id)
		for _, t := range m.terms {
			b |= m.wordBits(t)
		}
	} else {
		for lo, hi, ok := tokenize.NextPart(id, 0); ok; lo, hi, ok = tokenize.NextPart(id, hi) {
			b |= m.partBits(m.lower[lo:hi])
		}
	}
	return b & (b >> 1)
}

// partBits is wordBits of one lower-cased part, made a string (and
// stemmed) only when it begins like some form of a query word.
func (m *pairMatcher) partBits(part []byte) uint16 {
	k := min(tokenize.KeptPrefix, len(part))
	for _, p := range m.prefix {
		if len(p) >= k && string(p[:k]) == string(part[:k]) {
			return m.wordBits(string(part))
		}
	}
	return 0
}

// mayHold reports whether id, lower-cased, contains the first bytes of
// some form of a query word: most identifiers do not, and need no
// splitting or stemming.
func (m *pairMatcher) mayHold(id string) bool {
	m.lower, m.ascii = m.lower[:0], true
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		m.ascii = m.ascii && c < utf8.RuneSelf
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
		if m.dead&(1<<i) != 0 {
			continue
		}
		if matches(w.Stem) || slices.ContainsFunc(w.Parts, matches) || slices.ContainsFunc(w.abbreviations(), matches) {
			out |= 1 << i
		}
	}
	return out
}
