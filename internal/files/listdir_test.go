package files

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

func TestListDir(t *testing.T) {
	fx := newFixture(t, map[string]string{
		"index.md": "# Docs\n",
	}, map[string]string{
		".gitignore":          "*.log\nbuild/\n",
		"b.go":                "package b\n",
		"a.go":                "package a\n",
		"Z.go":                "package z\n",
		"debug.log":           "ignored",
		".env":                "hidden",
		".github/ci.yml":      "hidden folder",
		"build/out.js":        "ignored folder",
		"node_modules/x.js":   "default skip",
		"pkg/util.go":         "package pkg\n",
		"pkg/sub/deep.go":     "package sub\n",
		"cmd/main.go":         "package main\n",
		"link-in":             "->pkg",
		"link-out":            "->../outside",
		"link-file.go":        "->a.go",
		"dir.with.dots/x.txt": "x",
	})
	ctx := context.Background()
	entry := func(e DirEntry) string { return fmt.Sprintf("%s %s %s %d", e.Type, e.Name, e.Path, e.Size) }

	cases := []struct {
		repo, path, wantPath string
		want                 []string
	}{
		{"code", "", ".", []string{
			"dir cmd cmd 0", "dir dir.with.dots dir.with.dots 0", "dir link-in link-in 0", "dir pkg pkg 0",
			"file Z.go Z.go 10", "file a.go a.go 10", "file b.go b.go 10", "file link-file.go link-file.go 10",
		}},
		{"code", ".", ".", nil},
		{"code", "pkg", "pkg", []string{"dir sub pkg/sub 0", "file util.go pkg/util.go 12"}},
		{"code", "./pkg/", "pkg", []string{"dir sub pkg/sub 0", "file util.go pkg/util.go 12"}},
		{"code", "link-in", "link-in", []string{"dir sub link-in/sub 0", "file util.go link-in/util.go 12"}},
		{"docs", "", ".", []string{"file index.md index.md 7"}},
	}
	for _, tc := range cases {
		t.Run(tc.repo+"/"+tc.path, func(t *testing.T) {
			l, err := fx.svc.ListDir(ctx, tc.repo, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				tc.want = cases[0].want
			}
			var got []string
			for _, e := range l.Entries {
				got = append(got, entry(e))
			}
			if !slices.Equal(got, tc.want) || l.Path != tc.wantPath || l.Truncated {
				t.Fatalf("got path %q entries\n  %q\nwant path %q\n  %q", l.Path, got, tc.wantPath, tc.want)
			}
		})
	}

	errorCases := []struct{ name, repo, path, code, msg string }{
		{"file", "code", "a.go", CodeNotADirectory, "a.go"},
		{"missing", "code", "nope", CodeNotFound, "nope"},
		{"hidden folder", "code", ".github", CodeNotFound, "hidden or ignored"},
		{"hidden file", "code", ".env", CodeNotFound, "hidden or ignored"},
		{"ignored folder", "code", "build", CodeNotFound, "hidden or ignored"},
		{"ignored file", "code", "debug.log", CodeNotFound, "hidden or ignored"},
		{"default skip", "code", "node_modules", CodeNotFound, "hidden or ignored"},
		{"dotdot", "code", "..", CodeOutsideRoot, "'..'"},
		{"dotdot nested", "code", "pkg/../..", CodeOutsideRoot, "'..'"},
		{"absolute", "code", "/", CodeOutsideRoot, "absolute"},
		{"encoded", "code", "%2E%2E", CodeOutsideRoot, "URL-encoded"},
		{"nul", "code", "pkg\x00", CodeOutsideRoot, "NUL"},
		{"symlink out", "code", "link-out", CodeOutsideRoot, "link-out"},
		{"bad repo", "both", "", CodeRepoInvalid, `"both"`},
	}
	for _, tc := range errorCases {
		t.Run("error "+tc.name, func(t *testing.T) {
			_, err := fx.svc.ListDir(ctx, tc.repo, tc.path)
			requireError(t, err, tc.code, tc.msg)
		})
	}
}

func TestListDirTruncates(t *testing.T) {
	files := map[string]string{}
	for i := range MaxListEntries + 5 {
		files[fmt.Sprintf("f%04d.txt", i)] = ""
	}
	fx := newFixture(t, nil, files)
	l, err := fx.svc.ListDir(context.Background(), "code", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != MaxListEntries || !l.Truncated || l.Entries[0].Name != "f0000.txt" {
		t.Fatalf("got %d entries (first %v), truncated %v", len(l.Entries), l.Entries[0], l.Truncated)
	}
}

func TestListingJSON(t *testing.T) {
	l := &Listing{Path: ".", Entries: []DirEntry{{Name: "a", Path: "a", Type: TypeDir}}}
	data, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"path":".","entries":[{"name":"a","path":"a","type":"dir","size":0}],"truncated":false}`
	if string(data) != want {
		t.Fatalf("JSON = %s, want %s", data, want)
	}
}
