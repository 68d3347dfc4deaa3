package search

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/querylimit"
	"github.com/lore-dev/lore/internal/specs"
)

// testPackages is a small monorepo, as a store would load it.
func testPackages() []packages.Package {
	pkg := func(name, path, kind, desc string) packages.Package {
		return packages.Package{
			Name: name, Path: path, Kind: kind, Description: desc,
			Manifest:     path + "/package.json",
			Metadata:     map[string]any{},
			Dependencies: []packages.Dependency{},
		}
	}
	ui := pkg("@acme/ui", "packages/ui", packages.KindNPM, "Shared UI components")
	ui.Dependencies = []packages.Dependency{{Name: "@acme/utils", DepKind: packages.DepRuntime, IsInternal: true}}
	return []packages.Package{
		ui,
		pkg("@acme/utils", "packages/utils", packages.KindNPM, "Small helpers"),
		pkg("acme-lib", "libs/acme-lib", packages.KindNPM, "Numerical helpers for scientific code"),
		pkg("AcmeApi", "dotnet/AcmeApi", packages.KindNPM, "The public API"),
		pkg("widget", "packages/widget", packages.KindNPM, "Draws things"),
		pkg("gadget", "packages/gadget", packages.KindNPM, "Holds a widget and other things in a box"),
		pkg("foo-bar", "packages/foo-bar", packages.KindNPM, ""),
		pkg("bar-foo", "packages/bar-foo", packages.KindNPM, ""),
		pkg("crème", "packages/creme", packages.KindNPM, "Brûlée toppings"),
		pkg("twin", "b/twin", packages.KindNPM, "Identical"),
		pkg("twin", "a/twin", packages.KindNPM, "Identical"),
		pkg("server", "go/server", packages.KindGo, "HTTP server"),
	}
}

func pkgNames(pkgs []packages.Package) []string {
	out := []string{}
	for _, p := range pkgs {
		out = append(out, p.Name+"@"+p.Path)
	}
	return out
}

func TestPackageIndexSearch(t *testing.T) {
	x := NewPackageIndex(testPackages())
	for _, tc := range []struct {
		name, query string
		want        []string // the exact result
	}{
		{"one word", "widget", []string{"widget@packages/widget", "gadget@packages/gadget"}}, // a name match beats a description match
		{"case does not matter", "WIDGET", []string{"widget@packages/widget", "gadget@packages/gadget"}},
		{"diacritics do not matter", "Wídgét", []string{"widget@packages/widget", "gadget@packages/gadget"}},
		{"nor in the text", "creme brulee", []string{"crème@packages/creme"}},
		{"the last term is a prefix", "wid", []string{"widget@packages/widget", "gadget@packages/gadget"}},
		{"only the last term", "uti helpers", []string{"@acme/utils@packages/utils", "acme-lib@libs/acme-lib"}}, // "uti" matches nothing, so any term will do
		{"every term must match", "numerical helpers", []string{"acme-lib@libs/acme-lib"}},
		{"in any column", "helpers code", []string{"acme-lib@libs/acme-lib"}},
		{"else any term does", "numerical zebra", []string{"acme-lib@libs/acme-lib"}},
		{"a single unknown term finds nothing", "zebra", []string{}},
		{"OR results rank by BM25 too", "zebra widget", []string{"widget@packages/widget", "gadget@packages/gadget"}},
		{"a term with punctuation is a phrase", "foo-bar", []string{"foo-bar@packages/foo-bar"}},
		{"its words in that order", "bar-foo", []string{"bar-foo@packages/bar-foo"}},
		{"separate words in any order", "bar foo", []string{"bar-foo@packages/bar-foo", "foo-bar@packages/foo-bar"}},
		{"scoped npm name", "@acme/ui", []string{"@acme/ui@packages/ui"}},
		{"a name part", "api", []string{"AcmeApi@dotnet/AcmeApi"}},
		{"a path", "dotnet", []string{"AcmeApi@dotnet/AcmeApi"}},
		{"equal scores by name, then path", "identical", []string{"twin@a/twin", "twin@b/twin"}},
		{"query syntax is text", `"widget"*`, []string{"widget@packages/widget", "gadget@packages/gadget"}},
		{"only punctuation", "*** ---", []string{}},
		{"a repeated term counts once", "widget WIDGET widget", []string{"widget@packages/widget", "gadget@packages/gadget"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := x.Search(tc.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("nil result; want an empty slice")
			}
			if names := pkgNames(got); !slices.Equal(names, tc.want) {
				t.Errorf("Search(%q) = %v, want %v", tc.query, names, tc.want)
			}
		})
	}

	// Results are the packages given, dependencies and all.
	got, err := x.Search("@acme/ui", 1)
	if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], testPackages()[0]) {
		t.Errorf("Search(@acme/ui) = %+v, %v", got, err)
	}
}

