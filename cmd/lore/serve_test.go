package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// loreBinary is lore built once for this test binary's run, for tests
// that need a real process (stdio belongs to the process). One build
// instead of one per test: each link takes seconds on a loaded machine.
func loreBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.path = filepath.Join(testBinDir, "lore")
		built.out, built.err = exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("building lore: %v\n%s", built.err, built.out)
	}
	return built.path
}

var built struct {
	once sync.Once
	path string
	out  []byte
	err  error
}

// serveEnv is a clean environment for a lore process: its own cache, no
// inherited lore settings.
func serveEnv(t *testing.T, extra ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LORE_CACHE_DIR=" + t.TempDir()}
	return append(env, extra...)
}

func serveFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"main.go":   "package main\n\n// Greet says hello to name.\nfunc Greet(name string) string { return \"hello \" + name }\n",
		"README.md": "# Greeter\n\nSays hello.\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestServeStdio drives a real lore serve process over its stdin/stdout
// with the SDK's client.
func TestServeStdio(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "serve", "--root", root)
	cmd.Env = serveEnv(t, "MCP_SERVER_NAME=lore-under-test")
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "serve-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\nstderr: %s", err, stderr.String())
	}
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "lore-under-test" || init.ServerInfo.Version == "" {
		t.Errorf("serverInfo = %+v", init.ServerInfo)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "index_codebase") || !slices.Contains(names, "search_code") {
		t.Errorf("tools = %v", names)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "index_codebase", Arguments: map[string]any{"path": root}})
	if err != nil || res.IsError {
		t.Fatalf("index_codebase: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_code", Arguments: map[string]any{"query": "Greet hello"}})
	if err != nil || res.IsError {
		t.Fatalf("search_code: %v %+v", err, res)
	}
	if !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "main.go") {
		t.Errorf("search_code did not find main.go: %v", res.Content[0])
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	log := stderr.String()
	if !regexp.MustCompile(`msg="tool call" tool=search_code root=\S+ duration_ms=\d+`).MatchString(log) {
		t.Errorf("stderr has no log line for the tool call:\n%s", log)
	}
	if strings.Contains(log, "hello \" + name") {
		t.Errorf("the log holds file contents:\n%s", log)
	}
}

// TestServeStartupErrors checks that lore serve refuses to start, with a
// message naming the problem, when its configuration is wrong.
func TestServeStartupErrors(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)
	file := filepath.Join(root, "main.go")
	tests := []struct {
		name     string
		args     []string
		env      []string
		wantCode int
		want     []string
	}{
		{"CODE_ROOT missing", []string{"serve", "--root", root}, []string{"CODE_ROOT=" + filepath.Join(root, "nope")}, 1, []string{"CODE_ROOT=", "does not exist"}},
		{"DOCS_ROOT not a directory", []string{"serve", "--root", root}, []string{"DOCS_ROOT=" + file}, 1, []string{"DOCS_ROOT=", "not a directory"}},
		{"read-only without index", []string{"serve", "--read-only", "--root", root}, nil, exitNoIndex, []string{"no index for", "lore index"}},
		{"unknown toolset", []string{"serve", "--toolsets", "files,bogus"}, nil, 2, []string{`unknown toolset "bogus"`}},
		{"bad --http", []string{"serve", "--http", "nowhere"}, nil, 2, []string{"--http"}},
		{"positional argument", []string{"serve", "extra"}, nil, 2, []string{"takes no arguments"}},
		{"missing config file", []string{"serve", "--config", filepath.Join(root, "none.toml")}, nil, 1, []string{"none.toml"}},
		{"chat endpoint without model", []string{"serve", "--root", root}, []string{"LORE_CHAT_BASE_URL=http://localhost:1/v1"}, 1, []string{"LORE_CHAT_MODEL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			cmd.Env = serveEnv(t, tt.env...)
			cmd.Stdin = strings.NewReader("")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.wantCode, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q lacks %q", stderr.String(), w)
				}
			}
		})
	}
}

// TestServeReadOnly serves an existing index without index_codebase.
func TestServeReadOnly(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)
	env := serveEnv(t)
	index := exec.Command(bin, "index", "--quiet", root)
	index.Env = env
	if out, err := index.CombinedOutput(); err != nil {
		t.Fatalf("lore index: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--read-only", "--root", root)
	cmd.Env = env
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "index_codebase" {
			t.Error("index_codebase offered in --read-only")
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_code", Arguments: map[string]any{"query": "Greet"}})
	if err != nil || res.IsError {
		t.Errorf("search_code in --read-only: %v %+v", err, res)
	}
}
