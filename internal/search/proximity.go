package search

import (
	"bytes"
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// Term proximity. The index keeps per-field term frequencies, not
// positions, so BM25F cannot tell a chunk where the query's words sit
// together (in one identifier, one comment line, one call) from one where
// they are scattered across unrelated statements. The few chunks that
// can still reach the page are read (their texts are read for the answer
// anyway, and the detail cache keeps them) and rated by how close the
// query's distinct words occur.

// proximityShape names the feature computed from a chunk's text.
const (
	proxWindowShape = 0 // the most distinct query words within proxWindow identifiers
	proxLineShape   = 1 // the most distinct query words on one line
	proxPairShape   = 2 // the share of adjacent query words found within proxWindow identifiers of each other
	proxMinDist     = 3 // over the pairs of query words the text holds, the mean of W/(W+d), d their least distance in identifiers
	proxSpan        = 4 // the words the text holds over the identifiers of the shortest span holding them all, scaled by W
	proxIDFWindow   = 5 // proxWindowShape with each word weighed by its idf
	proxAnyPair     = 7 // proxPairShape over every pair of query words, not only adjacent ones (capped at 1)
	proxScatter     = 6 // a penalty: the share of the words the text holds that its best window lacks (from -1 to 0)
)

// wordIDFs is each query word's idf over n chunks, from the posting list
// of its whole stem.
func wordIDFs(q Query, terms []queryTerm, hits [][]store.PostingAt, n int) []float64 {
	out := make([]float64, len(q.Words))
	for ti, t := range terms {
		if t.term == q.Words[t.word].Stem && !t.synonym && !t.abbrev {
			df := float64(len(hits[ti]))
			out[t.word] = math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		}
	}
	return out
}

// textSource reads the texts of some ranked chunks (Engine.details).
type textSource func(ranked []scored) (map[int64]store.ChunkDetail, error)

// proxMatch is one identifier of a chunk's text that holds query words.
type proxMatch struct {
	pos  int32  // the identifier's index in the text
	line int32  // its line
	bits uint16 // a bit per query word it holds
}

// proxMatcher finds the query's words among the identifiers of a text,
// by the terms and stems the index gives them.
type proxMatcher struct {
	words   []Word
	idf     []float64 // per word (Query.wordIDF), or nil
	prefix  [][]byte  // the first bytes every form of any word begins with (deduplicated)
	lower   []byte    // scratch: the identifier lower-cased
	terms   []string  // scratch: the identifier's terms
	matches []proxMatch
	seen    map[string]uint16 // identifier → wordBits of its terms: code repeats its identifiers
}

// newProxMatcher prepares the query's words for matching.
func newProxMatcher(q Query) *proxMatcher {
	m := &proxMatcher{words: q.Words[:min(len(q.Words), maxWords)], seen: map[string]uint16{}}
	if len(q.wordIDF) >= len(m.words) {
		m.idf = q.wordIDF[:len(m.words)]
	}
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

// wordBits is the set of query words term (an index term, lower-cased) is
// a form of: its stem is the word's, one of its parts' or one of its
// abbreviations'.
func (m *proxMatcher) wordBits(term string) uint16 {
	var out uint16
	stem := ""
	for i := range m.words {
		w := &m.words[i]
		forms := 1 + len(w.Parts) + len(w.abbreviations())
		for f := 0; f < forms; f++ {
			var want string
			switch {
			case f == 0:
				want = w.Stem
			case f <= len(w.Parts):
				want = w.Parts[f-1]
			default:
				want = w.abbreviations()[f-1-len(w.Parts)]
			}
			if !mayStemTo(term, want) {
				continue
			}
			if stem == "" {
				stem = tokenize.Stem(term)
			}
			if stem == want {
				out |= 1 << i
				break
			}
		}
	}
	return out
}

// scan records the identifiers of text that hold query words, with their
// index and line, in m.matches.
func (m *proxMatcher) scan(text string) {
	m.matches = m.matches[:0]
	var pos, line int32
	start := -1
	flush := func(end int) {
		id := strings.Trim(text[start:end], "_")
		start = -1
		if id == "" || len(id) > tokenize.MaxTermLen {
			return
		}
		pos++
		b, ok := m.seen[id]
		if !ok {
			b = m.identBits(id)
			m.seen[id] = b
		}
		if b != 0 {
			m.matches = append(m.matches, proxMatch{pos: pos, line: line, bits: b})
		}
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
		if c == '\n' {
			line++
		}
	}
	if start >= 0 {
		flush(len(text))
	}
}

// identBits is the set of query words the terms of identifier id hold.
func (m *proxMatcher) identBits(id string) uint16 {
	if !m.mayHold(id) {
		return 0
	}
	m.terms = tokenize.AppendTerms(m.terms[:0], id)
	var b uint16
	for _, t := range m.terms {
		b |= m.wordBits(t)
	}
	return b
}

// mayHold reports whether id, lower-cased, contains the first bytes of
// some form of a query word: most identifiers of a text do not, and need
// no splitting or stemming.
func (m *proxMatcher) mayHold(id string) bool {
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

// proximity rates text by how close the query's distinct words occur in
// it, from 0 (at most one word anywhere together) to 1 (every word of the
// query together), by weights.proxShape.
func (m *proxMatcher) proximity(text string) float64 {
	nw := len(m.words)
	if nw < 2 {
		return 0
	}
	m.scan(text)
	if len(m.matches) == 0 {
		return 0
	}
	window := int32(max(weights.proxWindow, 1))
	switch int(weights.proxShape) {
	case proxLineShape:
		return float64(max(bestLine(m.matches)-1, 0)) / float64(nw-1)
	case proxPairShape:
		return adjacentPairs(m.matches, nw, window)
	case proxMinDist:
		return meanPairCloseness(m.matches, nw, float64(window))
	case proxSpan:
		return spanDensity(m.matches, float64(window))
	case proxAnyPair:
		found := 0
		var pairs [maxWords]uint16 // per word: the words found with it within the window
		for a := range m.matches {
			for b := a; b < len(m.matches) && m.matches[b].pos-m.matches[a].pos < window; b++ {
				u := m.matches[a].bits | m.matches[b].bits
				for x := u; x != 0; x &= x - 1 {
					i := bits.TrailingZeros16(x)
					pairs[i] |= u &^ (1 << i)
				}
			}
		}
		for i := range pairs {
			found += bits.OnesCount16(pairs[i] & ^uint16(0) << (i + 1))
		}
		return min(1, float64(found)/float64(nw-1))
	case proxScatter:
		var all uint16
		for _, x := range m.matches {
			all |= x.bits
		}
		k := bits.OnesCount16(all)
		if k < 2 {
			return 0
		}
		return float64(bestWindow(m.matches, window))/float64(k) - 1
	case proxIDFWindow:
		if m.idf == nil {
			return 0
		}
		return bestIDFWindow(m.matches, window, m.idf)
	default:
		return float64(max(bestWindow(m.matches, window)-1, 0)) / float64(nw-1)
	}
}

// bestWindow is the most distinct query words among the matches within
// window identifiers of each other (matches in text order).
func bestWindow(ms []proxMatch, window int32) int {
	var count [maxWords]int
	var present uint16
	best, lo := 0, 0
	for hi := range ms {
		for b := ms[hi].bits; b != 0; b &= b - 1 {
			i := bits.TrailingZeros16(b)
			count[i]++
			present |= 1 << i
		}
		for ms[hi].pos-ms[lo].pos >= window {
			for b := ms[lo].bits; b != 0; b &= b - 1 {
				i := bits.TrailingZeros16(b)
				if count[i]--; count[i] == 0 {
					present &^= 1 << i
				}
			}
			lo++
		}
		best = max(best, bits.OnesCount16(present))
	}
	return best
}

// bestLine is the most distinct query words on one line.
func bestLine(ms []proxMatch) int {
	best := 0
	for i := 0; i < len(ms); {
		var b uint16
		j := i
		for ; j < len(ms) && ms[j].line == ms[i].line; j++ {
			b |= ms[j].bits
		}
		best = max(best, bits.OnesCount16(b))
		i = j
	}
	return best
}

// adjacentPairs is the share of the query's adjacent word pairs (i, i+1)
// whose words occur within window identifiers of each other.
func adjacentPairs(ms []proxMatch, nw int, window int32) float64 {
	found := 0
	for i := 0; i+1 < nw; i++ {
		a, b := uint16(1)<<i, uint16(1)<<(i+1)
		lastA, lastB := int32(-1<<30), int32(-1<<30)
		for _, x := range ms {
			if x.bits&a != 0 {
				lastA = x.pos
			}
			if x.bits&b != 0 {
				lastB = x.pos
			}
			if x.bits&(a|b) != 0 && max(lastA-lastB, lastB-lastA) < window {
				found++
				break
			}
		}
	}
	return float64(found) / float64(nw-1)
}

// addProximity reads the texts of the best weights.proxDepth chunks of
// out (by score so far, ties by chunk id) and adds their proximity:
// to the score at weights.proxRank (times the chunk's file multiplier,
// mults), to the within-file prior at weights.proxPick.
func (sc *rankScratch) addProximity(q Query, out []scored, mults []float64, texts textSource) error {
	n := min(int(weights.proxDepth), len(out))
	if n <= 0 {
		return nil
	}
	idx := sc.proxIdx[:0]
	for i := range out {
		idx = append(idx, int32(i))
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if out[a].score != out[b].score {
			return cmp.Compare(out[b].score, out[a].score)
		}
		return cmp.Compare(out[a].row.ID, out[b].row.ID)
	})
	if weights.proxSiblings {
		// The other candidate chunks of the files read, so that each
		// file's chunks are compared on the same evidence.
		slots := map[int32]bool{}
		for _, i := range idx[:n] {
			slots[out[i].slot] = true
		}
		k := n
		for _, i := range idx[n:] {
			if slots[out[i].slot] {
				idx[k] = i
				k++
			}
		}
		n = k
	}
	idx = idx[:n]
	sub := sc.proxSub[:0]
	for _, i := range idx {
		sub = append(sub, out[i])
	}
	sc.proxIdx, sc.proxSub = idx[:0], sub[:0]
	details, err := texts(sub)
	if err != nil {
		return err
	}
	m := newProxMatcher(q)
	for _, i := range idx {
		text := details[out[i].row.ID].Content
		if weights.proxSymbolsOnly {
			text = out[i].row.Symbols
		}
		p := m.proximity(text)
		if p == 0 {
			continue
		}
		// (proxScatter is negative: the weights stay positive.)
		out[i].score += mults[i] * weights.proxRank * p
		out[i].prior += weights.proxPick * p
	}
	return nil
}

// meanPairCloseness is, over the pairs of query words that both occur,
// the mean of w/(w+d) where d is the least distance between them in
// identifiers (0 when they share one): 1 when every pair sits together,
// falling as they scatter, whatever the number of words held.
func meanPairCloseness(ms []proxMatch, nw int, w float64) float64 {
	var last [maxWords]int32
	var least [maxWords][maxWords]int32
	var seen uint16
	for i := range least {
		for j := range least[i] {
			least[i][j] = 1 << 30
		}
	}
	for _, x := range ms {
		for b := x.bits; b != 0; b &= b - 1 {
			i := bits.TrailingZeros16(b)
			last[i] = x.pos
			seen |= 1 << i
		}
		for b := x.bits; b != 0; b &= b - 1 {
			i := bits.TrailingZeros16(b)
			for o := seen; o != 0; o &= o - 1 {
				j := bits.TrailingZeros16(o)
				if j != i {
					least[i][j] = min(least[i][j], x.pos-last[j])
				}
			}
		}
	}
	sum, pairs := 0.0, 0
	for i := 0; i < nw; i++ {
		for j := i + 1; j < nw; j++ {
			if seen&(1<<i) == 0 || seen&(1<<j) == 0 {
				continue
			}
			d := min(least[i][j], least[j][i])
			sum += w / (w + float64(d))
			pairs++
		}
	}
	if pairs == 0 {
		return 0
	}
	return sum / float64(pairs)
}

// spanDensity rates the shortest run of identifiers holding every query
// word the text holds: w/(w+span) when it holds two or more.
func spanDensity(ms []proxMatch, w float64) float64 {
	var all uint16
	for _, x := range ms {
		all |= x.bits
	}
	k := bits.OnesCount16(all)
	if k < 2 {
		return 0
	}
	var count [maxWords]int
	var present uint16
	best, lo := int32(1<<30), 0
	for hi := range ms {
		for b := ms[hi].bits; b != 0; b &= b - 1 {
			i := bits.TrailingZeros16(b)
			count[i]++
			present |= 1 << i
		}
		for present == all {
			best = min(best, ms[hi].pos-ms[lo].pos)
			for b := ms[lo].bits; b != 0; b &= b - 1 {
				i := bits.TrailingZeros16(b)
				if count[i]--; count[i] == 0 {
					present &^= 1 << i
				}
			}
			lo++
		}
	}
	return w / (w + float64(best))
}

// bestIDFWindow is bestWindow with each word weighed by its idf: over the
// windows of window identifiers, the most weight of distinct words beyond
// the heaviest one among them, over the same for the whole query (a
// window holding one word is worth 0, one holding them all 1).
func bestIDFWindow(ms []proxMatch, window int32, idf []float64) float64 {
	sumAll, maxAll := 0.0, 0.0
	for _, v := range idf {
		sumAll += v
		maxAll = max(maxAll, v)
	}
	if sumAll-maxAll <= 0 {
		return 0
	}
	var count [maxWords]int
	var present, last uint16
	best, lo := 0.0, 0
	for hi := range ms {
		for b := ms[hi].bits; b != 0; b &= b - 1 {
			i := bits.TrailingZeros16(b)
			count[i]++
			present |= 1 << i
		}
		for ms[hi].pos-ms[lo].pos >= window {
			for b := ms[lo].bits; b != 0; b &= b - 1 {
				i := bits.TrailingZeros16(b)
				if count[i]--; count[i] == 0 {
					present &^= 1 << i
				}
			}
			lo++
		}
		if present == last || bits.OnesCount16(present) < 2 {
			continue
		}
		last = present
		sum, top := 0.0, 0.0
		for b := present; b != 0; b &= b - 1 {
			v := idf[bits.TrailingZeros16(b)]
			sum += v
			top = max(top, v)
		}
		best = max(best, sum-top)
	}
	return best / (sumAll - maxAll)
}
