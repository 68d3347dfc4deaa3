package index

import (
	"fmt"
	"testing"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// TestStemmerMatchesStem: the memo answers what tokenize.Stem answers,
// for repeated words and across the resets past maxStems.
func TestStemmerMatchesStem(t *testing.T) {
	words := []string{"handlers", "handling", "handle", "recovered", "serializations", "stopped", "cities", "it's", "HTTP", "x", ""}
	var s stemmer
	for round := range 3 {
		for i := range maxStems + 100 {
			w := words[i%len(words)]
			if i%7 == 0 {
				w = fmt.Sprintf("%sing%d", w, i) // mostly new words: the memo fills and starts afresh
			}
			if got, want := s.stem(w), tokenize.Stem(w); got != want {
				t.Fatalf("round %d: stem(%q) = %q, want %q", round, w, got, want)
			}
		}
		if len(s.memo) > maxStems {
			t.Fatalf("the memo holds %d stems, more than %d", len(s.memo), maxStems)
		}
	}
}

// TestTermStatsCounts checks the counts and lengths of each field, and the
// cap on a term's count.
func TestTermStatsCounts(t *testing.T) {
	var fields [store.NumFields][]string
	fields[store.FieldSymbols] = []string{"handlers"}
	fields[store.FieldBody] = []string{"handler", "handlers", "handling", "token"}
	for range maxFreq + 5 {
		fields[store.FieldDoc] = append(fields[store.FieldDoc], "tokens")
	}
	ts := termStats(fields, &stemmer{})
	h, tok := tokenize.Stem("handlers"), tokenize.Stem("tokens")
	if got := ts.Freqs[h]; got[store.FieldSymbols] != 1 || got[store.FieldBody] != 3 {
		t.Errorf("%q counts %v", h, got)
	}
	if got := ts.Freqs[tok]; got[store.FieldDoc] != maxFreq || got[store.FieldBody] != 1 {
		t.Errorf("%q counts %v", tok, got)
	}
	if ts.Lens[store.FieldBody] != 4 || ts.Lens[store.FieldDoc] != maxFreq+5 || ts.Lens[store.FieldName] != 0 {
		t.Errorf("lengths %v", ts.Lens)
	}
}
