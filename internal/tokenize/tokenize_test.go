package tokenize

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitIdentifier(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"RouteContext", []string{"route", "context"}},
		{"parse_args", []string{"parse", "args"}},
		{"parseHTTPRequest2", []string{"parse", "http", "request", "2"}},
		{"HTMLParser", []string{"html", "parser"}},
		{"max-line-len", []string{"max", "line", "len"}},
		{"utf8", []string{"utf", "8"}},
		{"x", []string{"x"}},
		{"__init__", []string{"init"}},
		{"ALLCAPS", []string{"allcaps"}},
	}
	for _, tt := range tests {
		if got := SplitIdentifier(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitIdentifier(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"func (m *Mux) RouteContext()", []string{"func", "m", "mux", "routecontext", "route", "context"}},
		{"parse_args(argv)", []string{"parse_args", "parse", "args", "argv"}},
		{"fmt::format", []string{"fmt", "format"}},
		{"", []string{}},
		{"  ---  ", []string{}},
		{"Größe über", []string{"größe", "über"}},
	}
	for _, tt := range tests {
		got := Terms(tt.in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Terms(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsIdentifierLike(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"RouteContext", true},
		{"parse_args", true},
		{"fmt::format", true},
		{"os.path", true},
		{"HTTP", true},
		{"router", false},
		{"Router", false},
		{"middleware", false},
		{"a", false},
	}
	for _, tt := range tests {
		if got := IsIdentifierLike(tt.in); got != tt.want {
			t.Errorf("IsIdentifierLike(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func BenchmarkTerms(b *testing.B) {
	text := `func (mx *Mux) handle(method methodTyp, pattern string, handler http.Handler) *node {
	if len(pattern) == 0 || pattern[0] != '/' {
		panic(fmt.Sprintf("chi: routing pattern must begin with '/' in '%s'", pattern))
	}`
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Terms(text)
	}
}

// TestNextPartSplitsLikeSplitIdentifier checks that the byte ranges
// NextPart yields, sliced out of the lower-cased identifier, are the parts
// SplitIdentifier returns.
func TestNextPartSplitsLikeSplitIdentifier(t *testing.T) {
	for _, id := range []string{"exit_status", "EXIT_STATUSES", "parseHTTPRequest2", "utf8", "BackgroundWorker",
		"a__b", "x", "ID", "getID", "HTTPServer", "max_line_len", "v2Router", "abc123def", "_lead", "trail_", "a.b-c"} {
		lower := strings.ToLower(id)
		var got []string
		for lo, hi, ok := NextPart(id, 0); ok; lo, hi, ok = NextPart(id, hi) {
			got = append(got, lower[lo:hi])
		}
		if want := SplitIdentifier(id); !reflect.DeepEqual(got, want) {
			t.Errorf("NextPart(%q) = %q, want %q", id, got, want)
		}
	}
}
