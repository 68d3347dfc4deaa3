package files

import (
	"github.com/lore-dev/lore/internal/testtree"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
)

func writeTree(t testing.TB, dir string, files map[string]string) { testtree.Write(t, dir, files) }

func openRoot(t testing.TB, dir string) *fsroot.Root {
	t.Helper()
	r, err := fsroot.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fixture is a docs root and a code root side by side, plus a folder
// outside both.
type fixture struct {
	svc              *Service
	docs, code, base string
}

func newFixture(t testing.TB, docs, code map[string]string) *fixture {
	t.Helper()
	base := t.TempDir()
	writeTree(t, base, map[string]string{"outside/secret.txt": "TOKEN secret outside"})
	fx := &fixture{base: base, docs: filepath.Join(base, "docs"), code: filepath.Join(base, "code")}
	for dir, files := range map[string]map[string]string{fx.docs: docs, fx.code: code} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeTree(t, dir, files)
	}
	fx.svc = New(openRoot(t, fx.docs), openRoot(t, fx.code))
	return fx
}

// requireCode fails unless err is an *errs.Error with the given code, and
// (when kind >= 0) kind.
func requireCode(t testing.TB, err error, code string) *errs.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	e, ok := errs.As(err)
	if !ok {
		t.Fatalf("error %v (%T) is not an *errs.Error; want %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("error %q has code %s, want %s", e.Message, e.Code, code)
	}
	return e
}

// codeKinds is the kind each code must carry.
var codeKinds = map[string]errs.Kind{
	CodeRepoInvalid:     errs.Invalid,
	CodeOutsideRoot:     errs.OutOfRoot,
	CodeNotFound:        errs.NotFound,
	CodeNotAFile:        errs.Invalid,
	CodeNotADirectory:   errs.Invalid,
	CodeUnreadable:      errs.Internal,
	CodeBinaryFile:      errs.Invalid,
	CodeFileTooLarge:    errs.Invalid,
	CodeInvalidRange:    errs.Invalid,
	CodeInvalidArgument: errs.Invalid,
	CodeQueryEmpty:      errs.Invalid,
	CodeLimitInvalid:    errs.Invalid,
}

// requireError checks code, kind, and that the message names want.
func requireError(t testing.TB, err error, code, want string) {
	t.Helper()
	e := requireCode(t, err, code)
	if k := codeKinds[code]; e.Kind != k {
		t.Fatalf("error %q with code %s has kind %v, want %v", e.Message, code, e.Kind, k)
	}
	if !strings.Contains(e.Message, want) {
		t.Fatalf("error message %q does not name %q", e.Message, want)
	}
}
