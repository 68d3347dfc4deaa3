package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResearchCommand: lore research answers callers with the chain in
// each format, and refuses bad flags, an empty query and a missing index
// with the right exit codes.
func TestResearchCommand(t *testing.T) {
	cache, root := t.TempDir(), t.TempDir()
	for name, content := range map[string]string{
		"router.go": "package web\n\n// Route dispatches.\nfunc Route(p string) { HandleLogin(p) }\n",
		"login.go":  "package web\n\n// HandleLogin logs in.\nfunc HandleLogin(p string) { authenticate(p) }\n\nfunc authenticate(p string) bool { return p != \"\" }\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runLore(t, cache, "research", "--root", root, "what calls authenticate"); code != exitNoIndex {
		t.Errorf("research without an index: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runLore(t, cache, "index", root); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	code, out, errOut := runLore(t, cache, "research", "--root", root, "--depth", "2", "what calls authenticate()")
	if code != exitOK || !strings.Contains(out, "Route → HandleLogin → authenticate") {
		t.Errorf("human: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runLore(t, cache, "research", "--root", root, "--format", "json", "what calls authenticate")
	var res struct {
		Root   string `json:"root"`
		Intent string `json:"intent"`
		Nodes  []struct {
			Symbol string `json:"symbol"`
			Depth  int    `json:"depth"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != exitOK || err != nil || res.Intent != "callers" || len(res.Nodes) != 3 || res.Root != root {
		t.Errorf("json: exit %d, %v, %+v", code, err, res)
	}
	if code, out, _ := runLore(t, cache, "research", "--root", root, "--format", "toon", "what calls authenticate"); code != exitOK || !strings.Contains(out, "intent: callers") {
		t.Errorf("toon: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"--depth", "6", "what calls Route"},
		{"--focus", "speed", "what calls Route"},
		{"--format", "xml", "what calls Route"},
		{" "},
	} {
		if code, _, errOut := runLore(t, cache, append([]string{"research", "--root", root}, args...)...); code != exitUsage || errOut == "" {
			t.Errorf("research %v: exit %d, stderr %q; want %d with a message", args, code, errOut, exitUsage)
		}
	}
	if code, _, errOut := runLore(t, cache, "research", "--root", root, "what calls nothingLikeThis"); code != exitError ||
		!strings.Contains(errOut, "No symbol named nothingLikeThis") {
		t.Errorf("an unknown symbol: exit %d, %s", code, errOut)
	}
}
