package tokenize

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// referenceTerms is Terms as it was written first, by Identifiers and
// SplitIdentifier: AppendTerms must give exactly its terms.
func referenceTerms(text string) []string {
	ids := Identifiers(text)
	out := make([]string, 0, len(ids)*2)
	for _, id := range ids {
		out = appendTermsSlow(out, id)
	}
	return out
}

// termCases are texts whose terms the fast path must get right: acronyms,
// digits, separators, non-ASCII letters, invalid UTF-8, long runs.
var termCases = []string{
	"", " ", "_", "__init__", "a", "A", "aB", "AB", "ABc", "HTMLParser", "parseHTTPRequest2",
	"utf8", "v2Beta3", "x86_64", "max_line_len", "max-line-len", "os.path.join", "a__b", "_a_",
	"Größe über", "naïveCase", "ÜberParser", "snake_ÜBER_case", "\xff\xfeabc\xffDEF", "日本語Text",
	"func (m *Mux) RouteContext() error { return nil }", "IPv6Address", "getHTTP2Settings", "A1B2c3",
	strings.Repeat("a", MaxTermLen), strings.Repeat("a", MaxTermLen+1), strings.Repeat("Ab", 40),
	"__", "9lives", "ALLCAPS_WITH_UNDERSCORE", "mixed_CamelCase_Thing", "a.b-c_d", "ǅemal", "Σίσυφος",
}

func TestAppendTermsMatchesReference(t *testing.T) {
	for _, text := range termCases {
		if got, want := Terms(text), referenceTerms(text); !reflect.DeepEqual(got, want) {
			t.Errorf("Terms(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestAppendTermsMatchesReferenceOnSources compares the two on every
// source file under the repository: real code, comments and docs.
func TestAppendTermsMatchesReferenceOnSources(t *testing.T) {
	root := filepath.Join("..", "..")
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 1<<20 {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		text := string(src)
		if got, want := AppendTerms(nil, text), referenceTerms(text); !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Errorf("%s: terms differ from the reference", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("compared %d files, want the repository's sources", files)
	}
}

func TestAppendTermsReusesSlice(t *testing.T) {
	buf := AppendTerms(nil, "firstChunk here")
	buf = AppendTerms(buf[:0], "secondChunk")
	if want := []string{"secondchunk", "second", "chunk"}; !reflect.DeepEqual(buf, want) {
		t.Errorf("reused slice = %q, want %q", buf, want)
	}
}

func FuzzAppendTerms(f *testing.F) {
	for _, text := range termCases {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, want := Terms(text), referenceTerms(text)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Terms(%q) = %q, want %q", text, got, want)
		}
		for _, term := range got {
			if term == "" || utf8.RuneCountInString(term) > MaxTermLen*2 {
				t.Fatalf("Terms(%q) holds %q", text, term)
			}
		}
	})
}

func BenchmarkTermsReference(b *testing.B) {
	text := benchText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		referenceTerms(text)
	}
}

func BenchmarkAppendTerms(b *testing.B) {
	text := benchText()
	b.SetBytes(int64(len(text)))
	var buf []string
	for b.Loop() {
		buf = AppendTerms(buf[:0], text)
	}
}

// benchText is a page of this package's own source.
func benchText() string {
	src, err := os.ReadFile("tokenize.go")
	if err != nil {
		panic(err)
	}
	return string(src)
}
