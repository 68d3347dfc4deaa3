package search

import (
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

// TestAsksForTests: a test word asks for tests unless the implementation
// speaks of tests throughout (a test framework).
func TestAsksForTests(t *testing.T) {
	// Ten chunks: 0-5 in implementation files, 6-9 in test files.
	snap := &snapshot{
		facts:      []*fileFacts{{}, {lowValue: true}},
		chunkFile:  []int32{0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
		implChunks: [2]int{6, 6},
	}
	postings := func(pos ...int) []store.PostingAt {
		var out []store.PostingAt
		for _, p := range pos {
			out = append(out, store.PostingAt{Pos: int32(p)})
		}
		return out
	}
	cases := []struct {
		name  string
		query string
		test  []store.PostingAt // where the test word occurs
		want  bool
	}{
		{"tests are test files", "tests of the dialog", postings(6, 7, 8, 9), true},
		{"one mention in the code", "tests of the dialog", postings(0, 6, 7, 8, 9), true},
		{"the code is about tests", "how tests run in parallel", postings(0, 1, 2, 3, 6, 7), false},
		{"no test word", "dialog focus trap", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := Analyze(c.query)
			terms := q.lookupTerms()
			hits := make([][]store.PostingAt, len(terms))
			for i, term := range terms {
				if testWords[term.term] {
					hits[i] = c.test
				}
			}
			if got := asksForTests(q, terms, hits, snap); got != c.want {
				t.Errorf("asksForTests(%q) = %v, want %v", c.query, got, c.want)
			}
		})
	}
}

func TestStubWordsDoNotAskForTests(t *testing.T) {
	for _, q := range []string{"vi.fn mock function implementation tracking calls", "fake clock", "stubs for the network"} {
		if queryMentionsTests(Analyze(q)) {
			t.Errorf("%q asks for tests", q)
		}
		if !Analyze(q).mentions(stubWords) {
			t.Errorf("%q does not ask for stand-ins", q)
		}
	}
}
