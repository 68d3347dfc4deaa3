package search

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

func TestAnalyze(t *testing.T) {
	tests := []struct {
		query    string
		symbolic bool
		words    []string
	}{
		{"RouteContext", true, []string{"routecontext"}},
		{"Mux", true, []string{"mux"}},
		{"parse_args", true, []string{"parse_args"}},
		{"fmt::format", true, []string{"fmt", "format"}},
		{"how does the router handle requests", false, []string{"router", "handle", "requests"}},
		{"the of and", false, []string{"the", "of", "and"}}, // only stop words: kept
	}
	for _, tt := range tests {
		q := Analyze(tt.query)
		var words []string
		for _, w := range q.Words {
			words = append(words, w.Text)
		}
		if q.Symbolic != tt.symbolic || !reflect.DeepEqual(words, tt.words) {
			t.Errorf("Analyze(%q) = symbolic %v words %v, want %v %v", tt.query, q.Symbolic, words, tt.symbolic, tt.words)
		}
	}
	q := Analyze("RouteContext")
	if !reflect.DeepEqual(q.Words[0].Parts, []string{"rout", "context"}) {
		t.Errorf("parts of RouteContext = %v", q.Words[0].Parts)
	}
}

func TestFileNamedAfterQuery(t *testing.T) {
	tests := []struct {
		query, path string
		want        float64
	}{
		{"how the Functor type class works", "core/cats/Functor.scala", 1},
		{"panic recovery middleware", "middleware/recoverer.go", 1},
		{"hash map resize", "src/hash_map.rs", 1},
		{"hash map resize", "src/hashmap.rs", 1},
		{"request logging", "middleware/logger.go", 1}, // logging and logger share a stem
		{"request timeout", "middleware/logger.go", 0},
		{"tree", "tree_test.go", 0},
		{"utility functions for MIME types", "lib/utils.js", 1}, // utility ↔ util
		{"database connection pooling", "src/conn_pool.rs", 0},  // conn alone is not the name
		{"connection pool", "src/conn.rs", 1},
	}
	for _, tt := range tests {
		if got := fileNamedAfterQuery(Analyze(tt.query), tt.path); got != tt.want {
			t.Errorf("fileNamedAfterQuery(%q, %q) = %v, want %v", tt.query, tt.path, got, tt.want)
		}
	}
}

func TestFolderNamedAfterQuery(t *testing.T) {
	q := Analyze("request logging middleware")
	if f := newFileFacts("middleware/logger.go", "go"); namedAfterQuery(q, f.folder, f.folderStem) != 1 {
		t.Errorf("middleware/ for a middleware query: not named after it")
	}
	if f := newFileFacts("logger.go", "go"); namedAfterQuery(q, f.folder, f.folderStem) != 0 {
		t.Errorf("a root file's folder matched")
	}
}

func TestExactSymbolMatch(t *testing.T) {
	tests := []struct {
		query   string
		symbols []string
		want    float64
	}{
		{"Serialize", []string{"Serialize", "serialize"}, 1},
		{"Serialize", []string{"Impl", "Serialize"}, 0.8},
		{"Serialize", []string{"serialize"}, 0.4},
		{"Serialize", []string{"Serializer"}, 0},
		{"parse_args", []string{"cli.parse_args"}, 1},
		{"route context", []string{"RouteContext"}, 0}, // prose: no exact identifier
	}
	for _, tt := range tests {
		got := exactSymbolMatch(Analyze(tt.query), &store.ChunkMeta{Symbols: strings.Join(tt.symbols, "\n")})
		if got != tt.want {
			t.Errorf("exactSymbolMatch(%q, %v) = %v, want %v", tt.query, tt.symbols, got, tt.want)
		}
	}
}

