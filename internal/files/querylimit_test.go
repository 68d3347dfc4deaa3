package files

import (
	"regexp/syntax"
	"testing"
)

// TestRegexSize checks the estimate the regex limit is checked against:
// it follows the size of the program Go compiles (which adds a fixed two
// or three instructions), including the repetitions that make a short
// pattern large.
func TestRegexSize(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		size    int
	}{
		{"needle", 6},
		{"(?i)needle", 6},
		{`\w+x*y?`, 7},
		{"(a|b|c){3,7}", 25},
		{"x{1000}x{1000}", 2000},
		{"(?:abcdefghij){1000}", 10000},
		{"(?:(?:a{10}){10}){10}", 1000},
	} {
		re, err := syntax.Parse(tt.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		got := regexSize(re)
		if got != tt.size || len(prog.Inst)-got < 0 || len(prog.Inst)-got > 3 {
			t.Errorf("regexSize(%q) = %d, want %d (the program has %d instructions)", tt.pattern, got, tt.size, len(prog.Inst))
		}
	}
}
