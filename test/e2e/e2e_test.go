package e2e

import (
	"context"
	"fmt"
	"github.com/lore-dev/lore/internal/files"
	"github.com/lore-dev/lore/internal/testtree"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTypeScriptClient runs e2e.mjs against a freshly built lore. It needs
// node and npm: without them it fails when CI is set and skips otherwise.
func TestTypeScriptClient(t *testing.T) {
	node, nodeErr := exec.LookPath("node")
	npm, npmErr := exec.LookPath("npm")
	if nodeErr != nil || npmErr != nil {
		msg := "the end-to-end test needs node and npm on PATH (it drives lore serve with the official MCP TypeScript SDK)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		run(t, ctx, dir, nil, npm, "ci", "--no-audit", "--no-fund")
	}

	work := t.TempDir()
	bin := filepath.Join(work, "lore")
	run(t, ctx, dir, nil, "go", "build", "-o", bin, "github.com/lore-dev/lore/cmd/lore")

	root := filepath.Join(work, "project")
	outside := filepath.Join(work, "outside")
	big := filepath.Join(work, "big")
	empty := filepath.Join(work, "empty")
	writeTree(t, root, projectFiles)
	writeTree(t, outside, map[string]string{"secret.txt": "TOP SECRET: never served\n"})
	writeTree(t, big, bigProject(8000))
	// A Go project with a large call graph, indexed before the servers
	// start: its first code_research builds the symbol graph, long enough
	// to be cancelled.
	graph := filepath.Join(work, "graph")
	writeTree(t, graph, graphProject(3000))
	// A monorepo with every manifest kind and an OpenSpec + spec-kit tree:
	// the fixtures of internal/packages and internal/specs.
	mono := filepath.Join(work, "monorepo")
	copyDir(t, filepath.Join("..", "..", "internal", "packages", "testdata", "monorepo"), mono)
	copyDir(t, filepath.Join("..", "..", "internal", "specs", "testdata", "repo"), mono)
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "image.bin"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Pictures and sound for open_file, made here: a PNG, a JPEG behind a
	// .png name, a WAV, a PDF, and a PNG one byte over the cap.
	writeTree(t, root, map[string]string{
		"media/diagram.png": string(testtree.PNG(16, 9)),
		"media/photo.png":   string(testtree.JPEG(8, 8)),
		"media/beep.wav":    string(testtree.WAV(800)),
		"media/manual.pdf":  "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n\x00trailer\n",
		"media/huge.png":    "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", files.MaxMediaBytes-7),
	})
	if err := os.Symlink(outside, filepath.Join(root, "link-out")); err != nil {
		t.Fatal(err)
	}

	env := append(os.Environ(),
		"LORE_BIN="+bin, "LORE_ROOT="+root, "LORE_OUTSIDE="+outside, "LORE_BIG="+big, "LORE_EMPTY="+empty, "LORE_MONO="+mono, "LORE_GRAPH="+graph,
		"LORE_CACHE_DIR="+filepath.Join(work, "cache"),
		// The servers must use their defaults, whatever the caller's environment says.
		"LORE_INDEX=", "CODE_ROOT=", "DOCS_ROOT=", "MCP_SERVER_NAME=", "LORE_CHAT_BASE_URL=",
	)
	// Two named collections in the cache's collections database.
	run(t, ctx, dir, env, bin, "index", "--collection", "alpha", root)
	run(t, ctx, dir, env, bin, "index", "--collection", "beta", mono)
	run(t, ctx, dir, env, bin, "index", graph)
	out := run(t, ctx, dir, env, node, "e2e.mjs")
	t.Logf("e2e output:\n%s", out)
}

// run runs a command in dir and returns its output; a failure fails the
// test with the output.
func run(t *testing.T, ctx context.Context, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeTree(t *testing.T, dir string, files map[string]string) { testtree.Write(t, dir, files) }

func copyDir(t *testing.T, src, dst string) { testtree.Copy(t, src, dst) }

var projectFiles = map[string]string{
	"auth/login.go": `package auth

// Login checks a user's password and opens a session.
func Login(user, password string) (*Session, error) {
	if !checkPassword(user, password) {
		return nil, ErrDenied
	}
	return openSession(user)
}

func checkPassword(user, password string) bool { return password != "" }
`,
	"auth/session.go": `package auth

import "errors"

// ErrDenied is returned when authentication fails.
var ErrDenied = errors.New("denied")

// Session is an authenticated user's session.
type Session struct{ User string }

func openSession(user string) (*Session, error) { return &Session{User: user}, nil }
`,
	// A call chain main → Route → HandleLogin → auth.Login, for code_research.
	"go.mod": "module example.com/demo\n\ngo 1.22\n",
	"cmd/demo/main.go": `package main

import "example.com/demo/web"

func main() {
	web.Route("/login")
}
`,
	"web/router.go": `package web

// Route dispatches a request path to its handler.
func Route(path string) {
	if path == "/login" {
		HandleLogin(path)
	}
}
`,
	"web/handler.go": `package web

import "example.com/demo/auth"

// HandleLogin serves the login form.
func HandleLogin(path string) {
	auth.Login("guest", path)
}
`,
	"docs/install.md": "# Installation\n\nRun the installer to install the demo.\n\n## Configuration\n\nSet CODE_ROOT to the code folder. The needle is here.\n",
	"README.md":       "# Demo\n\nA demo project about authentication and sessions.\n",
	"notes.txt":       "alpha\nbeta needle\ngamma\nneedle again\n",
	".hidden":         "hidden needle\n",
	".gitignore":      "*.log\n",
	"ignored.log":     "ignored needle\n",
}

// bigProject is large enough that indexing it takes seconds.
func bigProject(n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package pkg%d\n\n", i%50)
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&b, "// Handler%d_%d handles request kind %d.\nfunc Handler%d_%d(x int) int {\n\tif x > %d {\n\t\treturn x * %d\n\t}\n\treturn x + %d\n}\n\n", i, j, j, i, j, j, i, j)
		}
		files[fmt.Sprintf("mod%03d/file%05d.go", i%100, i)] = b.String()
	}
	return files
}

// graphProject is a Go module of n files in 50 packages whose functions
// call each other in chains, within their file and across packages.
func graphProject(n int) map[string]string {
	files := map[string]string{"go.mod": "module example.com/graph\n\ngo 1.22\n"}
	for i := 0; i < n; i++ {
		var b strings.Builder
		next := (i + 1) % n
		fmt.Fprintf(&b, "package pkg%d\n\nimport \"example.com/graph/pkg%d\"\n\n", i%50, next%50)
		for j := 0; j < 12; j++ {
			if j < 11 {
				fmt.Fprintf(&b, "// Step%d_%d calls the next step.\nfunc Step%d_%d(x int) int {\n\treturn Step%d_%d(x+1) + %d\n}\n\n", i, j, i, j, i, j+1, j)
			} else {
				fmt.Fprintf(&b, "// Step%d_%d calls into the next file's package.\nfunc Step%d_%d(x int) int {\n\treturn pkg%d.Step%d_0(x)\n}\n\n", i, j, i, j, next%50, next)
			}
		}
		files[fmt.Sprintf("pkg%d/file%05d.go", i%50, i)] = b.String()
	}
	return files
}
