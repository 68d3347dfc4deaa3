package files

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readFixture(t *testing.T) *fixture {
	many := make([]string, 2500)
	for i := range many {
		many[i] = fmt.Sprintf("line %d", i+1)
	}
	return newFixture(t, map[string]string{
		"guide.md": "# Guide\n\nHello.\n",
	}, map[string]string{
		".gitignore":        "*.gen.go\n",
		"main.go":           "package main\n\nfunc main() {}\n",
		"crlf.txt":          "one\r\ntwo\r\n",
		"no-newline.txt":    "a\nb",
		"empty.txt":         "",
		"blank-lines.txt":   "\n\n",
		"latin1.txt":        "caf\xe9\n",
		"many.txt":          strings.Join(many, "\n") + "\n",
		"huge-line.js":      strings.Repeat("x", MaxReadBytes+100) + "\nsecond\n",
		"wide-runes.txt":    strings.Repeat("é", MaxReadBytes/2+10) + "\n",
		"image.png":         "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"pkg/util.go":       "package pkg\n",
		"pkg/x.gen.go":      "package pkg // generated\n",
		".env":              "SECRET=1\n",
		".hidden/x.txt":     "hidden\n",
		"node_modules/a.js": "module.exports = 1\n",
		"link.go":           "->main.go",
		"out-link.txt":      "->../outside/secret.txt",
	})
}

// openText opens a file that must be text.
func openText(t *testing.T, svc *Service, repo, path string) *FileContent {
	t.Helper()
	opened, err := svc.OpenFile(context.Background(), repo, path)
	if err != nil {
		t.Fatal(err)
	}
	if opened.Text == nil || opened.Binary != nil {
		t.Fatalf("%s is not opened as text: %+v", path, opened.Binary)
	}
	return opened.Text
}

func lineTexts(fc *FileContent) []string {
	out := make([]string, len(fc.Lines))
	for i, l := range fc.Lines {
		out[i] = fmt.Sprintf("%d:%s", l.N, l.Text)
	}
	return out
}

