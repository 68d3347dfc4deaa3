package fsroot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

// walkRels returns the relative paths Walk visits, in visit order.
func walkRels(t testing.TB, r *Root, opts WalkOptions) []string {
	t.Helper()
	var got []string
	err := r.Walk(context.Background(), opts, func(f File) error {
		got = append(got, f.Rel)
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return got
}

func requireRels(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("visited\n  %q\nwant\n  %q", got, want)
	}
}

// gitFixture exercises every gitignore feature lore relies on.
var gitFixture = map[string]string{
	".gitignore": strings.Join([]string{
		"# a comment line",
		"",
		"*.log",
		"!keep.log",
		"/build",
		"**/gen/*.go",
		"tmp/",
		"*.o   ",
		`\#hash.txt`,
		"docs/*.html",
		"[!a]x.dat",
		"logs/",
		"!logs/keep.txt",
		"deep/**/z.txt",
		"anydir/**",
		"!anydir/keep.txt",
		"/star/*/**",
		"globdir*/**",
		"crlf.txt\r",
	}, "\n") + "\n",
	".git/info/exclude":    "secret.txt\n",
	"a.txt":                "a",
	"keep.log":             "k",
	"x.log":                "x",
	"build/out.bin":        "b",
	"src/build/main.go":    "package main",
	"src/gen/x.go":         "package gen",
	"src/gen/x.txt":        "t",
	"src/gen/sub/y.go":     "package sub",
	"gen/z.go":             "package gen",
	"tmp/t.txt":            "t",
	"src/tmp/u.txt":        "u",
	"src/lib/tmp":          "a file named tmp",
	"#hash.txt":            "h",
	"main.o":               "o",
	"secret.txt":           "s",
	"sub/secret.txt":       "s",
	"docs/a.html":          "h",
	"docs/sub/b.html":      "h",
	"docs/guide.md":        "g",
	"ax.dat":               "a",
	"bx.dat":               "b",
	"logs/keep.txt":        "cannot be re-included",
	"logs/other.txt":       "o",
	"deep/z.txt":           "z",
	"deep/q/r/z.txt":       "z",
	"deep/q/keep.txt":      "k",
	"anydir/f.txt":         "f",
	"crlf.txt":             "c",
	"sub/.gitignore":       "!x.log\nlocal.txt\n/anch.txt\n",
	"sub/x.log":            "re-included",
	"sub/y.log":            "y",
	"sub/local.txt":        "l",
	"sub/deeper/local.txt": "l",
	"sub/anch.txt":         "a",
	"sub/deeper/anch.txt":  "a",
	"src/.gitignore":       "*.gen\n!important.gen\n",
	"src/a.gen":            "a",
	"src/important.gen":    "i",
	"src/deeper/b.gen":     "b",
	".hidden/file.txt":     "hidden",
	".env":                 "SECRET=1",
}

// TestWalkMatchesGit compares, file by file, what Walk visits and what
// Ignored says with the real git (hidden files and default skips turned off,
// since git knows nothing of them).
func TestWalkMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.Output()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // check-ignore exits 1 when nothing matches
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	git("", "init", "-q")
	writeTree(t, dir, gitFixture)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := WalkOptions{IncludeHidden: true, NoDefaultSkips: true, MaxFileSize: -1}

	var want []string
	for _, p := range strings.Split(git("", "ls-files", "--others", "--exclude-standard", "-z"), "\x00") {
		if p != "" && !strings.HasPrefix(p, ".ignore") {
			want = append(want, p)
		}
	}
	sort.Strings(want)
	requireRels(t, walkRels(t, r, opts), want)

	// Every path of the tree, files and folders, against git check-ignore.
	type pathInfo struct {
		rel   string
		isDir bool
	}
	var all []pathInfo
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		all = append(all, pathInfo{filepath.ToSlash(rel), d.IsDir()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var stdin strings.Builder
	for _, p := range all {
		stdin.WriteString(p.rel + "\x00")
	}
	ignoredByGit := map[string]bool{}
	for _, p := range strings.Split(git(stdin.String(), "check-ignore", "--stdin", "-z", "--no-index"), "\x00") {
		ignoredByGit[p] = true
	}
	for _, p := range all {
		if got := r.IgnoredWith(opts, p.rel, p.isDir); got != ignoredByGit[p.rel] {
			t.Errorf("IgnoredWith(%q, dir=%v) = %v, git check-ignore says %v", p.rel, p.isDir, got, ignoredByGit[p.rel])
		}
	}
}

func TestWalkIgnoreFilesAndHidden(t *testing.T) {
	r := newRoot(t, map[string]string{
		".ignore":              "*.md\n!README.md\n",
		".gitignore":           "*.md\n*.txt\n",
		"README.md":            "r",
		"notes.md":             "n",
		"a.txt":                "ignored by .gitignore",
		"docs/.ignore":         "!*.md\n",
		"docs/guide.md":        "re-included by a deeper .ignore",
		"docs/.gitignore":      "draft.go\n",
		"docs/draft.go":        "ignored",
		"main.go":              "package main",
		".hidden.go":           "hidden",
		".config/settings.go":  "hidden folder",
		".git/config":          "never",
		"pkg/.git":             "gitdir: elsewhere (a submodule)",
		"pkg/lib.go":           "package pkg",
		"pkg/.gitignore":       "",
		"docs/sub/.ignore":     "*.go\n",
		"docs/sub/x.go":        "ignored",
		"docs/sub/ok.yaml":     "ok",
		"docs/sub/more/y.go":   "ignored by the parent .ignore",
		"docs/sub/more/z.yaml": "z",
	})
	requireRels(t, walkRels(t, r, WalkOptions{}), []string{
		"README.md", "docs/guide.md", "docs/sub/more/z.yaml", "docs/sub/ok.yaml", "main.go", "pkg/lib.go",
	})
	requireRels(t, walkRels(t, r, WalkOptions{IncludeHidden: true}), []string{
		".config/settings.go", ".gitignore", ".hidden.go", ".ignore", "README.md",
		"docs/.gitignore", "docs/.ignore", "docs/guide.md", "docs/sub/.ignore",
		"docs/sub/more/z.yaml", "docs/sub/ok.yaml", "main.go", "pkg/.gitignore", "pkg/lib.go",
	})
}

func TestWalkDefaultSkips(t *testing.T) {
	files := map[string]string{
		"main.go":                              "package main",
		"node_modules/left-pad/index.js":       "skip",
		"web/node_modules/x/index.js":          "skip",
		"go.mod":                               "module m",
		"vendor/github.com/x/y.go":             "skip: vendor beside go.mod",
		"php/vendor/lib.php":                   "keep: no composer.json beside",
		"php2/composer.json":                   "{}",
		"php2/vendor/lib.php":                  "skip",
		"legacy/vendor/modules.txt":            "# skip: Go vendor manifest",
		"legacy/vendor/x.go":                   "skip",
		"rust/Cargo.toml":                      "[package]",
		"rust/target/debug/out.rs":             "skip",
		"rust/src/lib.rs":                      "keep",
		"target/notes.md":                      "keep: no Cargo.toml/pom.xml beside",
		"py/.venv/pyvenv.cfg":                  "home = /usr",
		"py/.venv/lib/x.py":                    "skip",
		"py/myenv/pyvenv.cfg":                  "home = /usr",
		"py/myenv/lib/x.py":                    "skip: any folder with pyvenv.cfg",
		"py/env/x.py":                          "keep: no pyvenv.cfg",
		"py/__pycache__/x.pyc":                 "skip",
		"py/pkg.egg-info/PKG-INFO":             "skip",
		"java/build.gradle":                    "plugins {}",
		"java/build/classes/A.class":           "skip",
		"tools/build/build.go":                 "keep: build without a Gradle file",
		"js/package.json":                      "{}",
		"js/dist/bundle.js":                    "skip",
		"lib/dist/x.go":                        "keep: dist without package.json",
		"js/coverage/lcov.info":                "skip",
		"internal/coverage/cover.go":           "keep: coverage without reports",
		"ex/mix.exs":                           "defmodule",
		"ex/_build/dev/x.beam":                 "skip",
		"ex/deps/phoenix/x.ex":                 "skip",
		"ex/lib/app.ex":                        "keep",
		"deps/readme.md":                       "keep: deps without mix.exs",
		"cpp/cmake-build-debug/CMakeCache.txt": "skip",
		"cpp/cmake-build-debug/gen.cpp":        "skip",
		"dotnet/App.csproj":                    "<Project/>",
		"dotnet/bin/Debug/app.dll":             "skip",
		"dotnet/obj/x.cs":                      "skip",
		"bin/tool.sh":                          "keep: bin without a project file",
		"ios/Pods/Lib/x.m":                     "skip",
		"infra/.terraform/x.tf":                "skip",
	}
	r := newRoot(t, files)
	want := []string{
		"bin/tool.sh", "deps/readme.md", "dotnet/App.csproj", "ex/lib/app.ex", "ex/mix.exs", "go.mod",
		"internal/coverage/cover.go", "java/build.gradle", "js/package.json",
		"lib/dist/x.go", "main.go", "php/vendor/lib.php", "php2/composer.json", "py/env/x.py",
		"rust/Cargo.toml", "rust/src/lib.rs", "target/notes.md", "tools/build/build.go",
	}
	requireRels(t, walkRels(t, r, WalkOptions{}), want)

	t.Run("hidden skip-list folders stay skipped with IncludeHidden", func(t *testing.T) {
		got := walkRels(t, r, WalkOptions{IncludeHidden: true})
		for _, p := range got {
			if strings.Contains(p, ".venv/") || strings.Contains(p, ".terraform/") {
				t.Fatalf("visited %q", p)
			}
		}
	})
	t.Run("NoDefaultSkips visits everything not hidden", func(t *testing.T) {
		var all []string
		for p := range files {
			if !strings.Contains(p, "/.") && !strings.HasPrefix(p, ".") {
				all = append(all, p)
			}
		}
		sort.Strings(all)
		requireRels(t, walkRels(t, r, WalkOptions{NoDefaultSkips: true}), all)
	})
	t.Run("SkipDirs by name and by path", func(t *testing.T) {
		got := walkRels(t, r, WalkOptions{SkipDirs: []string{"ex", "tools/build", "t*t"}})
		for _, p := range got {
			if strings.HasPrefix(p, "ex/") || strings.HasPrefix(p, "tools/build/") || strings.HasPrefix(p, "target/") {
				t.Fatalf("visited %q despite SkipDirs", p)
			}
		}
		if !slices.Contains(got, "main.go") || !slices.Contains(got, "rust/src/lib.rs") {
			t.Fatalf("SkipDirs skipped too much: %v", got)
		}
	})
}

func TestDefaultSkipRulesAreWellFormed(t *testing.T) {
	for _, rule := range defaultSkipRules {
		if len(rule.beside) > 0 && len(rule.containing) > 0 {
			t.Errorf("rule %q has both beside and containing conditions", rule.name)
		}
		for _, p := range append(append([]string{rule.name}, rule.beside...), rule.containing...) {
			if _, err := filepath.Match(p, "x"); err != nil {
				t.Errorf("rule %q: bad pattern %q: %v", rule.name, p, err)
			}
		}
	}
}

func TestWalkOrderIsLexicographic(t *testing.T) {
	r := newRoot(t, map[string]string{
		"a.txt": "", "a/b.txt": "", "a0.txt": "", "a-b/c.txt": "", "B.txt": "", "a/c/d.txt": "", "a/c.txt": "",
		"é.txt": "", "z/a.txt": "", "ab": "",
	})
	got := walkRels(t, r, WalkOptions{})
	want := slices.Clone(got)
	sort.Strings(want)
	requireRels(t, got, want)
	if len(got) != 10 {
		t.Fatalf("visited %d files, want 10: %v", len(got), got)
	}
}

func TestWalkSymlinks(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"outside/secret.txt":      "s",
		"root/real/file.txt":      "f",
		"root/link-dir":           "->real",
		"root/link-file.txt":      "->real/file.txt",
		"root/out-dir":            "->../outside",
		"root/out-file.txt":       "->../outside/secret.txt",
		"root/broken":             "->missing",
		"root/real/loop":          "->..",
		"root/real/self":          "->.",
		"root/cycle/a/to-b":       "->../b",
		"root/cycle/b/to-a":       "->../a",
		"root/cycle/b/x.txt":      "x",
		"root/abs-link":           "->" + filepath.Join(base, "root", "real"),
		"root/ignored-link":       "->real",
		"root/.gitignore":         "ignored-link\n",
		"root/dirpattern-link":    "->real",
		"root/sub/.gitignore":     "",
		"root/dirpattern/.ignore": "",
	})
	// A followed symlink to a folder is matched as a folder.
	if err := os.WriteFile(filepath.Join(base, "root", ".ignore"), []byte("dirpattern-link/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]string{}
	got := walkRels(t, r, WalkOptions{Skipped: func(rel, reason string) { skipped[rel] = reason }})
	requireRels(t, got, []string{
		"abs-link/file.txt",
		"cycle/a/to-b/x.txt",
		"cycle/b/x.txt",
		"link-dir/file.txt",
		"link-file.txt",
		"real/file.txt",
	})
	// Linked marks the files reached through a link; OwnPath tells where
	// they really are.
	linked := map[string]bool{}
	if err := r.Walk(context.Background(), WalkOptions{}, func(f File) error {
		if f.Linked {
			own, visible := r.OwnPath(f.Abs)
			linked[f.Rel] = true
			if want := map[string]string{"cycle/a/to-b/x.txt": "cycle/b/x.txt"}[f.Rel]; want == "" && own != "real/file.txt" || want != "" && own != want || !visible {
				t.Errorf("OwnPath(%s) = %q, %v", f.Rel, own, visible)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"abs-link/file.txt": true, "cycle/a/to-b/x.txt": true, "link-dir/file.txt": true, "link-file.txt": true}; !maps.Equal(linked, want) {
		t.Errorf("linked files %v, want %v", linked, want)
	}
	// Below a starting folder reached through a link, files are not
	// linked: the link is the caller's choice.
	if err := r.Walk(context.Background(), WalkOptions{Dir: "link-dir"}, func(f File) error {
		if f.Linked {
			t.Errorf("%s is linked in a walk of link-dir", f.Rel)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	wantSkipped := map[string]string{
		"out-dir":           SkipSymlinkOutside,
		"out-file.txt":      SkipSymlinkOutside,
		"broken":            SkipSymlinkBroken,
		"real/loop":         SkipSymlinkLoop,
		"real/self":         SkipSymlinkLoop,
		"link-dir/loop":     SkipSymlinkLoop,
		"link-dir/self":     SkipSymlinkLoop,
		"abs-link/loop":     SkipSymlinkLoop,
		"abs-link/self":     SkipSymlinkLoop,
		"cycle/a/to-b/to-a": SkipSymlinkLoop,
		"cycle/b/to-a/to-b": SkipSymlinkLoop,
	}
	if len(skipped) != len(wantSkipped) {
		t.Errorf("Skipped reported %v, want %v", skipped, wantSkipped)
	}
	for rel, reason := range wantSkipped {
		if skipped[rel] != reason {
			t.Errorf("Skipped[%q] = %q, want %q (all: %v)", rel, skipped[rel], reason, skipped)
		}
	}
}

func TestWalkOptions(t *testing.T) {
	r := newRoot(t, map[string]string{
		"small.txt":      "12345",
		"big.txt":        strings.Repeat("x", 100),
		"sub/a.txt":      "a",
		"sub/deep/b.txt": "b",
		"sub/.gitignore": "ignored/\n",
		"sub/ignored/c":  "c",
		"other/d.txt":    "d",
	})

	t.Run("MaxFileSize", func(t *testing.T) {
		var skipped []string
		got := walkRels(t, r, WalkOptions{MaxFileSize: 10, Skipped: func(rel, reason string) {
			skipped = append(skipped, rel+":"+reason)
		}})
		requireRels(t, got, []string{"other/d.txt", "small.txt", "sub/a.txt", "sub/deep/b.txt"})
		requireRels(t, skipped, []string{"big.txt:" + SkipTooLarge})
		if got := walkRels(t, r, WalkOptions{MaxFileSize: -1}); !slices.Contains(got, "big.txt") {
			t.Fatal("MaxFileSize -1 should not limit sizes")
		}
	})
	t.Run("Dir", func(t *testing.T) {
		requireRels(t, walkRels(t, r, WalkOptions{Dir: "sub"}), []string{"sub/a.txt", "sub/deep/b.txt"})
		requireRels(t, walkRels(t, r, WalkOptions{Dir: "./sub/deep/"}), []string{"sub/deep/b.txt"})
		requireRels(t, walkRels(t, r, WalkOptions{Dir: "sub/ignored"}), nil)
	})
	t.Run("Dir errors", func(t *testing.T) {
		cases := []struct {
			dir  string
			kind errs.Kind
			code string
		}{
			{"missing", errs.NotFound, "NOT_FOUND"},
			{"small.txt", errs.Invalid, "NOT_A_DIRECTORY"},
			{"../x", errs.OutOfRoot, "PATH_OUTSIDE_ROOT"},
		}
		for _, tc := range cases {
			err := r.Walk(context.Background(), WalkOptions{Dir: tc.dir}, func(File) error { return nil })
			requireCode(t, err, tc.kind, tc.code)
		}
	})
	t.Run("File fields", func(t *testing.T) {
		err := r.Walk(context.Background(), WalkOptions{Dir: "sub/deep"}, func(f File) error {
			want := filepath.Join(r.Path(), "sub", "deep", "b.txt")
			if f.Abs != want || f.Size != 1 || f.ModTime.IsZero() {
				t.Fatalf("File = %+v, want Abs %q, Size 1, a ModTime", f, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Run("fn error stops the walk and is returned unchanged", func(t *testing.T) {
		stop := errors.New("stop")
		n := 0
		err := r.Walk(context.Background(), WalkOptions{}, func(File) error {
			n++
			return stop
		})
		if err != stop || n != 1 {
			t.Fatalf("Walk returned %v after %d calls; want the fn error after 1", err, n)
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := r.Walk(ctx, WalkOptions{}, func(File) error { return nil })
		if !errors.Is(err, context.Canceled) || errs.KindOf(err) != errs.Cancelled {
			t.Fatalf("Walk with a cancelled context returned %v", err)
		}
	})
}

// TestWalkShowHidden: ShowHidden opens the hidden folders it names (a
// workspace's "examples/.*/*"), and nothing else: hidden files stay hidden,
// ignore rules and .git still apply, and without it (the files tools)
// nothing changes.
func TestWalkShowHidden(t *testing.T) {
	r := newRoot(t, map[string]string{
		"examples/a/package.json":           "{}",
		"examples/.test/b/package.json":     "{}",
		"examples/.test/b/.env":             "SECRET=1",
		"examples/.test/b/.cache/x.json":    "{}",
		"examples/.experimental/c/index.js": "x",
		"examples/.ignored/d/package.json":  "{}",
		"examples/.gitignore":               ".ignored/\n",
		".hidden/e/package.json":            "{}",
	})
	show := func(rel string) bool {
		return rel == "examples/.test" || rel == "examples/.experimental" || rel == "examples/.ignored"
	}
	tests := []struct {
		name string
		opts WalkOptions
		want []string
	}{
		{"without ShowHidden", WalkOptions{}, []string{"examples/a/package.json"}},
		{"with ShowHidden", WalkOptions{ShowHidden: show},
			[]string{"examples/.experimental/c/index.js", "examples/.test/b/package.json", "examples/a/package.json"}},
		{"under a folder", WalkOptions{ShowHidden: show, Dir: "examples"},
			[]string{"examples/.experimental/c/index.js", "examples/.test/b/package.json", "examples/a/package.json"}},
		{"starting in a shown folder", WalkOptions{ShowHidden: show, Dir: "examples/.test"}, []string{"examples/.test/b/package.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireRels(t, walkRels(t, r, tt.opts), tt.want)
		})
	}
	// The files tools keep hiding them.
	if _, err := r.ReadDir("examples/.test", WalkOptions{}); errs.KindOf(err) != errs.NotFound {
		t.Errorf("ReadDir of a hidden folder without ShowHidden: %v", err)
	}
	if !r.Ignored("examples/.test/b/package.json", false) {
		t.Error("a file in a hidden folder is not reported as ignored")
	}
}

func TestWalkUnreadableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read anything")
	}
	r := newRoot(t, map[string]string{"a.txt": "a", "locked/b.txt": "b"})
	locked := filepath.Join(r.Path(), "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	var skipped []string
	got := walkRels(t, r, WalkOptions{Skipped: func(rel, reason string) { skipped = append(skipped, rel+":"+reason) }})
	requireRels(t, got, []string{"a.txt"})
	requireRels(t, skipped, []string{"locked:" + SkipUnreadable})
}

func TestIgnored(t *testing.T) {
	r := newRoot(t, map[string]string{
		".gitignore":          "*.log\nbuild/\n",
		"src/.gitignore":      "!debug.log\n",
		"src/main.go":         "",
		"src/debug.log":       "",
		"node_modules/x/y.js": "",
		"build/out.js":        "",
		"Cargo.toml":          "",
		"target/debug/x":      "",
		"venv/pyvenv.cfg":     "",
		"link-to-build":       "->build",
	})
	cases := []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"", true, false},
		{".", true, false},
		{"src", true, false},
		{"src/main.go", false, false},
		{"src/debug.log", false, false},
		{"other.log", false, true},
		{"src/missing.log", false, true}, // missing paths are judged by name
		{"src/debug.log", false, false},
		{"build", true, true},
		{"build", false, false}, // "build/" is dir-only
		{"build/out.js", false, true},
		{"link-to-build", true, true}, // judged by where it leads: build/ is ignored
		{"node_modules", true, true},
		{"node_modules/x/y.js", false, true},
		{"target", true, true},
		{"target/debug/x", false, true},
		{"venv", true, true},
		{".gitignore", false, true},
		{".github/workflows/ci.yml", false, true},
		{".git/config", false, true},
		{"../etc/passwd", false, true},
		{"/etc/passwd", false, true},
	}
	for _, tc := range cases {
		if got := r.Ignored(tc.rel, tc.isDir); got != tc.want {
			t.Errorf("Ignored(%q, %v) = %v, want %v", tc.rel, tc.isDir, got, tc.want)
		}
	}
	if r.IgnoredWith(WalkOptions{IncludeHidden: true}, ".github/workflows/ci.yml", false) {
		t.Error("IgnoredWith(IncludeHidden) still hides .github")
	}
	if r.IgnoredWith(WalkOptions{NoDefaultSkips: true}, "node_modules/x/y.js", false) {
		t.Error("IgnoredWith(NoDefaultSkips) still skips node_modules")
	}
}

func TestReadDir(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"outside/x":          "x",
		"root/.gitignore":    "*.log\n",
		"root/b.txt":         "bbb",
		"root/a.log":         "ignored",
		"root/.hidden":       "h",
		"root/dir/x.txt":     "x",
		"root/dir.txt":       "d",
		"root/node_modules/": "",
		"root/link-in":       "->dir",
		"root/link-out":      "->../outside",
		"root/big.bin":       strings.Repeat("\x00", 2<<20),
	})
	r, err := Open(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := r.ReadDir("", WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, fmt.Sprintf("%s|%s|%v|%d", e.Name, e.Rel, e.IsDir, e.Size))
	}
	requireRels(t, got, []string{
		"b.txt|b.txt|false|3", "big.bin|big.bin|false|2097152", "dir.txt|dir.txt|false|1",
		"dir|dir|true|0", "link-in|link-in|true|0",
	})
	sub, err := r.ReadDir("link-in", WalkOptions{})
	if err != nil || len(sub) != 1 || sub[0].Rel != "link-in/x.txt" {
		t.Fatalf("ReadDir(link-in) = %+v, %v", sub, err)
	}

	errorCases := []struct {
		rel  string
		kind errs.Kind
		code string
	}{
		{"missing", errs.NotFound, "NOT_FOUND"},
		{"b.txt", errs.Invalid, "NOT_A_DIRECTORY"},
		{"node_modules", errs.NotFound, "NOT_FOUND"},
		{"link-out", errs.OutOfRoot, "PATH_OUTSIDE_ROOT"},
		{"../outside", errs.OutOfRoot, "PATH_OUTSIDE_ROOT"},
		{"b.txt/x", errs.NotFound, "NOT_FOUND"},
	}
	for _, tc := range errorCases {
		_, err := r.ReadDir(tc.rel, WalkOptions{})
		requireCode(t, err, tc.kind, tc.code)
	}
}

func TestParseIgnore(t *testing.T) {
	patterns := parseIgnore([]byte("\xef\xbb\xbf*.a\r\n# c\n   \n\\#x\n[!b]c\n"), nil)
	if len(patterns) != 3 {
		t.Fatalf("parsed %d patterns, want 3", len(patterns))
	}
	cases := []struct {
		name string
		want bool
	}{{"x.a", true}, {"#x", true}, {"ac", true}, {"bc", false}, {"# c", false}}
	for _, tc := range cases {
		if got := excluded(patterns, []string{tc.name}, false); got != tc.want {
			t.Errorf("excluded(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := negatedClassToGo(`a\[!b[!c]`); got != `a\[!b[^c]` {
		t.Errorf("negatedClassToGo = %q", got)
	}
}

func BenchmarkWalk(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{".gitignore": "*.tmp\ngen/\n", "node_modules/x/index.js": "x"}
	for d := range 50 {
		for f := range 40 {
			files[fmt.Sprintf("pkg%02d/sub%d/file%02d.go", d, f%4, f)] = "package x\n"
		}
		files[fmt.Sprintf("pkg%02d/x.tmp", d)] = "tmp"
		files[fmt.Sprintf("pkg%02d/.gitignore", d)] = "*.bak\n!keep.bak\n"
	}
	writeTree(b, dir, files)
	r, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		n := 0
		if err := r.Walk(context.Background(), WalkOptions{}, func(File) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != 2000 {
			b.Fatalf("visited %d files, want 2000", n)
		}
	}
}
