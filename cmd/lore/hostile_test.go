package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/testtree"
)

// TestHostileRepositoryCLI: lore index and lore search over a repository
// of crafted links index only its visible files and print no secret.
func TestHostileRepositoryCLI(t *testing.T) {
	h := testtree.WriteHostile(t)
	cache := t.TempDir()
	code, out, errOut := runLore(t, cache, "index", "--format", "json", h.Root)
	if code != exitOK {
		t.Fatalf("index exit %d: %s", code, errOut)
	}
	var stats map[string]any
	if err := json.Unmarshal([]byte(out), &stats); err != nil {
		t.Fatal(err)
	}
	if stats["files_scanned"] != float64(len(h.Indexed)) {
		t.Errorf("scanned %v files, want %d (%v)", stats["files_scanned"], len(h.Indexed), h.Indexed)
	}
	for _, q := range []string{testtree.SecretMarker, "API_KEY secret", "secret", "git core", "outside", "hidden ignored"} {
		code, out, errOut := runLore(t, cache, "search", "--root", h.Root, "--format", "json", q)
		if code != exitOK {
			t.Fatalf("search %q exit %d: %s", q, code, errOut)
		}
		var res struct {
			Results []struct {
				Path    string `json:"path"`
				Content string `json:"content"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Results {
			if !slices.Contains(h.Indexed, r.Path) || strings.Contains(r.Content, testtree.SecretMarker) {
				t.Errorf("search %q returned %s", q, r.Path)
			}
		}
	}
}

// TestServeAllowRoot: a real lore serve process lets the code tools index
// a folder outside the served root only when --allow-root names it, and
// refuses it otherwise with the code family's message.
func TestServeAllowRoot(t *testing.T) {
	bin := loreBinary(t)
	h := testtree.WriteHostile(t)
	call := func(args []string, tool string, params map[string]any) *sdk.CallToolResult {
		t.Helper()
		var stderr bytes.Buffer
		cmd := exec.Command(bin, append([]string{"serve", "--root", h.Root}, args...)...)
		cmd.Env = serveEnv(t)
		cmd.Stderr = &stderr
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "allow-root-test", Version: "0"}, nil).
			Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connecting: %v\nstderr: %s", err, stderr.String())
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: params})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return res
	}
	text := func(res *sdk.CallToolResult) string { return res.Content[0].(*sdk.TextContent).Text }

	res := call(nil, "index_codebase", map[string]any{"path": "../outside"})
	if !res.IsError || text(res) != "Path is outside the allowed roots: ../outside" {
		t.Errorf("without --allow-root: %v %q", res.IsError, text(res))
	}
	res = call([]string{"--allow-root", h.Outside}, "index_codebase", map[string]any{"path": "../outside"})
	if res.IsError {
		t.Errorf("with --allow-root: %q", text(res))
	}
	res = call([]string{"--allow-root", h.Outside}, "index_codebase", map[string]any{"path": "/etc"})
	if !res.IsError || text(res) != "Path is outside the allowed roots: /etc" {
		t.Errorf("/etc with --allow-root elsewhere: %v %q", res.IsError, text(res))
	}
}
