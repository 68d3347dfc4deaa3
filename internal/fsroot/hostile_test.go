package fsroot

import (
	"context"
	"os"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/testtree"
)

// TestHostileTreeWalk: a link is judged by where it leads, so the walk of
// a repository full of crafted links reports exactly its visible files and
// never a byte of a secret.
func TestHostileTreeWalk(t *testing.T) {
	h := testtree.WriteHostile(t)
	r, err := Open(h.Root)
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]string{}
	var got []string
	err = r.Walk(context.Background(), WalkOptions{Skipped: func(rel, reason string) { skipped[rel] = reason }}, func(f File) error {
		got = append(got, f.Rel)
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			t.Errorf("reading walked file %s: %v", f.Rel, err)
		}
		if strings.Contains(string(data), testtree.SecretMarker) {
			t.Errorf("the walk reached a secret through %s", f.Rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	requireRels(t, got, h.Visible)
	for link, isDir := range h.Invisible {
		if reason := skipped[link]; reason != SkipSymlinkHidden && reason != SkipSymlinkLoop && reason != SkipSymlinkBroken {
			t.Errorf("link %s (dir %v) skipped as %q, want it reported as a link to a hidden or missing place", link, isDir, reason)
		}
	}
	for link := range h.Outward {
		if skipped[link] != SkipSymlinkOutside {
			t.Errorf("link %s skipped as %q, want %q", link, skipped[link], SkipSymlinkOutside)
		}
	}
}

// TestHostileTreeIgnored: Ignored answers true for every link into an
// invisible place and out of the root, and false for the visible files.
func TestHostileTreeIgnored(t *testing.T) {
	h := testtree.WriteHostile(t)
	r, err := Open(h.Root)
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []map[string]bool{h.Invisible, h.Outward} {
		for link, isDir := range set {
			if !r.Ignored(link, isDir) {
				t.Errorf("Ignored(%q) = false, want true: its target is hidden, ignored or outside", link)
			}
			// Anything below a folder link is as invisible as the link.
			if isDir && !r.Ignored(link+"/x.txt", false) {
				t.Errorf("Ignored(%q) = false, want true", link+"/x.txt")
			}
		}
	}
	for _, secret := range h.Secrets {
		if !r.Ignored(secret, false) {
			t.Errorf("Ignored(%q) = false for a secret", secret)
		}
	}
	for _, rel := range append(h.Visible, "self/src/main.go", "lib/util", "src") {
		if r.Ignored(rel, rel == "lib/util" || rel == "src") {
			t.Errorf("Ignored(%q) = true for a visible path", rel)
		}
	}
}

// TestHostileTreeReadDir: listings never show a link into an invisible
// place or out of the root, and listing through such a link is refused
// like listing its target.
func TestHostileTreeReadDir(t *testing.T) {
	h := testtree.WriteHostile(t)
	r, err := Open(h.Root)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	var list func(dir string)
	list = func(dir string) {
		entries, err := r.ReadDir(dir, WalkOptions{})
		if err != nil {
			t.Fatalf("ReadDir(%q): %v", dir, err)
		}
		for _, e := range entries {
			listed = append(listed, e.Rel)
			if e.IsDir {
				list(e.Rel)
			}
		}
	}
	list("")
	sort.Strings(listed)
	want := []string{"chain-ok.md", "docs", "docs/guide.md", "lib", "lib/util", "lib/util/helper.go",
		"openspec", "openspec/specs", "openspec/specs/auth", "openspec/specs/auth/spec.md", "openspec/specs/leak",
		"readme-link.md", "src", "src/main.go", "src/util", "src/util/helper.go"}
	requireRels(t, listed, want)

	for link, isDir := range h.Invisible {
		if !isDir {
			continue
		}
		_, err := r.ReadDir(link, WalkOptions{})
		requireCode(t, err, errs.NotFound, CodeNotFound)
	}
	for link, isDir := range h.Outward {
		if !isDir {
			continue
		}
		_, err := r.ReadDir(link, WalkOptions{})
		requireCode(t, err, errs.OutOfRoot, CodeOutsideRoot)
	}
}

// TestRefusalsDoNotSayWhere: refusing a link out of the root never names
// where it leads (a link to /proc/self/cwd would reveal the server's
// working folder), and a loop does not name the server's paths either.
func TestRefusalsDoNotSayWhere(t *testing.T) {
	h := testtree.WriteHostile(t)
	r, err := Open(h.Root)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	for link := range h.Outward {
		for _, rel := range []string{link, path.Join(link, "x")} {
			_, err := r.Resolve(rel)
			requireCode(t, err, errs.OutOfRoot, CodeOutsideRoot)
			msg := err.Error()
			if !strings.Contains(msg, "it leads outside the root") {
				t.Errorf("Resolve(%q): %q does not say it leads outside the root", rel, msg)
			}
			for _, where := range []string{h.Outside, "/etc", wd, h.Root} {
				if strings.Contains(msg, where) {
					t.Errorf("Resolve(%q): %q reveals %s", rel, msg, where)
				}
			}
		}
	}
	_, err = r.Resolve("loop1")
	requireCode(t, err, errs.Internal, CodeUnreadable)
	if strings.Contains(err.Error(), h.Root) {
		t.Errorf("loop message %q reveals the root's location", err)
	}
}
