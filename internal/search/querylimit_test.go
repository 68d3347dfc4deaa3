package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
)

// TestCheckQuery checks the limits Search applies, as CheckQuery reports
// them: distinct words count, repeats and stop words do not.
func TestCheckQuery(t *testing.T) {
	distinct := func(n int) string {
		words := make([]string, n)
		for i := range words {
			words[i] = fmt.Sprintf("word%d", i)
		}
		return strings.Join(words, " ")
	}
	tests := []struct {
		name  string
		query string
		ok    bool
	}{
		{"bytes at the limit", strings.Repeat("x", querylimit.MaxBytes), true},
		{"bytes over", strings.Repeat("x", querylimit.MaxBytes+1), false},
		{"words at the limit", distinct(querylimit.MaxTerms), true},
		{"words over", distinct(querylimit.MaxTerms + 1), false},
		{"repeats", strings.Repeat("router ", querylimit.MaxTerms+1), true},
		{"stop words", distinct(querylimit.MaxTerms) + strings.Repeat(" the of and", 50), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckQuery(tt.query)
			if e, ok := errs.As(err); tt.ok && err != nil || !tt.ok && (!ok || e.Code != querylimit.Code) {
				t.Errorf("CheckQuery(%d bytes) = %v, want ok %v", len(tt.query), err, tt.ok)
			}
		})
	}
}
