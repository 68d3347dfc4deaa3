package semantic

import (
	"sort"
	"testing"

	"github.com/lore-dev/lore/internal/embed"
)

// corpus builds posting lists from chunks given as term lists.
func corpus(chunks [][]string) (int, func(func(string, []Posting))) {
	lists := map[string][]Posting{}
	for i, c := range chunks {
		freq := map[string]float32{}
		for _, t := range c {
			freq[t]++
		}
		for t, f := range freq {
			lists[t] = append(lists[t], Posting{Chunk: i, Freq: f})
		}
	}
	return len(chunks), func(emit func(string, []Posting)) {
		terms := make([]string, 0, len(lists))
		for t := range lists {
			terms = append(terms, t)
		}
		sort.Strings(terms)
		for _, t := range terms {
			emit(t, lists[t])
		}
	}
}

func TestCooccurringTermsAreClose(t *testing.T) {
	var chunks [][]string
	// Two topics that share no words; within a topic words co-occur in
	// varying combinations, and "throttle" and "ratelimit" never meet.
	for i := 0; i < 20; i++ {
		chunks = append(chunks,
			[]string{"throttle", "concurrency", "limit", "token"},
			[]string{"ratelimit", "concurrency", "limit", "bucket"},
			[]string{"gzip", "compress", "writer", "deflate"},
			[]string{"compress", "encoding", "writer", "brotli"},
			[]string{"filler", "alpha"}, []string{"filler", "beta"}, []string{"filler", "gamma"},
			[]string{"other", "delta"}, []string{"other", "epsilon"}, []string{"other", "zeta"},
		)
	}
	n, post := corpus(chunks)
	m := Fit(n, post)
	near := embed.Dot(m.Vector("throttle"), m.Vector("ratelimit"))
	far := embed.Dot(m.Vector("throttle"), m.Vector("gzip"))
	if !(near > far+0.2) {
		t.Errorf("throttle·ratelimit = %.3f, throttle·gzip = %.3f: co-occurring topics should be closer", near, far)
	}
	q := m.Embed(map[string]float32{"throttle": 1})
	a := m.Embed(map[string]float32{"ratelimit": 1, "bucket": 1})
	b := m.Embed(map[string]float32{"gzip": 1, "deflate": 1})
	if embed.Dot(q, a) <= embed.Dot(q, b) {
		t.Errorf("a throttle query is not closer to the rate-limit chunk")
	}
	if m.Embed(map[string]float32{"unknown": 1}) != nil {
		t.Errorf("a vector for a term outside the vocabulary")
	}
}

func TestFitIsDeterministic(t *testing.T) {
	chunks := [][]string{{"a1", "b1", "c1"}, {"a1", "b1"}, {"b1", "c1"}, {"c1", "d1"}, {"d1", "a1"}, {"e1"}, {"f1"}, {"g1"}, {"h1"}, {"i1"}, {"j1"}, {"k1"}}
	n, post := corpus(chunks)
	m1, m2 := Fit(n, post), Fit(n, post)
	for _, term := range m1.Terms() {
		v1, v2 := m1.Vector(term), m2.Vector(term)
		for d := range v1 {
			if v1[d] != v2[d] {
				t.Fatalf("term %s differs between fits", term)
			}
		}
	}
}
