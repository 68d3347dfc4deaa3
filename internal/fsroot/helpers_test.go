package fsroot

import (
	"github.com/lore-dev/lore/internal/testtree"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func writeTree(t testing.TB, dir string, files map[string]string) { testtree.Write(t, dir, files) }

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