func TestPackageIndexWeights(t *testing.T) {
	// The same word in one column of each package: name (10) > name parts
	// (5) > description (2) > path (1).
	x := NewPackageIndex([]packages.Package{
		{Name: "p1", Path: "x/kiwi", Description: "d"},
		{Name: "p2", Path: "x/p2", Description: "kiwi"},
		{Name: "kiwi", Path: "x/p3", Description: "d"},
		{Name: "BigKiwi", Path: "x/p4", Description: "d"},
	})
	got, err := x.Search("kiwi", 0)
	if err != nil {
		t.Fatal(err)
	}
	if names := pkgNames(got); !slices.Equal(names, []string{"kiwi@x/p3", "BigKiwi@x/p4", "p2@x/p2", "p1@x/kiwi"}) {
		t.Errorf("ranking = %v; want name, name parts, description, path", names)
	}
}

func TestPackageIndexDeterministic(t *testing.T) {
	pkgs := testPackages()
	want, err := NewPackageIndex(pkgs).Search("a", 100)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 10; i++ {
		shuffled := slices.Clone(pkgs)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		x := NewPackageIndex(shuffled)
		for j := 0; j < 3; j++ {
			got, err := x.Search("a", 100)
			if err != nil || !slices.Equal(pkgNames(got), pkgNames(want)) {
				t.Fatalf("order changed with the input order: %v vs %v (%v)", pkgNames(got), pkgNames(want), err)
			}
		}
	}
}

