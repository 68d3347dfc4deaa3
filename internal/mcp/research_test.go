package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// researchFiles is a Go project with the call chain main → Route →
// HandleLogin → authenticate and an interface with two implementations.
var researchFiles = map[string]string{
	"go.mod": "module example.com/app\n\ngo 1.22\n",
	"cmd/server/main.go": `package main

import "example.com/app/web"

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
	"web/login.go": `package web

// HandleLogin serves the login form.
func HandleLogin(path string) {
	var a Authenticatable = Guest{}
	if !authenticate(a, "secret") {
		println("denied", path)
	}
}

// authenticate checks a password.
func authenticate(a Authenticatable, password string) bool {
	return a.Check(password)
}
`,
	"web/auth.go": `package web

// Authenticatable is anything that can check a password.
type Authenticatable interface {
	Check(password string) bool
}

// Guest checks nothing.
type Guest struct{}

// Check accepts any password.
func (Guest) Check(password string) bool { return true }

// Admin checks its password.
type Admin struct{ secret string }

// Check compares the password.
func (a *Admin) Check(password string) bool { return password == a.secret }

// Clock has a Check method of another arity: not an implementation.
type Clock struct{}

// Check reads the time.
func (Clock) Check() bool { return true }
`,
}

// nodeSymbols lists the symbols of a research result's nodes at a depth.
func nodeSymbols(out map[string]any, depth int) []string {
	var got []string
	for _, n := range out["nodes"].([]any) {
		n := n.(map[string]any)
		if int(n["depth"].(float64)) == depth {
			got = append(got, n["symbol"].(string))
		}
	}
	slices.Sort(got)
	return got
}

// TestCodeResearch: callers by hop with their chain, implementations
// (structural in Go), progress per hop, the text formats, and the same
// structured content whatever the format.
func TestCodeResearch(t *testing.T) {
	e := newEnv(t, researchFiles)
	var (
		progress = make(chan *sdk.ProgressNotificationParams, 32)
	)
	cs := indexed(t, e, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			progress <- req.Params
		},
	}, nil)
	sc := newSchemaChecker(t, cs)

	res := callTool(t, cs, "code_research", map[string]any{"query": "what calls authenticate()"})
	sc.check(t, "code_research", res)
	out := structured(t, res)
	if out["intent"] != "callers" || out["depth"] != float64(2) || out["root"] != e.root {
		t.Fatalf("callers: %v", out)
	}
	if got := nodeSymbols(out, 1); !slices.Equal(got, []string{"HandleLogin"}) {
		t.Errorf("hop 1: %v", got)
	}
	if got := nodeSymbols(out, 2); !slices.Equal(got, []string{"Route"}) {
		t.Errorf("hop 2: %v (main is 3 hops away)", got)
	}
	targets := out["targets"].([]any)
	if len(targets) != 1 || targets[0].(map[string]any)["symbol"] != "authenticate" || targets[0].(map[string]any)["path"] != "web/login.go" {
		t.Errorf("targets %v", targets)
	}

	// Depth 3 adds main and the whole chain; with a progress token, one
	// notification per hop.
	params := &sdk.CallToolParams{Name: "code_research", Arguments: map[string]any{"query": "what calls authenticate()", "depth": 3}}
	params.SetProgressToken("research")
	deep, err := cs.CallTool(context.Background(), params)
	if err != nil || deep.IsError {
		t.Fatalf("depth 3: %v %s", err, textOf(deep))
	}
	for hop := 1; hop <= 3; hop++ {
		select {
		case p := <-progress:
			if p.ProgressToken != "research" || p.Progress != float64(hop) || p.Total != 3 ||
				!strings.HasPrefix(p.Message, fmt.Sprintf("hop %d of 3, ", hop)) {
				t.Errorf("progress %d: %+v", hop, p)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no progress notification for hop %d", hop)
		}
	}
	out = structured(t, deep)
	if got := nodeSymbols(out, 3); !slices.Equal(got, []string{"main"}) {
		t.Errorf("hop 3: %v", got)
	}
	names := map[string]string{}
	for _, n := range out["nodes"].([]any) {
		n := n.(map[string]any)
		names[n["id"].(string)] = n["symbol"].(string)
	}
	var chains []string
	for _, c := range out["chains"].([]any) {
		var parts []string
		for _, id := range c.([]any) {
			parts = append(parts, names[id.(string)])
		}
		chains = append(chains, strings.Join(parts, " → "))
	}
	if !slices.Contains(chains, "main → Route → HandleLogin → authenticate") {
		t.Errorf("chains %v", chains)
	}
	if s, _ := out["summary"].(string); !strings.Contains(s, "main → Route → HandleLogin → authenticate") {
		t.Errorf("summary %q does not show the chain", s)
	}

	impl := structured(t, callTool(t, cs, "code_research", map[string]any{"query": "all implementations of Authenticatable", "depth": 1}))
	if got := nodeSymbols(impl, 1); !slices.Equal(got, []string{"Admin", "Guest"}) {
		t.Errorf("implementations: %v, want Admin and Guest (not Clock)", got)
	}

	// explain adds an explanation; without sampling or a chat endpoint,
	// lore's own.
	explained := structured(t, callTool(t, cs, "code_research", map[string]any{"query": "what calls authenticate()", "explain": true}))
	if ex, _ := explained["explanation"].(map[string]any); ex["source"] != "builtin" || ex["summary"] == "" {
		t.Errorf("explanation %v", explained["explanation"])
	}
	if _, ok := out["explanation"]; ok {
		t.Error("an explanation without explain: true")
	}

	// The formats change the text, not the structured content.
	var first map[string]any
	for _, format := range []string{"json", "toon", "human"} {
		res := callTool(t, cs, "code_research", map[string]any{"query": "what does main call", "depth": 3, "format": format})
		sc.check(t, "code_research", res)
		out := structured(t, res)
		if first == nil {
			first = out
		} else if fmt.Sprint(out) != fmt.Sprint(first) {
			t.Errorf("format %s changed the structured content", format)
		}
		text := textOf(res)
		switch format {
		case "json":
			textIsStructuredJSON(t, res)
		case "toon":
			if !strings.Contains(text, "intent: callees") {
				t.Errorf("toon text: %.300s", text)
			}
		case "human":
			if !strings.Contains(text, "main → Route → HandleLogin → authenticate") {
				t.Errorf("human text: %.500s", text)
			}
		}
	}
}

// TestCodeResearchErrors: seed 001's messages, a clear error for depth and
// focus, and a missing symbol with the closest names.
func TestCodeResearchErrors(t *testing.T) {
	e := newEnv(t, researchFiles)
	cs := connectSDK(t, e.server(t, nil), nil)
	sc := newSchemaChecker(t, cs)
	file := filepath.Join(e.root, "go.mod")
	before := []struct {
		code, message string
		args          map[string]any
	}{
		{"NO_INDEX", "No index found for path: " + e.root + ". Run 'index_codebase' tool first.", map[string]any{"query": "what calls Route"}},
		{"NOT_A_DIRECTORY", "Path does not exist or is not a directory: " + file, map[string]any{"query": "x", "path": file}},
		{"NOT_FOUND", "Path does not exist or is not a directory: " + filepath.Join(e.root, "missing"), map[string]any{"query": "x", "path": "missing"}},
		{"INVALID_ARGUMENT", "Missing required argument: query", map[string]any{}},
		{"QUERY_EMPTY", "Query cannot be empty", map[string]any{"query": "  "}},
	}
	for _, tt := range before {
		res := callTool(t, cs, "code_research", tt.args)
		sc.check(t, "code_research", res)
		te := toolErrorOf(t, res)
		if te["code"] != tt.code || te["message"] != tt.message || textOf(res) != tt.message {
			t.Errorf("%v:\n got %v / text %q\nwant %s %q", tt.args, te, textOf(res), tt.code, tt.message)
		}
	}
	if res := callTool(t, cs, "index_codebase", map[string]any{"path": e.root}); res.IsError {
		t.Fatal(textOf(res))
	}
	after := []struct {
		code, prefix string
		args         map[string]any
	}{
		{"INVALID_ARGUMENT", "Argument depth must be between 1 and 5, got 6", map[string]any{"query": "what calls Route", "depth": 6}},
		{"INVALID_ARGUMENT", "Argument depth must be between 1 and 5, got 0", map[string]any{"query": "what calls Route", "depth": 0}},
		{"INVALID_ARGUMENT", `Argument focus must be one of architecture, dependencies, patterns, flow; got "speed"`, map[string]any{"query": "what calls Route", "focus": "speed"}},
		{"SYMBOL_NOT_FOUND", "No symbol named authenticat in the index. Closest names: authenticate", map[string]any{"query": "what calls authenticat()"}},
	}
	for _, tt := range after {
		res := callTool(t, cs, "code_research", tt.args)
		sc.check(t, "code_research", res)
		te := toolErrorOf(t, res)
		msg, _ := te["message"].(string)
		if te["code"] != tt.code || !strings.HasPrefix(msg, tt.prefix) {
			t.Errorf("%v: got %v, want %s %q…", tt.args, te, tt.code, tt.prefix)
		}
	}
}
