package index

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/testtree"
)

// TestStreamWalkOrder: the files a streamed walk hands on are exactly the
// list made by walking first and de-duplicating links after, in the same
// order, whether the links come before, after or among the files they
// point to.
func TestStreamWalkOrder(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
	}{
		{"no links", map[string]string{"a.go": "package a\n", "b/c.go": "package b\n", "b/d.txt": "d\n", "go.sum": "x\n"}},
		{"link before its target", map[string]string{
			"a/core": "->../z/src", "z/src/lib.rs": "fn f() {}\n", "z/src/mod.rs": "mod m;\n", "m.go": "package m\n"}},
		{"link after its target", map[string]string{
			"a/src/lib.rs": "fn f() {}\n", "z/core": "->../a/src", "z/other.rs": "fn g() {}\n"}},
		{"file link", map[string]string{
			"a.txt": "->c.txt", "b.txt": "b\n", "c.txt": "c\n", "d/e.txt": "e\n"}},
		{"link out of root is left out", map[string]string{
			"in.txt": "in\n", "out.txt": "->../outside.txt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.Write(t, dir, map[string]string{"outside.txt": "secret\n"})
			rootDir := filepath.Join(dir, "root")
			testtree.Write(t, rootDir, tc.files)
			root, err := fsroot.Open(rootDir)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			loc := filepath.Join(dir, "index.db")
			var plain []fsroot.File
			if err := root.Walk(ctx, fsroot.WalkOptions{}, func(f fsroot.File) error {
				plain = append(plain, f)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			want := rels(dedupeLinked(root.Path(), plain))

			s := streamWalk(ctx, root, loc, fsroot.WalkOptions{})
			var got []string
			for f := range s.files {
				got = append(got, f.Rel)
			}
			all, err := s.wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || !slices.Equal(rels(all), want) {
				t.Fatalf("streamed %v, listed %v; want %v", got, rels(all), want)
			}
			scanned := 0
			for _, r := range want {
				if !generatedName(r) {
					scanned++
				}
			}
			if int(s.scanned.Load()) != scanned {
				t.Fatalf("scanned %d, want %d", s.scanned.Load(), scanned)
			}
		})
	}
}

// TestStreamWalkStops: a reader that cancels mid-walk ends the walk; the
// stream closes and reports the cancellation.
func TestStreamWalkStops(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 600 {
		files[filepath.Join("d", string(rune('a'+i%26)), filepath.Base(t.Name())+string(rune('a'+i/26))+".txt")] = "x\n"
	}
	testtree.Write(t, dir, files)
	root, err := fsroot.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := streamWalk(ctx, root, filepath.Join(t.TempDir(), "index.db"), fsroot.WalkOptions{})
	<-s.files
	cancel()
	for range s.files { // closes once the walk has stopped
	}
	if _, err := s.wait(context.Background()); err == nil {
		t.Fatal("a cancelled walk reported no error")
	}
}

func rels(files []fsroot.File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Rel
	}
	return out
}