func TestPackageIndexLimits(t *testing.T) {
	var pkgs []packages.Package
	for i := 0; i < packages.MaxSearchLimit+50; i++ {
		pkgs = append(pkgs, packages.Package{Name: fmt.Sprintf("lib%04d", i), Path: fmt.Sprintf("p/%04d", i), Description: "common"})
	}
	x := NewPackageIndex(pkgs)
	if x.Len() != len(pkgs) {
		t.Errorf("Len = %d, want %d", x.Len(), len(pkgs))
	}
	for _, tc := range []struct{ limit, want int }{
		{0, packages.DefaultSearchLimit}, {-1, packages.DefaultSearchLimit}, {1, 1}, {37, 37},
		{packages.MaxSearchLimit, packages.MaxSearchLimit}, {packages.MaxSearchLimit + 10, packages.MaxSearchLimit},
	} {
		got, err := x.Search("common", tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.want {
			t.Errorf("limit %d: %d results, want %d", tc.limit, len(got), tc.want)
		}
		// Equal scores: by name.
		for i, p := range got {
			if want := fmt.Sprintf("lib%04d", i); p.Name != want {
				t.Errorf("limit %d: result %d is %s, want %s", tc.limit, i, p.Name, want)
				break
			}
		}
		// The count is the true count, whatever the limit let through;
		// also when no package has every word and any word counts.
		for _, q := range []string{"common", "common zebra"} {
			counted, total, err := x.SearchCount(q, tc.limit)
			if err != nil || total != len(pkgs) || !reflect.DeepEqual(counted, got) {
				t.Errorf("SearchCount(%q, %d) = %d results, total %d, %v; want the %d of Search, total %d", q, tc.limit, len(counted), total, err, len(got), len(pkgs))
			}
		}
	}
	if got, total, err := x.SearchCount("zebra", 5); err != nil || len(got) != 0 || total != 0 {
		t.Errorf("SearchCount(zebra) = %d results, total %d, %v", len(got), total, err)
	}
}

func TestPackageIndexQueryErrors(t *testing.T) {
	x := NewPackageIndex(testPackages())
	for _, tc := range []struct {
		query, code string
	}{
		{"", "QUERY_EMPTY"},
		{" \t\n ", "QUERY_EMPTY"},
		{strings.Repeat("a", querylimit.MaxBytes+1), querylimit.Code},
		{manyWords(querylimit.MaxTerms + 1), querylimit.Code},
	} {
		got, err := x.Search(tc.query, 10)
		e, ok := errs.As(err)
		if !ok || e.Code != tc.code || got != nil {
			t.Errorf("Search(%.20q…) = %v, %v; want %s", tc.query, got, err, tc.code)
		}
		if want := packages.CheckQuery(tc.query); fmt.Sprint(err) != fmt.Sprint(want) {
			t.Errorf("Search(%.20q…) error %v differs from CheckQuery's %v", tc.query, err, want)
		}
	}
	if _, err := x.Search(manyWords(querylimit.MaxTerms), 10); err != nil {
		t.Errorf("a query of exactly %d terms: %v", querylimit.MaxTerms, err)
	}
}

func manyWords(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	return strings.Join(words, " ")
}

func TestPackageIndexEmpty(t *testing.T) {
	for _, x := range []*PackageIndex{NewPackageIndex(nil), NewPackageIndex([]packages.Package{{Name: "", Path: "."}})} {
		got, err := x.Search("anything at all", 0)
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("Search on an empty index = %#v, %v", got, err)
		}
	}
}

