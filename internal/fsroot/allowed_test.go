package fsroot

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/testtree"
)

func hostileAllowed(t *testing.T, extra ...string) (*testtree.Hostile, *Allowed) {
	t.Helper()
	h := testtree.WriteHostile(t)
	base, err := Open(h.Root)
	if err != nil {
		t.Fatal(err)
	}
	var more []*Root
	for _, dir := range extra {
		r, err := Open(filepath.Join(filepath.Dir(h.Root), dir))
		if err != nil {
			t.Fatal(err)
		}
		more = append(more, r)
	}
	return h, NewAllowed(base, more...)
}

// TestAllowedDir: the code tools' directory argument stays inside the
// allowed roots after every link, and never names a hidden or ignored
// place; refusals do not depend on whether the place exists.
func TestAllowedDir(t *testing.T) {
	h, a := hostileAllowed(t)
	accepted := []struct{ in, want string }{
		{"", h.Root},
		{".", h.Root},
		{"src", filepath.Join(h.Root, "src")},
		{"./src/util/", filepath.Join(h.Root, "src/util")},
		{"lib/util", filepath.Join(h.Root, "src/util")}, // a link to a visible folder
		{h.Root, h.Root},
		{filepath.Join(h.Root, "docs"), filepath.Join(h.Root, "docs")},
		{"src/../docs", filepath.Join(h.Root, "docs")}, // ".." that stays inside
		{"self/src", filepath.Join(h.Root, "src")},
		{"g/..", h.Root}, // ".." is applied before links, as filepath.Clean does
	}
	for _, tc := range accepted {
		got, err := a.Dir(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Dir(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	refused := []string{
		"..", "../outside", h.Outside, filepath.Join(h.Outside, "missing"), "/etc", "/", "/does/not/exist",
		"../repo-sibling-missing", ".git", ".hidden", "secrets", "node_modules", "g", "s", "h", "nm",
		"src/deep", "git-abs", "out", "etc", "src/cwd", "self/.git",
		"a\x00b", "%2e%2e", filepath.Join(h.Root, ".git"), "loop1",
	}
	for _, in := range refused {
		got, err := a.Dir(in)
		if err == nil {
			t.Errorf("Dir(%q) = %q, want it refused", in, got)
			continue
		}
		requireCode(t, err, errs.OutOfRoot, CodeOutsideRoot)
		if !strings.Contains(err.Error(), "outside the allowed roots") {
			t.Errorf("Dir(%q): message %q", in, err)
		}
	}
	_, err := a.Dir("src/missing")
	requireCode(t, err, errs.NotFound, CodeNotFound)
	_, err = a.Dir("src/main.go")
	requireCode(t, err, errs.Invalid, CodeNotADirectory)
}

// TestAllowedDirExtraRoots: an operator-allowed root opens its folder (and
// only it) to the code tools, and relative paths still start at the base.
func TestAllowedDirExtraRoots(t *testing.T) {
	h, a := hostileAllowed(t, "outside")
	if got, err := a.Dir(h.Outside); err != nil || got != h.Outside {
		t.Errorf("Dir(outside) = %q, %v with outside allowed", got, err)
	}
	if got, err := a.Dir("../outside"); err != nil || got != h.Outside {
		t.Errorf("Dir(../outside) = %q, %v with outside allowed", got, err)
	}
	if got, err := a.Dir("out"); err != nil || got != h.Outside {
		t.Errorf("Dir(out) = %q, %v: a link into an allowed root", got, err)
	}
	if _, err := a.Dir(filepath.Dir(h.Root)); err == nil {
		t.Error("the parent of two allowed roots was allowed")
	}
	if got := a.Roots(); len(got) != 2 || got[0] != h.Root || got[1] != h.Outside {
		t.Errorf("Roots() = %v", got)
	}
}
