package index_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/lore-dev/lore/internal/testtree"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// fixture is a small polyglot repository.
var fixture = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"router.go": `package shop

// Router dispatches requests to handlers by path.
type Router struct {
	routes map[string]Handler
}

// Handle registers a handler for a path pattern.
func (r *Router) Handle(pattern string, h Handler) {
	r.routes[pattern] = h
}

// RouteContext carries URL parameters of the matched route.
type RouteContext struct {
	Params map[string]string
}
`,
	"cart/cart.py": `"""Shopping cart."""


def parse_args(argv):
    """Parse command line arguments."""
    return argv[1:]


class Cart:
    """A customer's basket of items."""

    def total_price(self):
        return sum(i.price for i in self.items)
`,
	"docs/guide.md": "# Guide\n\nHow to install the shop.\n\n## Checkout\n\nThe cart computes a total price.\n",
	".gitignore":    "build/\n",
	"build/out.go":  "package build\n\nfunc Ignored() {}\n",
	"logo.png":      "\x89PNG\x00\x00binary",
}

func writeTree(t testing.TB, dir string, files map[string]string) { testtree.Write(t, dir, files) }

func setup(t *testing.T) (root, indexPath string) {
	t.Helper()
	root = t.TempDir()
	writeTree(t, root, fixture)
	return root, filepath.Join(t.TempDir(), "index.db")
}

func query(t *testing.T, indexPath, q string, mod func(*search.Options)) []search.Result {
	t.Helper()
	eng, err := openEngine(t, context.Background(), indexPath)
	if err != nil {
		t.Fatal(err)
	}
	opts := search.Options{Query: q}
	if mod != nil {
		mod(&opts)
	}
	resp, err := eng.Search(context.Background(), opts)
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	return resp.Results
}

func TestIndexAndSearch(t *testing.T) {
	root, indexPath := setup(t)
	stats, err := runAt(context.Background(), indexPath, index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	// go.mod, router.go, cart/cart.py, docs/guide.md; .gitignore is hidden,
	// build/ ignored, logo.png binary (scanned but not indexed).
	if stats.Indexed != 4 || stats.Unchanged != 0 || stats.Deleted != 0 || stats.Errors != 0 {
		t.Errorf("first run stats = %+v, want 4 indexed", stats)
	}
	if stats.Chunks < 4 {
		t.Errorf("chunks = %d, want at least one per file", stats.Chunks)
	}

	tests := []struct {
		query    string
		mod      func(*search.Options)
		wantPath string
		wantSym  string
	}{
		{"RouteContext", nil, "router.go", "RouteContext"},
		{"route context", nil, "router.go", "RouteContext"},
		{"parse_args", nil, "cart/cart.py", "parse_args"},
		{"total price of the cart", func(o *search.Options) { o.Extensions = []string{"py"} }, "cart/cart.py", ""},
		{"total price", func(o *search.Options) { o.DocsOnly = true }, "docs/guide.md", ""},
		{"handler", func(o *search.Options) { o.PathGlob = "**/*.go" }, "router.go", ""},
		{"handler", func(o *search.Options) { o.Language = "go" }, "router.go", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := query(t, indexPath, tt.query, tt.mod)
			if len(res) == 0 {
				t.Fatalf("no results")
			}
			if res[0].Path != tt.wantPath {
				t.Errorf("top result %s, want %s", res[0].Path, tt.wantPath)
			}
			if tt.wantSym != "" && !contains(res[0].Symbols, tt.wantSym) {
				t.Errorf("top result symbols %v, want %s", res[0].Symbols, tt.wantSym)
			}
			if res[0].RelevancePercent != 100 {
				t.Errorf("top relevance = %d, want 100", res[0].RelevancePercent)
			}
			for _, r := range res {
				if strings.HasPrefix(r.Path, "build/") {
					t.Errorf("ignored file %s was indexed", r.Path)
				}
			}
		})
	}
	if res := query(t, indexPath, "handler", func(o *search.Options) { o.Extensions = []string{"py"} }); len(res) != 0 {
		t.Errorf("--ext py returned %v", paths(res))
	}
}

