package index

import (
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// maxFreq caps a term's count in one field; beyond it more repetitions
// carry no more meaning.
const maxFreq = 1000

// maxStems bounds a stemmer's memory: past it the memo starts afresh.
const maxStems = 1 << 15

// stemmer memoises tokenize.Stem for one parse worker: code repeats its
// words, and a build stemmed every occurrence of every word anew. Not safe
// for concurrent use; the zero value is ready.
type stemmer struct{ memo map[string]string }

// stem is tokenize.Stem(t).
func (s *stemmer) stem(t string) string {
	if st, ok := s.memo[t]; ok {
		return st
	}
	if s.memo == nil || len(s.memo) >= maxStems {
		s.memo = make(map[string]string, 1024)
	}
	// The term may be a slice of a file's text: the memo keeps a copy,
	// not the file.
	t = strings.Clone(t)
	st := tokenize.Stem(t)
	s.memo[t] = st
	return st
}

// termStats counts the stemmed code-aware terms of each field of a chunk.
func termStats(fields [store.NumFields][]string, s *stemmer) store.TermStats {
	total := 0
	for _, terms := range fields {
		total += len(terms)
	}
	// Sized for the distinct terms a chunk of code has (about one in three
	// of its terms, more in a short one), so the map seldom grows.
	ts := store.TermStats{Freqs: make(map[string][store.NumFields]uint16, total/2+8)}
	for f, terms := range fields {
		n := len(terms)
		if n > 65535 {
			n = 65535
		}
		ts.Lens[f] = uint16(n)
		for _, t := range terms {
			st := s.stem(t)
			c := ts.Freqs[st]
			if c[f] < maxFreq {
				c[f]++
			}
			ts.Freqs[st] = c
		}
	}
	return ts
}
