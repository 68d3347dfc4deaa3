package packages

import (
	"reflect"
	"strings"
	"testing"
)

// render shows tokens compactly: identifiers bare, strings quoted, numbers
// with #, punctuation as is.
func render(tokens []token) string {
	var parts []string
	for _, t := range tokens {
		switch t.kind {
		case tokString:
			parts = append(parts, `"`+t.text+`"`)
		case tokNumber:
			parts = append(parts, "#"+t.text)
		default:
			parts = append(parts, t.text)
		}
	}
	return strings.Join(parts, " ")
}

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		name   string
		syntax tokenizerSyntax
		src    string
		want   string
	}{
		{"groovy strings and comments", groovySyntax,
			"api 'a:b:1' // implementation 'x'\n/* implementation(\"y\") */ compileOnly(\"c\\\"d\")",
			`api "a:b:1" compileOnly ( "c"d" )`},
		{"triple-quoted strings span lines", groovySyntax, "x = \"\"\"a\n'b'\"\"\" y", `x = "a` + "\n" + `'b'" y`},
		{"unterminated string stops at the line end", groovySyntax, "a 'oops\nb \"c\"", `a "oops" b "c"`},
		{"unterminated block comment runs to the end", swiftSyntax, "a /* b c", "a"},
		{"swift single quote is punctuation", swiftSyntax, "it's \"s\"", `it ' s "s"`},
		{"numbers and dotted calls", swiftSyntax, `.package(from: "1.0") 5.9`, `. package ( from : "1.0" ) #5.9`},
		{"ruby hash comments and symbols", rubySyntax, "s.add_dependency 'x' # 'y'\n:sym", `s . add_dependency "x" : sym`},
		{"ruby multi-line double-quoted string", rubySyntax, "d = \"a\nb\" n", "d = \"a\nb\" n"},
		{"ruby heredoc body is one string", rubySyntax, "d = <<~EOS.strip\n  don't \"parse\" me\nEOS\nx", `d = "don't "parse" me" . strip x`},
		{"ruby heredoc with quoted terminator", rubySyntax, "d = <<-'END'\nq\n  END\nx", `d = "q" x`},
		{"lower-case after << is a shift", rubySyntax, "a << b", "a < < b"},
		{"ruby percent literals nest", rubySyntax, "%q{a {b} c} %w[x y] %Q(z)", `"a {b} c" "x y" "z"`},
		{"unicode identifiers", groovySyntax, "émoji = 'ü'", `émoji = "ü"`},
		{"empty input", groovySyntax, "", ""},
	} {
		if got := render(tokenize(tc.src, tc.syntax)); got != tc.want {
			t.Errorf("%s: tokenize(%q) =\n  %s\nwant\n  %s", tc.name, tc.src, got, tc.want)
		}
	}
}

func TestTokenizeLines(t *testing.T) {
	tokens := tokenize("a\n/* x\ny */ b\n\"s\nt\" c\nd = <<~E\n1\n2\nE\ne", rubySyntax)
	var lines []int
	for _, tok := range tokens {
		lines = append(lines, tok.line)
	}
	// Ruby has no /* */ comments: "/", "*", "x", "y", "*", "/" are tokens.
	if want := []int{1, 2, 2, 2, 3, 3, 3, 3, 4, 5, 6, 6, 6, 10}; !reflect.DeepEqual(lines, want) {
		t.Errorf("lines = %v, want %v (tokens %s)", lines, want, render(tokens))
	}
}
