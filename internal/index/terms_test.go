package index

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/chunk"
	"github.com/lore-dev/lore/internal/lang"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// TestCounterStemsMatchStem: the memo answers what tokenize.Stem answers,
// for repeated words and across the resets past maxStems.
func TestCounterStemsMatchStem(t *testing.T) {
	words := []string{"handlers", "handling", "handle", "recovered", "serializations", "stopped", "cities", "it's", "HTTP", "x", ""}
	var c termCounter
	for round := range 3 {
		var fields [store.NumFields][]string
		for i := range maxStems + 100 {
			w := words[i%len(words)]
			if i%7 == 0 {
				w = fmt.Sprintf("%sing%d", w, i) // mostly new words: the memo fills and starts afresh
			}
			if c.ids == nil {
				c.reset()
			}
			if got, want := c.stem(w), tokenize.Stem(w); got != want {
				t.Fatalf("round %d: stem(%q) = %q, want %q", round, w, got, want)
			}
			if i%1000 == 0 {
				// A chunk between words: where the memo may start afresh.
				fields[store.FieldBody] = []string{w}
				if got := c.termStats(fields).Sorted; len(got) != 1 || got[0].Term != tokenize.Stem(w) || got[0].Freqs[store.FieldBody] != 1 {
					t.Fatalf("round %d: a chunk of %q counts %v", round, w, got)
				}
				if len(c.ids) > maxStems+1 {
					t.Fatalf("the memo holds %d stems, more than %d", len(c.ids), maxStems)
				}
			}
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
	ts := (&termCounter{}).termStats(fields)
	counts := map[string][store.NumFields]uint16{}
	for _, t := range ts.Sorted {
		counts[t.Term] = t.Freqs
	}
	h, tok := tokenize.Stem("handlers"), tokenize.Stem("tokens")
	if got := counts[h]; got[store.FieldSymbols] != 1 || got[store.FieldBody] != 3 {
		t.Errorf("%q counts %v", h, got)
	}
	if got := counts[tok]; got[store.FieldDoc] != maxFreq || got[store.FieldBody] != 1 {
		t.Errorf("%q counts %v", tok, got)
	}
	if ts.Lens[store.FieldBody] != 4 || ts.Lens[store.FieldDoc] != maxFreq+5 || ts.Lens[store.FieldName] != 0 {
		t.Errorf("lengths %v", ts.Lens)
	}
}

// referenceTermStats is termStats as first written: each occurrence
// stemmed and counted straight into the chunk's map.
func referenceTermStats(fields [store.NumFields][]string) store.TermStats {
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

// TestTermStatsAsFirstWritten: one counter, kept from chunk to chunk as a
// worker keeps it and crossing its memo's bound, counts every chunk as
// the first termStats did, stems that several terms share included, and
// lists them in term order.
func TestTermStatsAsFirstWritten(t *testing.T) {
	var c termCounter
	words := []string{"handler", "handlers", "handling", "handle", "Token", "tokens", "x", "it's", "HTTP2"}
	for chunk := range 400 {
		var fields [store.NumFields][]string
		for f := range fields {
			for i := range (chunk*7 + f*13) % 97 {
				w := words[(chunk+i*f)%len(words)]
				if (i+chunk)%3 == 0 {
					w = fmt.Sprintf("%s%d", w, chunk*100+i) // new terms: the memo passes its bound
				}
				fields[f] = append(fields[f], w)
			}
		}
		if chunk == 17 {
			for range maxFreq + 3 {
				fields[store.FieldBody] = append(fields[store.FieldBody], "handled")
			}
		}
		got, want := c.termStats(fields), referenceTermStats(fields)
		if !reflect.DeepEqual(got.Sorted, want.InOrder()) || got.Lens != want.Lens {
			t.Fatalf("chunk %d: counts %v %v, want %v %v", chunk, got.Sorted, got.Lens, want.InOrder(), want.Lens)
		}
	}
}

// chunkFields returns the term fields of every chunk of the chunker's
// fixtures, for the counting benchmarks.
func chunkFields(b *testing.B) [][store.NumFields][]string {
	dir := filepath.Join("..", "chunk", "testdata")
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var out [][store.NumFields][]string
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || e.IsDir() {
			continue
		}
		for _, c := range chunk.Split(e.Name(), lang.Detect(e.Name(), src), src) {
			var f [store.NumFields][]string
			f[store.FieldSymbols] = tokenize.Terms(strings.Join(c.Symbols, " "))
			f[store.FieldSignature] = tokenize.Terms(c.Signature)
			f[store.FieldDoc] = tokenize.Terms(c.DocComment)
			f[store.FieldBody] = tokenize.Terms(c.Content)
			out = append(out, f)
		}
	}
	return out
}

func BenchmarkTermStatsReference(b *testing.B) {
	chunks := chunkFields(b)
	for b.Loop() {
		for _, f := range chunks {
			referenceTermStats(f)
		}
	}
}

func BenchmarkTermStats(b *testing.B) {
	chunks := chunkFields(b)
	var c termCounter
	for b.Loop() {
		for _, f := range chunks {
			c.termStats(f)
		}
	}
}