func TestPackageIndexConcurrent(t *testing.T) {
	x := NewPackageIndex(testPackages())
	want, _ := x.Search("widget", 0)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				got, err := x.Search("widget", 0)
				if err != nil || !slices.Equal(pkgNames(got), pkgNames(want)) {
					t.Errorf("concurrent Search = %v, %v", pkgNames(got), err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestFTSTokenizer(t *testing.T) {
	for _, tc := range []struct {
		text   string
		porter bool
		want   []string
	}{
		{"Hello, World!", false, []string{"hello", "world"}},
		{"@acme/HTTPServer2 foo_bar foo-bar", false, []string{"acme", "httpserver2", "foo", "bar", "foo", "bar"}},
		{"Crème Brûlée ÀÉÎÕÜ", false, []string{"creme", "brulee", "aeiou"}},
		{"ui\u0301 \u0301ui", false, []string{"ui", "ui"}}, // a combining accent continues a token, never starts one
		{"ſ İ µ ß", false, []string{"s", "i", "μ", "ß"}},
		{"日本語のテキスト", false, []string{"日本語のテキスト"}}, // no word breaks without separators
		{"a\u00a0b\u2003c", false, []string{"a", "b", "c"}},
		{"searching searches searched search", true, []string{"search", "search", "search", "search"}},
		{"Relational conditional generalization", true, []string{"relat", "condit", "gener"}},
		{"go is ok", true, []string{"go", "is", "ok"}},
	} {
		if got := (ftsTokenizer{porter: tc.porter}).tokens(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("tokens(%q, porter=%v) = %q, want %q", tc.text, tc.porter, got, tc.want)
		}
	}
}

// porterVocabulary pairs words with their stems, from the examples of
// Porter's paper (as SQLite's variant stems them).
var porterVocabulary = [][2]string{
	{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "ti"}, {"caress", "caress"}, {"cats", "cat"},
	{"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"bled", "bled"}, {"motoring", "motor"},
	{"sing", "sing"}, {"conflated", "conflat"}, {"troubled", "troubl"}, {"sized", "size"}, {"hopping", "hop"},
	{"tanned", "tan"}, {"falling", "fall"}, {"hissing", "hiss"}, {"fizzed", "fizz"}, {"failing", "fail"},
	{"filing", "file"}, {"happy", "happi"}, {"sky", "sky"}, {"relational", "relat"}, {"conditional", "condit"},
	{"rational", "ration"}, {"valenci", "valenc"}, {"hesitanci", "hesit"}, {"digitizer", "digit"},
	{"conformabli", "conform"}, {"radicalli", "radic"}, {"differentli", "differ"}, {"vileli", "vile"},
	{"analogousli", "analog"}, {"vietnamization", "vietnam"}, {"predication", "predic"}, {"operator", "oper"},
	{"feudalism", "feudal"}, {"decisiveness", "decis"}, {"hopefulness", "hope"}, {"callousness", "callous"},
	{"formaliti", "formal"}, {"sensitiviti", "sensit"}, {"sensibiliti", "sensibl"}, {"triplicate", "triplic"},
	{"formative", "form"}, {"formalize", "formal"}, {"electriciti", "electr"}, {"electrical", "electr"},
	{"hopeful", "hope"}, {"goodness", "good"}, {"revival", "reviv"}, {"allowance", "allow"}, {"inference", "infer"},
	{"airliner", "airlin"}, {"gyroscopic", "gyroscop"}, {"adjustable", "adjust"}, {"defensible", "defens"},
	{"irritant", "irrit"}, {"replacement", "replac"}, {"adjustment", "adjust"}, {"dependent", "depend"},
	{"adoption", "adopt"}, {"homologou", "homolog"}, {"communism", "commun"}, {"activate", "activ"},
	{"angulariti", "angular"}, {"homologous", "homolog"}, {"effective", "effect"}, {"bowdlerize", "bowdler"},
	{"probate", "probat"}, {"rate", "rate"}, {"cease", "ceas"}, {"controll", "control"}, {"roll", "roll"},
	{"generalizations", "gener"}, {"oscillators", "oscil"}, {"ab", "ab"}, {strings.Repeat("x", 65) + "ing", strings.Repeat("x", 65) + "ing"},
}

func TestPorterStem(t *testing.T) {
	for _, p := range porterVocabulary {
		if got := string(porterStem([]byte(p[0]))); got != p[1] {
			t.Errorf("porterStem(%q) = %q, want %q", p[0], got, p[1])
		}
	}
}

// benchPackages makes n packages with names, paths and descriptions drawn
// from a vocabulary, so that words are shared as in a real monorepo.
func benchPackages(n int) []packages.Package {
	r := rand.New(rand.NewSource(42))
	words := benchVocabulary()
	pkgs := make([]packages.Package, n)
	for i := range pkgs {
		name := fmt.Sprintf("@scope%d/%s-%s%d", i%50, words[r.Intn(len(words))], words[r.Intn(len(words))], i)
		desc := make([]string, 5+r.Intn(15))
		for j := range desc {
			desc[j] = words[r.Intn(len(words))]
		}
		pkgs[i] = packages.Package{
			Name: name, Path: fmt.Sprintf("packages/group%d/pkg%d", i%100, i), Kind: packages.KindNPM,
			Description: strings.Join(desc, " "), Manifest: fmt.Sprintf("packages/group%d/pkg%d/package.json", i%100, i),
		}
	}
	return pkgs
}

// benchVocabulary is 2,000 pronounceable words.
func benchVocabulary() []string {
	syllables := []string{"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qua", "ber", "dor", "fin", "gal", "hex"}
	var words []string
	for i := 0; len(words) < 2000; i++ {
		w := ""
		for n := i; ; n /= len(syllables) {
			w += syllables[n%len(syllables)]
			if n < len(syllables) {
				break
			}
		}
		words = append(words, w)
	}
	return words
}

func BenchmarkPackageIndex(b *testing.B) {
	pkgs := benchPackages(5000)
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			NewPackageIndex(pkgs)
		}
	})
	x := NewPackageIndex(pkgs)
	words := benchVocabulary()
	for _, q := range []struct{ name, query string }{
		{"one-word", words[1234]},
		{"two-words", words[1234] + " " + words[100]},
		{"prefix-vi", words[7]},
		{"prefix-k", "k"},
		{"scoped-name", "@scope7/" + words[3]},
		{"or-fallback", words[7] + " nosuchword"},
		{"no-match", "nosuchword"},
	} {
		b.Run("search-"+q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := x.Search(q.query, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestPackageNameParts(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"@acme/HTTPServer2", []string{"acme", "http", "server", "2"}},
		{"MyLib.Core", []string{"my", "lib", "core"}},
		{"snake_case-name", []string{"snake", "case", "name"}},
		{"x", []string{"x"}},
		{"", nil},
		{"ÜberLib", []string{"über", "lib"}},
	} {
		if got := packageNameParts(tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("packageNameParts(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzPackageSearch: whatever the query, a package search answers without
// an error, or, for a blank query, QUERY_EMPTY, and for one over the
// limits, QUERY_TOO_LONG.
func FuzzPackageSearch(f *testing.F) {
	for _, seed := range []string{"ui", `"`, `ui*`, `-`, `:`, "AND OR NOT", "NEAR(a b, 3)", "(^+)", "\x00", "\xff", " ", "a\"b", "é😀", `""*`, "*\"\"", "ui -utils"} {
		f.Add(seed)
	}
	x := NewPackageIndex(testPackages())
	f.Fuzz(func(t *testing.T, query string) {
		_, err := x.Search(query, 5)
		switch {
		case len(query) > querylimit.MaxBytes || len(packages.SearchTerms(query)) > querylimit.MaxTerms:
			if e, ok := errs.As(err); !ok || e.Code != errs.CodeQueryTooLong {
				t.Fatalf("Search(%d bytes) error = %#v, want QUERY_TOO_LONG", len(query), err)
			}
		case strings.TrimSpace(query) == "":
			if e, ok := errs.As(err); !ok || e.Code != errs.CodeQueryEmpty {
				t.Fatalf("Search(%q) error = %#v, want QUERY_EMPTY", query, err)
			}
		case err != nil:
			t.Fatalf("Search(%q): %v", query, err)
		}
	})
}

// lengthQuery is a query of n distinct words: "ui", which some packages
// match, then words none does, so a search runs both its AND query and its
// OR fallback, the most work a query of n words can cause.
func lengthQuery(first string, n int) string {
	words := []string{first}
	for i := 1; i < n; i++ {
		words = append(words, fmt.Sprintf("nomatch%d", i))
	}
	return strings.Join(words, " ")
}

// BenchmarkQueryLength times package and spec searches for queries of 16,
// 64 and 256 distinct words (1×, 4×, 16×; 256 is querylimit.MaxTerms):
// the time per query should grow about linearly.
func BenchmarkQueryLength(b *testing.B) {
	pkgs, reqs := NewPackageIndex(benchPackages(5000)), NewSpecIndex(testSpecs())
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprintf("packages/words=%d", n), func(b *testing.B) {
			query := lengthQuery("ui", n)
			for b.Loop() {
				if _, err := pkgs.Search(query, packages.DefaultSearchLimit); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("specs/words=%d", n), func(b *testing.B) {
			query := lengthQuery("password", n)
			for b.Loop() {
				if _, err := reqs.Search(query, specs.DefaultSearchLimit); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
