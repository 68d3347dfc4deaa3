package trigram

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"ab", nil},
		{"abc", []string{"abc"}},
		{"ABCabc", []string{"abc", "bca", "cab"}},
		{"ab\ncd", nil},
		{"abcd\nxyz", []string{"abc", "bcd", "xyz"}},
		{"é", nil},
		{"aé", []string{"a??"}},
	}
	for _, tt := range tests {
		var got []string
		for _, k := range Extract([]byte(tt.in), nil) {
			got = append(got, keyString(k))
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Extract(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	keys := Extract([]byte("the quick brown fox jumps over the lazy dog, THE END"), nil)
	var got []uint32
	if err := DecodeKeys(EncodeKeys(keys), func(k uint32) { got = append(got, k) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, keys) {
		t.Fatalf("round trip: %v, want %v", got, keys)
	}
	for _, bad := range [][]byte{nil, {5}, {1, 0xff}, append(EncodeKeys(keys), 1)} {
		if err := DecodeKeys(bad, func(uint32) {}); err == nil {
			t.Errorf("DecodeKeys(%v) accepted corrupt data", bad)
		}
	}
}

func TestQueries(t *testing.T) {
	tests := []struct {
		re   string
		want string
	}{
		{`hello`, "ell hel llo"},
		{`(?i)Hello`, "ell hel llo"},
		{`ab`, "+"},
		{`.*`, "+"},
		{`foo|bar`, "bar|foo"},
		{`foo.*bar`, "foo (bar|(bar foo oba oob)) (bar|(bar foo oba oob))"},
		{`abc(def|ghi)`, "(abc bcd cde def)|(abc bcg cgh ghi)"},
		{`[ab]cd`, "acd|bcd"},
		{`x+yz`, "xyz"},
		{`a[^b]c`, "+"},
		{`\x{FFFD}abc`, "abc"},
		{`foo?bar`, "(bar fob oba)|(bar foo oba oob)"},
	}
	for _, tt := range tests {
		re, err := syntax.Parse(tt.re, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := Regexp(re.Simplify()).String(); got != tt.want {
			t.Errorf("Regexp(%q) = %s, want %s", tt.re, got, tt.want)
		}
	}
}

// TestCandidatesNeverMiss checks on random texts and regexes that every
// file with a matching line is a candidate: the property the exact search
// relies on.
func TestCandidatesNeverMiss(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", "A", "B", "k", "K", "\u212a", "s", "\u017f", "é", "É", "\n", " ", "\xff", "_"}
	files := make([][]byte, 200)
	grams := make([][]byte, len(files))
	for i := range files {
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		files[i] = []byte(b.String())
		grams[i] = EncodeKeys(Extract(files[i], nil))
	}
	ix, err := Build(grams)
	if err != nil {
		t.Fatal(err)
	}
	atoms := []string{"a", "b", "c", "ab", "abc", "k", "s", "é", "É", ".", "[ab]", "[a-c]", "\\w", "\\x{FFFD}", "_", " ", "(?:ab|ba)", "\\bab", "Ks"}
	ops := []string{"", "", "", "*", "+", "?", "{2}", "{1,3}"}
	for range 3000 {
		var b strings.Builder
		if rng.IntN(3) == 0 {
			b.WriteString("(?i)")
		}
		for range 1 + rng.IntN(5) {
			atom := atoms[rng.IntN(len(atoms))]
			if rng.IntN(6) == 0 {
				atom = "(" + atom + "|" + atoms[rng.IntN(len(atoms))] + ")"
			}
			b.WriteString(atom + ops[rng.IntN(len(ops))])
		}
		expr := b.String()
		parsed, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatalf("%q: %v", expr, err)
		}
		re := regexp.MustCompile(expr)
		cand := ix.Candidates(Regexp(parsed.Simplify()))
		for i, f := range files {
			if cand.Has(i) {
				continue
			}
			for _, line := range bytes.Split(f, []byte("\n")) {
				if re.Match(line) {
					t.Fatalf("regex %q matches %q in file %d (%q), which is not a candidate (query %s)", expr, line, i, f, Regexp(parsed.Simplify()))
				}
			}
		}
	}
}

func FuzzCandidates(f *testing.F) {
	f.Add("hello world\nfoo bar", "o w")
	f.Add("Kelvin \u212a\n", "(?i)kel")
	f.Fuzz(func(t *testing.T, text, expr string) {
		parsed, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			return
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		ix, err := Build([][]byte{EncodeKeys(Extract([]byte(text), nil))})
		if err != nil {
			t.Fatal(err)
		}
		if ix.Candidates(Regexp(parsed.Simplify())).Has(0) {
			return
		}
		for _, line := range strings.Split(text, "\n") {
			if re.MatchString(line) {
				t.Fatalf("%q matches line %q but the file is not a candidate", expr, line)
			}
		}
	})
}

// TestExtractSortedEitherWay: the keys come sorted and distinct whether
// they are sorted or read back off the bit set (few keys and many), and
// the set is left clear for the next file.
func TestExtractSortedEitherWay(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{10, 200, 5000, 100000} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		got := Extract(data, nil)
		var want []uint32
		for i := 2; i < len(data); i++ {
			if data[i] != '\n' && data[i-1] != '\n' && data[i-2] != '\n' {
				want = append(want, Key(data[i-2], data[i-1], data[i]))
			}
		}
		slices.Sort(want)
		want = slices.Compact(want)
		if !slices.Equal(got, want) {
			t.Fatalf("size %d: %d keys, want %d", size, len(got), len(want))
		}
		if (len(want) >= scanFrom) != (size >= 5000) {
			t.Fatalf("size %d: %d keys does not test the path it should", size, len(want))
		}
		if again := Extract(data[:3], nil); len(again) != 1 {
			t.Fatalf("after size %d: the set was not cleared: %v", size, again)
		}
	}
}
