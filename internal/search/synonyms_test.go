package search

import (
	"slices"
	"testing"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// synonymTerms are the synonym terms lookupTerms reads, as "word: term"
// with the word as typed, in order.
func synonymTerms(q Query) []string {
	var out []string
	for _, t := range q.lookupTerms() {
		if t.synonym {
			out = append(out, q.Words[t.word].Text+": "+t.term)
		}
	}
	return out
}

func stems(word string, others ...string) []string {
	out := make([]string, len(others))
	for i, o := range others {
		out[i] = word + ": " + tokenize.Stem(o)
	}
	return out
}

func TestSynonymTerms(t *testing.T) {
	cases := []struct {
		name  string
		query string
		want  []string
	}{
		{"a prose word reads its synonyms", "remove stale entries",
			append(stems("remove", "delete", "erase", "evict", "drop"), stems("entries", "item", "element", "member")...)},
		{"a word without synonyms reads none", "stale widgets", nil},
		{"a symbol query names code and reads none", "removeEntry", nil},
		{"a single capitalised word is a symbol query", "Remove", nil},
		// delete is the second word's own term: it stays that word's, at
		// full weight, and is not read again as a synonym of remove; the
		// synonyms the two share are read once, for the first.
		{"another query word's own term is not taken", "remove or delete", stems("remove", "erase", "evict", "drop")},
		{"abbreviations are not read twice", "error codes", stems("error", "failure", "exception", "fault")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := synonymTerms(Analyze(c.query))
			if !slices.Equal(got, c.want) {
				t.Errorf("synonyms of %q = %v, want %v", c.query, got, c.want)
			}
		})
	}
}

func TestSynonymTermsComeLast(t *testing.T) {
	q := Analyze("remove or delete")
	terms := q.lookupTerms()
	last := -1
	for i, qt := range terms {
		if !qt.synonym {
			if last >= 0 {
				t.Fatalf("term %q (word %d) after the synonym %q", qt.term, qt.word, terms[last].term)
			}
			continue
		}
		last = i
		if qt.weight != weights.synonym {
			t.Errorf("synonym %q weighs %v, want %v", qt.term, qt.weight, weights.synonym)
		}
	}
	for _, qt := range terms {
		if qt.term == q.Words[1].Stem && (qt.synonym || qt.word != 1 || qt.weight != 1) {
			t.Errorf("delete should be the second word's own term at full weight: %+v", qt)
		}
	}
}

func TestSynonymsOff(t *testing.T) {
	old := weights
	defer func() { weights = old }()
	weights.synonymShares, weights.synonym = false, 0
	if got := synonymTerms(Analyze("remove stale entries")); got != nil {
		t.Errorf("with synonyms off, read %v", got)
	}
	weights.synonym = 0.1 // a BM25 weight alone reads them too
	if got := synonymTerms(Analyze("remove stale entries")); got == nil {
		t.Error("with a synonym weight, read none")
	}
}

// A synonym's hits count toward its word's name and symbol shares, never
// toward its coverage, and add to BM25 only at weights.synonym.
func TestSynonymHits(t *testing.T) {
	old := weights
	defer func() { weights = old }()
	body := [store.NumFields]uint16{store.FieldBody: 1, store.FieldName: 1, store.FieldSymbols: 1}
	lens := &store.DocLens{IDs: []int64{1, 2}, Lens: [][store.NumFields]uint16{body, body}}
	for f := range lens.Avg {
		lens.Avg[f] = 1
	}
	snap := &snapshot{files: []store.FileRow{{ID: 1, Path: "delete.go"}}, lens: lens, chunkFile: []int32{0, 0}, live: 2,
		meta: make([]store.ChunkMeta, 2)}
	cases := []struct {
		name       string
		shares     bool
		weight     float64
		wantShares bool
		wantBM25   bool
	}{
		{"shares only (the default)", true, 0, true, false},
		{"shares and BM25", true, 0.1, true, true},
		{"BM25 only", false, 0.1, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			weights.synonymShares, weights.synonym = c.shares, c.weight
			q := Analyze("remove files")
			terms := q.lookupTerms()
			hits := make([][]store.PostingAt, len(terms))
			for i, qt := range terms {
				if qt.term == tokenize.Stem("delete") {
					hits[i] = []store.PostingAt{{Pos: 0, Freqs: body}} // delete.go's delete()
				}
			}
			cands := scoreLexical(&candidates{}, q, terms, hits, snap, nil)
			if len(cands) != 1 {
				t.Fatalf("%d candidates, want 1", len(cands))
			}
			c0 := cands[0]
			if got := c0.nameHit&1 != 0 && c0.symbolHit&1 != 0; got != c.wantShares {
				t.Errorf("name and symbol hits of remove: %v, want %v", got, c.wantShares)
			}
			if wordCoverage(q, c0) != 0 {
				t.Errorf("a synonym counted toward coverage: %v", wordCoverage(q, c0))
			}
			if got := c0.bm25 > 0; got != c.wantBM25 {
				t.Errorf("BM25 %v, want it positive: %v", c0.bm25, c.wantBM25)
			}
		})
	}
}

func TestSynonymTable(t *testing.T) {
	if n := len(synonyms); n < 60 || n > 160 {
		t.Errorf("%d synonym groups; the table is meant to be small and general", n)
	}
	for s, list := range synonymExpansions {
		for _, o := range list {
			if o == s || contains(expansions[s], o) {
				t.Errorf("%s reads %s as a synonym, which is itself or its abbreviation", s, o)
			}
		}
	}
}