func TestIncremental(t *testing.T) {
	root, indexPath := setup(t)
	ctx := context.Background()
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	// Unchanged re-run.
	stats, err := runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Indexed != 0 || stats.Unchanged != 4 {
		t.Errorf("re-run stats = %+v, want 0 indexed, 4 unchanged", stats)
	}
	// Change one, delete one, add one.
	writeTree(t, root, map[string]string{"router.go": strings.Replace(fixture["router.go"], "RouteContext", "MatchContext", -1)})
	os.Remove(filepath.Join(root, "cart", "cart.py"))
	writeTree(t, root, map[string]string{"billing/invoice.go": "package billing\n\n// Invoice is a bill.\ntype Invoice struct{ Amount int }\n"})
	stats, err = runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Indexed != 2 || stats.Deleted != 1 || stats.Unchanged != 2 {
		t.Errorf("incremental stats = %+v, want 2 indexed, 1 deleted, 2 unchanged", stats)
	}
	if res := query(t, indexPath, "parse_args", nil); len(res) != 0 {
		t.Errorf("deleted file still found: %v", paths(res))
	}
	if res := query(t, indexPath, "MatchContext", nil); len(res) == 0 || res[0].Path != "router.go" {
		t.Errorf("changed file not re-indexed: %v", paths(res))
	}
	if res := query(t, indexPath, "RouteContext", nil); len(res) != 0 && contains(res[0].Symbols, "RouteContext") {
		t.Errorf("old symbol still indexed: %v", paths(res))
	}
	if res := query(t, indexPath, "Invoice", nil); len(res) == 0 || res[0].Path != "billing/invoice.go" {
		t.Errorf("added file not indexed: %v", paths(res))
	}
	// A content-identical touch is unchanged (hash), not re-parsed.
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(root, "router.go"), later, later)
	stats, err = runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Indexed != 0 || stats.Unchanged != 4 {
		t.Errorf("touch stats = %+v, want 0 indexed", stats)
	}
	// Force rebuilds everything.
	stats, err = runAt(ctx, indexPath, index.Options{Root: root, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Indexed != 4 || stats.Unchanged != 0 {
		t.Errorf("force stats = %+v, want 4 indexed", stats)
	}
}

func TestDeterministicOrder(t *testing.T) {
	root, indexPath := setup(t)
	if _, err := runAt(context.Background(), indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	first := fmt.Sprint(paths(query(t, indexPath, "handler path cart price", nil)))
	for i := 0; i < 5; i++ {
		if got := fmt.Sprint(paths(query(t, indexPath, "handler path cart price", nil))); got != first {
			t.Fatalf("run %d order %s, first %s", i, got, first)
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, root := range []string{filepath.Join(dir, "missing"), file} {
		if _, err := runAt(ctx, filepath.Join(dir, "i.db"), index.Options{Root: root}); err == nil {
			t.Errorf("indexing %s: no error", root)
		}
	}
	if _, err := openEngine(t, ctx, filepath.Join(dir, "none.db")); errs.KindOf(err) != errs.NoIndex {
		t.Errorf("opening a missing index: %v, want a NoIndex error", err)
	}
	root, indexPath := setup(t)
	runAt(ctx, indexPath, index.Options{Root: root})
	eng, err := openEngine(t, ctx, indexPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"", "   \t"} {
		_, err := eng.Search(ctx, search.Options{Query: q})
		if e, ok := errs.As(err); !ok || e.Message != "Query cannot be empty" {
			t.Errorf("query %q: %v, want Query cannot be empty", q, err)
		}
	}
	if _, err := eng.Search(ctx, search.Options{Query: "x", PathGlob: "[abc"}); errs.KindOf(err) != errs.Invalid {
		t.Errorf("bad glob: %v, want invalid", err)
	}
	// FTS5 syntax in a query is data, never an SQL error.
	for _, q := range []string{`"unbalanced`, `a AND (b`, `*`, `col:x`, `NEAR(a b)`, `-x`, `^start`} {
		if _, err := eng.Search(ctx, search.Options{Query: q}); err != nil {
			t.Errorf("query %q: %v", q, err)
		}
	}
}

func TestCancelKeepsPreviousIndex(t *testing.T) {
	root, indexPath := setup(t)
	ctx := context.Background()
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	big := map[string]string{}
	for i := 0; i < 300; i++ {
		big[fmt.Sprintf("gen/file%03d.go", i)] = fmt.Sprintf("package gen\n\nfunc Generated%03d() int { return %d }\n", i, i)
	}
	writeTree(t, root, big)
	cctx, cancel := context.WithCancel(ctx)
	_, err := runAt(cctx, indexPath, index.Options{Root: root, Progress: func(p index.Progress) {
		if p.Done == 10 {
			cancel()
		}
	}})
	if errs.KindOf(err) != errs.Cancelled {
		t.Fatalf("cancelled run returned %v, want a Cancelled error", err)
	}
	if res := query(t, indexPath, "Generated001", nil); len(res) != 0 && res[0].Path == "gen/file001.go" {
		t.Errorf("a cancelled run's writes are visible")
	}
	if res := query(t, indexPath, "RouteContext", nil); len(res) == 0 {
		t.Errorf("the previous index was lost")
	}
}

// TestKillMidway kills an indexing process with SIGKILL while it writes and
// checks the index is still whole and queryable.
func TestKillMidway(t *testing.T) {
	if os.Getenv("LORE_INDEX_CHILD") != "" {
		return
	}
	root, indexPath := setup(t)
	ctx := context.Background()
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	big := map[string]string{}
	for i := 0; i < 2000; i++ {
		big[fmt.Sprintf("gen/f%04d.go", i)] = fmt.Sprintf("package gen\n\n// Generated%04d is generated.\nfunc Generated%04d() int {\n\treturn %d\n}\n", i, i, i)
	}
	writeTree(t, root, big)

	for attempt, delay := range []time.Duration{50 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestIndexChild$")
		cmd.Env = append(os.Environ(), "LORE_INDEX_CHILD=1", "LORE_CHILD_ROOT="+root, "LORE_CHILD_INDEX="+indexPath)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		db, err := sqlite.OpenReadOnly(ctx, indexPath)
		if err != nil {
			t.Fatalf("attempt %d: index unreadable after kill: %v", attempt, err)
		}
		if err := db.Check(ctx); err != nil {
			t.Fatalf("attempt %d: %v", attempt, err)
		}
		generated := 0
		if r, err := db.Reader(ctx, store.DefaultCollection); err == nil {
			files, _ := r.Files(ctx)
			for _, f := range files {
				if strings.HasPrefix(f.Path, "gen/") {
					generated++
				}
			}
		}
		db.Close()
		if res := query(t, indexPath, "RouteContext", nil); len(res) == 0 {
			t.Fatalf("attempt %d: previous content lost after kill", attempt)
		}
		// Either all generated files are in, or none.
		if generated != 0 && generated != len(big) {
			t.Fatalf("attempt %d: a partial index is visible: %d of %d generated files", attempt, generated, len(big))
		}
		if generated == len(big) {
			if res := query(t, indexPath, "Generated1234", nil); len(res) == 0 || res[0].Path != "gen/f1234.go" {
				t.Fatalf("attempt %d: the new index is not searchable: %v", attempt, paths(res))
			}
		}
	}
}

// TestIndexChild is the process TestKillMidway kills.
func TestIndexChild(t *testing.T) {
	if os.Getenv("LORE_INDEX_CHILD") == "" {
		t.Skip("helper process for TestKillMidway")
	}
	_, err := runAt(context.Background(), os.Getenv("LORE_CHILD_INDEX"), index.Options{Root: os.Getenv("LORE_CHILD_ROOT")})
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func paths(res []search.Result) []string {
	out := make([]string, len(res))
	for i, r := range res {
		out[i] = fmt.Sprintf("%s:%d", r.Path, r.StartLine)
	}
	return out
}

// readMeta reads the default collection's metadata.
func readMeta(t *testing.T, db store.DB) map[string]string {
	t.Helper()
	r, err := db.Reader(context.Background(), store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := r.Meta(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return meta
}

// TestExtractionChangeRebuilds: an index written by a lore that made terms
// or chunks differently is rebuilt by the next run, unchanged files too.
func TestExtractionChangeRebuilds(t *testing.T) {
	cases := []struct {
		name  string
		key   string
		value string // "" deletes the key, as an index from before it was recorded
	}{
		{"older analyzer", store.MetaAnalyzerVersion, "old"},
		{"older chunker", store.MetaChunkerVersion, "old"},
		{"chunker not recorded", store.MetaChunkerVersion, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, indexPath := setup(t)
			ctx := context.Background()
			if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
				t.Fatal(err)
			}
			if stats, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil || stats.Unchanged != 4 {
				t.Fatalf("a second run of the same lore: %+v, %v; want every file unchanged", stats, err)
			}
			db, err := sqlite.Open(ctx, indexPath)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := db.Write(ctx, store.DefaultCollection, root, store.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.value == "" {
				err = tx.DeleteMeta(ctx, c.key)
			} else {
				err = tx.SetMeta(ctx, c.key, c.value)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(ctx, time.Now()); err != nil {
				t.Fatal(err)
			}
			meta := readMeta(t, db)
			db.Close()
			if index.RebuildReason(meta) == "" {
				t.Errorf("RebuildReason(%v) is empty", meta)
			}
			stats, err := runAt(ctx, indexPath, index.Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			if stats.Indexed != 4 || stats.Unchanged != 0 {
				t.Errorf("%+v, want every file re-indexed", stats)
			}
			if db, err = sqlite.Open(ctx, indexPath); err != nil {
				t.Fatal(err)
			}
			if reason := index.RebuildReason(readMeta(t, db)); reason != "" {
				t.Errorf("after the rebuild, RebuildReason is %q", reason)
			}
			db.Close()
			if stats, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil || stats.Unchanged != 4 {
				t.Errorf("the run after the rebuild: %+v, %v; want every file unchanged", stats, err)
			}
		})
	}
}

func TestSpecsDirIsRemembered(t *testing.T) {
	root, indexPath := setup(t)
	writeTree(t, root, map[string]string{
		"design/auth/spec.md": "# Auth\n\n## Purpose\nLogins.\n\n## Requirements\n\n### Requirement: Login\nUsers log in.\n\n#### Scenario: ok\n- **WHEN** a user logs in\n- **THEN** a session opens\n",
	})
	ctx := context.Background()
	stats, err := runAt(ctx, indexPath, index.Options{Root: root, SpecsDir: "design"})
	if err != nil || stats.Specs != 1 {
		t.Fatalf("with --specs-dir: %+v, %v", stats, err)
	}
	stats, err = runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil || stats.Specs != 1 {
		t.Errorf("a later run forgot the specs folder: %+v, %v", stats, err)
	}
}

func TestSizeCapAndSkipDirs(t *testing.T) {
	root, indexPath := setup(t)
	writeTree(t, root, map[string]string{
		"big.go":                    "package shop\n\n// " + strings.Repeat("x", 4000) + "\nfunc Big() {}\n",
		"generated/gen.go":          "package generated\n\nfunc Generated() {}\n",
		"node_modules/dep/index.js": "module.exports = function dependency() {}\n",
	})
	ctx := context.Background()
	stats, err := runAt(ctx, indexPath, index.Options{Root: root, MaxFileSize: 1000, SkipDirs: []string{"generated"}})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Indexed != 4 {
		t.Errorf("indexed %d files, want the 4 fixture files (big.go over the cap, generated/ and node_modules/ skipped)", stats.Indexed)
	}
	for _, q := range []string{"Big", "Generated", "dependency"} {
		if res := query(t, indexPath, q, nil); len(res) != 0 && (res[0].Path == "big.go" || strings.HasPrefix(res[0].Path, "generated/") || strings.HasPrefix(res[0].Path, "node_modules/")) {
			t.Errorf("%s found in %s", q, res[0].Path)
		}
	}
}
