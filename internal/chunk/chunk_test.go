package chunk

import (
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/lang"
)

func TestMain(m *testing.M) {
	fallBackOnPanic = false // let a chunker bug fail the tests loudly
	os.Exit(m.Run())
}

// lineCount is the number of lines of src: a final newline ends the last
// line rather than starting another one.
func lineCount(src []byte) int {
	if len(src) == 0 {
		return 0
	}
	n := strings.Count(string(src), "\n")
	if src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// checkCoverage asserts the chunking invariant: chunks are ordered,
// contiguous, cover every line exactly once and hold exactly those lines.
func checkCoverage(t *testing.T, src []byte, chunks []Chunk) {
	t.Helper()
	n := lineCount(src)
	if n == 0 {
		if len(chunks) != 0 {
			t.Fatalf("empty file: got %d chunks, want none", len(chunks))
		}
		return
	}
	if len(chunks) == 0 {
		t.Fatalf("%d lines: got no chunks", n)
	}
	lines := strings.Split(string(src), "\n")
	if src[len(src)-1] == '\n' {
		lines = lines[:len(lines)-1]
	}
	next := 1
	for i, c := range chunks {
		if c.StartLine != next {
			t.Fatalf("chunk %d starts at line %d, want %d", i, c.StartLine, next)
		}
		if c.EndLine < c.StartLine {
			t.Fatalf("chunk %d: lines %d-%d are reversed", i, c.StartLine, c.EndLine)
		}
		if want := strings.Join(lines[c.StartLine-1:c.EndLine], "\n"); c.Content != want {
			t.Fatalf("chunk %d (lines %d-%d): content does not match the file's lines\n got: %q\nwant: %q", i, c.StartLine, c.EndLine, c.Content, want)
		}
		if c.Kind == "" || c.Symbols == nil {
			t.Fatalf("chunk %d: empty kind %q or nil symbols", i, c.Kind)
		}
		if len(c.Signature) > maxSignature || strings.Contains(c.Signature, "\n") {
			t.Fatalf("chunk %d: signature is not one short line: %q", i, c.Signature)
		}
		next = c.EndLine + 1
	}
	if next-1 != n {
		t.Fatalf("chunks end at line %d, file has %d lines", next-1, n)
	}
}

var kinds = []string{
	KindFunction, KindMethod, KindClass, KindStruct, KindInterface, KindTrait,
	KindEnum, KindImpl, KindModule, KindType, KindConstant, KindVariable,
	KindPreamble, KindSection, KindBlock, KindMixed,
}

// TestCoverageProperty splits every fixture and random text as every
// language and checks the invariant each time.
func TestCoverageProperty(t *testing.T) {
	names := fixtureFiles(t)
	languages := append(lang.Grammars(), lang.Markdown, lang.RST, lang.AsciiDoc, lang.Text, "haskell", "")
	var inputs []string
	for _, name := range names {
		inputs = append(inputs, string(readFixture(t, name)))
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 40; i++ {
		inputs = append(inputs, randomText(rng, 1+rng.Intn(300)))
	}
	// Edge cases: no final newline, only newlines, CRLF, one huge line.
	inputs = append(inputs, "", "\n", "\n\n\n", "x", "a\r\nb\r\n", "  \n\t\n",
		strings.Repeat("x", 100_000), strings.Repeat("{\n", 500), strings.Repeat("}\n", 500))
	for _, in := range inputs {
		for _, language := range languages {
			chunks := Split("file", language, []byte(in))
			t.Run(language, func(t *testing.T) {
				checkCoverage(t, []byte(in), chunks)
				for _, c := range chunks {
					if !slices.Contains(kinds, c.Kind) {
						t.Fatalf("chunk kind %q is not in the documented vocabulary", c.Kind)
					}
				}
			})
			if t.Failed() {
				t.Fatalf("language %q, input:\n%s", language, clip(in, 2000))
			}
		}
	}
}

// randomText produces code-like garbage: brackets, keywords, comments,
// strings, blank lines and indentation, sometimes without a final newline.
func randomText(rng *rand.Rand, lines int) string {
	words := []string{"func", "def", "class", "{", "}", "(", ")", "end", "do", "#", "//", "/*", "*/",
		"\"", "'", "\"\"\"", "fn", "impl", "struct", "=", ";", ":", "->", "x", "y1", "@dec", "<?php",
		"# Heading", "## Sub", "===", "---", "```", "----", "é", "日本", "\t", "\\", "`", "$", "<", ">"}
	var b strings.Builder
	for i := 0; i < lines; i++ {
		if rng.Intn(5) == 0 {
			b.WriteString("\n")
			continue
		}
		b.WriteString(strings.Repeat("  ", rng.Intn(4)))
		for j := rng.Intn(8); j >= 0; j-- {
			b.WriteString(words[rng.Intn(len(words))])
			b.WriteString(" ")
		}
		if rng.Intn(10) == 0 {
			b.WriteString("\r")
		}
		b.WriteString("\n")
	}
	s := b.String()
	if rng.Intn(2) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

func TestLineCounting(t *testing.T) {
	tests := []struct {
		src   string
		total int // the last line of the last chunk
	}{
		{src: "", total: 0},
		{src: "\n", total: 1},
		{src: "a", total: 1},
		{src: "a\n", total: 1},
		{src: "a\nb", total: 2},
		{src: "a\nb\n", total: 2},
		{src: "a\n\n", total: 2},
	}
	for _, tt := range tests {
		for _, language := range []string{"go", "text", "markdown"} {
			chunks := Split("f", language, []byte(tt.src))
			total := 0
			if len(chunks) > 0 {
				total = chunks[len(chunks)-1].EndLine
			}
			if total != tt.total {
				t.Errorf("%s %q: chunks end at line %d, want %d", language, tt.src, total, tt.total)
			}
			if tt.total == 0 && chunks != nil {
				t.Errorf("%s %q: got %d chunks, want nil", language, tt.src, len(chunks))
			}
		}
	}
}

func TestEveryGrammarHasRules(t *testing.T) {
	for _, g := range lang.Grammars() {
		if specs[g] == nil {
			t.Errorf("lang.HasGrammar(%q) but the chunker has no rules for it", g)
		}
	}
	for name := range specs {
		if !lang.HasGrammar(name) {
			t.Errorf("chunker rules for %q, which lang.HasGrammar rejects", name)
		}
	}
}

// TestOversizedFunction checks that a long function is cut at statement
// boundaries into pieces within the bounds that all name the function.
func TestOversizedFunction(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\n// Big does a lot.\nfunc Big(n int) int {\n\ttotal := 0\n")
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, "\tif n > %d {\n\t\ttotal += %d\n\t}\n", i, i)
	}
	b.WriteString("\treturn total\n}\n")
	src := []byte(b.String())
	chunks := Split("big.go", "go", src)
	checkCoverage(t, src, chunks)
	var pieces []Chunk
	for _, c := range chunks {
		if slices.Contains(c.Symbols, "Big") {
			pieces = append(pieces, c)
		}
	}
	if len(pieces) < 4 {
		t.Fatalf("a 365-line function gave %d pieces, want at least 4", len(pieces))
	}
	for i, p := range pieces {
		if p.EndLine-p.StartLine+1 > maxChunkLines || len(p.Content) > maxChunkBytes {
			t.Errorf("piece %d is %d lines, %d bytes: over the bounds", i, p.EndLine-p.StartLine+1, len(p.Content))
		}
		if p.Kind != KindFunction || p.Signature != "func Big(n int) int" {
			t.Errorf("piece %d: kind %q signature %q", i, p.Kind, p.Signature)
		}
		if (i == 0) != (p.DocComment == "Big does a lot.") {
			t.Errorf("piece %d: doc comment %q; only the first piece carries it", i, p.DocComment)
		}
		// Cuts fall between statements: no piece starts inside an if.
		if first := strings.TrimSpace(strings.SplitN(p.Content, "\n", 2)[0]); i > 0 && !strings.HasPrefix(first, "if n >") && first != "return total" {
			t.Errorf("piece %d starts mid-statement: %q", i, first)
		}
	}
}

// TestSmallDefinitionsMerge checks that runs of small definitions share a
// chunk, that big ones stand alone, and that kinds combine as documented.
func TestSmallDefinitionsMerge(t *testing.T) {
	src := []byte(`package p

import "fmt"

const A = 1

const B = 2

func one() int { return 1 }

func two() int { return 2 }

// Long is long enough to stand alone.
func Long() {
	fmt.Println(1)
	fmt.Println(2)
	fmt.Println(3)
	fmt.Println(4)
}

func three() int { return 3 }
`)
	chunks := Split("p.go", "go", src)
	checkCoverage(t, src, chunks)
	got := make([]string, len(chunks))
	for i, c := range chunks {
		got[i] = c.Kind + ":" + strings.Join(c.Symbols, ",")
	}
	want := []string{"mixed:A,B,one,two", "function:Long", "function:three"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chunks\n got: %q\nwant: %q", got, want)
	}
}

// TestLeadingCommentsAndGaps checks that comments and decorators stay with
// the definition below them, and that a comment separated by a blank line
// still joins a neighbour rather than making a chunk of its own.
func TestLeadingCommentsAndGaps(t *testing.T) {
	src := []byte(`import os


# ---- helpers ----

# Doubles x.
# Really.
@cache
def double(x):
    y = x * 2
    z = y
    return z



def triple(x):
    """Triples x."""
    y = x * 3
    z = y
    return z
# trailing remark
`)
	chunks := Split("h.py", "python", src)
	checkCoverage(t, src, chunks)
	d, ok := findChunk(chunks, "double", "")
	if !ok {
		t.Fatalf("no chunk for double: %+v", chunks)
	}
	if d.DocComment != "Doubles x.\nReally." || !strings.Contains(d.Content, "@cache") || d.Signature != "def double(x)" {
		t.Errorf("double: doc %q, signature %q, content:\n%s", d.DocComment, d.Signature, d.Content)
	}
	tr, _ := findChunk(chunks, "triple", "")
	if tr.DocComment != "Triples x." || !strings.HasSuffix(tr.Content, "# trailing remark") {
		t.Errorf("triple: doc %q, content:\n%s", tr.DocComment, tr.Content)
	}
	for _, c := range chunks {
		if len(c.Symbols) == 0 && c.Kind != KindPreamble {
			t.Errorf("a chunk without definitions: %+v", c)
		}
	}
}

// TestBigClassSplitsIntoMembers checks the header chunk and members of an
// oversized class in a few languages.
func TestBigClassSplitsIntoMembers(t *testing.T) {
	method := func(format string, i int) string { return fmt.Sprintf(format, i, i, i) }
	build := func(head, methodFormat, tail string) []byte {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; i < 16; i++ {
			b.WriteString(method(methodFormat, i))
		}
		b.WriteString(tail)
		return []byte(b.String())
	}
	tests := []struct {
		language, file string
		src            []byte
		class, header  string
	}{
		{"java", "A.java", build("/** Doc. */\npublic class Big {\n    private int x;\n\n",
			"    /** Method %d. */\n    int m%d() {\n        int a = 1;\n        int b = 2;\n        return a + b + %d;\n    }\n\n", "}\n"),
			"Big", "public class Big"},
		{"python", "a.py", build("class Big:\n    \"\"\"Doc.\"\"\"\n\n    x = 1\n\n",
			"    def m%d(self):\n        \"\"\"Method %d.\"\"\"\n        a = 1\n        b = 2\n        return a + b + %d\n\n", ""),
			"Big", "class Big"},
		{"rust", "a.rs", build("/// Doc.\nimpl<T: Clone> fmt::Display for Big<T> {\n",
			"    /// Method %d.\n    fn m%d(&self) -> i32 {\n        let a = 1;\n        let b = 2;\n        a + b + %d\n    }\n\n", "}\n"),
			"Big", "impl<T: Clone> fmt::Display for Big<T>"},
		{"ruby", "a.rb", build("# Doc.\nclass Big\n  X = 1\n\n",
			"  # Method %d.\n  def m%d\n    a = 1\n    b = 2\n    a + b + %d\n  end\n\n", "end\n"),
			"Big", "class Big"},
	}
	for _, tt := range tests {
		t.Run(tt.language, func(t *testing.T) {
			chunks := Split(tt.file, tt.language, tt.src)
			checkCoverage(t, tt.src, chunks)
			if len(chunks) < 3 {
				t.Fatalf("got %d chunks, want the class split", len(chunks))
			}
			head := chunks[0]
			if head.Signature != tt.header || head.Breadcrumb != "" || head.Symbols[0] != tt.class || head.DocComment != "Doc." {
				t.Errorf("header chunk: %+v", head)
			}
			for i := 0; i < 16; i++ {
				name := fmt.Sprintf("m%d", i)
				c, ok := findChunk(chunks, name, tt.class)
				if !ok {
					t.Errorf("no chunk for %s with breadcrumb %q", name, tt.class)
					continue
				}
				if c.Kind != KindMethod {
					t.Errorf("%s: kind %q", name, c.Kind)
				}
				if want := fmt.Sprintf("Method %d.", i); !strings.Contains(c.DocComment, want) {
					t.Errorf("%s: doc %q, want %q", name, c.DocComment, want)
				}
			}
		})
	}
}

func TestHeaderGuardIsTransparent(t *testing.T) {
	src := []byte(`#ifndef LIST_H
#define LIST_H

#include <stddef.h>

/* A list node. */
struct node {
	struct node *next;
	int value;
};

/* Appends v. */
void list_push(struct node **head, int v);

#endif
`)
	chunks := Split("list.h", "c", src)
	checkCoverage(t, src, chunks)
	for _, name := range []string{"node", "list_push"} {
		if _, ok := findChunk(chunks, name, ""); !ok {
			t.Errorf("no chunk defines %s inside the include guard: %+v", name, chunks)
		}
	}
	if c, _ := findChunk(chunks, "list_push", ""); c.Kind != KindFunction && c.Kind != KindMixed {
		t.Errorf("list_push: kind %q", c.Kind)
	}
}

func TestBlocksFallback(t *testing.T) {
	var b strings.Builder
	for p := 0; p < 30; p++ {
		for l := 0; l < 3; l++ {
			fmt.Fprintf(&b, "paragraph %d line %d\n", p, l)
		}
		b.WriteString("\n")
	}
	for l := 0; l < 200; l++ { // one paragraph far over the bounds
		fmt.Fprintf(&b, "long paragraph line %d\n", l)
	}
	src := []byte(b.String())
	for _, language := range []string{"text", "haskell", ""} {
		chunks := Split("notes", language, src)
		checkCoverage(t, src, chunks)
		for i, c := range chunks {
			if c.Kind != KindBlock || len(c.Symbols) != 0 || c.Signature != "" || c.Breadcrumb != "" {
				t.Errorf("%s chunk %d: %+v", language, i, c)
			}
			if n := c.EndLine - c.StartLine + 1; n > mergeMaxLines || len(c.Content) > mergeMaxBytes {
				t.Errorf("%s chunk %d: %d lines, %d bytes, over the bounds", language, i, n, len(c.Content))
			}
			// Blocks of paragraphs end after a blank line or at a cut in
			// the long paragraph, never mid-paragraph otherwise.
			if c.EndLine < 120 && !strings.HasSuffix(c.Content, "\n") && i < len(chunks)-1 {
				t.Errorf("%s chunk %d ends inside a paragraph: %q", language, i, c.Content[max(0, len(c.Content)-40):])
			}
		}
		if len(chunks) < 6 {
			t.Errorf("%s: got %d chunks for 290 lines", language, len(chunks))
		}
	}
}

func TestMarkdown(t *testing.T) {
	src := readFixture(t, "guide.md")
	chunks := Split("guide.md", lang.Markdown, src)
	checkCoverage(t, src, chunks)
	type section struct {
		start            int
		crumb, signature string
	}
	var got []section
	for _, c := range chunks {
		if c.Kind != KindSection || len(c.Symbols) != 0 {
			t.Errorf("chunk at %d: kind %q symbols %q", c.StartLine, c.Kind, c.Symbols)
		}
		got = append(got, section{c.StartLine, c.Breadcrumb, c.Signature})
	}
	want := []section{
		{1, "Lore", "Lore"},
		{12, "Lore > Install > From source", "From source"},
		{37, "Lore > Install > Prebuilt binaries", "Prebuilt binaries"},
		{41, "Lore > Usage", "Usage"},
		{52, "Lore > Configuration", "Configuration"},
		{56, "Lore > FAQ > Does it send my code anywhere?", "Does it send my code anywhere?"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sections\n got: %+v\nwant: %+v", got, want)
	}
}

func TestMarkdownHeadings(t *testing.T) {
	tests := []struct {
		name, src string
		crumbs    []string // breadcrumb of each chunk
	}{
		{"fence hides headings", "# A\n\ntext\n\n```\n# not\n```\n", []string{"A"}},
		{"tilde fence", "# A\n\n~~~~\n## not\n~~~~\n", []string{"A"}},
		{"unclosed fence runs to the end", "# A\n```\n# not\n## not\n", []string{"A"}},
		{"hash needs a space", "#hashtag\n\ntext\n", []string{""}},
		{"seven hashes is text", "####### x\n", []string{""}},
		{"indented code", "    # not\n", []string{""}},
		{"setext", "Title\n=====\n\ntext\n", []string{"Title"}},
		{"dashes after blank are a rule", "text\n\n---\n\nmore\n", []string{""}},
		{"list item is not a setext title", "- item\n---\n", []string{""}},
		{"closing hashes", "## Title ##\n", []string{"Title"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks := Split("x.md", lang.Markdown, []byte(tt.src))
			checkCoverage(t, []byte(tt.src), chunks)
			var crumbs []string
			for _, c := range chunks {
				crumbs = append(crumbs, c.Breadcrumb)
			}
			if !reflect.DeepEqual(crumbs, tt.crumbs) {
				t.Errorf("breadcrumbs %q, want %q", crumbs, tt.crumbs)
			}
		})
	}
}

func TestMarkdownBigSectionSplitsAtParagraphs(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Intro\n\n## Details\n\n")
	for p := 0; p < 40; p++ {
		fmt.Fprintf(&b, "Paragraph %d says something\nover two lines.\n\n", p)
	}
	b.WriteString("```\ncode line 1\n\ncode line 2 after a blank line\n```\n")
	src := []byte(b.String())
	chunks := Split("big.md", lang.Markdown, src)
	checkCoverage(t, src, chunks)
	if len(chunks) < 2 {
		t.Fatalf("got %d chunks, want the big section split", len(chunks))
	}
	for i, c := range chunks {
		if c.Breadcrumb != "Intro > Details" || c.Signature != "Details" {
			t.Errorf("chunk %d: breadcrumb %q signature %q", i, c.Breadcrumb, c.Signature)
		}
		if first := strings.SplitN(c.Content, "\n", 2)[0]; i > 0 && !strings.HasPrefix(first, "Paragraph") {
			t.Errorf("chunk %d starts mid-paragraph or inside the fence: %q", i, first)
		}
	}
}

func TestRSTAndAsciiDoc(t *testing.T) {
	tests := []struct {
		file, language string
		crumbs         []string
	}{
		{"manual.rst", lang.RST, []string{
			"Lore Manual",
			"Lore Manual > Installation > From source",
			"Lore Manual > Installation > Packages",
			"Lore Manual > Searching",
			"Lore Manual > Searching > Ranking",
		}},
		{"design.adoc", lang.AsciiDoc, []string{
			"Lore Design",
			"Lore Design > Storage > Schema",
			"Lore Design > Storage > Migrations",
			"Lore Design > Indexing",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src := readFixture(t, tt.file)
			chunks := Split(tt.file, tt.language, src)
			checkCoverage(t, src, chunks)
			var crumbs []string
			for _, c := range chunks {
				crumbs = append(crumbs, c.Breadcrumb)
			}
			if !reflect.DeepEqual(crumbs, tt.crumbs) {
				t.Errorf("breadcrumbs\n got: %q\nwant: %q", crumbs, tt.crumbs)
			}
		})
	}
}

func TestStripComment(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"// one", "one"},
		{"// a\n//\n// b", "a\n\nb"},
		{"/// doc", "doc"},
		{"//! inner", "inner"},
		{"# hash", "hash"},
		{"-- lua", "lua"},
		{"--- ldoc", "ldoc"},
		{"/* block */", "block"},
		{"/**\n * Javadoc.\n *\n * @param x thing\n */", "Javadoc.\n\n@param x thing"},
		{"/*\n   indented\n     more\n*/", "indented\n  more"},
		{"--[[ long\ncomment ]]", "long\ncomment"},
		{"=begin\nruby doc\n=end", "ruby doc"},
		{"/// <summary>Sum.</summary>", "Sum."},
	}
	for _, tt := range tests {
		if got := stripComment(tt.raw); got != tt.want {
			t.Errorf("stripComment(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
	docstrings := []struct{ raw, want string }{
		{`"""One line."""`, "One line."},
		{"\"\"\"Summary.\n\n    Details here.\n      Indented.\n    \"\"\"", "Summary.\n\nDetails here.\n  Indented."},
		{`r'''raw'''`, "raw"},
		{`"short"`, "short"},
	}
	for _, tt := range docstrings {
		if got := stripDocstring(tt.raw); got != tt.want {
			t.Errorf("stripDocstring(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// TestConcurrentSplit runs Split on every fixture from many goroutines and
// compares with a sequential run (with -race it also checks for races).
func TestConcurrentSplit(t *testing.T) {
	type input struct {
		name, language string
		src            []byte
		want           []Chunk
	}
	var inputs []input
	for _, fx := range fixtures {
		src := readFixture(t, fx.file)
		language := lang.Detect(fx.file, src)
		inputs = append(inputs, input{fx.file, language, src, Split(fx.file, language, src)})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range inputs {
				in := inputs[(i+g)%len(inputs)]
				if got := Split(in.name, in.language, in.src); !reflect.DeepEqual(got, in.want) {
					errs <- in.name
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for name := range errs {
		t.Errorf("%s: concurrent Split differs from sequential Split", name)
	}
}

func TestDeterministic(t *testing.T) {
	for _, fx := range fixtures {
		src := readFixture(t, fx.file)
		language := lang.Detect(fx.file, src)
		if a, b := Split(fx.file, language, src), Split(fx.file, language, src); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs differ", fx.file)
		}
	}
}

// BenchmarkSplit chunks every fixture once per iteration.
func BenchmarkSplit(b *testing.B) {
	names := fixtureFiles(b)
	type input struct {
		name, language string
		src            []byte
	}
	var inputs []input
	total := 0
	for _, name := range names {
		src := readFixture(b, name)
		inputs = append(inputs, input{name, lang.Detect(name, src), src})
		total += len(src)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, in := range inputs {
			Split(in.name, in.language, in.src)
		}
	}
}

// FuzzSplit checks the coverage invariant on arbitrary input in every
// language: go test -fuzz=FuzzSplit ./internal/chunk
func FuzzSplit(f *testing.F) {
	names := fixtureFiles(f)
	for i, name := range names {
		f.Add(uint8(i), readFixture(f, name))
	}
	f.Add(uint8(0), []byte("func (\n"))
	languages := append(lang.Grammars(), lang.Markdown, lang.RST, lang.AsciiDoc, lang.Text, "")
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		language := languages[int(which)%len(languages)]
		checkCoverage(t, src, Split("fuzz", language, src))
	})
}

// TestLargeFilesStayLinear guards against quadratic work: big generated
// files with many definitions, headings or paragraphs must chunk quickly
// (the bound is generous so that a loaded machine does not fail it; a
// quadratic algorithm takes minutes on these inputs).
func TestLargeFilesStayLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	gen := func(n int, format string) []byte {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, format, i, i)
		}
		return []byte(b.String())
	}
	tests := []struct {
		language string
		src      []byte
	}{
		{"go", append([]byte("package p\n\n"), gen(15000, "// F%d doubles.\nfunc F%d(x int) int { return 2 * x }\n\n")...)},
		{"python", gen(15000, "class C%d:\n    def m%d(self):\n        return 1\n\n")},
		{"javascript", append([]byte("class Big {\n"), append(gen(15000, "  m%d() { return %d; }\n"), "}\n"...)...)},
		{lang.Markdown, gen(15000, "## Section %d\n\nText %d.\n\n")},
		{lang.Text, gen(30000, "paragraph %d\nline %d\n\n")},
	}
	for _, tt := range tests {
		start := time.Now()
		chunks := Split("big", tt.language, tt.src)
		if elapsed := time.Since(start); elapsed > 20*time.Second {
			t.Errorf("%s: %d bytes took %v", tt.language, len(tt.src), elapsed)
		}
		checkCoverage(t, tt.src, chunks)
	}
}

// TestLongCommentsAreSplit checks that long comments, attached or not, do
// not make oversized chunks.
func TestLongCommentsAreSplit(t *testing.T) {
	var b strings.Builder
	b.WriteString("#include <stddef.h>\n\n")
	for d := 0; d < 6; d++ {
		b.WriteString("/*\n")
		for p := 0; p < 8; p++ {
			for l := 0; l < 12; l++ {
				fmt.Fprintf(&b, "   Declaration %d, paragraph %d, line %d of its documentation.\n", d, p, l)
			}
			b.WriteString("\n")
		}
		b.WriteString("*/\n")
		if d%2 == 0 {
			b.WriteString("\n") // a detached comment
		}
		fmt.Fprintf(&b, "int decl%d(int x);\n\n", d)
	}
	src := []byte(b.String())
	chunks := Split("big.h", "c", src)
	checkCoverage(t, src, chunks)
	for _, c := range chunks {
		if n := c.EndLine - c.StartLine + 1; n > maxChunkLines+2 || len(c.Content) > maxChunkBytes+200 {
			t.Errorf("chunk %d-%d (%s %v) is %d lines, %d bytes", c.StartLine, c.EndLine, c.Kind, c.Symbols, n, len(c.Content))
		}
	}
	for d := 0; d < 6; d++ {
		if _, ok := findChunk(chunks, fmt.Sprintf("decl%d", d), ""); !ok {
			t.Errorf("decl%d has no chunk", d)
		}
	}
}

const goBig = "package p\n\nfunc big() {\n\tprintln(1)\n\tprintln(2)\n\tprintln(3)\n\tprintln(4)\n}\n\n"

// TestMergedRunBreadcrumb: a run of one-line methods keeps the breadcrumb
// its members share, and a stray statement does not take it away.
func TestMergedRunBreadcrumb(t *testing.T) {
	tests := []struct {
		name, language, src string
		crumb, kind         string
	}{
		{"same receiver", "go", "package p\n\nfunc (a *A) X() int { return 1 }\nfunc (a *A) Y() int { return 2 }\n", "A", KindMixed},
		{"different receivers", "go", goBig + "func (a *A) Pos() int { return 1 }\nfunc (b *B) Pos() int { return 2 }\n", "", KindMethod},
		{"stray statement", "javascript", "Q.prototype.p = function p() {\n  return 1;\n};\n\nmodule.exports = Q;\n", "Q", KindMethod},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks := Split("f", tt.language, []byte(tt.src))
			checkCoverage(t, []byte(tt.src), chunks)
			last := chunks[len(chunks)-1]
			if last.Breadcrumb != tt.crumb || last.Kind != tt.kind {
				t.Errorf("last chunk: breadcrumb %q kind %q, want %q %q (%+v)", last.Breadcrumb, last.Kind, tt.crumb, tt.kind, chunks)
			}
		})
	}
}

// TestConcurrentChunkingIsDeterministic chunks every fixture, and Lua
// with long brackets (whose scanner keeps state in C globals), on several
// goroutines at once: each answer equals the one chunking alone gives.
func TestConcurrentChunkingIsDeterministic(t *testing.T) {
	type input struct {
		name, language string
		src            []byte
	}
	var inputs []input
	for _, name := range fixtureFiles(t) {
		src := readFixture(t, name)
		inputs = append(inputs, input{name, lang.Detect(name, src), src})
	}
	var lua strings.Builder
	for i := range 8 {
		level := strings.Repeat("=", i%3)
		body := strings.Repeat(fmt.Sprintf("  line of text %d, ]] ]=] and [[ inside\n", i), 30)
		fmt.Fprintf(&lua, "local s%d = [%s[\n%s]%s]\n--[%s[ a long\n%s]%s]\nfunction f%d(x)\n  return s%d .. x\nend\n\n", i, level, body, level, level, body, level, i, i)
	}
	inputs = append(inputs, input{"long.lua", "lua", []byte(lua.String())})
	want := make([]string, len(inputs))
	for i, in := range inputs {
		chunks, syms := Analyze(in.name, in.language, in.src)
		want[i] = fmt.Sprint(chunks, syms)
	}
	// Every input a few times, then the Lua file many times: a clash of
	// two parses must fall inside the scanner's long bracket to show.
	rounds := make([][]int, 0, 10+100)
	all := make([]int, len(inputs))
	for i := range all {
		all[i] = i
	}
	for range 10 {
		rounds = append(rounds, all)
	}
	for range 100 {
		rounds = append(rounds, []int{len(inputs) - 1})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for round, which := range rounds {
				for _, i := range which {
					in := inputs[i]
					chunks, syms := Analyze(in.name, in.language, in.src)
					if got := fmt.Sprint(chunks, syms); got != want[i] {
						t.Errorf("%s, round %d: the chunks differ from chunking alone", in.name, round)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestLuaSyntaxTheGrammarCannotRead checks the repair of a Lua file with
// what the grammar cannot read: LuaCATS annotations ("table<1|2|3|4,
// integer>") and a call of a call ("f(a)()"; in telescope's pickers.lua
// and actions/init.lua such errors swallowed hundreds of lines of
// definitions into blocks). The rewrite keeps every offset, the rewritten
// source parses without error, so reparse keeps it, and the definitions
// after the statement keep their names; a file whose annotations parse
// keeps them as its doc comments.
func TestLuaSyntaxTheGrammarCannotRead(t *testing.T) {
	src := []byte("local M = {}\n\n---@class popup_options\n  ---@field border table<1|2|3|4, integer>\n---@field width integer\n\n" +
		"--- Opens the window.\nfunction M.open(opts)\n  return opts -- done\nend\n\n" +
		"M.refresh = function(picker)\n  picker:get_status_updater(picker.prompt_win, picker.prompt_bufnr)()\nend\n" +
		"M.results_scrolling_up = function(prompt_bufnr)\n  scroll(prompt_bufnr, -1)\nend\n\n" +
		"--- Scroll the results window down\n---@param prompt_bufnr number: The prompt bufnr\n" +
		"M.results_scrolling_down = function(prompt_bufnr)\n  scroll(prompt_bufnr, 1)\nend\n\nreturn M\n")
	fixed := luaRepair(src)
	if len(fixed) != len(src) {
		t.Fatalf("rewrite changed the length: %d → %d", len(src), len(fixed))
	}
	want := strings.NewReplacer("---@", "-- @", "--- ", "--  ", "prompt_bufnr)()\n", "prompt_bufnr)  \n").Replace(string(src))
	if string(fixed) != want {
		t.Errorf("rewrite:\n%s\nwant:\n%s", fixed, want)
	}
	spec := specs["lua"]
	tree, err := spec.parse(src)
	if err != nil {
		t.Fatal(err)
	}
	before := errorBytes(tree.RootNode())
	if before == 0 {
		t.Fatal("the grammar reads the annotation now; the test needs another one it cannot read")
	}
	tree.Close()
	tree = spec.parseRepairing(src)
	defer tree.Close()
	if after := errorBytes(tree.RootNode()); after != 0 {
		t.Errorf("after repair %d bytes in error (before %d)", after, before)
	}
	chunks := Split("pickers.lua", "lua", src)
	checkCoverage(t, src, chunks)
	var named []string
	for _, c := range chunks {
		named = append(named, c.Symbols...)
	}
	for _, want := range []string{"open", "refresh", "results_scrolling_up", "results_scrolling_down"} {
		if !slices.Contains(named, want) {
			t.Errorf("%s is not defined by any chunk; chunks define %v", want, named)
		}
	}

	// Annotations the grammar reads stay documentation.
	good := []byte("---@class M\nlocal M = {}\n\n--- Opens the picker.\n---@param opts table\nfunction M.find(opts)\n  return opts\nend\n\nreturn M\n")
	for _, c := range Split("ok.lua", "lua", good) {
		if slices.Contains(c.Symbols, "find") && !strings.Contains(c.DocComment, "Opens the picker") {
			t.Errorf("find's doc comment is %q", c.DocComment)
		}
	}
}

// TestKotlinFunInterface checks the repair of Kotlin's functional
// interface ("fun interface Interceptor"), which the grammar predates: the
// rewrite keeps every offset and blanks only the modifier, and the file's
// chunks define the interface by name and kind, with its member; "fun"
// elsewhere (a function, an identifier holding it) is left alone.
func TestKotlinFunInterface(t *testing.T) {
	src := []byte("package okhttp3\n\n/** Observes requests. */\nfun interface Interceptor {\n  fun intercept(chain: Chain): Response\n\n" +
		"  companion object {\n    inline operator fun invoke(crossinline block: (Chain) -> Response): Interceptor =\n      Interceptor { block(it) }\n  }\n}\n\n" +
		"fun interfaceCount(): Int = 0\nval funInterface = 1\n")
	fixed := kotlinRepair(src)
	want := strings.Replace(string(src), "fun interface Interceptor", "    interface Interceptor", 1)
	if string(fixed) != want {
		t.Errorf("rewrite:\n%s\nwant:\n%s", fixed, want)
	}
	var kinds = map[string]string{}
	for _, c := range Split("Interceptor.kt", "kotlin", src) {
		for _, s := range c.Symbols {
			kinds[s] = c.Kind
		}
	}
	if kinds["Interceptor"] != KindInterface {
		t.Errorf("Interceptor is %q, want an interface; chunks define %v", kinds["Interceptor"], kinds)
	}
	if _, ok := kinds["interfaceCount"]; !ok {
		t.Errorf("the function after the interface lost its name; chunks define %v", kinds)
	}
}

// TestLuaTypeAnnotations checks that the types a Lua file declares in
// LuaCATS annotations ("---@class PickerOptions", "---@alias SortOrder")
// are definitions: of a chunk that holds only annotations, which then
// takes the kind of what it declares, or of the table the annotation
// stands over ("---@class PickerDefaults" over "local Defaults = {…}").
func TestLuaTypeAnnotations(t *testing.T) {
	src := readFixture(t, "options.lua")
	chunks, file := Analyze("options.lua", "lua", src)
	checkCoverage(t, src, chunks)
	holder := map[string]Chunk{}
	for _, c := range chunks {
		for _, s := range c.Symbols {
			holder[s] = c
		}
	}
	for _, name := range []string{"SortOrder", "PickerOptions", "PickerLayout", "PickerDefaults", "merge"} {
		if _, ok := holder[name]; !ok {
			t.Errorf("no chunk defines %s; chunks: %+v", name, chunks)
		}
	}
	if c := holder["PickerDefaults"]; !slices.Contains(c.Symbols, "Defaults") {
		t.Errorf("PickerDefaults is not defined with the table it annotates: %v", c.Symbols)
	}
	if k := holder["PickerOptions"].Kind; k == KindBlock {
		t.Errorf("a chunk of class annotations is still a block")
	}
	kinds := map[string]string{}
	for _, d := range file.Definitions {
		kinds[d.Name] = d.Kind
		if d.Name == "PickerOptions" && (d.StartLine != 6 || d.EndLine != 9) {
			t.Errorf("PickerOptions spans %d-%d, want its annotation lines 6-9", d.StartLine, d.EndLine)
		}
	}
	for name, want := range map[string]string{"SortOrder": KindType, "PickerOptions": KindClass, "PickerLayout": KindClass, "PickerDefaults": KindClass} {
		if kinds[name] != want {
			t.Errorf("definition %s: kind %q, want %q", name, kinds[name], want)
		}
	}
	// A file without annotations is left as it was.
	plain := []byte("local M = {}\n-- @class is not an annotation here\nfunction M.f() end\nreturn M\n")
	for _, c := range Split("plain.lua", "lua", plain) {
		if slices.Contains(c.Symbols, "is") {
			t.Errorf("a plain comment read as a type: %v", c.Symbols)
		}
	}
}
