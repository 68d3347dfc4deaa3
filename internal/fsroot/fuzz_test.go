package fsroot

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/testtree"
)

// hostileSeeds are paths worth starting from: every link and secret of the
// hostile tree, and the classic escapes.
func hostileSeeds(h *testtree.Hostile) []string {
	seeds := []string{"", ".", "..", "../outside/secret.txt", "/etc/passwd", h.Outside, h.Root, "%2e%2e/x",
		"a\x00b", `..\..\x`, "self/self/.env", "lib/util/../../.env", "src/./deep/", "C:\\x"}
	for link := range h.Invisible {
		seeds = append(seeds, link, link+"/config", link+"/k.txt")
	}
	for link := range h.Outward {
		seeds = append(seeds, link, link+"/secret.txt")
	}
	return append(append(seeds, h.Secrets...), h.Visible...)
}

// leaks reports whether the file rel of r holds the secret marker.
func leaks(r *Root, rel string) bool {
	f, _, err := r.OpenFile(rel)
	if err != nil {
		return false
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	return strings.Contains(string(data), testtree.SecretMarker)
}

// FuzzResolveHostile: whatever path a client sends, resolving it on the
// hostile tree never lands outside the root, and nothing the files tools
// would read (a path Ignored calls visible, a listing) holds a secret.
func FuzzResolveHostile(f *testing.F) {
	h := testtree.WriteHostile(f)
	r, err := Open(h.Root)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range hostileSeeds(h) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		if real, err := r.Resolve(rel); err == nil && !r.contains(real) {
			t.Fatalf("Resolve(%q) = %q, outside the root", rel, real)
		}
		if !r.Ignored(rel, false) && leaks(r, rel) {
			t.Fatalf("%q is visible and holds a secret", rel)
		}
		entries, err := r.ReadDir(rel, WalkOptions{})
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir && leaks(r, e.Rel) {
				t.Fatalf("listing %q shows %q, which holds a secret", rel, e.Rel)
			}
		}
	})
}

// FuzzAllowedDir: whatever directory a client names for the code tools,
// an accepted one lies inside the allowed root, is not hidden or ignored
// there, and walking it (what indexing does) reads no secret.
func FuzzAllowedDir(f *testing.F) {
	h := testtree.WriteHostile(f)
	base, err := Open(h.Root)
	if err != nil {
		f.Fatal(err)
	}
	a := NewAllowed(base)
	for _, s := range hostileSeeds(h) {
		f.Add(s)
		f.Add(filepath.Join(h.Root, s))
	}
	f.Fuzz(func(t *testing.T, p string) {
		dir, err := a.Dir(p)
		if err != nil {
			return
		}
		rel, ok := base.relOf(dir)
		if !ok {
			t.Fatalf("Dir(%q) = %q, outside the allowed root", p, dir)
		}
		if rel != "" && base.Ignored(rel, true) {
			t.Fatalf("Dir(%q) = %q, hidden or ignored", p, dir)
		}
		sub, err := Open(dir)
		if err != nil {
			t.Fatalf("Dir(%q) = %q, which does not open: %v", p, dir, err)
		}
		err = sub.Walk(t.Context(), WalkOptions{}, func(file File) error {
			if leaks(sub, file.Rel) {
				t.Fatalf("indexing Dir(%q) reads %s, which holds a secret", p, file.Rel)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walking %s: %v", dir, err)
		}
	})
}
