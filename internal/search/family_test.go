package search

import (
	"slices"
	"testing"
)

func TestFamilyStems(t *testing.T) {
	tests := []struct {
		query string
		want  []string // the index stems the word reads besides its own
	}{
		{"validators", []string{"validat"}},
		{"validate", []string{"validator"}},
		{"iterator", []string{"iterat"}},
		{"aliases", []string{"alia"}},
		{"alias", []string{"alias"}},
		{"router", nil},
		{"handler", nil},
		{"nullable", []string{"null"}},
		{"equality", []string{"equal"}},
		{"comparison", []string{"compar"}},
	}
	for _, tt := range tests {
		w := Analyze(tt.query + " setup").Words[0]
		if !slices.Equal(w.family, tt.want) {
			t.Errorf("%q reads %q, want %q", tt.query, w.family, tt.want)
		}
	}
	// A symbol query reads no relatives.
	if w := Analyze("Validator").Words[0]; w.family != nil {
		t.Errorf("symbol query Validator reads %q", w.family)
	}
}

func TestLookupTermsReadFamily(t *testing.T) {
	terms := Analyze("custom field validators").lookupTerms()
	i := slices.IndexFunc(terms, func(t queryTerm) bool { return t.term == "validat" })
	if i < 0 || terms[i].weight != weights.family || terms[i].word != 2 {
		t.Fatalf("validators does not read validat at the family weight: %+v", terms)
	}
}
