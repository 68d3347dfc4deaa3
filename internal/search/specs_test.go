package search

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
	"github.com/lore-dev/lore/internal/specs"
)

// testSpecs is a small set of specs: one word in a requirement's name,
// description or scenario, stemming variants, a spec-kit list.
func testSpecs() []specs.Spec {
	req := func(name, desc string, then ...string) specs.Requirement {
		r := specs.Requirement{Name: name, Description: desc, Scenarios: []specs.Scenario{}}
		if len(then) > 0 {
			r.Scenarios = append(r.Scenarios, specs.Scenario{Name: "s", Given: []string{"a client"}, When: []string{"a request arrives"}, Then: then})
		}
		return r
	}
	return []specs.Spec{
		{ID: "b-limits", Kind: specs.KindOpenSpec, Requirements: []specs.Requirement{
			req("Request Throttling", "Clients get an error when they send too much.", "a 429 status is returned"),
			req("Audit Log", "Every change is written to the audit log.", "the entry has a timestamp"),
		}},
		{ID: "a-misc", Kind: specs.KindOpenSpec, Requirements: []specs.Requirement{
			req("Scenario Mention", "Requests are answered in order.", "the throttling counter is updated"),
			req("Description Mention", "Clients are subject to throttling per address.", "the request is served"),
			req("Searching Bookmarks", "Users search their bookmarks by title.\n\nResults are searched in order.", "matching bookmarks are listed"),
			req("Account Lockout", "After five failed logins the account is locked.", "the account is locked for thirty minutes", "an email is sent"),
		}},
	}
}

func hitIDs(hits []specs.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.SpecID+"/"+h.Requirement)
	}
	return out
}

func TestSpecIndexSearch(t *testing.T) {
	x := NewSpecIndex(testSpecs())
	if x.Len() != 6 {
		t.Fatalf("Len = %d, want 6", x.Len())
	}
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"name above description above scenario", "throttling",
			[]string{"b-limits/Request Throttling", "a-misc/Description Mention", "a-misc/Scenario Mention"}},
		{"stems meet", "throttled", []string{"b-limits/Request Throttling", "a-misc/Description Mention", "a-misc/Scenario Mention"}},
		{"searching finds search", "searching", []string{"a-misc/Searching Bookmarks"}},
		{"searches too", "SEARCHES", []string{"a-misc/Searching Bookmarks"}},
		{"words of several columns", "account locked email", []string{"a-misc/Account Lockout"}},
		{"half the terms are enough", "lockout banana", []string{"a-misc/Account Lockout"}},
		{"fewer are not", "lockout banana cherry", []string{}},
		{"stop words do not count", "the lockout of the banana", []string{"a-misc/Account Lockout"}},
		{"only stop words find nothing", "the of and must", []string{}},
		{"unknown words find nothing", "quantum chromodynamics", []string{}},
		{"query syntax is text", `"lockout" AND (banana*`, []string{"a-misc/Account Lockout"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := x.Search(tc.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			if hits == nil {
				t.Fatal("nil hits; want an empty slice")
			}
			if got := hitIDs(hits); !slices.Equal(got, tc.want) {
				t.Errorf("Search(%q) = %v, want %v", tc.query, got, tc.want)
			}
			for i, h := range hits {
				if h.Score <= 0 || h.Score > 1 || i > 0 && h.Score > hits[i-1].Score {
					t.Errorf("scores not descending in (0, 1]: %+v", hits)
				}
				if h.Snippet == "" {
					t.Errorf("hit without a snippet: %+v", h)
				}
			}
		})
	}
}

