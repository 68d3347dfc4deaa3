package search

import (
	"context"
	"fmt"
	"maps"
	"math"
	"path"
	"reflect"
	"slices"
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
		{"standard library type Serialize implementations", "src/ser/impls.rs", 1}, // the beginning of a word
		{"compile the regexp into a program", "re2/prog.cc", 1},
		{"how EitherT combines monadic values", "cats/Monad.scala", 1},
		{"parse the form", "binding/format.go", 0}, // a name longer than the word
		{"the tree", "tr.go", 0},                   // too short to be a word's beginning
		{"implementations", "implement.go", 1},
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
		"_examples/rest/main.go": true, "src/__tests__/a.ts": true, "tests.go": false, "latest/x.go": false,
		"src/unix/darwin-stub.h": true, "store/mock_store.go": true, "clock/fake_clock.py": true,
		"src/stubborn.c": false, "mockingbird.go": false,
		// The conventions issue 11 names for monorepos.
		"packages/ui/src/__fixtures__/tree.ts": true, "internal/lsp/testdata/a.go": true,
		"packages/expect/src/jest-utils.spec.ts": true, "test/fixtures/config.js": true,
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

func TestFileEvidenceAndDiversity(t *testing.T) {
	saved := weights
	t.Cleanup(func() { weights = saved })
	weights.fileEvidence = 0.5
	rows := []store.ChunkMeta{{ID: 1, StartLine: 1}, {ID: 2, StartLine: 20}, {ID: 3, StartLine: 40}}
	chunk := func(i int, score, fileBonus float64) scored {
		return scored{row: &rows[i], score: score, fileBonus: fileBonus}
	}
	tests := []struct {
		name         string
		in           []scored // one file's chunks, best first
		wantEvidence []float64
		wantDiverse  []float64
	}{
		{"a lone chunk gets no evidence and keeps its bonus", []scored{chunk(0, 2, 1)}, []float64{2}, []float64{2}},
		{
			"the best chunk is lifted by the second, the others by the best",
			[]scored{chunk(0, 4, 1), chunk(1, 2, 1), chunk(2, 1, 1)},
			[]float64{4 + 0.5*2, 2 + 0.5*4, 1 + 0.5*4},
			// later chunks lose the file bonus (1 + the evidence they got)
			[]float64{4 + 0.5*2, 2 + 0.5*4 - (1 + 0.5*4), 1 + 0.5*4 - (1 + 0.5*4)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := append([]scored(nil), tt.in...)
			addFileEvidence(s)
			for i, want := range tt.wantEvidence {
				if math.Abs(s[i].score-want) > 1e-9 {
					t.Errorf("after evidence, chunk %d scores %v, want %v", i, s[i].score, want)
				}
			}
			diversify(s)
			for i, want := range tt.wantDiverse {
				if math.Abs(s[i].score-want) > 1e-9 {
					t.Errorf("after diversity, chunk %d scores %v, want %v", i, s[i].score, want)
				}
			}
		})
	}
}

func TestCompareScored(t *testing.T) {
	snap := &snapshot{files: []store.FileRow{{Path: "b.go"}, {Path: "a.go"}}}
	rows := []store.ChunkMeta{{ID: 1, StartLine: 10}, {ID: 2, StartLine: 5}, {ID: 3, StartLine: 5}}
	tests := []struct {
		name string
		a, b scored
		want int
	}{
		{"higher score first", scored{row: &rows[0], slot: 0, score: 2}, scored{row: &rows[1], slot: 1, score: 1}, -1},
		{"ties by path", scored{row: &rows[0], slot: 0, score: 1}, scored{row: &rows[1], slot: 1, score: 1}, 1},
		{"then by start line", scored{row: &rows[0], slot: 1, score: 1}, scored{row: &rows[1], slot: 1, score: 1}, 1},
		{"then by chunk id", scored{row: &rows[1], slot: 1, score: 1}, scored{row: &rows[2], slot: 1, score: 1}, -1},
	}
	for _, tt := range tests {
		if got := snap.compareScored(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: compareScored = %d, want %d", tt.name, got, tt.want)
		}
		if got := snap.compareScored(tt.b, tt.a); got != -tt.want {
			t.Errorf("%s: reversed compareScored = %d, want %d", tt.name, got, -tt.want)
		}
	}
}

func TestScoreFiles(t *testing.T) {
	// Two files of equal length: a.go mentions "router" in both chunks,
	// b.go in one; a.go also holds the query's second word.
	body := func(n uint16) [store.NumFields]uint16 { return [store.NumFields]uint16{store.FieldBody: n} }
	lens := &store.DocLens{IDs: []int64{1, 2, 3, 4}, Lens: [][store.NumFields]uint16{body(10), body(10), body(10), body(10)}}
	for f := range lens.Avg {
		lens.Avg[f] = 10
	}
	snap := &snapshot{files: []store.FileRow{{ID: 1, Path: "a.go"}, {ID: 2, Path: "b.go"}}, lens: lens,
		chunkFile: []int32{0, 0, 1, 1}}
	snap.stats = newFileStats(lens, make([]store.ChunkMeta, 4), snap.chunkFile, 2)
	q := Analyze("router tree")
	terms := q.lookupTerms()
	hits := make([][]store.PostingAt, len(terms))
	for i, qt := range terms {
		switch qt.term {
		case q.Words[0].Stem: // router
			hits[i] = []store.PostingAt{{Pos: 0, Freqs: body(2)}, {Pos: 1, Freqs: body(2)}, {Pos: 2, Freqs: body(2)}}
		case q.Words[1].Stem: // tree
			hits[i] = []store.PostingAt{{Pos: 1, Freqs: body(1)}}
		}
	}
	cands := scoreLexical(&candidates{}, q, terms, hits, snap, nil)
	files := scoreFiles(q, terms, hits, snap, cands, cands)
	a, b := files[0], files[1]
	if a == nil || b == nil {
		t.Fatalf("both files should be scored: %v, %v", a, b)
	}
	if a.score <= b.score {
		t.Errorf("a.go (both words, twice) scores %v, not above b.go (one word, once) %v", a.score, b.score)
	}
	// The best file's BM25 share is 1 and it holds every query word.
	if want := 1 + weights.fileCoverage; math.Abs(a.score-want) > 1e-9 {
		t.Errorf("a.go scores %v, want %v", a.score, want)
	}
	// A file none of whose chunks is in the top list is not scored.
	var onlyA []*candidate
	for _, c := range cands {
		if snap.chunkFile[c.pos] == 0 {
			onlyA = append(onlyA, c)
		}
	}
	if got := scoreFiles(q, terms, hits, snap, cands, onlyA); got[0] == nil || got[1] != nil {
		t.Errorf("with only a.go's chunks on top, scored files = %v, want a.go alone", got)
	}
}

func TestMarkSuperseded(t *testing.T) {
	tests := []struct {
		name  string
		paths []string
		want  []string // superseded folder per path, "" for current code
	}{
		{"older version beside a newer one",
			[]string{"src/v3/types.ts", "src/v4/core/schemas.ts", "src/index.ts"},
			[]string{"v3", "", ""}},
		{"a lone version folder is current",
			[]string{"api/v1/types.go", "api/server.go"},
			[]string{"", ""}},
		{"versions compare as numbers, per parent",
			[]string{"v2/a.go", "v10/a.go", "pkg/v1/b.go", "pkg/v2beta/b.go"},
			[]string{"v2", "", "", ""}},
		{"only v and digits name a version",
			[]string{"v+1/a.go", "v2/a.go", "vendor/a.go", "v2b/a.go"},
			[]string{"", "", "", ""}},
		{"a file named like a version is not a folder",
			[]string{"v1", "v2/x.go"},
			[]string{"", ""}},
		{"a version folder mirroring its parent is an older copy",
			[]string{"pkg/fields.py", "pkg/main.py", "pkg/types.py", "pkg/new.py",
				"pkg/v1/fields.py", "pkg/v1/main.py", "pkg/v1/types.py", "pkg/v1/old.py", "pkg/v1/sub/deep.py"},
			[]string{"", "", "", "", "v1", "v1", "v1", "v1", "v1"}},
		{"mirroring two files is not enough",
			[]string{"api/types.go", "api/doc.go", "api/v1/types.go", "api/v1/doc.go", "api/v1/service.go"},
			[]string{"", "", "", "", ""}},
		{"mirroring a minority of its files is not enough",
			[]string{"a/x.go", "a/y.go", "a/z.go", "a/v1/x.go", "a/v1/y.go", "a/v1/z.go",
				"a/v1/p.go", "a/v1/q.go", "a/v1/r.go", "a/v1/s.go"},
			[]string{"", "", "", "", "", "", "", "", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := make([]store.FileRow, len(tt.paths))
			facts := make([]*fileFacts, len(tt.paths))
			for i, p := range tt.paths {
				files[i] = store.FileRow{Path: p}
				facts[i] = newFileFacts(p, "")
			}
			markSuperseded(files, facts)
			for i, f := range facts {
				if f.superseded != tt.want[i] {
					t.Errorf("%s: superseded = %q, want %q", tt.paths[i], f.superseded, tt.want[i])
				}
			}
		})
	}
	// Naming the version keeps its code in place.
	if !Analyze("v3 compatibility error types").mentionsWord("v3") || Analyze("error types").mentionsWord("v3") {
		t.Error("mentionsWord")
	}
}

func TestMarkHeadersBesideSources(t *testing.T) {
	paths := []string{"src/idna.h", "src/idna.c", "include/uv.h", "src/unix/internal.h",
		"lib/widget.hpp", "lib/widget.cpp", "src/a.h", "other/a.c", "README.h"}
	want := []bool{true, false, false, false, true, false, false, false, false}
	files := make([]store.FileRow, len(paths))
	facts := make([]*fileFacts, len(paths))
	for i, p := range paths {
		files[i] = store.FileRow{Path: p}
		facts[i] = newFileFacts(p, "")
	}
	markHeadersBesideSources(files, facts)
	for i, f := range facts {
		if f.declares != want[i] {
			t.Errorf("%s: declares = %v, want %v", paths[i], f.declares, want[i])
		}
		if f.declares && files[f.source].Path != strings.TrimSuffix(paths[i], path.Ext(paths[i]))+path.Ext(files[f.source].Path) {
			t.Errorf("%s: source = %s, want its namesake", paths[i], files[f.source].Path)
		}
	}
}

func TestHeaderMultiplier(t *testing.T) {
	// Slot 0 is the header, slot 1 the source beside it.
	tests := []struct {
		name                     string
		query                    string
		declares                 bool
		headerLines, sourceLines int
		want                     float64
	}{
		{"a thin header, prose query", "domain name encoding", true, 40, 300, weights.headerBeside},
		{"a thin header, symbol query", "uv_idna_toascii", true, 40, 300, 1},
		{"a header longer than its source: the API", "split a string on commas", true, 587, 144, 1},
		{"a header as long as its source", "split a string on commas", true, 200, 200, 1},
		{"a header with no source beside it", "domain name encoding", false, 40, 300, 1},
	}
	for _, tt := range tests {
		files := []store.FileRow{{Path: "x.h", Lines: tt.headerLines}, {Path: "x.c", Lines: tt.sourceLines}}
		f := &fileFacts{declares: tt.declares, source: 1}
		if got := headerMultiplier(Analyze(tt.query), f, files, 0); got != tt.want {
			t.Errorf("%s: headerMultiplier = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestNamedAfterSubject(t *testing.T) {
	tests := []struct {
		query, file string
		want        float64
	}{
		{"ssh agent plugin for managing keys", "plugins/ssh.plugin.bash", 1},
		{"ssh agent plugin for managing keys", "plugins/agent.plugin.bash", 0},
		{"JSON request binding", "binding/json.go", 1},
		{"configuration loading", "cfg.go", 1}, // an abbreviation of the first word
		{"router", "router.go", 0},             // a one-word query has no subject to prefer
	}
	for _, tt := range tests {
		f := newFileFacts(tt.file, "")
		if got := namedAfterSubject(Analyze(tt.query), f.base, f.baseStem); got != tt.want {
			t.Errorf("namedAfterSubject(%q, %q) = %v, want %v", tt.query, tt.file, got, tt.want)
		}
	}
	// A first word found nearly everywhere names the project, not a subject.
	q := Analyze("chi route parameters")
	q.subjectShare = 0.6
	if f := newFileFacts("chi.go", ""); namedAfterSubject(q, f.base, f.baseStem) != 0 {
		t.Error("a common first word still counted as the subject")
	}
}

func TestFileMultiplier(t *testing.T) {
	tests := []struct {
		name       string
		query      string
		facts      fileFacts
		wantsTests bool
		want       float64
	}{
		{"plain code", "router", fileFacts{}, false, 1},
		{"a test file", "router", fileFacts{lowValue: true}, false, weights.lowValuePath},
		{"a test file when tests are asked for", "router tests", fileFacts{lowValue: true}, true, 1},
		{"an older version", "error types", fileFacts{superseded: "v3"}, false, weights.supersededPath},
		{"an older version the query names", "v3 error types", fileFacts{superseded: "v3"}, false, 1},
		{"a mock when mocks are asked for", "mock store", *newFileFacts("store/mock_store.go", "go"), false, 1},
		{"a mock otherwise", "session store", *newFileFacts("store/mock_store.go", "go"), false, weights.lowValuePath},
		{"a mock among tests when mocks are asked for", "mock store", *newFileFacts("tests/mock_store.go", "go"), false, weights.lowValuePath},
		{"tests when mocking is asked about", "vi.fn mock function implementation", *newFileFacts("test/unit/vi-fn.test.ts", "typescript"), false, weights.lowValuePath},
		{"demotions multiply", "error types", fileFacts{lowValue: true, superseded: "v1"}, false, weights.lowValuePath * weights.supersededPath},
		{"a manual page", "copy mode search", *newFileFacts("tmux.1", ""), false, weights.docFile},
	}
	for _, tt := range tests {
		if got := fileMultiplier(Analyze(tt.query), &tt.facts, tt.wantsTests, false); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: fileMultiplier = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestNamedAfterQueryAt(t *testing.T) {
	saved := weights
	t.Cleanup(func() { weights = saved })
	weights.namePosition, weights.namePositionWords = 0.45, 6
	long := "browse queues, retries, scheduled and dead jobs from Ruby code" // 7 words: code is a stop word
	tests := []struct {
		query, file string
		want        float64
	}{
		// A long description: the first word counts in full, later ones fade.
		{long, "lib/browse.rb", 1},
		{long, "lib/queues.rb", 1 - 1/(0.45*7)},
		{long, "lib/retry.rb", 1 - 2/(0.45*7)},
		{long, "lib/scheduled.rb", 1 - 3/(0.45*7)},
		{long, "lib/job.rb", 0}, // past 45 % of the query
		{long, "lib/api.rb", 0},
		// Of two words the file is named after, the earlier counts.
		{"browse jobs, queues, retries, scheduled and dead jobs from Ruby", "lib/job.rb", 1 - 1/(0.45*7)},
		// A query of six words or fewer: every word counts.
		{"write changed cells to the terminal using crossterm commands", "src/terminal.rs", 1},
		{"width precision fill and alignment format specifiers", "include/fmt/format.h", 1},
		// A pair run together counts at its first word.
		{"walk the JSON element tree depth first with head and tail callbacks", "JsonElement.java", 1 - 1/(0.45*9)},
	}
	for _, tt := range tests {
		f := newFileFacts(tt.file, "")
		if got := namedAfterQueryAt(Analyze(tt.query), f.base, f.baseStem); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("namedAfterQueryAt(%q, %q) = %v, want %v", tt.query, tt.file, got, tt.want)
		}
	}
	weights.namePosition = 0
	if f := newFileFacts("lib/job.rb", ""); namedAfterQueryAt(Analyze(long), f.base, f.baseStem) != 1 {
		t.Error("with namePosition 0 every word should count in full")
	}
}

func TestNamedAfterQueryAtWrittenPlaces(t *testing.T) {
	saved := weights
	t.Cleanup(func() { weights = saved })
	weights.namePosition, weights.namePositionWords = 0.45, 6
	tests := []struct {
		query, file string
		on, off     float64 // writtenPlaces true, false
	}{
		// Seven words split, five as written: short, every word counts.
		{"real-time channel messaging, topics, and join/leave", "lib/channel.ex", 1, 1 - 2/(0.45*7)},
		// Eight words split, seven as written: the file's word stands third, not fourth.
		{"fill numbered dollar-sign placeholders in a template string with values", "strings/placeholders.cc", 1 - 3/(0.45*7), 0},
		// No compound: the same either way.
		{"browse queues, retries, scheduled and dead jobs from Ruby code", "lib/queues.rb", 1 - 1/(0.45*7), 1 - 1/(0.45*7)},
	}
	for _, tt := range tests {
		f := newFileFacts(tt.file, "")
		for _, on := range []bool{true, false} {
			weights.writtenPlaces = on
			want := tt.off
			if on {
				want = tt.on
			}
			if got := namedAfterQueryAt(Analyze(tt.query), f.base, f.baseStem); math.Abs(got-want) > 1e-9 {
				t.Errorf("writtenPlaces %v: namedAfterQueryAt(%q, %q) = %v, want %v", on, tt.query, tt.file, got, want)
			}
		}
	}
}

func TestIsPrivateName(t *testing.T) {
	for p, want := range map[string]bool{
		"pydantic/_internal/_fields.py": true,
		"python/_re2.cc":                true,
		"pydantic/fields.py":            false,
		"pydantic/__init__.py":          false, // a package's public entry point
		"pydantic/_internal/utils.py":   false, // only the file's own name counts
	} {
		if got := isPrivateName(p); got != want {
			t.Errorf("isPrivateName(%q) = %v, want %v", p, got, want)
		}
	}
	saved := weights.privateNames
	t.Cleanup(func() { weights.privateNames = saved })
	weights.privateNames = false
	if !nameCounts(newFileFacts("pydantic/_internal/_fields.py", "python"), 1) {
		t.Error("switched off, a private file's name should count")
	}
}

func TestAskedKinds(t *testing.T) {
	saved := weights.kindAsked
	t.Cleanup(func() { weights.kindAsked = saved })
	weights.kindAsked = 0.5
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"Serialize and Serializer trait definitions", []string{"trait"}},
		{"how derive macros generate code for structs and enums", []string{"struct", "enum", "macro"}},
		{"emit the source code of a generated adapter class", []string{"class"}},
		{"JSON object with named fields", nil}, // object is a word of descriptions
		{"naming conventions for view modules", nil},
		{"RouteContext", nil}, // a symbol query
	} {
		if got := askedKinds(Analyze(c.query)); !slices.Equal(got, c.want) {
			t.Errorf("askedKinds(%q) = %v, want %v", c.query, got, c.want)
		}
	}
	weights.kindAsked = 0
	if got := askedKinds(Analyze("Serialize trait definitions")); got != nil {
		t.Errorf("switched off: askedKinds = %v", got)
	}
}

func TestNumberPlaces(t *testing.T) {
	q := Analyze("real-time channel messaging, topics, and join/leave")
	var got []int
	for _, w := range q.Words {
		got = append(got, w.place)
	}
	if want := []int{0, 0, 1, 2, 3, 4, 4}; !slices.Equal(got, want) || q.places != 5 {
		t.Errorf("places %v (%d), want %v (5)", got, q.places, want)
	}
}

func TestNameEvidenceScale(t *testing.T) {
	saved := weights
	t.Cleanup(func() { weights = saved })
	weights.nameFullWords = 5
	cases := []struct {
		query string
		want  float64
	}{
		{"JSON array operations", 1},
		{"request context lifecycle and helpers", 1}, // and: a stop word
		{"resolve the session, window or pane named by a -t target argument", 5.0 / 8},
	}
	for _, c := range cases {
		if got := nameEvidenceScale(Analyze(c.query)); got != c.want {
			t.Errorf("nameEvidenceScale(%q) = %v, want %v", c.query, got, c.want)
		}
	}
	weights.nameFullWords = 0
	if got := nameEvidenceScale(Analyze("resolve the session, window or pane named by a -t target argument")); got != 1 {
		t.Errorf("with nameFullWords 0: %v, want 1", got)
	}
}

func TestWeighAbbreviations(t *testing.T) {
	q := Analyze("request context")
	terms := []queryTerm{
		{term: "request", weight: 1, word: 0},
		{term: "req", weight: 0.6, word: 0, abbrev: true},
		{term: "context", weight: 1, word: 1},
		{term: "ctx", weight: 0.6, word: 1, abbrev: true},
	}
	postings := func(n int) []store.PostingAt { return make([]store.PostingAt, n) }
	// The code writes req three times as often as request, and context
	// nine times as often as ctx.
	hits := [][]store.PostingAt{postings(10), postings(30), postings(90), postings(10)}
	fresh := func() []queryTerm { return append([]queryTerm(nil), terms...) }
	check := func(minShare float64, q Query, terms []queryTerm, hits [][]store.PostingAt, want []float64) {
		t.Helper()
		old := weights.abbrevMinShare
		defer func() { weights.abbrevMinShare = old }()
		weights.abbrevMinShare = minShare
		weighAbbreviations(q, terms, hits)
		for i, w := range want {
			if math.Abs(terms[i].weight-w) > 1e-12 {
				t.Errorf("minShare %v: term %s weighs %v, want %v", minShare, terms[i].term, terms[i].weight, w)
			}
		}
	}
	check(0, q, fresh(), hits, []float64{1, 0.6 * 30 / 40, 1, 0.6 * 10 / 100})
	// ctx is in a tenth of the chunks holding it or context: not read.
	check(0.35, q, fresh(), hits, []float64{1, 0.6 * 30 / 40, 1, 0})
	// A query that writes the short form too reads it whatever its share.
	q2 := Analyze("environment env")
	terms2 := []queryTerm{
		{term: "environ", weight: 1, word: 0},
		{term: "env", weight: 1, word: 0, abbrev: true},
	}
	check(0.35, q2, terms2, [][]store.PostingAt{postings(90), postings(10)}, []float64{1, 0.1})
	// Flat abbreviations (abbrevByUse off) are cut by the same share.
	defer func(old bool) { weights.abbrevByUse = old }(weights.abbrevByUse)
	weights.abbrevByUse = false
	check(0.35, q, fresh(), hits, []float64{1, 0.6, 1, 0})
}

func TestWindowsPaths(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"src/win/tty.c", true},
		{"src/terminal_windows.go", true},
		{"rich/_win32_console.py", true},
		{"include/spdlog/sinks/wincolor_sink-inl.h", true},
		{"src/click/_winconsole.py", true},
		{"util/env_windows.cc", true},
		{"src/unix/tty.c", false},
		{"src/window.c", false},
		{"lua/telescope/pickers/window.lua", false},
		{"src/winner.go", false},
		{"lib/twin/pair.rb", false},
	}
	for _, c := range cases {
		if got := isWindowsPath(c.path); got != c.want {
			t.Errorf("isWindowsPath(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestCIPaths(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"ci/linux_clang-latest_libcxx_bazel.sh", true},
		{"scripts/ci/run-tests.sh", true},
		{"CI/build.ps1", true},
		{"_ci/setup.py", true},
		{"ci.go", false}, // a file named ci, not under a ci folder
		{"src/circle/ci_test_runner.c", false},
		{"lib/cipher/aes.go", false},
		{"pkg/civil/date.go", false},
	}
	for _, c := range cases {
		if got := isCIPath(c.path); got != c.want {
			t.Errorf("isCIPath(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	facts := newFileFacts("ci/cmake_common.sh", "bash")
	if m := fileMultiplier(Analyze("attach context to an error keyed by a type URL"), facts, false, false); m != weights.lowValuePath {
		t.Errorf("a CI script for a question about the code: multiplier %v, want %v", m, weights.lowValuePath)
	}
	if m := fileMultiplier(Analyze("which compilers does CI build with"), facts, false, false); m != 1 {
		t.Errorf("a CI script for a question about CI: multiplier %v, want 1", m)
	}
}

func TestManualPaths(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"tmux.1", true},
		{"man/man1/fzf.1", true},
		{"man/bats.7.ronn", true},
		{"doc/perl/Foo.3pm", true},
		{"doc/benchmark.html", true},
		{"docs/api/index.htm", true},
		{"docs/src/components/ClientRedirects.astro", true},
		{"doc/.vitepress/theme/Layout.vue", true},
		{"src/components/Counter.vue", false},
		{"packages/ui/Modal.svelte", false},
		{"site/index.html", false},
		{"public/index.html", false},
		{"release-1.0", false},
		{"src/python3.11", false},
		{"lib/v1.2x3", false},
		{"src/main.c", false},
		{"README", false},
	}
	for _, c := range cases {
		if got := isManualPath(c.path); got != c.want {
			t.Errorf("isManualPath(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	q := Analyze("copy mode search documentation")
	if m := fileMultiplier(q, newFileFacts("tmux.1", ""), false, queryMentionsDocs(q)); m != 1 {
		t.Errorf("a manual page for a query asking for docs: multiplier %v, want 1", m)
	}
}

func TestWindowsPortDemoted(t *testing.T) {
	f := newFileFacts("src/win/tty.c", "c")
	// A terminal's window is not the platform, although the stems meet.
	for _, q := range []string{"tty raw mode", "tty terminal raw mode and window size"} {
		if m := fileMultiplier(Analyze(q), f, false, false); m != weights.windowsVariant {
			t.Errorf("%q: multiplier %v, want %v", q, m, weights.windowsVariant)
		}
	}
	for _, q := range []string{"tty raw mode on Windows", "win32 console tty"} {
		if m := fileMultiplier(Analyze(q), f, false, false); m != 1 {
			t.Errorf("%q: multiplier %v, want 1 when the query names Windows", q, m)
		}
	}
}

func TestQualifiedSymbolMatch(t *testing.T) {
	cases := []struct {
		query, symbols, file string
		want                 float64
	}{
		{"Decoder.instance", "instance", "Decoder.scala", 1},                      // the member, in the file named after its qualifier
		{"Decoder.instance", "Decoder", "Decoder.scala", 0},                       // the qualifier's own definition
		{"Decoder.instance", "instance", "Encoder.scala", 0.5},                    // a member of that name elsewhere
		{"Rect::intersection", "Rect::intersection", "rect.rs", 1},                // stored qualified
		{"Runner.prototype.grep", "Runner.grep", "runner.js", 1},                  // qualifier of the symbol itself
		{"Rack::Response", "Response", "response.rb", 0.5},                        // file named after the member, not the qualifier
		{"instance", "instance", "Decoder.scala", 0},                              // nothing qualified
		{"how Decoder.instance builds a decoder", "instance", "Decoder.scala", 0}, // prose
	}
	for _, c := range cases {
		f := newFileFacts(c.file, "")
		got := qualifiedSymbolMatch(Analyze(c.query), &store.ChunkMeta{Symbols: c.symbols}, f.base)
		if got != c.want {
			t.Errorf("qualifiedSymbolMatch(%q, %q in %s) = %v, want %v", c.query, c.symbols, c.file, got, c.want)
		}
	}
}

func TestLiteralNameHits(t *testing.T) {
	saved := weights
	t.Cleanup(func() { weights = saved })
	cases := []struct {
		query string
		path  string
		want  uint16
	}{
		{"Router", "middleware/route_headers.go", 0},     // router and route share a stem only
		{"Router", "router.go", 1},                       // named as written
		{"Router", "chi_router_test.go", 1},              // the name holds the word
		{"Bloom", "bloom_filter.cc", 1},                  // a prefix of the name
		{"drain_queue", "lib/oban/queues/drainer.ex", 1}, // a compound's parts keep the stem's reach
		{"NewBloomFilterPolicy", "util/bloom.cc", 1},     // the word holds the name
	}
	for _, c := range cases {
		f := newFileFacts(c.path, "")
		if got := literalNameHits(Analyze(c.query), 1, f.base); got != c.want {
			t.Errorf("literalNameHits(%q, %s) = %b, want %b", c.query, c.path, got, c.want)
		}
	}
}

func TestImplementerFiles(t *testing.T) {
	saved := weights
	t.Cleanup(func() { weights = saved })
	weights.implementer, weights.implementerMax = 0.5, 1
	impl := map[string][]int32{"Router": {4}, "Handler": {1, 2, 3}}
	cases := []struct {
		query string
		want  map[int32]bool
	}{
		{"Router", map[int32]bool{4: true}},    // the one implementation
		{"Handler", nil},                       // too many to single out
		{"Mux", nil},                           // nothing implements it
		{"how the router matches routes", nil}, // prose: no symbol named
	}
	for _, c := range cases {
		if got := implementerFiles(Analyze(c.query), impl); !maps.Equal(got, c.want) {
			t.Errorf("implementerFiles(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

func TestSubjectEligible(t *testing.T) {
	tests := []struct {
		name                 string
		nameShare, bar, mult float64
		want                 bool
	}{
		{"the name holding the most query words", 0.5, 0.5, 1, true},
		{"a tie with another name", 0.25, 0.25, 1, true},
		{"another name holds more query words", 0.25, 0.5, 1, false},
		{"a demoted file (test, fixture, documentation)", 0.5, 0.5, 0.3, false},
		{"no bar: nothing else named after a query word", 0.25, 0, 1, true},
	}
	for _, tt := range tests {
		if got := subjectEligible(tt.nameShare, tt.bar, tt.mult); got != tt.want {
			t.Errorf("%s: subjectEligible(%v, %v, %v) = %v, want %v", tt.name, tt.nameShare, tt.bar, tt.mult, got, tt.want)
		}
	}
}

// TestSubjectYieldsToCloserName checks, end to end, that the file named
// after the query's first word earns the subject bonus when no other
// implementation file's name holds more of the query's words, and not when
// one does, nor when it is a test.
func TestSubjectYieldsToCloserName(t *testing.T) {
	files := map[string]string{
		"codec.go":             "package c\n\n// Codec encodes and decodes values.\nfunc Codec(v any) any { return v }\n",
		"enumeration_codec.go": "package c\n\n// EnumCodec encodes enumeration values by name.\nfunc EnumCodec(v any) any { return v }\n",
		"stream.go":            "package c\n\n// Stream writes values to a stream.\nfunc Stream(v any) any { return v }\n",
		"testdata/codec.go":    "package c\n\n// CodecFixture holds stream values for the tests.\nfunc CodecFixture() {}\n",
	}
	// Unrelated files keep the first word distinctive (subjectMaxShare).
	for i := range 12 {
		files[fmt.Sprintf("other%d.go", i)] = fmt.Sprintf("package c\n\n// Other%d parses flags.\nfunc Other%d() {}\n", i, i)
	}
	e := engineOver(t, files)
	// scoreOf is the score of path's best chunk for query, with and
	// without the subject bonus.
	scoreOf := func(query, path string) (on, off float64) {
		t.Helper()
		find := func() float64 {
			resp, err := e.Search(context.Background(), Options{Query: query, Limit: 10})
			if err != nil {
				t.Fatalf("search %q: %v", query, err)
			}
			for _, r := range resp.Results {
				if r.Path == path {
					return r.Score
				}
			}
			t.Fatalf("search %q: %s not among %d results", query, path, len(resp.Results))
			return 0
		}
		on = find()
		old := weights.fileNameSubject
		weights.fileNameSubject = 0
		defer func() { weights.fileNameSubject = old }()
		return on, find()
	}
	tests := []struct {
		query, path string
		bonus       bool
	}{
		{"codec stream values", "codec.go", true},                       // no name holds more query words
		{"codec for enumeration values", "codec.go", false},             // enumeration_codec.go holds two
		{"codec stream values", "testdata/codec.go", false},             // test data named after the subject
		{"codec for enumeration values", "enumeration_codec.go", false}, // not named after the first word
	}
	for _, tt := range tests {
		on, off := scoreOf(tt.query, tt.path)
		if got := on > off; got != tt.bonus {
			t.Errorf("%q, %s: score %v with the subject bonus, %v without; want a bonus: %v", tt.query, tt.path, on, off, tt.bonus)
		}
	}
}

func TestMarkPrivateTwins(t *testing.T) {
	paths := []string{"pydantic/fields.py", "pydantic/_internal/_fields.py", "httpx/_client.py", "lib/__init__.py", "src/_re2.cc", "src/re2.cc"}
	facts := make([]*fileFacts, len(paths))
	for i, p := range paths {
		facts[i] = newFileFacts(p, "")
	}
	markPrivateTwins(facts)
	want := map[string]bool{"pydantic/_internal/_fields.py": true, "src/_re2.cc": true}
	for i, p := range paths {
		if facts[i].privateTwin != want[p] {
			t.Errorf("%s: privateTwin = %v, want %v", p, facts[i].privateTwin, want[p])
		}
	}
}

func TestNameCounts(t *testing.T) {
	q := Analyze("tty raw mode")
	cases := []struct {
		name       string
		facts      fileFacts
		wantsTests bool
		want       bool
	}{
		{"an implementation file", fileFacts{}, false, true},
		{"a test the query did not ask for", fileFacts{lowValue: true}, false, false},
		{"a test the query asks for", fileFacts{lowValue: true}, true, true},
		{"a Windows port", fileFacts{windows: true}, false, false},
		{"an older version", fileFacts{superseded: "v1"}, false, false},
		{"documentation", fileFacts{doc: true}, false, true},
		{"a manual page", fileFacts{manual: true}, false, true},
		{"a private file with a public twin", fileFacts{private: true, privateTwin: true}, false, false},
		{"a private file without one", fileFacts{private: true}, false, true},
	}
	for _, c := range cases {
		m := fileMultiplier(q, &c.facts, c.wantsTests, false)
		if got := nameCounts(&c.facts, m); got != c.want {
			t.Errorf("%s: nameCounts = %v, want %v (multiplier %v)", c.name, got, c.want, m)
		}
	}
}

func TestDeclarationsOnlyDemoted(t *testing.T) {
	// Enough fields that each declaration is a chunk of its own.
	var fields strings.Builder
	for i := range 12 {
		fmt.Fprintf(&fields, "  field%d: string // a field of the form state kept for submission number %d\n", i, i)
	}
	e := engineOver(t, map[string]string{
		"types/form.ts": "export type FormState = {\n  isSubmitting: boolean\n  errors: FieldErrors\n" + fields.String() + "}\n\n" +
			"export type SubmitHandler<T> = (data: T, state: FormState) => void\n\n" +
			"export interface FormSubmitOptions {\n  validate: boolean\n  submitHandler: SubmitHandler<unknown>\n" + fields.String() + "}\n",
		"logic/submit.ts": `export function handleSubmit(state: FormState, onSubmit: SubmitHandler<unknown>) {
  if (validateForm(state)) {
    state.isSubmitting = true
    onSubmit(state)
  }
}
`,
	})
	tests := []struct {
		query, first string
	}{
		{"how the form state is submitted by the submit handler", "logic/submit.ts"},
		{"form submit handler type", "types/form.ts"},
		{"FormSubmitOptions", "types/form.ts"},
	}
	for _, tt := range tests {
		resp, err := e.Search(context.Background(), Options{Query: tt.query})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) == 0 || resp.Results[0].Path != tt.first {
			t.Errorf("%q: first result %v, want %s", tt.query, resp.Results, tt.first)
		}
	}
	snap, err := e.load(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	for slot, f := range snap.files {
		if got, want := snap.stats.declarationsOnly(int32(slot)), f.Path == "types/form.ts"; got != want {
			t.Errorf("%s: declarationsOnly %v, want %v", f.Path, got, want)
		}
	}
}
