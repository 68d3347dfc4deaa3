package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"real/file.txt": "x",
		"link":          "->real",
	})
	realDir, err := filepath.EvalSymlinks(filepath.Join(dir, "real"))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("resolves symlinks of the root", func(t *testing.T) {
		r, err := Open(filepath.Join(dir, "link"))
		if err != nil {
			t.Fatal(err)
		}
		if r.Path() != realDir {
			t.Fatalf("Path() = %q, want %q", r.Path(), realDir)
		}
	})
	t.Run("relative path is made absolute", func(t *testing.T) {
		t.Chdir(dir)
		r, err := Open("real")
		if err != nil {
			t.Fatal(err)
		}
		if r.Path() != realDir {
			t.Fatalf("Path() = %q, want %q", r.Path(), realDir)
		}
	})

	errorCases := []struct {
		name, path string
		kind       errs.Kind
		code, msg  string
	}{
		{"missing", filepath.Join(dir, "nope"), errs.NotFound, "NOT_FOUND", "root does not exist: "},
		{"file", filepath.Join(dir, "real", "file.txt"), errs.Invalid, "NOT_A_DIRECTORY", "root is not a directory: "},
		{"empty", "", errs.Invalid, "INVALID_ARGUMENT", "root path is empty"},
		{"nul", "a\x00b", errs.Invalid, "INVALID_ARGUMENT", "NUL"},
	}
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.path)
			requireCode(t, err, tc.kind, tc.code)
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("message %q does not contain %q", err, tc.msg)
			}
		})
	}
}

// resolveFixture is a root with symlinks pointing inside, outside, in
// chains and in loops. outside is a folder next to the root.
func resolveFixture(t testing.TB) (r *Root, outside string) {
	t.Helper()
	base := t.TempDir()
	outside = filepath.Join(base, "outside")
	rootDir := filepath.Join(base, "root")
	writeTree(t, base, map[string]string{
		"outside/secret.txt":   "secret",
		"root/a/b/c.txt":       "c",
		"root/docs/readme.md":  "hi",
		"root/to-etc":          "->/etc",
		"root/to-outside":      "->../outside",
		"root/chain1":          "->chain2",
		"root/chain2":          "->chain3",
		"root/chain3":          "->" + outside,
		"root/in-chain1":       "->in-chain2",
		"root/in-chain2":       "->a/b",
		"root/a/up":            "->..",
		"root/a/upup":          "->../..",
		"root/a/abs-inside":    "->" + filepath.Join(rootDir, "docs"),
		"root/dangling-out":    "->/nonexistent-lore-test/x",
		"root/dangling-in":     "->missing/file",
		"root/loop1":           "->loop2",
		"root/loop2":           "->loop1",
		"root/a/out-and-back":  "->../../outside/../root/docs",
		"root/docs/sneaky.txt": "->../../outside/secret.txt",
	})
	r, err := Open(rootDir)
	if err != nil {
		t.Fatal(err)
	}
	return r, outside
}

func TestResolve(t *testing.T) {
	r, _ := resolveFixture(t)
	root := r.Path()

	accepted := []struct{ rel, want string }{
		{"", root},
		{".", root},
		{"./", root},
		{"a/b/c.txt", filepath.Join(root, "a/b/c.txt")},
		{`a\b\c.txt`, filepath.Join(root, "a/b/c.txt")},
		{"a//b/./c.txt", filepath.Join(root, "a/b/c.txt")},
		{"a/b/", filepath.Join(root, "a/b")},
		{"missing/deeper/file.go", filepath.Join(root, "missing/deeper/file.go")},
		{"in-chain1/c.txt", filepath.Join(root, "a/b/c.txt")},
		{"a/up/docs/readme.md", filepath.Join(root, "docs/readme.md")},
		{"a/up", root},
		{"a/abs-inside/readme.md", filepath.Join(root, "docs/readme.md")},
		{"dangling-in", filepath.Join(root, "missing/file")},
		{"a/out-and-back/readme.md", filepath.Join(root, "docs/readme.md")},
		{"100%done.txt", filepath.Join(root, "100%done.txt")},
		{"50%20off.txt", filepath.Join(root, "50%20off.txt")},
		{"...", filepath.Join(root, "...")},
		{"C", filepath.Join(root, "C")},
		{"~/x", filepath.Join(root, "~/x")},
	}
	for _, tc := range accepted {
		t.Run("ok "+tc.rel, func(t *testing.T) {
			got, err := r.Resolve(tc.rel)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.rel, err)
			}
			if got != tc.want {
				t.Fatalf("Resolve(%q) = %q, want %q", tc.rel, got, tc.want)
			}
		})
	}

	refused := []struct{ name, rel, msg string }{
		{"dotdot", "../outside/secret.txt", "'..'"},
		{"dotdot inside", "a/../docs/readme.md", "'..'"},
		{"dotdot only", "..", "'..'"},
		{"dotdot backslash", `a\..\..\x`, "'..'"},
		{"trailing dotdot", "a/b/..", "'..'"},
		{"absolute", "/etc/passwd", "absolute"},
		{"absolute root path", root + "/a/b/c.txt", "absolute"},
		{"windows drive", `C:\Windows\win.ini`, "absolute"},
		{"windows drive relative", `c:foo`, "absolute"},
		{"unc", `\\server\share\x`, "absolute"},
		{"nul", "a/b\x00.txt", "NUL"},
		{"encoded dots", "%2e%2e/outside/secret.txt", "URL-encoded"},
		{"encoded dots upper", "%2E%2E%2Fetc", "URL-encoded"},
		{"encoded slash", "a%2fb", "URL-encoded"},
		{"encoded backslash", "a%5cb", "URL-encoded"},
		{"double encoded", "%252e%252e/x", "URL-encoded"},
		{"encoded nul", "a%00", "URL-encoded"},
		{"overlong dot", "%c0%ae%c0%ae/x", "URL-encoded"},
		{"symlink to /etc", "to-etc/passwd", "outside the root"},
		{"symlink to /etc itself", "to-etc", "outside the root"},
		{"symlink to sibling", "to-outside/secret.txt", "outside the root"},
		{"symlink chain", "chain1/secret.txt", "outside the root"},
		{"symlink chain head", "chain1", "outside the root"},
		{"relative symlink up", "a/upup/outside/secret.txt", "outside the root"},
		{"dangling symlink outside", "dangling-out", "outside the root"},
		{"file symlink outside", "docs/sneaky.txt", "outside the root"},
	}
	for _, tc := range refused {
		t.Run("refused "+tc.name, func(t *testing.T) {
			got, err := r.Resolve(tc.rel)
			if err == nil {
				t.Fatalf("Resolve(%q) = %q, want an error", tc.rel, got)
			}
			requireCode(t, err, errs.OutOfRoot, "PATH_OUTSIDE_ROOT")
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("message %q does not contain %q", err, tc.msg)
			}
			if e, _ := errs.As(err); e.Details["path"] != tc.rel {
				t.Fatalf("details %v do not name the path %q", e.Details, tc.rel)
			}
		})
	}

	t.Run("symlink loop", func(t *testing.T) {
		_, err := r.Resolve("loop1/x")
		requireCode(t, err, errs.Internal, "UNREADABLE")
		if !strings.Contains(err.Error(), "too many levels of symbolic links") {
			t.Fatalf("message %q does not mention the loop", err)
		}
	})
}

