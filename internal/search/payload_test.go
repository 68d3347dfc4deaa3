package search

import (
	"slices"
	"strconv"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
)

func scanFixture() *Scan {
	return NewScan("c", []store.ChunkRecord{
		{ID: 1, Path: "README.md", Language: "markdown", StartLine: 1, EndLine: 3, Kind: "section", Symbols: []string{}, Content: "# Router\nHow routing works."},
		{ID: 2, Path: "src/router.go", Language: "go", StartLine: 1, EndLine: 9, Kind: "type", Symbols: []string{"Router"}, Signature: "type Router struct", Content: "type Router struct { routes map[string]Handler }"},
		{ID: 3, Path: "src/router.go", Language: "go", StartLine: 11, EndLine: 20, Kind: "method", Symbols: []string{"Router.Handle"}, Signature: "func (r *Router) Handle()", Content: "func (r *Router) Handle() { r.routes[p] = h }"},
		{ID: 4, Path: "src/sub/deep/x.go", Language: "go", StartLine: 1, EndLine: 2, Kind: "function", Symbols: []string{"X"}, Content: "func X() {}"},
	})
}

func TestParseFilterAndMatch(t *testing.T) {
	s := scanFixture()
	for _, tc := range []struct {
		filter map[string]any
		want   []int // positions in the fixture
	}{
		{nil, []int{0, 1, 2, 3}},
		{map[string]any{"filePath": "/src/*"}, []int{1, 2}},
		{map[string]any{"filePath": "/src/**"}, []int{1, 2, 3}},
		{map[string]any{"filePath": "src/router.go"}, []int{1, 2}},
		{map[string]any{"language": "go", "kind": []any{"type", "function"}}, []int{1, 3}},
		{map[string]any{"symbols": "Router.Handle"}, []int{2}},
		{map[string]any{"startLine": 11.0}, []int{2}},
		{map[string]any{"endLine": []any{2.0, 3.0}}, []int{0, 3}},
		{map[string]any{"collectionName": "c", "breadcrumb": ""}, []int{0, 1, 2, 3}},
		{map[string]any{"collectionName": "other"}, nil},
	} {
		f, err := ParseFilter(tc.filter)
		if err != nil {
			t.Fatalf("ParseFilter(%v): %v", tc.filter, err)
		}
		var got []int
		for i := range s.chunks {
			if f.Match("c", &s.chunks[i]) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("filter %v matches %v, want %v", tc.filter, got, tc.want)
		}
	}
	for _, bad := range []map[string]any{
		{"path": "x"}, {"language": 3.0}, {"startLine": "1"}, {"startLine": 1.5}, {"symbols": []any{}}, {"filePath": "/src/[x"},
	} {
		if _, err := ParseFilter(bad); errs.KindOf(err) != errs.Invalid {
			t.Errorf("ParseFilter(%v) = %v, want an invalid argument", bad, err)
		}
	}
}

func TestFulltext(t *testing.T) {
	s := scanFixture()
	hits, err := s.Fulltext("ROUTE", Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.Payload.FilePath+":"+itoa(h.Payload.StartLine))
	}
	// Symbols and the signature count: the type and the method beat the
	// README, which only mentions routing.
	if len(got) != 3 || got[2] != "/README.md:1" {
		t.Errorf("Fulltext(ROUTE) = %v", got)
	}
	again, _ := s.Fulltext("ROUTE", Filter{}, 10)
	if !slices.EqualFunc(hits, again, func(a, b Hit) bool { return a.Score == b.Score && a.Payload.FilePath == b.Payload.FilePath }) {
		t.Error("Fulltext is not deterministic")
	}
	if hits, _ := s.Fulltext("x()", Filter{}, 1); len(hits) != 1 || hits[0].Payload.Symbols[0] != "X" {
		t.Errorf("Fulltext(x()) = %+v", hits)
	}
	if _, err := s.Fulltext("  ", Filter{}, 1); errs.KindOf(err) != errs.Invalid {
		t.Errorf("an empty text: %v", err)
	}
	if hits := s.ByPayload(Filter{}, 2); len(hits) != 2 || hits[0].Payload.FilePath != "/README.md" || hits[1].Score != 1 {
		t.Errorf("ByPayload = %+v", hits)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