func TestOpenFile(t *testing.T) {
	fx := readFixture(t)
	ctx := context.Background()
	cases := []struct {
		repo, path string
		lines      []string
		total      int
		truncated  bool
		wantPath   string
	}{
		{"code", "main.go", []string{"1:package main", "2:", "3:func main() {}"}, 3, false, "main.go"},
		{"code", "./pkg//util.go", []string{"1:package pkg"}, 1, false, "pkg/util.go"},
		{"code", `pkg\util.go`, []string{"1:package pkg"}, 1, false, "pkg/util.go"},
		{"docs", "guide.md", []string{"1:# Guide", "2:", "3:Hello."}, 3, false, "guide.md"},
		{"code", "crlf.txt", []string{"1:one", "2:two"}, 2, false, "crlf.txt"},
		{"code", "no-newline.txt", []string{"1:a", "2:b"}, 2, false, "no-newline.txt"},
		{"code", "empty.txt", []string{}, 0, false, "empty.txt"},
		{"code", "blank-lines.txt", []string{"1:", "2:"}, 2, false, "blank-lines.txt"},
		{"code", "latin1.txt", []string{"1:caf\uFFFD"}, 1, false, "latin1.txt"},
		{"code", "link.go", []string{"1:package main", "2:", "3:func main() {}"}, 3, false, "link.go"},
	}
	for _, tc := range cases {
		t.Run(tc.repo+"/"+tc.path, func(t *testing.T) {
			fc := openText(t, fx.svc, tc.repo, tc.path)
			got := lineTexts(fc)
			if strings.Join(got, "|") != strings.Join(tc.lines, "|") || fc.TotalLines != tc.total || fc.Truncated != tc.truncated || fc.Path != tc.wantPath {
				t.Fatalf("got %q total %d truncated %v path %q; want %q total %d truncated %v path %q",
					got, fc.TotalLines, fc.Truncated, fc.Path, tc.lines, tc.total, tc.truncated, tc.wantPath)
			}
		})
	}

	t.Run("line cap", func(t *testing.T) {
		fc := openText(t, fx.svc, "code", "many.txt")
		if len(fc.Lines) != MaxReadLines || fc.TotalLines != 2500 || !fc.Truncated || fc.Lines[MaxReadLines-1].Text != "line 2000" {
			t.Fatalf("got %d lines (last %+v), total %d, truncated %v", len(fc.Lines), fc.Lines[len(fc.Lines)-1], fc.TotalLines, fc.Truncated)
		}
	})
	t.Run("byte cap cuts a huge line", func(t *testing.T) {
		fc := openText(t, fx.svc, "code", "huge-line.js")
		if len(fc.Lines) != 1 || len(fc.Lines[0].Text) != MaxReadBytes || fc.TotalLines != 2 || !fc.Truncated {
			t.Fatalf("got %d lines (first %d bytes), total %d, truncated %v", len(fc.Lines), len(fc.Lines[0].Text), fc.TotalLines, fc.Truncated)
		}
	})
	t.Run("byte cap does not split a rune", func(t *testing.T) {
		fc := openText(t, fx.svc, "code", "wide-runes.txt")
		text := fc.Lines[0].Text
		if strings.ContainsRune(text, '\uFFFD') || len(text) > MaxReadBytes || !fc.Truncated {
			t.Fatalf("got %d bytes, replacement char %v, truncated %v", len(text), strings.ContainsRune(text, '\uFFFD'), fc.Truncated)
		}
	})

	errorCases := []struct {
		name, repo, path, code, msg string
	}{
		{"directory", "code", "pkg", CodeNotAFile, "pkg"},
		{"root", "code", "", CodeNotAFile, ""},
		{"missing", "code", "nope.go", CodeNotFound, "nope.go"},
		{"missing below a file", "code", "main.go/x", CodeNotFound, "main.go/x"},
		{"dotdot", "code", "../outside/secret.txt", CodeOutsideRoot, "../outside/secret.txt"},
		{"dotdot to other root", "code", "../docs/guide.md", CodeOutsideRoot, "'..'"},
		{"absolute", "code", filepath.Join(fx.base, "outside", "secret.txt"), CodeOutsideRoot, "absolute"},
		{"url-encoded", "code", "%2e%2e/outside/secret.txt", CodeOutsideRoot, "URL-encoded"},
		{"nul", "code", "main.go\x00.txt", CodeOutsideRoot, "NUL"},
		{"symlink out", "code", "out-link.txt", CodeOutsideRoot, "out-link.txt"},
		{"hidden file", "code", ".env", CodeNotFound, "hidden or ignored"},
		{"file in hidden folder", "code", ".hidden/x.txt", CodeNotFound, "hidden or ignored"},
		{"hidden folder", "code", ".hidden", CodeNotFound, "hidden or ignored"},
		{"gitignored", "code", "pkg/x.gen.go", CodeNotFound, "hidden or ignored"},
		{"default skip", "code", "node_modules/a.js", CodeNotFound, "hidden or ignored"},
		{"bad repo", "src", "main.go", CodeRepoInvalid, `"src"`},
		{"both is search only", "both", "main.go", CodeRepoInvalid, `"both"`},
		{"empty repo", "", "main.go", CodeRepoInvalid, `""`},
	}
	for _, tc := range errorCases {
		t.Run("error "+tc.name, func(t *testing.T) {
			_, err := fx.svc.OpenFile(ctx, tc.repo, tc.path)
			requireError(t, err, tc.code, tc.msg)
		})
	}

	t.Run("unconfigured repo", func(t *testing.T) {
		svc := New(nil, openRoot(t, fx.code))
		_, err := svc.OpenFile(ctx, "docs", "guide.md")
		requireError(t, err, CodeRepoInvalid, "not configured")
	})
	t.Run("unreadable", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root can read anything")
		}
		p := filepath.Join(fx.code, "locked.txt")
		if err := os.WriteFile(p, []byte("x"), 0); err != nil {
			t.Fatal(err)
		}
		_, err := fx.svc.OpenFile(ctx, "code", "locked.txt")
		requireError(t, err, CodeUnreadable, "locked.txt")
	})
	t.Run("error details", func(t *testing.T) {
		_, err := fx.svc.OpenFile(ctx, "code", "nope.go")
		e := requireCode(t, err, CodeNotFound)
		if e.Details["repo"] != "code" || e.Details["path"] != "nope.go" {
			t.Fatalf("details = %v", e.Details)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		// Small files may be read before the context is checked; a big one
		// must notice.
		big := strings.Repeat("y\n", 4<<20)
		if err := os.WriteFile(filepath.Join(fx.code, "big.txt"), []byte(big), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := fx.svc.OpenFile(cctx, "code", "big.txt"); err == nil || cctx.Err() == nil {
			t.Fatalf("OpenFile with a cancelled context returned %v", err)
		}
	})
}

func TestGetSnippet(t *testing.T) {
	fx := readFixture(t)
	ctx := context.Background()
	cases := []struct {
		start, end int
		first      string
		n, total   int
		truncated  bool
	}{
		{1, 1, "1:line 1", 1, 2500, false},
		{10, 12, "10:line 10", 3, 2500, false},
		{2499, 9999, "2499:line 2499", 2, 2500, false},
		{2500, 2500, "2500:line 2500", 1, 2500, false},
		{1, 2500, "1:line 1", MaxReadLines, 2500, true},
		{100, 2099, "100:line 100", 2000, 2500, false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d-%d", tc.start, tc.end), func(t *testing.T) {
			fc, err := fx.svc.GetSnippet(ctx, "code", "many.txt", tc.start, tc.end)
			if err != nil {
				t.Fatal(err)
			}
			got := lineTexts(fc)
			if got[0] != tc.first || len(got) != tc.n || fc.TotalLines != tc.total || fc.Truncated != tc.truncated {
				t.Fatalf("got first %q, %d lines, total %d, truncated %v", got[0], len(got), fc.TotalLines, fc.Truncated)
			}
			for i, l := range fc.Lines {
				if l.N != tc.start+i {
					t.Fatalf("line %d numbered %d", i, l.N)
				}
			}
		})
	}
	errorCases := []struct {
		path       string
		start, end int
		code, msg  string
	}{
		{"many.txt", 0, 5, CodeInvalidRange, "0-5"},
		{"many.txt", -3, 5, CodeInvalidRange, "-3-5"},
		{"many.txt", 5, 4, CodeInvalidRange, "5-4"},
		{"many.txt", 2501, 2600, CodeInvalidRange, "2501"},
		{"empty.txt", 1, 1, CodeInvalidRange, "(0 lines)"},
		{"image.png", 1, 2, CodeBinaryFile, "image.png"},
		{"missing.txt", 1, 2, CodeNotFound, "missing.txt"},
		{"../outside/secret.txt", 1, 2, CodeOutsideRoot, "'..'"},
		{"pkg", 1, 2, CodeNotAFile, "pkg"},
	}
	for _, tc := range errorCases {
		t.Run(fmt.Sprintf("error %s %d-%d", tc.path, tc.start, tc.end), func(t *testing.T) {
			_, err := fx.svc.GetSnippet(ctx, "code", tc.path, tc.start, tc.end)
			requireError(t, err, tc.code, tc.msg)
		})
	}
}

func TestFileContentJSON(t *testing.T) {
	fc := &FileContent{Path: "a.go", Lines: []Line{{N: 1, Text: "x"}}, TotalLines: 1}
	data, err := json.Marshal(fc)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"path":"a.go","lines":[{"n":1,"text":"x"}],"total_lines":1,"truncated":false}`
	if string(data) != want {
		t.Fatalf("JSON = %s, want %s", data, want)
	}
}
