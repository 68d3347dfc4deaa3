package search

import "github.com/lore-dev/lore/internal/store"

// asksForTests reports whether the query asks for tests, examples or
// benchmarks, so that they are not demoted: it has a test word ("tests of
// the dialog component", "benchmark of …") and that word is not the
// project's own subject. In a test framework or a task runner (bats,
// mocha) the implementation itself speaks of tests on every page, and
// "how tests run in parallel" asks how the framework does it; a test word
// found in more than weights.testDomainShare of the implementation chunks
// (those not demoted as tests) names the domain, not the kind of file.
// hits are the posting lists of terms.
func asksForTests(q Query, terms []queryTerm, hits [][]store.PostingAt, snap *snapshot) bool {
	if !queryMentionsTests(q) {
		return false
	}
	for ti, t := range terms {
		w := q.Words[t.word]
		if t.term != w.Stem || !testWords[w.Stem] {
			continue
		}
		inImpl := 0
		for _, h := range hits[ti] {
			if !snap.facts[snap.chunkFile[h.Pos]].demoted() {
				inImpl++
			}
		}
		impl := snap.implChunks[0]
		if weights.testConventions {
			impl = snap.implChunks[1]
		}
		if float64(inImpl) <= weights.testDomainShare*float64(max(impl, 1)) {
			return true
		}
	}
	return false
}

// queryMentionsTests reports whether the query has a word with which one
// asks for tests, examples or benchmarks.
func queryMentionsTests(q Query) bool { return q.mentions(testWords) }
