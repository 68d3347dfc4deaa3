package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpMCPSession is an SDK client session with a lore serve --http process.
func httpMCPSession(t *testing.T, url string) *sdk.ClientSession {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "watch-test", Version: "0"}, nil).
		Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("SDK client session: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callJSON calls a tool and returns its structured content.
func callJSON(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	m, _ := res.StructuredContent.(map[string]any)
	return m
}

// lore serve keeps the served root's index fresh by itself: a file saved
// is searchable after the watcher's run, and index_status says how fresh
// the index is; --no-watch leaves it alone and says what is pending.
func TestServeKeepsIndexFresh(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)
	env := serveEnv(t)
	cmd := exec.Command(bin, "index", root)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("lore index: %v\n%s", err, out)
	}

	s := startHTTP(t, bin, env, "--root", root, "--http", "127.0.0.1:0")
	waitFor(t, "the watcher to start", func() bool { return strings.Contains(s.stderr.String(), "watching for changes") })
	if err := os.WriteFile(filepath.Join(root, "wombat.go"), []byte("package main\n\n// Burrow digs a wombat tunnel.\nfunc Burrow() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := httpMCPSession(t, s.url)
	// The save may be seen in two batches (the file created, then
	// written) on a busy machine: wait for the run that has its content.
	waitFor(t, "a re-index that finds the change", func() bool {
		if !strings.Contains(s.stderr.String(), "re-indexed after changes") {
			return false
		}
		found := callJSON(t, cs, "search_code", map[string]any{"query": "wombat tunnel", "limit": 3})
		results, _ := found["results"].([]any)
		return len(results) > 0 && results[0].(map[string]any)["path"] == "wombat.go"
	})
	var fresh map[string]any
	waitFor(t, "index_status to say nothing is pending", func() bool {
		status := callJSON(t, cs, "index_status", nil)
		fresh, _ = status["freshness"].(map[string]any)
		return fresh["pending_changes"] == float64(0)
	})
	if fresh["watching"] != true || fresh["last_run"] == nil {
		t.Errorf("index_status freshness = %v", fresh)
	}

	// --no-watch: the change waits for lore index, and index_status says so.
	s.stop() // the watching server would pick the change up
	quiet := startHTTP(t, bin, env, "--root", root, "--http", "127.0.0.1:0", "--no-watch")
	if err := os.WriteFile(filepath.Join(root, "later.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status := callJSON(t, httpMCPSession(t, quiet.url), "index_status", nil)
	fresh, _ = status["freshness"].(map[string]any)
	paths, _ := fresh["pending_paths"].([]any)
	if fresh["watching"] != false || fresh["pending_changes"] == float64(0) || len(paths) == 0 {
		t.Errorf("index_status freshness with --no-watch = %v", fresh)
	}
	if strings.Contains(quiet.stderr.String(), "watching for changes") {
		t.Error("--no-watch watched")
	}
}
