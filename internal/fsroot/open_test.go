package fsroot

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func TestIsBinary(t *testing.T) {
	cases := []struct {
		name string
		head []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("package main\n"), false},
		{"utf8", []byte("héllo wörld ✓"), false},
		{"nul at start", []byte("\x00ELF"), true},
		{"nul at end of window", append([]byte(strings.Repeat("a", BinarySniffLen-1)), 0), true},
		{"nul past window", append([]byte(strings.Repeat("a", BinarySniffLen)), 0), false},
	}
	for _, tc := range cases {
		if got := IsBinary(tc.head); got != tc.want {
			t.Errorf("%s: IsBinary = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestOpenFile(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"outside.txt":       "secret",
		"root/a/file.txt":   "hello",
		"root/link.txt":     "->a/file.txt",
		"root/out.txt":      "->../outside.txt",
		"root/abs-link.txt": "->" + filepath.Join(base, "root", "a", "file.txt"),
	})
	r, err := Open(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"a/file.txt", `a\file.txt`, "link.txt", "abs-link.txt"} {
		f, info, err := r.OpenFile(rel)
		if err != nil {
			t.Fatalf("OpenFile(%q): %v", rel, err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(data) != "hello" || info.Size() != 5 {
			t.Fatalf("OpenFile(%q) read %q (size %d), %v", rel, data, info.Size(), err)
		}
	}
	errorCases := []struct {
		rel  string
		kind errs.Kind
		code string
	}{
		{"a", errs.Invalid, "NOT_A_FILE"},
		{"", errs.Invalid, "NOT_A_FILE"},
		{"missing.txt", errs.NotFound, "NOT_FOUND"},
		{"a/file.txt/x", errs.NotFound, "NOT_FOUND"},
		{"out.txt", errs.OutOfRoot, "PATH_OUTSIDE_ROOT"},
		{"../outside.txt", errs.OutOfRoot, "PATH_OUTSIDE_ROOT"},
		{"/etc/passwd", errs.OutOfRoot, "PATH_OUTSIDE_ROOT"},
	}
	for _, tc := range errorCases {
		f, _, err := r.OpenFile(tc.rel)
		if f != nil {
			f.Close()
		}
		requireCode(t, err, tc.kind, tc.code)
	}

	if os.Geteuid() != 0 {
		locked := filepath.Join(r.Path(), "locked.txt")
		if err := os.WriteFile(locked, []byte("x"), 0); err != nil {
			t.Fatal(err)
		}
		_, _, err := r.OpenFile("locked.txt")
		requireCode(t, err, errs.Internal, "UNREADABLE")
	}
}

func TestFileOpen(t *testing.T) {
	r := newRoot(t, map[string]string{"a.txt": "hello"})
	var files []File
	if err := r.Walk(t.Context(), WalkOptions{}, func(f File) error { files = append(files, f); return nil }); err != nil {
		t.Fatal(err)
	}
	f, err := files[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != "hello" {
		t.Fatalf("read %q", data)
	}
	if err := os.Remove(files[0].Abs); err != nil {
		t.Fatal(err)
	}
	_, err = files[0].Open()
	requireCode(t, err, errs.NotFound, "NOT_FOUND")
}
