package files

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/fsroot"
)

func searchFixture(t testing.TB) *fixture {
	return newFixture(t, map[string]string{
		"guide.md":         "# Guide\nUse the Widget carefully.\n",
		"api/widgets.md":   "## Widgets\nA widget is small.\n",
		"notes/.gitignore": "draft.md\n",
		"notes/draft.md":   "widget draft (ignored)\n",
		".hidden.md":       "widget hidden\n",
	}, map[string]string{
		"main.go":                "package main\n\n// NewWidget makes a widget.\nfunc NewWidget() {}\n",
		"pkg/widget.go":          "package pkg\n\ntype Widget struct{}\n\tvar w = WIDGET // indented\n",
		"pkg/widget_test.go":     "package pkg\n\nfunc TestWidget(t *testing.T) {}\n",
		"pkg/sub/deep.go":        "package sub // widget deep\n",
		"crlf.txt":               "widget one\r\nwidget two$\r\n",
		"unicode.txt":            "Über alles\nüber klein\nstraße\n",
		"long.txt":               strings.Repeat("a", 500) + "widget" + strings.Repeat("b", 500) + "\n",
		"tabs.txt":               "\t\t  widget indented  \t\n",
		"binary.bin":             "widget\x00binary",
		"node_modules/x/i.js":    "widget in node_modules\n",
		".env":                   "WIDGET_SECRET=1\n",
		"big.txt":                strings.Repeat("widget filler\n", fsroot.DefaultMaxFileSize/14+10),
		"link-out.txt":           "->../outside/secret.txt",
		"lines.txt":              "l1\nl2 widget\nl3\nl4 widget widget\n",
		"empty.txt":              "",
		"no-newline.txt":         "last widget",
		"regex.txt":              "foo123bar\nfoo bar\nFOO999BAR\n",
		"spaces.txt":             "x  widget\nxwidget\n",
		"invalid-utf8.txt":       "caf\xe9 widget\n",
		"windows/drive.txt":      "C:\\widget\\path\n",
		"z-last/widget.markdown": "widget\n",
	})
}

type hitKey struct {
	Repo, Path string
	Line       int
}

func keys(hits []SearchHit) []hitKey {
	out := make([]hitKey, len(hits))
	for i, h := range hits {
		out[i] = hitKey{h.Repo, h.Path, h.Line}
	}
	return out
}

func k(repo, path string, line int) hitKey { return hitKey{repo, path, line} }

