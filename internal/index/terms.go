package index

import (
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// maxFreq caps a term's count in one field; beyond it more repetitions
// carry no more meaning.
const maxFreq = 1000

// termStats counts the stemmed code-aware terms of each field of a chunk.
func termStats(fields [store.NumFields][]string) store.TermStats {
	ts := store.TermStats{Freqs: map[string][store.NumFields]uint16{}}
	for f, terms := range fields {
		n := len(terms)
		if n > 65535 {
			n = 65535
		}
		ts.Lens[f] = uint16(n)
		for _, t := range terms {
			st := tokenize.Stem(t)
			c := ts.Freqs[st]
			if c[f] < maxFreq {
				c[f]++
			}
			ts.Freqs[st] = c
		}
	}
	return ts
}