func TestSpecIndexScores(t *testing.T) {
	x := NewSpecIndex(testSpecs())
	hits, err := x.Search("throttling", 0)
	if err != nil {
		t.Fatal(err)
	}
	// Every term, best BM25: 1. Others: 0.5 + 0.5 × their share of the best.
	if hits[0].Score != 1 || hits[1].Score >= 1 || hits[1].Score <= 0.5 || hits[2].Score >= hits[1].Score {
		t.Errorf("scores = %+v", hits)
	}
	// Half the terms: coverage 0.5 halves the score.
	hits, err = x.Search("lockout banana", 0)
	if err != nil || len(hits) != 1 || hits[0].Score != 0.5 {
		t.Errorf("Search(lockout banana) = %+v, %v; want one hit of score 0.5", hits, err)
	}
	for _, h := range hits {
		if h.Score != float64(int(h.Score*1e4+0.5))/1e4 {
			t.Errorf("score %v is not rounded to 4 decimals", h.Score)
		}
	}
}

func TestSpecIndexSnippets(t *testing.T) {
	x := NewSpecIndex(testSpecs())
	for _, tc := range []struct{ query, want string }{
		// The lines with the most terms, in document order.
		{"account locked", "Account Lockout … After five failed logins the account is locked. … THEN the account is locked for thirty minutes"},
		{"email", "THEN an email is sent"},
		// Stop words are not terms.
		{"the timestamp", "THEN the entry has a timestamp"},
	} {
		hits, err := x.Search(tc.query, 1)
		if err != nil || len(hits) != 1 {
			t.Fatalf("Search(%q) = %+v, %v", tc.query, hits, err)
		}
		if hits[0].Snippet != tc.want {
			t.Errorf("Search(%q) snippet = %q, want %q", tc.query, hits[0].Snippet, tc.want)
		}
	}
	long := strings.Repeat("filler words here ", 20) + "the throttling limit applies " + strings.Repeat("more filler ", 20)
	x = NewSpecIndex([]specs.Spec{{ID: "s", Requirements: []specs.Requirement{{Name: "Limit", Description: long}}}})
	hits, err := x.Search("throttling", 1)
	if err != nil || len(hits) != 1 {
		t.Fatalf("Search(throttling) = %+v, %v", hits, err)
	}
	if s := hits[0].Snippet; utf8.RuneCountInString(s) > specs.SnippetLength || !strings.Contains(s, "throttling limit") || !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") {
		t.Errorf("long line snippet = %q", s)
	}
}

