package fsroot

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenerUsesOpenat2 checks that on Linux the Opener's files come from
// openat2 (so that TestOpenerAgreesWithOpenFile tests that path), unless
// this kernel refuses it.
func TestOpenerUsesOpenat2(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	op := r.Opener()
	defer op.Close()
	f, err := op.OpenFile("f.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if openat2Off.Load() {
		t.Skip("this kernel refuses openat2: the os.Root path is the one in use")
	}
	if op.beneath.dir == nil {
		t.Fatal("openat2 is available but the Opener did not use it")
	}
	if f, ok := op.beneath.open("f.txt"); !ok {
		t.Fatal("openat2 did not open a plain file")
	} else {
		f.Close()
	}
	if _, ok := op.beneath.open("../f.txt"); ok {
		t.Fatal("openat2 opened a path above the root")
	}
}
