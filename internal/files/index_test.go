package files

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// The indexed search must answer exactly what a scan answers: the n-gram
// index only spares reading files that cannot match.

var indexWords = []string{"alpha", "Beta", "gamma", "DELTA", "needle", "Needle", "hay", "stack", "func", "return",
	"Kelvin", "\u212aelvin", "straße", "STRASSE", "ſtop", "stop", "école", "ÉCOLE", "naïve", "x", "_id", "a.b", "(x)", "==", "😀"}

// indexFixture writes a random tree under dir/code: text files with the
// words above (some with CRLF endings), binary files, a lock file, an
// ignored folder, a hidden file, a too-large file, and links to a folder
// and a file of the root.
func indexFixture(t testing.TB, rng *rand.Rand, dir string) string {
	code := filepath.Join(dir, "code")
	files := map[string]string{
		".gitignore":    "gen/\n",
		".env":          "needle secret\n",
		"gen/out.txt":   "needle generated\n",
		"go.sum":        "example.com/needle v1.0.0 h1:abc=\n",
		"linked":        "->pkg1",
		"alias.txt":     "->pkg0/f0.txt",
		"pkg2/up":       "->../pkg0",
		"big/large.txt": strings.Repeat("needle stack\n", 90_000), // over 1 MiB: not searched
		"img/logo.png":  "\x89PNG\x00\x00needle",
		"empty.txt":     "",
	}
	for i := range 60 {
		var b strings.Builder
		eol := "\n"
		if i%7 == 3 {
			eol = "\r\n"
		}
		for range rng.IntN(40) {
			for range 1 + rng.IntN(8) {
				b.WriteString(indexWords[rng.IntN(len(indexWords))])
				b.WriteString([]string{" ", " ", "", ".", "(", "\t"}[rng.IntN(6)])
			}
			b.WriteString(eol)
		}
		ext := []string{".txt", ".go", ".md"}[i%3]
		files[fmt.Sprintf("pkg%d/sub%d/f%d%s", i%3, i%2, i, ext)] = b.String()
		if i < 3 {
			files[fmt.Sprintf("pkg%d/f%d.txt", i, i)] = b.String()
		}
	}
	writeTree(t, code, files)
	return code
}

// indexRoot indexes root into dir/index.db and loads its FileIndex.
func indexRoot(t testing.TB, root, db string) *FileIndex {
	t.Helper()
	ctx := context.Background()
	w, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := index.Run(ctx, w, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	r, err := w.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := LoadIndex(ctx, r)
	if err != nil || ix == nil {
		t.Fatalf("LoadIndex: %v, %v", ix, err)
	}
	return ix
}

// withIndex is svc searching with ix, vouched complete or not.
func withIndex(svc *Service, ix *FileIndex, complete bool) *Service {
	return svc.WithIndex(func(context.Context, string) *FileIndex {
		c := *ix
		c.Complete = complete
		return &c
	})
}

// randomQuery draws a query: a piece of a line of some file, re-cased, or
// a regex built from pieces and operators.
func randomQuery(rng *rand.Rand, lines []string) SearchQuery {
	q := SearchQuery{
		CaseSensitive: rng.IntN(3) == 0,
		Limit:         []int{0, 1, 3, 10, 50, 5000}[rng.IntN(6)],
		Path:          []string{"", "", "", "pkg1", "pkg2/sub0", "*.txt", "pkg*/**/*.go", "linked", "alias.txt", "pkg2"}[rng.IntN(10)],
	}
	piece := func() string {
		line := []rune(lines[rng.IntN(len(lines))])
		if len(line) == 0 {
			return "x"
		}
		i := rng.IntN(len(line))
		j := min(len(line), i+1+rng.IntN(10))
		s := string(line[i:j])
		if rng.IntN(2) == 0 {
			s = strings.ToUpper(s)
		}
		return s
	}
	if rng.IntN(2) == 0 {
		q.Query = piece()
		if strings.TrimSpace(q.Query) == "" {
			q.Query = "needle"
		}
		return q
	}
	q.Regex = true
	var b strings.Builder
	for range 1 + rng.IntN(4) {
		switch rng.IntN(6) {
		case 0:
			b.WriteString(".")
		case 1:
			b.WriteString("[a-e]+")
		case 2:
			b.WriteString(`\w*`)
		case 3:
			b.WriteString("(" + regexp.QuoteMeta(piece()) + "|" + regexp.QuoteMeta(piece()) + ")")
		default:
			b.WriteString(regexp.QuoteMeta(piece()))
		}
		b.WriteString([]string{"", "", "?", "*", "{2}"}[rng.IntN(5)])
	}
	q.Query = b.String()
	return q
}

// sameAnswer runs q through want (scanning) and got (indexed) and fails
// when they differ.
func sameAnswer(t *testing.T, want, got *Service, q SearchQuery, what string) {
	t.Helper()
	ctx := context.Background()
	w, werr := want.Search(ctx, q)
	g, gerr := got.Search(ctx, q)
	if werr != nil || gerr != nil {
		we, _ := errs.As(werr)
		ge, _ := errs.As(gerr)
		if we == nil || ge == nil || we.Code != ge.Code {
			t.Fatalf("%s: %+v: scan error %v, indexed error %v", what, q, werr, gerr)
		}
		return
	}
	if !reflect.DeepEqual(w, g) {
		t.Fatalf("%s: %+v:\nscan    %d results, truncated %v: %v\nindexed %d results, truncated %v: %v",
			what, q, len(w.Results), w.Truncated, keys(w.Results), len(g.Results), g.Truncated, keys(g.Results))
	}
}

func fixtureLines(t testing.TB, root string) []string {
	var lines []string
	r := openRoot(t, root)
	r.Walk(context.Background(), fsroot.WalkOptions{}, func(f fsroot.File) error {
		data, _ := os.ReadFile(f.Abs)
		if !fsroot.IsBinary(data) {
			lines = append(lines, strings.Split(string(data), "\n")...)
		}
		return nil
	})
	return lines
}

func TestIndexedSearchMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	code := indexFixture(t, rng, dir)
	ix := indexRoot(t, code, filepath.Join(dir, "index.db"))
	scan := New(nil, openRoot(t, code))
	lines := fixtureLines(t, code)

	rounds := 600
	if testing.Short() {
		rounds = 150
	}
	for _, complete := range []bool{true, false} {
		indexed := withIndex(scan, ix, complete)
		for i := range rounds {
			sameAnswer(t, scan, indexed, randomQuery(rng, lines), fmt.Sprintf("complete=%v round %d", complete, i))
		}
	}

	// Change the tree after the run: edited (one keeping its size), added
	// and removed files. Not complete, the search compares each file with
	// the index and reads the changed ones.
	later := time.Now().Add(time.Hour)
	edit := func(rel, content string) {
		writeTree(t, code, map[string]string{rel: content})
		os.Chtimes(filepath.Join(code, rel), later, later)
	}
	old, _ := os.ReadFile(filepath.Join(code, "pkg0/f0.txt"))
	edit("pkg0/f0.txt", strings.Repeat("z", len(old)-7)+"wombat\n") // same size
	edit("pkg1/sub1/f1.go", "func wombat() { return needle }\n")
	edit("pkg2/new.txt", "a new wombat needle\n")
	edit("img/logo.png", "now text: wombat\n")
	os.Remove(filepath.Join(code, "pkg0/sub0/f0.txt"))
	lines = append(fixtureLines(t, code), "wombat")
	indexed := withIndex(scan, ix, false)
	for i := range rounds {
		sameAnswer(t, scan, indexed, randomQuery(rng, lines), fmt.Sprintf("after changes, round %d", i))
	}
	for _, q := range []string{"wombat", "zzzz", "needle"} {
		sameAnswer(t, scan, indexed, SearchQuery{Query: q, Limit: 5000}, "after changes")
	}
}

