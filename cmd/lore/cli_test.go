package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run calls lore in-process with its own index location and returns the
// exit code and both outputs.
func runLore(t *testing.T, cache string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("LORE_CACHE_DIR", cache)
	t.Setenv("LORE_INDEX", "")
	var stdout, stderr bytes.Buffer
	code := runMain(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func cliRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"router.go": "package web\n\n// Router dispatches requests by path.\ntype Router struct{}\n\n// Handle registers a handler.\nfunc (r *Router) Handle(pattern string) {}\n",
		"README.md": "# Web\n\nA tiny router.\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestIndexSearchStatus(t *testing.T) {
	cache, root := t.TempDir(), cliRepo(t)

	code, out, errOut := runLore(t, cache, "index", "--format", "json", root)
	if code != exitOK {
		t.Fatalf("index exit %d: %s", code, errOut)
	}
	var stats map[string]any
	if err := json.Unmarshal([]byte(out), &stats); err != nil {
		t.Fatalf("index --format json: %v\n%s", err, out)
	}
	for _, key := range []string{"files_scanned", "files_indexed", "files_unchanged", "files_deleted", "chunks_written", "errors", "file_errors", "duration_ms"} {
		if _, ok := stats[key]; !ok {
			t.Errorf("index stats lack %q: %s", key, out)
		}
	}
	if errOut != "" {
		t.Errorf("a progress bar was drawn on a non-terminal stderr: %q", errOut)
	}
	if !strings.HasPrefix(filepath.Clean(stats["index_path"].(string)), cache) {
		t.Errorf("index written outside the cache dir: %v", stats["index_path"])
	}

	code, out, errOut = runLore(t, cache, "search", "--root", root, "--format", "json", "--limit", "5", "router", "handle")
	if code != exitOK {
		t.Fatalf("search exit %d: %s", code, errOut)
	}
	var resp struct {
		Query     string           `json:"query"`
		Results   []map[string]any `json:"results"`
		Total     int              `json:"total"`
		Truncated *bool            `json:"truncated"`
		TookMS    *float64         `json:"took_ms"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("search json: %v\n%s", err, out)
	}
	if resp.Query != "router handle" || len(resp.Results) < 2 || resp.TookMS == nil || resp.Total != len(resp.Results) ||
		resp.Truncated == nil || *resp.Truncated {
		t.Fatalf("search response %+v", resp)
	}
	// A limit below the number of matches: total stays the true count.
	all := resp.Total
	code, out, _ = runLore(t, cache, "search", "--root", root, "--format", "json", "--limit", "1", "router", "handle")
	resp.Truncated = nil
	if err := json.Unmarshal([]byte(out), &resp); code != exitOK || err != nil || len(resp.Results) != 1 || resp.Total != all ||
		resp.Truncated == nil || !*resp.Truncated {
		t.Fatalf("search --limit 1: exit %d, %+v", code, resp)
	}
	for _, key := range []string{"path", "start_line", "end_line", "language", "kind", "symbols", "signature", "breadcrumb", "doc_comment", "score", "relevance_percent", "content"} {
		if _, ok := resp.Results[0][key]; !ok {
			t.Errorf("result lacks %q", key)
		}
	}
	if resp.Results[0]["path"] != "router.go" {
		t.Errorf("top result %v, want router.go", resp.Results[0]["path"])
	}

	for _, format := range []string{"human", "toon"} {
		code, out, _ = runLore(t, cache, "search", "--root", root, "--format", format, "Router")
		if code != exitOK || !strings.Contains(out, "router.go") {
			t.Errorf("--format %s: exit %d\n%s", format, code, out)
		}
	}

	code, out, _ = runLore(t, cache, "status", "--root", root)
	if code != exitOK || !strings.Contains(out, "schema version") || !strings.Contains(out, "go") || strings.Contains(out, "rebuild") {
		t.Errorf("status: exit %d\n%s", code, out)
	}
}

func TestCLIErrors(t *testing.T) {
	cache, root := t.TempDir(), cliRepo(t)
	missing := filepath.Join(root, "nope")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no index", []string{"search", "--root", root, "router"}, exitNoIndex, `no index for ` + root + `; run "lore index ` + root + `" first`},
		{"empty query", []string{"search", "--root", root, "  "}, exitUsage, "Query cannot be empty"},
		{"missing root", []string{"index", missing}, exitError, "does not exist"},
		{"root is a file", []string{"index", filepath.Join(root, "router.go")}, exitUsage, "not a directory"},
		{"unknown flag", []string{"search", "--bogus", "x"}, exitUsage, "bogus"},
		{"bad format", []string{"search", "--format", "xml", "x"}, exitUsage, "--format"},
		{"bad limit", []string{"search", "--limit", "0", "x"}, exitUsage, "--limit"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "unknown command"},
		{"no command", nil, exitUsage, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runLore(t, cache, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if !strings.Contains(errOut, tt.msg) {
				t.Errorf("stderr %q does not say %q", errOut, tt.msg)
			}
		})
	}
	if code, out, _ := runLore(t, cache, "search", "-h"); code != exitOK || !strings.Contains(out, "Usage") {
		t.Errorf("search -h: exit %d, %q", code, out)
	}
}

func TestIndexFlagAndEnvPickTheFile(t *testing.T) {
	cache, root := t.TempDir(), cliRepo(t)
	file := filepath.Join(t.TempDir(), "custom.db")
	if code, _, errOut := runLore(t, cache, "--index", file, "index", "--quiet", root); code != exitOK {
		t.Fatalf("index --index: %s", errOut)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("--index file not written: %v", err)
	}
	if code, _, _ := runLore(t, cache, "--index", file, "search", "--root", root, "router"); code != exitOK {
		t.Error("search --index could not read the index")
	}
	t.Setenv("LORE_INDEX", file)
	var stdout, stderr bytes.Buffer
	if code := runMain(context.Background(), []string{"search", "--root", root, "router"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Errorf("LORE_INDEX ignored: %s", stderr.String())
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".db") || strings.HasPrefix(e.Name(), ".lore") {
			t.Errorf("lore wrote %s into the repository", e.Name())
		}
	}
}

// lore serve reads LORE_INDEX_MEMORY for the runs it makes (its watcher's,
// index_codebase's), and refuses a value lore index would refuse, before
// serving anything.
func TestServeRefusesABadIndexMemory(t *testing.T) {
	t.Setenv("LORE_INDEX_MEMORY", "lots")
	code, _, errOut := runLore(t, t.TempDir(), "serve", "--root", cliRepo(t), "--http", "127.0.0.1:0")
	if code == exitOK || !strings.Contains(errOut, "LORE_INDEX_MEMORY") || !strings.Contains(errOut, "lots") {
		t.Errorf("serve with LORE_INDEX_MEMORY=lots: exit %d, stderr %q", code, errOut)
	}
}
