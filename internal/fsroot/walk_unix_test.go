//go:build unix

package fsroot

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func TestWalkSkipsSpecialFiles(t *testing.T) {
	r := newRoot(t, map[string]string{"a.txt": "a"})
	if err := syscall.Mkfifo(filepath.Join(r.Path(), "fifo"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	var skipped []string
	got := walkRels(t, r, WalkOptions{Skipped: func(rel, reason string) { skipped = append(skipped, rel+":"+reason) }})
	requireRels(t, got, []string{"a.txt"})
	requireRels(t, skipped, []string{"fifo:" + SkipNotRegular})
}

func TestOpenFileRefusesFIFO(t *testing.T) {
	r := newRoot(t, nil)
	if err := syscall.Mkfifo(filepath.Join(r.Path(), "fifo"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	f, _, err := r.OpenFile("fifo")
	if f != nil {
		f.Close()
	}
	requireCode(t, err, errs.Invalid, "NOT_A_FILE")
}

func TestIgnoredDoesNotBlockOnFIFO(t *testing.T) {
	r := newRoot(t, nil)
	if err := syscall.Mkfifo(filepath.Join(r.Path(), "fifo"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	// Claiming the FIFO is a folder makes Ignored look inside it.
	if r.Ignored("fifo", true) || r.Ignored("fifo", false) {
		t.Fatal("a FIFO is not ignored")
	}
}

func TestWalkDoesNotBlockOnSpecialIgnoreFiles(t *testing.T) {
	r := newRoot(t, map[string]string{"a.txt": "a", "sub/.ignore": "->/dev/zero", "sub/b.txt": "b"})
	if err := syscall.Mkfifo(filepath.Join(r.Path(), ".gitignore"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	requireRels(t, walkRels(t, r, WalkOptions{}), []string{"a.txt", "sub/b.txt"})
}
