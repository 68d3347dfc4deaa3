package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
)

// Allowed is the fixed set of folders a server lets its clients name as a
// directory to index or search: the served root, CODE_ROOT, DOCS_ROOT and
// any root the operator allowed explicitly. An agent fed a hostile prompt
// can then not have ~/.ssh indexed and read back.
type Allowed struct {
	base  *Root   // relative paths resolve against it
	roots []*Root // base first, then the others, without duplicates
}

// NewAllowed returns the set made of base and more (nil entries and
// repeats are dropped). Relative paths given to Dir resolve against base.
func NewAllowed(base *Root, more ...*Root) *Allowed {
	a := &Allowed{base: base}
	for _, r := range append([]*Root{base}, more...) {
		if r == nil || a.has(r.Path()) {
			continue
		}
		a.roots = append(a.roots, r)
	}
	return a
}

func (a *Allowed) has(path string) bool {
	for _, r := range a.roots {
		if r.Path() == path {
			return true
		}
	}
	return false
}

// Roots returns the allowed roots' paths, the base first.
func (a *Allowed) Roots() []string {
	out := make([]string, len(a.roots))
	for i, r := range a.roots {
		out[i] = r.Path()
	}
	return out
}

// Dir resolves a client-supplied directory: "" and "." are the base, a
// relative path is relative to the base, an absolute one is taken as it
// is. It returns the directory's real path (every symlink resolved).
//
// The real path must lie inside an allowed root and must not be hidden,
// ignored or default-skipped there; otherwise the error has kind
// errs.OutOfRoot and code PATH_OUTSIDE_ROOT, whether or not the path
// exists, so that refusals reveal nothing about places outside. A path
// inside that does not exist is errs.NotFound (NOT_FOUND), a file
// errs.Invalid (NOT_A_DIRECTORY).
func (a *Allowed) Dir(p string) (string, error) {
	outside := errs.New(errs.OutOfRoot, CodeOutsideRoot, "path %q is outside the allowed roots", p).With("path", p)
	if strings.IndexByte(p, 0) >= 0 || hasEncodedEscape(p) {
		return "", outside
	}
	abs := p
	if strings.TrimSpace(p) == "" {
		abs = a.base.Path()
	} else if !filepath.IsAbs(abs) {
		abs = filepath.Join(a.base.Path(), abs)
	}
	abs = filepath.Clean(abs)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if a.lexicallyInside(abs) && errors.Is(err, fs.ErrNotExist) {
			return "", errs.New(errs.NotFound, CodeNotFound, "path %q does not exist", p).With("path", p).Wrap(err)
		}
		return "", outside
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", outside
	}
	for _, r := range a.roots {
		rel, ok := r.relOf(real)
		if !ok || (rel != "" && r.Ignored(rel, info.IsDir())) {
			continue
		}
		if !info.IsDir() {
			return "", errs.New(errs.Invalid, CodeNotADirectory, "path %q is not a directory", p).With("path", p)
		}
		return real, nil
	}
	return "", outside
}

// lexicallyInside reports whether abs, before any symlink is resolved, is
// an allowed root or lies below one.
func (a *Allowed) lexicallyInside(abs string) bool {
	for _, r := range a.roots {
		if r.contains(abs) {
			return true
		}
	}
	return false
}
