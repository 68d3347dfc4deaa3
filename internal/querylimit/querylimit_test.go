package querylimit

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

// TestChecks checks each limit at, and one past, its bound: nil at the
// limit; past it an Invalid QUERY_TOO_LONG error naming the size and the
// limit, with both in its details and never the query.
func TestChecks(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		message string
		details map[string]any
	}{
		{"bytes at the limit", CheckBytes("query", strings.Repeat("x", MaxBytes)), "", nil},
		{"bytes over", CheckBytes("query", strings.Repeat("x", MaxBytes+1)),
			"query is too long: 8193 bytes (limit 8192)", map[string]any{"query_bytes": MaxBytes + 1, "max_bytes": MaxBytes}},
		{"terms at the limit", CheckTerms("query", MaxTerms), "", nil},
		{"terms over", CheckTerms("query", MaxTerms+1),
			"query is too long: 257 distinct terms (limit 256)", map[string]any{"query_terms": MaxTerms + 1, "max_terms": MaxTerms}},
		{"regex at the limit", CheckRegexSize(MaxRegexSize), "", nil},
		{"regex over", CheckRegexSize(10000),
			"regex is too large: it expands to 10000 instructions (limit 8192)", map[string]any{"regex_size": 10000, "max_regex_size": MaxRegexSize}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.message == "" {
				if tt.err != nil {
					t.Fatalf("error %v at the limit", tt.err)
				}
				return
			}
			e, ok := errs.As(tt.err)
			if !ok || e.Kind != errs.Invalid || e.Code != Code || e.Message != tt.message || !reflect.DeepEqual(e.Details, tt.details) {
				t.Errorf("error = %#v, want Invalid %s %q %v", tt.err, Code, tt.message, tt.details)
			}
		})
	}
}