func TestSearch(t *testing.T) {
	fx := searchFixture(t)
	ctx := context.Background()
	cases := []struct {
		name string
		q    SearchQuery
		want []hitKey
	}{
		{"case-insensitive literal over both repos, docs first", SearchQuery{Query: "widget", Path: "**/*.md"}, []hitKey{
			k("docs", "api/widgets.md", 1), k("docs", "api/widgets.md", 2), k("docs", "guide.md", 2),
		}},
		{"repo code, folder", SearchQuery{Query: "widget", Repo: "code", Path: "pkg"}, []hitKey{
			k("code", "pkg/sub/deep.go", 1), k("code", "pkg/widget.go", 3), k("code", "pkg/widget.go", 4), k("code", "pkg/widget_test.go", 3),
		}},
		{"case-sensitive", SearchQuery{Query: "WIDGET", Repo: "code", CaseSensitive: true}, []hitKey{
			k("code", "pkg/widget.go", 4),
		}},
		{"single file", SearchQuery{Query: "widget", Path: "lines.txt"}, []hitKey{
			k("code", "lines.txt", 2), k("code", "lines.txt", 4),
		}},
		{"glob by name", SearchQuery{Query: "widget", Path: "*_test.go"}, []hitKey{
			k("code", "pkg/widget_test.go", 3),
		}},
		{"glob by path", SearchQuery{Query: "package", Path: "pkg/*.go"}, []hitKey{
			k("code", "pkg/widget.go", 1), k("code", "pkg/widget_test.go", 1),
		}},
		{"glob with **", SearchQuery{Query: "package", Path: "pkg/**/*.go"}, []hitKey{
			k("code", "pkg/sub/deep.go", 1), k("code", "pkg/widget.go", 1), k("code", "pkg/widget_test.go", 1),
		}},
		{"glob matching nothing", SearchQuery{Query: "widget", Path: "nowhere/**/*.go"}, nil},
		{"regex", SearchQuery{Query: `foo\d+bar`, Regex: true, Repo: "code"}, []hitKey{
			k("code", "regex.txt", 1), k("code", "regex.txt", 3),
		}},
		{"regex case-sensitive", SearchQuery{Query: `foo\d+bar`, Regex: true, CaseSensitive: true}, []hitKey{
			k("code", "regex.txt", 1),
		}},
		{"regex anchors are per line", SearchQuery{Query: `^widget two\$$`, Regex: true}, []hitKey{
			k("code", "crlf.txt", 2),
		}},
		{"regex without a literal", SearchQuery{Query: `^l\d$`, Regex: true}, []hitKey{
			k("code", "lines.txt", 1), k("code", "lines.txt", 3),
		}},
		{"regex alternation", SearchQuery{Query: `l1|l3`, Regex: true, Path: "lines.txt"}, []hitKey{
			k("code", "lines.txt", 1), k("code", "lines.txt", 3),
		}},
		{"regex never spans lines", SearchQuery{Query: `l1\nl2`, Regex: true}, nil},
		{"non-ASCII folding", SearchQuery{Query: "ÜBER"}, []hitKey{
			k("code", "unicode.txt", 1), k("code", "unicode.txt", 2),
		}},
		{"non-ASCII case-sensitive", SearchQuery{Query: "über", CaseSensitive: true}, []hitKey{
			k("code", "unicode.txt", 2),
		}},
		{"leading spaces are part of the query", SearchQuery{Query: "  widget"}, []hitKey{
			k("code", "spaces.txt", 1), k("code", "tabs.txt", 1),
		}},
		{"regex metacharacters are literal without Regex", SearchQuery{Query: `widget two$`}, []hitKey{
			k("code", "crlf.txt", 2),
		}},
		{"backslashes are literal", SearchQuery{Query: `C:\widget`}, []hitKey{
			k("code", "windows/drive.txt", 1),
		}},
		{"file without final newline", SearchQuery{Query: "last widget"}, []hitKey{
			k("code", "no-newline.txt", 1),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := fx.svc.Search(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := keys(res.Results); !slices.Equal(got, tc.want) {
				t.Fatalf("got  %v\nwant %v", got, tc.want)
			}
			if res.Truncated {
				t.Fatal("Truncated without a limit")
			}
		})
	}

	t.Run("skips binary, hidden, ignored, default-skipped, too large and out-of-root files", func(t *testing.T) {
		res, err := fx.svc.Search(ctx, SearchQuery{Query: "widget", Limit: MaxSearchLimit})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Results {
			switch h.Path {
			case "binary.bin", "notes/draft.md", ".hidden.md", "node_modules/x/i.js", ".env", "big.txt", "link-out.txt":
				t.Fatalf("searched %s/%s", h.Repo, h.Path)
			}
		}
		if len(res.Results) != 21 {
			t.Fatalf("got %d results, want 21: %v", len(res.Results), keys(res.Results))
		}
	})
	t.Run("limit and truncated", func(t *testing.T) {
		all, err := fx.svc.Search(ctx, SearchQuery{Query: "widget", Limit: MaxSearchLimit})
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int{1, 2, 5, 20, 21, 22} {
			res, err := fx.svc.Search(ctx, SearchQuery{Query: "widget", Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			n := min(limit, len(all.Results))
			if !slices.Equal(keys(res.Results), keys(all.Results[:n])) || res.Truncated != (limit < len(all.Results)) {
				t.Fatalf("limit %d: got %v (truncated %v), want the first %d of %v", limit, keys(res.Results), res.Truncated, n, keys(all.Results))
			}
		}
	})
	t.Run("previews", func(t *testing.T) {
		cases := []struct{ path, want string }{
			{"tabs.txt", "widget indented"},
			{"crlf.txt", "widget one"},
			{"invalid-utf8.txt", "caf\uFFFD widget"},
			{"long.txt", "…" + strings.Repeat("a", 97) + "widget" + strings.Repeat("b", 97) + "…"},
		}
		for _, tc := range cases {
			res, err := fx.svc.Search(ctx, SearchQuery{Query: "widget", Path: tc.path, Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Results) != 1 || res.Results[0].Preview != tc.want {
				t.Fatalf("%s: previews %+v, want %q", tc.path, res.Results, tc.want)
			}
		}
	})
	t.Run("same folder for docs and code is searched once, as docs", func(t *testing.T) {
		svc := New(openRoot(t, fx.code), openRoot(t, fx.code))
		res, err := svc.Search(ctx, SearchQuery{Query: "NewWidget"})
		if err != nil {
			t.Fatal(err)
		}
		if want := []hitKey{k("docs", "main.go", 3), k("docs", "main.go", 4)}; !slices.Equal(keys(res.Results), want) {
			t.Fatalf("got %v, want %v", keys(res.Results), want)
		}
	})
	t.Run("only one repo configured", func(t *testing.T) {
		svc := New(nil, openRoot(t, fx.code))
		res, err := svc.Search(ctx, SearchQuery{Query: "NewWidget", Repo: "both"})
		if err != nil || len(res.Results) != 2 {
			t.Fatalf("got %v, %v", res, err)
		}
	})
}

func TestSearchErrors(t *testing.T) {
	fx := searchFixture(t)
	ctx := context.Background()
	cases := []struct {
		name      string
		q         SearchQuery
		code, msg string
	}{
		{"empty", SearchQuery{Query: ""}, CodeQueryEmpty, "empty"},
		{"blank", SearchQuery{Query: " \t "}, CodeQueryEmpty, "empty"},
		{"multi-line", SearchQuery{Query: "a\nb"}, CodeInvalidArgument, "several lines"},
		{"bad regex", SearchQuery{Query: "a(b", Regex: true}, CodeInvalidArgument, "missing closing )"},
		{"negative limit", SearchQuery{Query: "x", Limit: -1}, CodeLimitInvalid, "-1"},
		{"limit too big", SearchQuery{Query: "x", Limit: MaxSearchLimit + 1}, CodeLimitInvalid, fmt.Sprint(MaxSearchLimit + 1)},
		{"bad repo", SearchQuery{Query: "x", Repo: "all"}, CodeRepoInvalid, `"all"`},
		{"dotdot", SearchQuery{Query: "x", Path: "../outside"}, CodeOutsideRoot, "'..'"},
		{"absolute", SearchQuery{Query: "x", Path: "/etc"}, CodeOutsideRoot, "absolute"},
		{"encoded", SearchQuery{Query: "x", Path: "%2e%2e%2foutside"}, CodeOutsideRoot, "URL-encoded"},
		{"nul", SearchQuery{Query: "x", Path: "pkg\x00"}, CodeOutsideRoot, "NUL"},
		{"symlink out", SearchQuery{Query: "x", Repo: "code", Path: "link-out.txt"}, CodeOutsideRoot, "link-out.txt"},
		{"glob with dotdot", SearchQuery{Query: "x", Path: "../*/secret.txt"}, CodeOutsideRoot, "'..'"},
		{"bad glob", SearchQuery{Query: "x", Path: "pkg/[a.go"}, CodeInvalidArgument, "[a.go"},
		{"bad double star", SearchQuery{Query: "x", Path: "pkg/a**/x.go"}, CodeInvalidArgument, "a**"},
		{"missing path", SearchQuery{Query: "x", Path: "nope"}, CodeNotFound, "nope"},
		{"hidden path", SearchQuery{Query: "x", Path: ".env"}, CodeNotFound, "hidden or ignored"},
		{"ignored folder", SearchQuery{Query: "x", Path: "node_modules"}, CodeNotFound, "hidden or ignored"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := fx.svc.Search(ctx, tc.q)
			requireError(t, err, tc.code, tc.msg)
		})
	}
	t.Run("no repo configured", func(t *testing.T) {
		_, err := New(nil, nil).Search(ctx, SearchQuery{Query: "x"})
		requireError(t, err, CodeRepoInvalid, "configured")
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := fx.svc.Search(cctx, SearchQuery{Query: "widget"}); err == nil || !strings.Contains(err.Error(), "cancelled") {
			t.Fatalf("Search with a cancelled context returned %v", err)
		}
	})
}

// referenceSearch is a deliberately simple, sequential implementation of
// the search order and semantics, to check the concurrent one against.
func referenceSearch(t testing.TB, roots map[string]*fsroot.Root, query string, re *regexp.Regexp) []hitKey {
	var out []hitKey
	for _, repo := range []string{RepoDocs, RepoCode} {
		err := roots[repo].Walk(context.Background(), fsroot.WalkOptions{}, func(f fsroot.File) error {
			data, err := os.ReadFile(f.Abs)
			if err != nil || fsroot.IsBinary(data) {
				return err
			}
			for i, line := range strings.Split(string(data), "\n") {
				line = strings.TrimSuffix(line, "\r")
				if (re != nil && re.MatchString(line)) || (re == nil && strings.Contains(strings.ToLower(line), strings.ToLower(query))) {
					out = append(out, hitKey{repo, f.Rel, i + 1})
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestSearchIsDeterministic checks, over a generated tree with matches in
// many files, that every limit gives exactly the first results of the
// complete ordered list, whatever the number of workers.
func TestSearchIsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"alpha", "Beta", "gamma", "DELTA", "needle", "Needle", "hay", "stack", "func", "return"}
	gen := func(n int) map[string]string {
		files := map[string]string{}
		for i := range n {
			var b strings.Builder
			for range rng.IntN(40) {
				for range 1 + rng.IntN(8) {
					b.WriteString(words[rng.IntN(len(words))] + " ")
				}
				b.WriteString("\n")
			}
			files[fmt.Sprintf("d%d/f%03d.txt", i%7, i)] = b.String()
		}
		return files
	}
	fx := newFixture(t, gen(60), gen(300))
	roots := map[string]*fsroot.Root{RepoDocs: openRoot(t, fx.docs), RepoCode: openRoot(t, fx.code)}

	for _, tc := range []struct {
		q  SearchQuery
		re *regexp.Regexp
	}{
		{SearchQuery{Query: "needle"}, nil},
		{SearchQuery{Query: `needle\s+(hay|stack)`, Regex: true}, regexp.MustCompile(`(?i)needle\s+(hay|stack)`)},
		{SearchQuery{Query: `^\w+ \w+ $`, Regex: true}, regexp.MustCompile(`(?i)^\w+ \w+ $`)},
	} {
		want := referenceSearch(t, roots, tc.q.Query, tc.re)
		if len(want) < 100 {
			t.Fatalf("fixture too small: %d matches", len(want))
		}
		for _, procs := range []int{1, 2, 8} {
			prev := runtime.GOMAXPROCS(procs)
			for _, limit := range []int{1, 7, 50, len(want) - 1, len(want), MaxSearchLimit} {
				for range 3 {
					q := tc.q
					q.Limit = limit
					res, err := fx.svc.Search(context.Background(), q)
					if err != nil {
						t.Fatal(err)
					}
					n := min(limit, len(want))
					if got := keys(res.Results); !slices.Equal(got, want[:n]) || res.Truncated != (limit < len(want)) {
						t.Fatalf("%q procs %d limit %d: got %d results (truncated %v), want the first %d of %d",
							tc.q.Query, procs, limit, len(got), res.Truncated, n, len(want))
					}
				}
			}
			runtime.GOMAXPROCS(prev)
		}
	}
}

func TestSearchResultJSON(t *testing.T) {
	res := &SearchResult{Results: []SearchHit{{Repo: "code", Path: "a.go", Line: 3, Preview: "x"}}}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"results":[{"repo":"code","path":"a.go","line":3,"preview":"x"}],"truncated":false}`
	if string(data) != want {
		t.Fatalf("JSON = %s, want %s", data, want)
	}
}

func TestMatcherInternals(t *testing.T) {
	t.Run("fold index picks a rare anchor and finds every case", func(t *testing.T) {
		f := newFoldIndex([]byte("quiet_e"))
		if f.lower[f.anchor] == 'e' {
			t.Fatalf("anchor %q is the most common letter", f.lower[f.anchor])
		}
		buf := []byte("xx QUIET_E yy quiet_e Quiet_E quiet_")
		var got []int
		for i := f.index(buf, 0); i >= 0; i = f.index(buf, i+1) {
			got = append(got, i)
		}
		if want := []int{3, 14, 22}; !slices.Equal(got, want) {
			t.Fatalf("found at %v, want %v", got, want)
		}
	})
	t.Run("any of several literals", func(t *testing.T) {
		cases := map[string][]string{`(TODO|FIXME)\(`: {"todo", "fixme"}, `(?i)foo(bar|bazz)`: nil, `(?i)fo(bar|qux)`: {"bar", "qux"}, `ab|cd`: nil,
			`(abc|d)x`: nil, `x(one|two|six)+`: {"one", "two", "six"}}
		for expr, want := range cases {
			m, err := newMatcher(expr, true, false)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if m.prefilter != nil {
				for _, l := range m.prefilter.anyOf {
					got = append(got, strings.ToLower(string(l.literal)))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("prefilter of %q = %q, want %q", expr, got, want)
			}
		}
		// It finds the first of them, whatever their order.
		m, _ := newMatcher(`(zeta|alpha)`, true, false)
		buf := []byte("x alpha zeta\nzeta alpha")
		var got []int
		for s, _ := m.prefilter.find(buf, 0); s >= 0; s, _ = m.prefilter.find(buf, s+1) {
			got = append(got, s)
		}
		if want := []int{2, 8, 13, 18}; !slices.Equal(got, want) {
			t.Errorf("found at %v, want %v", got, want)
		}
	})
	t.Run("required literal", func(t *testing.T) {
		cases := map[string]string{`foo\d+barbaz`: "barbaz", `(abc)+x`: "abc", `a|b`: "", `x*`: "", `(?i)Hello`: "hello", `\bword{2}`: "wor"}
		for expr, want := range cases {
			m, err := newMatcher(expr, true, false)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if m.prefilter != nil {
				got = strings.ToLower(string(m.prefilter.literal))
			}
			if got != want {
				t.Errorf("prefilter of %q = %q, want %q", expr, got, want)
			}
		}
	})
}

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		glob, rel string
		want      bool
	}{
		{"*.go", "a.go", true},
		{"*.go", "x/y/a.go", true},
		{"*.go", "a.md", false},
		{"pkg/*.go", "pkg/a.go", true},
		{"pkg/*.go", "pkg/sub/a.go", false},
		{"pkg/**/*.go", "pkg/a.go", true},
		{"pkg/**/*.go", "pkg/x/y/a.go", true},
		{"**/test/*.go", "test/a.go", true},
		{"**/test/*.go", "a/test/b.go", true},
		{"pkg/**", "pkg/a/b", true},
		{"pkg/**", "other/a", false},
		{"p?g/[ab].go", "pkg/a.go", true},
	}
	for _, tc := range cases {
		g, _, err := compileGlob(tc.glob)
		if err != nil {
			t.Fatal(err)
		}
		if got := globMatch(g, tc.rel); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.glob, tc.rel, got, tc.want)
		}
	}
	for glob, dir := range map[string]string{"*.go": "", "pkg/*.go": "pkg", "a/b/**/c/*.go": "a/b", "a/*/c.go": "a"} {
		if _, got, _ := compileGlob(glob); got != dir {
			t.Errorf("folder of %q = %q, want %q", glob, got, dir)
		}
	}
}

// writeLines writes n generated lines to path (used by the benchmark).
func writeLines(t testing.TB, path string, lines []string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMatcherAgreesWithRegexp checks, on random lines and regexes with
// alternations (where prefilters find any of several literals), that the
// matcher reports exactly the lines the regexp package matches.
func TestMatcherAgreesWithRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	words := []string{"todo", "TODO", "fixme", "Fix", "alpha", "zeta", "(", ")", " ", "x", "ſ", "K", "\u212a"}
	for range 2000 {
		var buf strings.Builder
		for range rng.IntN(12) {
			for range rng.IntN(6) {
				buf.WriteString(words[rng.IntN(len(words))])
			}
			buf.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)])
		}
		alts := []string{"todo", "fixme", "alpha", "zeta", "fix"}
		expr := "(" + alts[rng.IntN(len(alts))] + "|" + alts[rng.IntN(len(alts))] + ")" + []string{"", `\(`, " ?", "+"}[rng.IntN(4)]
		if rng.IntN(2) == 0 {
			expr = "x?" + expr
		}
		caseSensitive := rng.IntN(2) == 0
		m, err := newMatcher(expr, true, caseSensitive)
		if err != nil {
			t.Fatal(err)
		}
		if !caseSensitive {
			expr = "(?i)" + expr
		}
		re := regexp.MustCompile(expr)
		var want, got []int
		for i, line := range strings.Split(buf.String(), "\n") {
			if re.MatchString(strings.TrimSuffix(line, "\r")) {
				want = append(want, i+1)
			}
		}
		m.scan([]byte(buf.String()), 1<<30, func(h lineHit) { got = append(got, h.n) })
		if !slices.Equal(got, want) {
			t.Fatalf("%s over %q: lines %v, want %v", expr, buf.String(), got, want)
		}
	}
}