func TestCleanRel(t *testing.T) {
	r := newRoot(t, nil)
	cases := map[string]string{"": "", ".": "", "./a//b/": "a/b", `a\b`: "a/b", "a/./b.txt": "a/b.txt"}
	for in, want := range cases {
		got, err := r.CleanRel(in)
		if err != nil || got != want {
			t.Errorf("CleanRel(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := r.CleanRel("a/../b"); err == nil {
		t.Error("CleanRel accepted a '..' segment")
	}
}

// FuzzResolve checks that whatever Resolve accepts lies inside the root,
// both lexically and after resolving the symlinks of its longest existing
// prefix.
func FuzzResolve(f *testing.F) {
	r, _ := resolveFixture(f)
	for _, seed := range []string{
		"", ".", "a/b/c.txt", "../x", "a/../../x", "/etc/passwd", `C:\x`, `\\srv\s`,
		"%2e%2e/x", "to-etc/passwd", "chain1/secret.txt", "a/upup/outside", "a/up/a/up/to-outside",
		"in-chain1/../../x", "loop1", "dangling-out", "a\x00", "docs/sneaky.txt", "a/out-and-back",
	} {
		f.Add(seed)
	}
	root := r.Path()
	f.Fuzz(func(t *testing.T, rel string) {
		got, err := r.Resolve(rel)
		if err != nil {
			if _, ok := errs.As(err); !ok {
				t.Fatalf("Resolve(%q) returned an untyped error %v", rel, err)
			}
			return
		}
		if !r.contains(got) || filepath.Clean(got) != got {
			t.Fatalf("Resolve(%q) = %q, not a clean path inside %q", rel, got, root)
		}
		realGot := evalLongestPrefix(got)
		if !r.contains(realGot) {
			t.Fatalf("Resolve(%q) = %q, whose real location %q is outside %q", rel, got, realGot, root)
		}
	})
}

// evalLongestPrefix resolves the symlinks of the longest existing prefix of
// p and appends the rest.
func evalLongestPrefix(p string) string {
	rest := ""
	for cur := p; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return p // e.g. a loop; Resolve would have refused it
		}
		if filepath.Dir(cur) == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}

func TestWorkTreeDetection(t *testing.T) {
	top := t.TempDir()
	writeTree(t, top, map[string]string{
		".git/info/exclude": "excluded.md\n",
		".gitignore":        "*.tmp\n/docs/private/\n",
		"docs/.gitignore":   "draft-*\n",
		"docs/a.md":         "a",
		"docs/a.tmp":        "tmp",
		"docs/draft-1.md":   "d",
		"docs/excluded.md":  "e",
		"docs/private/x.md": "p",
		"docs/sub/b.md":     "b",
		"ignored-root/x.md": "x",
	})
	// The parent .gitignore ignores "ignored-root"; opening it explicitly
	// must still show its files.
	if err := os.WriteFile(filepath.Join(top, ".gitignore"), []byte("*.tmp\n/docs/private/\nignored-root/\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	r, err := Open(filepath.Join(top, "docs"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.md", "sub/b.md"}
	if got := walkRels(t, r, WalkOptions{}); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("walk of a sub-folder root = %v, want %v (ignore files above the root must apply)", got, want)
	}

	r2, err := Open(filepath.Join(top, "ignored-root"))
	if err != nil {
		t.Fatal(err)
	}
	if got := walkRels(t, r2, WalkOptions{}); strings.Join(got, ",") != "x.md" {
		t.Fatalf("walk of an explicitly opened but ignored root = %v, want [x.md]", got)
	}
}