func TestTypeDefinitionAndKinds(t *testing.T) {
	if typeDefinition(Analyze("Mux"), &store.ChunkMeta{Kind: "struct"}) != 1 {
		t.Error("a capitalised query does not favour a struct")
	}
	if typeDefinition(Analyze("mux"), &store.ChunkMeta{Kind: "struct"}) != 0 {
		t.Error("a lower-case query favours a struct")
	}
	if typeDefinition(Analyze("Mux"), &store.ChunkMeta{Kind: "function"}) != 0 {
		t.Error("a function counted as a type definition")
	}
	for kind, want := range map[string]float64{"function": 1, "class": 1, "block": 0, "preamble": 0, "section": 0, "mixed": 0} {
		if got := definitionKind(kind); got != want {
			t.Errorf("definitionKind(%q) = %v, want %v", kind, got, want)
		}
	}
}

func TestLowValuePaths(t *testing.T) {
	tests := map[string]bool{
		"mux.go": false, "mux_test.go": true, "tests/test_main.py": true, "src/test_utils.py": true,
		"src/main/java/GsonTest.java": true, "lib/router.spec.ts": true, "vendor/x/y.go": true,
		"examples/basic/main.go": true, "src/latest.go": false, "contest/main.go": false,
		"api/v1/types.pb.go": true, "docs_src/tutorial/app.py": true,
	}
	for p, want := range tests {
		if got := isLowValuePath(p); got != want {
			t.Errorf("isLowValuePath(%q) = %v, want %v", p, got, want)
		}
	}
	if !queryMentionsTests(Analyze("unit tests for the router")) || queryMentionsTests(Analyze("router")) {
		t.Error("queryMentionsTests")
	}
	if !queryMentionsDocs(Analyze("installation guide")) || queryMentionsDocs(Analyze("install")) {
		t.Error("queryMentionsDocs")
	}
}

func TestCoverageAndFieldShare(t *testing.T) {
	q := Analyze("radix tree matching")
	c := &candidate{}
	c.whole = 1<<0 | 1<<1
	c.nameHit = 1 << 1
	if got := wordCoverage(q, c); math.Abs(got-2.0/3) > 1e-9 {
		t.Errorf("wordCoverage = %v, want 2/3", got)
	}
	if got := wordShare(q, c.nameHit); math.Abs(got-1.0/3) > 1e-9 {
		t.Errorf("wordShare(name) = %v, want 1/3", got)
	}
	// A compound word counts by the share of its parts matched, at most 1.
	q = Analyze("RouteContext lookup")
	c = &candidate{}
	c.parts[0] = 1
	if got := wordCoverage(q, c); math.Abs(got-0.25) > 1e-9 {
		t.Errorf("wordCoverage with one of two parts = %v, want 1/4", got)
	}
	c.parts[0] = 3 // parts and a related term of the same word
	c.whole = 1 << 1
	if got := wordCoverage(q, c); got != 1 {
		t.Errorf("wordCoverage with every part and the other word = %v, want 1", got)
	}
}

func TestFusionAlpha(t *testing.T) {
	if fusionAlpha(0) != 0 || fusionAlpha(1) != 1 {
		t.Errorf("fusionAlpha endpoints: %v, %v", fusionAlpha(0), fusionAlpha(1))
	}
	prev := 0.0
	for w := 0.1; w < 1; w += 0.1 {
		a := fusionAlpha(w)
		if a <= prev || a >= 1 {
			t.Errorf("fusionAlpha(%v) = %v: not increasing in (0, 1)", w, a)
		}
		prev = a
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"**/*.go", "a/b/c.go", true},
		{"**/*.go", "c.go", true},
		{"*.go", "deep/dir/c.go", true}, // no slash: matches base names
		{"Sources/Auth/**", "Sources/Auth/Login/View.swift", true},
		{"Sources/Auth/**", "Sources/Other/View.swift", false},
		{"internal/search", "internal/search/rank.go", true},
		{"internal/search", "internal/searcher/x.go", false},
		{"src/[ab].c", "src/a.c", true},
		{"src/[!ab].c", "src/a.c", false},
		{"src/?.c", "src/ab.c", false},
	}
	for _, tt := range tests {
		m, err := compileGlob(tt.glob)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", tt.glob, err)
		}
		if got := m.match(tt.path); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
	if _, err := compileGlob("src/[ab"); err == nil {
		t.Error("an unclosed class compiled")
	}
}
