package fsroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

// writeTree creates files under dir. Keys are slash-separated paths; a key
// ending in "/" creates an empty folder; a value starting with "->" creates
// a symlink to the rest of the value.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newRoot opens a fresh root in a temp dir filled with files.
func newRoot(t testing.TB, files map[string]string) *Root {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// requireCode fails unless err is an *errs.Error with the given kind and code.
func requireCode(t testing.TB, err error, kind errs.Kind, code string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok {
		t.Fatalf("error %v (%T) is not an *errs.Error; want %s", err, err, code)
	}
	if e.Code != code || e.Kind != kind {
		t.Fatalf("error %q has kind %v code %s; want kind %v code %s", e.Message, e.Kind, e.Code, kind, code)
	}
}
