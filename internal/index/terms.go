package index

import (
	"slices"
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// maxFreq caps a term's count in one field; beyond it more repetitions
// carry no more meaning.
const maxFreq = 1000

// maxStems bounds a counter's memory: past it the memo starts afresh.
const maxStems = 1 << 15

// termCounter counts the stemmed terms of a chunk for one parse worker.
// It memoises tokenize.Stem (code repeats its words, and a build stemmed
// every occurrence anew) and gives each stem a number, so that counting
// an occurrence is one map lookup and an array increment, and the chunk's
// map is filled once per distinct stem, at its final size. Not safe for
// concurrent use; the zero value is ready.
type termCounter struct {
	ids     map[string]int32 // term → the number of its stem
	numbers map[string]int32 // stem → its number
	stems   []string         // number → stem
	counts  [][store.NumFields]uint16
	touched []int32 // the numbers the current chunk counted, in order
}

// reset forgets every term: the memo starts afresh.
func (c *termCounter) reset() {
	c.ids = make(map[string]int32, 1024)
	c.numbers = make(map[string]int32, 1024)
	c.stems = c.stems[:0]
	c.counts = c.counts[:0]
}

// number returns the number of t's stem, tokenize.Stem(t).
func (c *termCounter) number(t string) int32 {
	if n, ok := c.ids[t]; ok {
		return n
	}
	// The term may be a slice of a file's text: the memo keeps a copy,
	// not the file.
	t = strings.Clone(t)
	st := tokenize.Stem(t)
	n, ok := c.numbers[st]
	if !ok {
		n = int32(len(c.stems))
		c.stems = append(c.stems, st)
		c.counts = append(c.counts, [store.NumFields]uint16{})
		c.numbers[st] = n
	}
	c.ids[t] = n
	return n
}

// stem is tokenize.Stem(t), from the memo.
func (c *termCounter) stem(t string) string { return c.stems[c.number(t)] }

// termStats counts the stemmed code-aware terms of each field of a chunk.
func (c *termCounter) termStats(fields [store.NumFields][]string) store.TermStats {
	if c.ids == nil || len(c.ids) >= maxStems {
		// Only between chunks: the numbers the chunk counts stay valid. A
		// chunk adds at most its own terms past the bound.
		c.reset()
	}
	var ts store.TermStats
	for f, terms := range fields {
		ts.Lens[f] = uint16(min(len(terms), 65535))
		for _, t := range terms {
			n := c.number(t)
			count := &c.counts[n]
			if *count == ([store.NumFields]uint16{}) {
				c.touched = append(c.touched, n)
			}
			if count[f] < maxFreq {
				count[f]++
			}
		}
	}
	// In term order, as the writer stores them (store.TermStats.Sorted):
	// the numbers are sorted by their stems, which are distinct.
	slices.SortFunc(c.touched, func(a, b int32) int { return strings.Compare(c.stems[a], c.stems[b]) })
	ts.Sorted = make([]store.TermFreq, len(c.touched))
	for i, n := range c.touched {
		ts.Sorted[i] = store.TermFreq{Term: c.stems[n], Freqs: c.counts[n]}
		c.counts[n] = [store.NumFields]uint16{}
	}
	c.touched = c.touched[:0]
	return ts
}