// TestIndexWithChangesMatchesScan: an index that follows runs through the
// store's change log (WithChanges) answers as a scan does, vouched
// complete or not, over rounds of edits, additions and removals.
func TestIndexWithChangesMatchesScan(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	dir := t.TempDir()
	code := indexFixture(t, rng, dir)
	db, err := sqlite.Open(ctx, filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run := func() {
		t.Helper()
		if _, err := index.Run(ctx, db, index.Options{Root: code}); err != nil {
			t.Fatal(err)
		}
	}
	run()
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := LoadIndex(ctx, r)
	if err != nil || ix == nil {
		t.Fatalf("LoadIndex: %v, %v", ix, err)
	}
	gen, _ := r.Generation(ctx)
	scan := New(nil, openRoot(t, code))
	later := time.Now().Add(time.Hour)
	for round := range 6 {
		later = later.Add(time.Minute)
		edits := map[string]string{
			fmt.Sprintf("pkg%d/f%d.txt", round%3, round): fmt.Sprintf("round %d wombat needle\n", round),
			fmt.Sprintf("fresh%d/new.go", round):         fmt.Sprintf("func Fresh%d() { return wombat }\n", round),
		}
		writeTree(t, code, edits)
		for rel := range edits {
			os.Chtimes(filepath.Join(code, rel), later, later)
		}
		if round > 0 {
			os.RemoveAll(filepath.Join(code, fmt.Sprintf("fresh%d", round-1)))
		}
		run()
		changes, ok, err := r.Changes(ctx, gen)
		if err != nil || !ok || len(changes) != 1 {
			t.Fatalf("round %d: Changes = %d, %v, %v", round, len(changes), ok, err)
		}
		if ix, ok = ix.WithChanges(changes); !ok {
			t.Fatalf("round %d: WithChanges refused a small change", round)
		}
		gen = changes[0].Generation
		// The files listed are those a fresh load lists, as they were walked.
		fresh, err := LoadIndex(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		walked := func(ix *FileIndex) []IndexedFile {
			out := slices.Clone(ix.Files)
			for i := range out {
				out[i].HasGrams, out[i].Slot = false, 0
			}
			return out
		}
		if got, want := walked(ix), walked(fresh); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: files after WithChanges:\n%+v\nwant\n%+v", round, got, want)
		}
		lines := append(fixtureLines(t, code), "wombat")
		for _, complete := range []bool{true, false} {
			indexed := withIndex(scan, ix, complete)
			for i := range 80 {
				sameAnswer(t, scan, indexed, randomQuery(rng, lines), fmt.Sprintf("round %d, complete=%v, query %d", round, complete, i))
			}
			for _, q := range []string{"wombat", "needle", "Fresh"} {
				sameAnswer(t, scan, indexed, SearchQuery{Query: q, Limit: 5000}, fmt.Sprintf("round %d, complete=%v", round, complete))
			}
		}
	}
}

// TestSearchReportsLinkedFilesOnce checks that a folder linked inside the
// root does not report its files twice, as the indexer does, while a
// search of the link itself still finds them.
func TestSearchReportsLinkedFilesOnce(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"core/a.txt":          "needle one\n",
		"core/b/c.txt":        "needle two\n",
		"tests/core":          "->../core",
		"tests/alias.txt":     "->../core/a.txt",
		"tests/own.txt":       "needle three\n",
		"tests/.gitignore":    "",
		"hidden/.x/needle.md": "needle hidden\n",
		"ign/.gitignore":      "*.md\n",
		"ign/x.md":            "needle ignored\n",
		"ign/link.txt":        "->x.md",
	})
	svc := New(nil, openRoot(t, dir))
	ix := indexRoot(t, dir, filepath.Join(t.TempDir(), "index.db"))
	for name, s := range map[string]*Service{"scan": svc, "indexed": withIndex(svc, ix, true), "walked": withIndex(svc, ix, false)} {
		res, err := s.Search(context.Background(), SearchQuery{Query: "needle", Repo: RepoCode})
		if err != nil {
			t.Fatal(err)
		}
		want := []hitKey{k("code", "core/a.txt", 1), k("code", "core/b/c.txt", 1), k("code", "tests/own.txt", 1)}
		if got := keys(res.Results); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
		res, err = s.Search(context.Background(), SearchQuery{Query: "needle", Repo: RepoCode, Path: "tests/core"})
		if err != nil {
			t.Fatal(err)
		}
		want = []hitKey{k("code", "tests/core/a.txt", 1), k("code", "tests/core/b/c.txt", 1)}
		if got := keys(res.Results); !reflect.DeepEqual(got, want) {
			t.Errorf("%s, in the link: %v, want %v", name, got, want)
		}
	}
}

