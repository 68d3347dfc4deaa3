package index_test

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store"
)

// definedNames reads the collection's symbols: each file's definitions by
// name, by path.
func definedNames(t *testing.T, indexPath string) map[string][]string {
	t.Helper()
	r, err := openReader(t, context.Background(), indexPath)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	if err := r.Symbols(context.Background(), func(fs store.FileSymbols) error {
		names := []string{}
		for _, d := range fs.Symbols.Definitions {
			names = append(names, d.Name)
		}
		out[fs.Path] = names
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSymbolsFollowFiles: a run stores each parsed file's definitions and
// references with its chunks; a changed file's are replaced, a deleted
// file's removed, and an unchanged file keeps its own.
func TestSymbolsFollowFiles(t *testing.T) {
	ctx := context.Background()
	root, indexPath := setup(t)
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	got := definedNames(t, indexPath)
	if !slices.Equal(got["router.go"], []string{"Router", "Handle", "RouteContext"}) ||
		!slices.Equal(got["cart/cart.py"], []string{"parse_args", "Cart", "total_price"}) {
		t.Fatalf("symbols after the first run: %v", got)
	}
	if _, ok := got["docs/guide.md"]; ok {
		t.Errorf("a Markdown file has symbols: %v", got["docs/guide.md"])
	}

	later := time.Now().Add(time.Minute)
	writeTree(t, root, map[string]string{"router.go": "package shop\n\n// Mux is a router.\ntype Mux struct{}\n\nfunc NewMux() *Mux { return &Mux{} }\n"})
	os.Chtimes(filepath.Join(root, "router.go"), later, later)
	if err := os.Remove(filepath.Join(root, "cart", "cart.py")); err != nil {
		t.Fatal(err)
	}
	stats, err := runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil || stats.Indexed != 1 || stats.Deleted != 1 {
		t.Fatalf("second run: %+v, %v", stats, err)
	}
	got = definedNames(t, indexPath)
	if !slices.Equal(got["router.go"], []string{"Mux", "NewMux"}) {
		t.Errorf("a changed file's symbols were not replaced: %v", got["router.go"])
	}
	if _, ok := got["cart/cart.py"]; ok || len(got) != 1 {
		t.Errorf("symbols after a deletion: %v", got)
	}
}

// TestVersion6IndexIsRebuilt: an index written by a lore without symbols
// (schema 6) is migrated by the next run, which re-parses every file so
// that each gets its symbols.
func TestVersion6IndexIsRebuilt(t *testing.T) {
	ctx := context.Background()
	// The sqlite package's testdata: lore with schema 6 indexed these
	// three files.
	gz, err := os.Open(filepath.Join("..", "store", "sqlite", "testdata", "v6.db.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		t.Fatal(err)
	}
	indexPath := filepath.Join(t.TempDir(), "v6.db")
	out, err := os.Create(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	out.Close()
	root := t.TempDir()
	// The same files, byte for byte: only the forced rebuild re-parses them.
	writeTree(t, root, map[string]string{
		"auth/login.go": `package auth

// Authenticate checks a password.
func Authenticate(user, password string) bool { return user != "" && password != "" }

// HandleLogin serves the login form.
func HandleLogin(user, password string) string {
	if Authenticate(user, password) {
		return "welcome"
	}
	return "denied"
}
`,
		"main.py": `from auth import login


def main():
    return login.handle("guest", "secret")
`,
		"README.md": `# v6 repo

A repository indexed by lore with schema version 6.
`,
	})
	if _, err := openReader(t, ctx, indexPath); err == nil {
		t.Fatal("a version 6 index was readable before a run")
	}
	stats, err := runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Indexed != 3 || stats.Unchanged != 0 {
		t.Errorf("the run after the migration: %+v, want every file re-indexed", stats)
	}
	got := definedNames(t, indexPath)
	if !slices.Equal(got["auth/login.go"], []string{"Authenticate", "HandleLogin"}) || !slices.Equal(got["main.py"], []string{"main"}) {
		t.Errorf("symbols after the rebuild: %v", got)
	}
	stats, err = runAt(ctx, indexPath, index.Options{Root: root})
	if err != nil || stats.Unchanged != 3 {
		t.Errorf("the run after the rebuild: %+v, %v; want nothing re-indexed", stats, err)
	}
}
