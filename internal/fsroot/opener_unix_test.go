//go:build unix

package fsroot

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

// TestOpenerAgreesWithOpenFile opens every kind of path through an Opener
// and through Root.OpenFile: both give the same content or the same error
// code, links leaving the root and non-regular files included.
func TestOpenerAgreesWithOpenFile(t *testing.T) {
	base := t.TempDir()
	rootDir := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(rootDir, "a", "b"), 0o755))
	must(os.MkdirAll(outside, 0o755))
	must(os.WriteFile(filepath.Join(rootDir, "top.txt"), []byte("top"), 0o644))
	must(os.WriteFile(filepath.Join(rootDir, "a", "b", "deep.go"), []byte("package b"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644))
	must(os.Symlink("../top.txt", filepath.Join(rootDir, "a", "rel-link")))
	must(os.Symlink(filepath.Join(rootDir, "top.txt"), filepath.Join(rootDir, "abs-link")))
	must(os.Symlink("b", filepath.Join(rootDir, "a", "dir-link")))
	must(os.Symlink("../../outside/secret", filepath.Join(rootDir, "escape")))
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(rootDir, "abs-escape")))
	must(syscall.Mkfifo(filepath.Join(rootDir, "fifo"), 0o644))

	r, err := Open(rootDir)
	must(err)
	op := r.Opener() // openat2 on Linux
	defer op.Close()
	rootsOnly := r.Opener()
	rootsOnly.rootsOnly = true
	defer rootsOnly.Close()
	for _, tc := range []struct {
		rel      string
		want     string // content; "" when an error is wanted
		wantCode string
	}{
		{"top.txt", "top", ""},
		{"a/b/deep.go", "package b", ""},
		{"a/rel-link", "top", ""},
		{"abs-link", "top", ""},
		{"a/dir-link/deep.go", "package b", ""},
		{"escape", "", CodeOutsideRoot},
		{"abs-escape", "", CodeOutsideRoot},
		{"a/../../outside/secret", "", CodeOutsideRoot},
		{"a", "", CodeNotAFile},
		{"fifo", "", CodeNotAFile},
		{"missing.txt", "", CodeNotFound},
		{"a/%2e%2e/top.txt", "", CodeOutsideRoot},
	} {
		t.Run(tc.rel, func(t *testing.T) {
			for name, open := range map[string]func(string) (*os.File, error){
				"Opener":           op.OpenFile,
				"Opener (os.Root)": rootsOnly.OpenFile,
				"OpenFile":         func(rel string) (*os.File, error) { f, _, err := r.OpenFile(rel); return f, err },
			} {
				f, err := open(tc.rel)
				if tc.wantCode != "" {
					if e, ok := errs.As(err); !ok || e.Code != tc.wantCode {
						t.Errorf("%s: %v, want code %s", name, err, tc.wantCode)
					}
					if f != nil {
						f.Close()
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				data, err := io.ReadAll(f)
				f.Close()
				if err != nil || string(data) != tc.want {
					t.Errorf("%s: read %q, %v; want %q", name, data, err, tc.want)
				}
			}
		})
	}
}

// TestOpenerAfterClose: opens after Close still work, through OpenFile.
func TestOpenerAfterClose(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "f.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	op := r.Opener()
	for range 2 {
		f, err := op.OpenFile("d/f.txt")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := op.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