func FuzzIndexedSearch(f *testing.F) {
	dir := f.TempDir()
	code := indexFixture(f, rand.New(rand.NewPCG(5, 6)), dir)
	ix := indexRoot(f, code, filepath.Join(dir, "index.db"))
	scan := New(nil, openRoot(f, code))
	with := withIndex(scan, ix, true)
	f.Add("needle", false, false)
	f.Add("ne+dle|stack", true, false)
	f.Add("(?i)\u212aelvin", true, true)
	f.Add("stra", false, true)
	f.Fuzz(func(t *testing.T, query string, regex, caseSensitive bool) {
		sameAnswer(t, scan, with, SearchQuery{Query: query, Regex: regex, CaseSensitive: caseSensitive, Limit: MaxSearchLimit}, "fuzz")
	})
}

// TestListedFilesStayConfined checks that a file listed by an index, then
// replaced by a link leading outside the root, is not read there even if
// the index is (wrongly) vouched complete.
func TestListedFilesStayConfined(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"outside/secret.txt": "needle secret outside\n",
		"code/a.txt":         "needle inside\n",
		"code/b.txt":         "needle tool\n",
	})
	code := filepath.Join(dir, "code")
	ix := indexRoot(t, code, filepath.Join(dir, "index.db"))
	os.Remove(filepath.Join(code, "b.txt"))
	if err := os.Symlink(filepath.Join(dir, "outside", "secret.txt"), filepath.Join(code, "b.txt")); err != nil {
		t.Fatal(err)
	}
	svc := withIndex(New(nil, openRoot(t, code)), ix, true)
	res, err := svc.Search(context.Background(), SearchQuery{Query: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Results {
		if strings.Contains(h.Preview, "secret") {
			t.Fatalf("read outside the root through a link: %+v", h)
		}
	}
	if len(res.Results) != 1 {
		t.Errorf("results %+v, want only a.txt", res.Results)
	}
}

// BenchmarkLoadIndex times reading the n-gram index of an existing index
// file into memory, as a server does after each run: LORE_BENCH_INDEX
// names the file. Skipped without it.
//
//	LORE_BENCH_INDEX=/path/index.db go test -run XXX -bench LoadIndex -benchtime 5x ./internal/files
func BenchmarkLoadIndex(b *testing.B) {
	path := os.Getenv("LORE_BENCH_INDEX")
	if path == "" {
		b.Skip("set LORE_BENCH_INDEX to an index file")
	}
	ctx := context.Background()
	db, err := sqlite.OpenReadOnly(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if ix, err := LoadIndex(ctx, r); err != nil || ix == nil {
			b.Fatalf("LoadIndex: %v, %v", ix, err)
		}
	}
}
