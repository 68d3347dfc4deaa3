package specs

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func TestHitJSON(t *testing.T) {
	b, err := json.Marshal(Hit{SpecID: "s", Requirement: "r", Score: 0.5, Snippet: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"spec_id":"s","requirement":"r","score":0.5,"snippet":"x"}`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"How does the Login work?", []string{"login", "work"}},
		{"list_specs AND list_specs", []string{"list", "specs"}},
		{"the and", nil},
		{`"*()"`, nil},
		{"Café crème", []string{"café", "crème"}},
	}
	for _, tt := range tests {
		if got := QueryTerms(tt.query); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("QueryTerms(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestCheckQuery(t *testing.T) {
	for query, code := range map[string]string{"": errs.CodeQueryEmpty, " \t": errs.CodeQueryEmpty, "login": ""} {
		err := CheckQuery(query)
		if e, _ := errs.As(err); (code == "" && err != nil) || (code != "" && (e == nil || e.Code != code)) {
			t.Errorf("CheckQuery(%q) = %v, want %q", query, err, code)
		}
	}
}