func TestSpecIndexOrderAndLimit(t *testing.T) {
	var a, b []specs.Requirement
	for i := 0; i < 8; i++ {
		a = append(a, specs.Requirement{Name: fmt.Sprintf("Widget %02d", i), Description: "A widget."})
		b = append(b, specs.Requirement{Name: fmt.Sprintf("Widget %02d", i), Description: "A widget."})
	}
	// Spec "b" first: equal scores still order by spec ID, then requirement order.
	x := NewSpecIndex([]specs.Spec{{ID: "b", Requirements: b}, {ID: "a", Requirements: a}})
	for _, tc := range []struct{ limit, want int }{{0, specs.DefaultSearchLimit}, {-2, specs.DefaultSearchLimit}, {1, 1}, {12, 12}, {100, 16}} {
		hits, err := x.Search("widget", tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != tc.want {
			t.Errorf("limit %d: %d hits, want %d", tc.limit, len(hits), tc.want)
		}
		for i, h := range hits {
			spec, n := "a", i
			if i >= 8 {
				spec, n = "b", i-8
			}
			if want := fmt.Sprintf("%s/Widget %02d", spec, n); h.SpecID+"/"+h.Requirement != want || h.Score != 1 {
				t.Errorf("limit %d: hit %d = %+v, want %s with score 1", tc.limit, i, h, want)
				break
			}
		}
	}
}

func TestSpecIndexDeterministic(t *testing.T) {
	list := testSpecs()
	want, err := NewSpecIndex(list).Search("request clients log", 0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 10; i++ {
		shuffled := slices.Clone(list)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := NewSpecIndex(shuffled).Search("request clients log", 0)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("hits changed with the input order: %+v vs %+v (%v)", got, want, err)
		}
	}
}

func TestSpecIndexQueryErrors(t *testing.T) {
	x := NewSpecIndex(testSpecs())
	for _, tc := range []struct{ query, code string }{
		{"", "QUERY_EMPTY"},
		{"  \t\n", "QUERY_EMPTY"},
		{strings.Repeat("x", querylimit.MaxBytes+1), querylimit.Code},
		{manyWords(querylimit.MaxTerms + 1), querylimit.Code},
	} {
		hits, err := x.Search(tc.query, 10)
		e, ok := errs.As(err)
		if !ok || e.Code != tc.code || hits != nil {
			t.Errorf("Search(%.20q…) = %v, %v; want %s", tc.query, hits, err, tc.code)
		}
		if want := specs.CheckQuery(tc.query); fmt.Sprint(err) != fmt.Sprint(want) {
			t.Errorf("Search(%.20q…) error %v differs from CheckQuery's %v", tc.query, err, want)
		}
	}
	// Stop words are not terms: 300 of them are within the limit.
	if _, err := x.Search(strings.Repeat("the ", 300), 10); err != nil {
		t.Errorf("300 stop words: %v", err)
	}
}

func TestSpecIndexFirstTermsOnly(t *testing.T) {
	x := NewSpecIndex(testSpecs())
	// Only the first 32 terms are searched: a word after them is not.
	query := manyWords(specs.MaxQueryTerms) + " lockout"
	hits, err := x.Search(query, 0)
	if err != nil || len(hits) != 0 {
		t.Errorf("the 33rd term was searched: %+v, %v", hits, err)
	}
	hits, err = x.Search("lockout "+manyWords(1), 0)
	if err != nil || len(hits) != 1 {
		t.Errorf("Search(lockout w0) = %+v, %v", hits, err)
	}
}

func TestSpecIndexEmpty(t *testing.T) {
	for _, x := range []*SpecIndex{NewSpecIndex(nil), NewSpecIndex([]specs.Spec{{ID: "empty"}}), NewSpecIndex([]specs.Spec{{ID: "blank", Requirements: []specs.Requirement{{}}}})} {
		hits, err := x.Search("anything", 0)
		if err != nil || hits == nil || len(hits) != 0 {
			t.Errorf("Search on an empty index = %#v, %v", hits, err)
		}
	}
}

func TestSpecIndexConcurrent(t *testing.T) {
	x := NewSpecIndex(testSpecs())
	want, _ := x.Search("throttling request", 0)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if got, err := x.Search("throttling request", 0); err != nil || !slices.Equal(got, want) {
					t.Errorf("concurrent Search = %+v, %v", got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// benchSpecs makes 200 specs of 10 requirements, each with two scenarios,
// from benchVocabulary.
func benchSpecs() []specs.Spec {
	r := rand.New(rand.NewSource(7))
	words := benchVocabulary()
	sentence := func(n int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = words[r.Intn(len(words))]
		}
		return strings.Join(s, " ")
	}
	list := make([]specs.Spec, 200)
	for i := range list {
		reqs := make([]specs.Requirement, 10)
		for j := range reqs {
			reqs[j] = specs.Requirement{
				Name:        sentence(3),
				Description: "The system SHALL " + sentence(15) + ".\n" + sentence(10),
				Scenarios: []specs.Scenario{
					{Name: sentence(3), Given: []string{sentence(6)}, When: []string{sentence(6)}, Then: []string{sentence(8)}},
					{Name: sentence(3), When: []string{sentence(6)}, Then: []string{sentence(8), sentence(5)}},
				},
			}
		}
		list[i] = specs.Spec{ID: fmt.Sprintf("spec-%03d", i), Kind: specs.KindOpenSpec, Requirements: reqs}
	}
	return list
}

func BenchmarkSpecIndex(b *testing.B) {
	list := benchSpecs()
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			NewSpecIndex(list)
		}
	})
	x := NewSpecIndex(list)
	words := benchVocabulary()
	for _, q := range []struct{ name, query string }{
		{"one-word", words[1234]},
		{"three-words", words[7] + " " + words[100] + " " + words[1500]},
		{"sentence", "how does the system handle " + words[7] + " when " + words[42] + " fails"},
		{"no-match", "nosuchword"},
	} {
		b.Run("search-"+q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := x.Search(q.query, 10); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
