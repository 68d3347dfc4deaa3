package index_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store/storetest"
)

// segmentWords are what the generated files of TestIncrementalEqualsRebuild
// are made of.
var segmentWords = strings.Fields(`router cache session token parser logger metrics queue handler
	buffer stream socket cursor ledger invoice payment tenant schema column widget render shader
	texture mesh camera vector matrix quaternion sampler channel worker scheduler timer budget`)

// genFile writes a Go or Python file of a few functions from words chosen
// by rng; its name and round make its content unique.
func genFile(rng *rand.Rand, name string, round int) string {
	w := func() string { return segmentWords[rng.IntN(len(segmentWords))] }
	var b strings.Builder
	if strings.HasSuffix(name, ".py") {
		for i := range 1 + rng.IntN(4) {
			fmt.Fprintf(&b, "def %s_%s_%d_%d(%s):\n    \"\"\"%s the %s %s.\"\"\"\n    return %s + %d\n\n\n",
				w(), w(), round, i, w(), w(), w(), w(), w(), rng.IntN(1000))
		}
		return b.String()
	}
	b.WriteString("package gen\n\n")
	for i := range 1 + rng.IntN(4) {
		fmt.Fprintf(&b, "// %s%s%d%d updates the %s of a %s and its %s.\nfunc %s%s%d%d(%s int) int {\n\treturn %s * %d\n}\n\n",
			title(w()), title(w()), round, i, w(), w(), w(), title(w()), title(w()), round, i, w(), w(), rng.IntN(1000))
	}
	return b.String()
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// TestIncrementalEqualsRebuild edits, adds and removes files over many
// incremental runs (which write segments, merge them and fold them into
// the base) and checks, after every few runs, that searches answer exactly
// what a forced rebuild of the same files answers, and that the corpus
// statistics BM25 uses (chunk count, average field lengths, document
// frequencies) are the same. The runs either walk the root or are told
// which paths changed (as a watcher tells them), noise included: paths
// never indexed, ignored files, a removed folder.
func TestIncrementalEqualsRebuild(t *testing.T) {
	for _, limited := range []bool{false, true} {
		t.Run(fmt.Sprintf("limited=%v", limited), func(t *testing.T) { testIncrementalEqualsRebuild(t, limited) })
	}
}

func testIncrementalEqualsRebuild(t *testing.T, limited bool) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(13, 42))
	root := t.TempDir()
	files := map[string]string{}
	var names []string
	for i := range 60 {
		ext := ".go"
		if i%3 == 0 {
			ext = ".py"
		}
		name := fmt.Sprintf("pkg%d/file%02d%s", i%5, i, ext)
		names = append(names, name)
		files[name] = genFile(rng, name, 0)
	}
	files[".gitignore"] = "*.tmp\n"
	files["old/gone.go"] = "package old\n\n// Vanished is removed with its folder.\nfunc Vanished() {}\n"
	writeTree(t, root, files)
	idx := filepath.Join(t.TempDir(), "inc.db")
	if _, err := runAt(ctx, idx, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	mtime := time.Now().Add(time.Hour)
	queries := []string{"router handler", "session token cache", "shader texture mesh", "payment invoice ledger",
		"worker scheduler timer", "quaternion", "the budget of a tenant", "render widget column"}
	for round := 1; round <= 40; round++ {
		changed := []string{"never/was.go", "scratch.tmp"}
		if err := os.WriteFile(filepath.Join(root, "scratch.tmp"), []byte("func Ignored() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if round == 3 {
			if err := os.RemoveAll(filepath.Join(root, "old")); err != nil {
				t.Fatal(err)
			}
			changed = append(changed, "old")
		}
		for range 1 + rng.IntN(3) {
			name := names[rng.IntN(len(names))]
			changed = append(changed, name)
			abs := filepath.Join(root, filepath.FromSlash(name))
			switch rng.IntN(6) {
			case 0:
				os.Remove(abs) // gone; a later round may bring it back
			default:
				if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(abs, []byte(genFile(rng, name, round)), 0o644); err != nil {
					t.Fatal(err)
				}
				mtime = mtime.Add(time.Second)
				if err := os.Chtimes(abs, mtime, mtime); err != nil {
					t.Fatal(err)
				}
			}
		}
		opts := index.Options{Root: root}
		if limited {
			opts.Paths = changed
		}
		stats, err := runAt(ctx, idx, opts)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if limited && stats.Scanned > len(changed) {
			t.Fatalf("round %d: a run told of %d paths scanned %d files", round, len(changed), stats.Scanned)
		}
		if round%8 != 0 {
			continue
		}
		rebuilt := filepath.Join(t.TempDir(), fmt.Sprintf("full%d.db", round))
		if _, err := runAt(ctx, rebuilt, index.Options{Root: root, Force: true}); err != nil {
			t.Fatal(err)
		}
		compareCorpus(t, ctx, idx, rebuilt, round)
		for _, q := range queries {
			got, want := searchJSON(t, ctx, idx, q), searchJSON(t, ctx, rebuilt, q)
			if got != want {
				t.Errorf("round %d, %q: incremental index answers\n%s\nrebuilt index answers\n%s", round, q, got, want)
			}
		}
	}
}

// searchJSON is the JSON of a search's results and total.
func searchJSON(t *testing.T, ctx context.Context, idx, q string) string {
	t.Helper()
	eng, err := openEngine(t, ctx, idx)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := eng.Search(ctx, search.Options{Query: q, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(struct {
		Results []search.Result
		Total   int
	}{resp.Results, resp.Total}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareCorpus checks that two indexes hold the same chunks (by path and
// lines, with their field lengths and metadata), the same average lengths
// and the same postings for every term of the generated files.
func compareCorpus(t *testing.T, ctx context.Context, a, b string, round int) {
	t.Helper()
	terms := append([]string{"gen", "return", "int"}, segmentWords...)
	view := func(path string) string {
		r, err := openReader(t, ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		return storetest.CollectionView(t, r, terms)
	}
	if inc, full := view(a), view(b); inc != full {
		t.Errorf("round %d: the incremental index differs from a rebuild:\n%s\nrebuild:\n%s", round, inc, full)
	}
}

// TestMemoryBudgetSameResults builds the same files with a budget so small
// that the run spills its postings after every file and with the default
// one, then changes some files and updates both: the two indexes hold the
// same corpus and answer every query the same, build and update.
func TestMemoryBudgetSameResults(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	root := t.TempDir()
	files := map[string]string{}
	var names []string
	for i := range 120 {
		ext := ".go"
		if i%4 == 0 {
			ext = ".py"
		}
		name := fmt.Sprintf("pkg%d/file%03d%s", i%6, i, ext)
		names = append(names, name)
		files[name] = genFile(rng, name, 0)
	}
	writeTree(t, root, files)
	tiny := filepath.Join(t.TempDir(), "tiny.db")
	roomy := filepath.Join(t.TempDir(), "roomy.db")
	queries := []string{"router handler", "session token cache", "shader texture mesh", "payment invoice ledger",
		"worker scheduler timer", "quaternion", "the budget of a tenant", "render widget column"}
	compare := func(step string) {
		t.Helper()
		compareCorpus(t, ctx, tiny, roomy, 0)
		for _, q := range queries {
			if got, want := searchJSON(t, ctx, tiny, q), searchJSON(t, ctx, roomy, q); got != want {
				t.Errorf("%s, %q: with a tiny budget\n%s\nwith the default\n%s", step, q, got, want)
			}
		}
	}
	build := func(step string) {
		t.Helper()
		for _, idx := range []struct {
			path   string
			budget int64
		}{{tiny, 1}, {roomy, 0}} {
			if _, err := runAt(ctx, idx.path, index.Options{Root: root, MemoryBudget: idx.budget}); err != nil {
				t.Fatalf("%s: %v", step, err)
			}
		}
		compare(step)
	}
	build("build")
	mtime := time.Now().Add(time.Hour)
	for i, name := range names {
		if i%5 != 0 {
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(name))
		if i%3 == 0 {
			os.Remove(abs)
			continue
		}
		if err := os.WriteFile(abs, []byte(genFile(rng, name, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	build("update")
}
