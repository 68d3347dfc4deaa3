package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/assist"
)

// indexed returns a client of a server whose served root is indexed.
func indexed(t *testing.T, e *env, opts *sdk.ClientOptions, edit func(*Options)) *sdk.ClientSession {
	t.Helper()
	cs := connectSDK(t, e.server(t, edit), opts)
	res := callTool(t, cs, "index_codebase", map[string]any{"path": e.root})
	if res.IsError {
		t.Fatalf("index_codebase: %s", textOf(res))
	}
	return cs
}

func hitsOf(t *testing.T, res *sdk.CallToolResult) []map[string]any {
	t.Helper()
	if res.IsError {
		t.Fatalf("search failed: %s", textOf(res))
	}
	var out []map[string]any
	for _, h := range structured(t, res)["results"].([]any) {
		out = append(out, h.(map[string]any))
	}
	return out
}

func TestIndexCodebase(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	cs := connectSDK(t, e.server(t, nil), nil)
	sc := newSchemaChecker(t, cs)
	res := callTool(t, cs, "index_codebase", map[string]any{"path": e.root})
	sc.check(t, "index_codebase", res)
	stats := structured(t, res)
	if res.IsError || stats["files_scanned"].(float64) < 5 || stats["chunks_written"].(float64) < 5 || stats["files_indexed"] != stats["files_scanned"] ||
		stats["root"] != e.root || stats["errors"] != float64(0) {
		t.Fatalf("first index: %s", textOf(res))
	}
	if !strings.HasPrefix(textOf(res), "Indexed "+e.root+": ") || !strings.Contains(textOf(res), " chunks written") {
		t.Errorf("text = %q", textOf(res))
	}
	againRes := callTool(t, cs, "index_codebase", map[string]any{"path": e.root})
	again := structured(t, againRes)
	if again["files_unchanged"] != stats["files_scanned"] || again["files_indexed"] != float64(0) || again["chunks_written"] != float64(0) {
		t.Errorf("second index is not incremental: %v", again)
	}
	if want := fmt.Sprintf("Indexed %s: no changes (%v files unchanged) in ", e.root, stats["files_scanned"]); !strings.HasPrefix(textOf(againRes), want) {
		t.Errorf("a run that changed nothing says %q, want it to start with %q", textOf(againRes), want)
	}
	forced := structured(t, callTool(t, cs, "index_codebase", map[string]any{"path": e.root, "force": true}))
	if forced["files_indexed"] != stats["files_scanned"] {
		t.Errorf("force did not re-index every file: %v", forced)
	}
	if err := os.Remove(filepath.Join(e.root, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	after := structured(t, callTool(t, cs, "index_codebase", map[string]any{"path": e.root}))
	if after["files_deleted"] != float64(1) {
		t.Errorf("a removed file is not reported deleted: %v", after)
	}
	// The index lives in the cache, never in the root.
	if _, err := os.Stat(filepath.Join(e.cache)); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(e.root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".db") {
			t.Errorf("index_codebase wrote %s into the root", p)
		}
		return nil
	})
}

func TestSearchCode(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	cs := indexed(t, e, nil, nil)
	sc := newSchemaChecker(t, cs)

	res := callTool(t, cs, "search_code", map[string]any{"query": "Login password session"})
	sc.check(t, "search_code", res)
	hits := hitsOf(t, res)
	if len(hits) == 0 || hits[0]["path"] != "auth/login.go" {
		t.Fatalf("search_code: %v", hits)
	}
	for _, f := range []string{"content", "path", "start_line", "end_line", "relevance_percent", "kind", "symbols"} {
		if _, ok := hits[0][f]; !ok {
			t.Errorf("result lacks %s: %v", f, hits[0])
		}
	}
	if p := hits[0]["relevance_percent"].(float64); p < 0 || p > 100 {
		t.Errorf("relevance_percent %v", p)
	}
	// One resource link per distinct file, in rank order, priority falling.
	var links []*sdk.ResourceLink
	for _, c := range res.Content[1:] {
		links = append(links, c.(*sdk.ResourceLink))
	}
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h["path"].(string)] = true
	}
	if len(links) != len(seen) || links[0].Name != "auth/login.go" || links[0].Annotations.Priority != 1 {
		t.Fatalf("links = %d for %d files; first %+v", len(links), len(seen), links[0])
	}
	for i, l := range links {
		if !strings.HasPrefix(l.URI, "file://"+e.root+"/") || l.MIMEType == "" || !strings.HasPrefix(l.Description, "line") ||
			len(l.Annotations.Audience) != 1 || l.Annotations.Audience[0] != "assistant" {
			t.Errorf("link %d = %+v", i, l)
		}
		if i > 0 && l.Annotations.Priority >= links[i-1].Annotations.Priority {
			t.Errorf("priority does not fall with rank: %v then %v", links[i-1].Annotations.Priority, l.Annotations.Priority)
		}
		if _, err := os.Stat(strings.TrimPrefix(l.URI, "file://")); err != nil {
			t.Errorf("link %s does not name a file: %v", l.URI, err)
		}
	}
	if links[0].MIMEType != "text/x-go" {
		t.Errorf("mimeType of a Go file = %q", links[0].MIMEType)
	}
	// total counts every chunk that matched; truncated says the limit cut
	// the results short.
	whole := structured(t, callTool(t, cs, "search_code", map[string]any{"query": "session", "limit": 50}))
	n := len(whole["results"].([]any))
	if n < 2 || whole["total"] != float64(n) || whole["truncated"] != false {
		t.Fatalf("limit 50: %d results, total %v, truncated %v", n, whole["total"], whole["truncated"])
	}
	cut := callTool(t, cs, "search_code", map[string]any{"query": "session", "limit": 1})
	sc.check(t, "search_code", cut)
	if out := structured(t, cut); len(out["results"].([]any)) != 1 || out["total"] != float64(n) || out["truncated"] != true {
		t.Errorf("limit 1: %d results, total %v, truncated %v; want 1, %d, true", len(out["results"].([]any)), out["total"], out["truncated"], n)
	}

	tests := []struct {
		name  string
		args  map[string]any
		check func(t *testing.T, hits []map[string]any, text string)
	}{
		{"limit", map[string]any{"query": "session", "limit": 1}, func(t *testing.T, hits []map[string]any, _ string) {
			if len(hits) != 1 {
				t.Errorf("limit 1 gave %d", len(hits))
			}
		}},
		{"format human says how many matched", map[string]any{"query": "session", "limit": 1, "format": "human"}, func(t *testing.T, _ []map[string]any, text string) {
			if !strings.HasPrefix(text, "1 of ") || strings.HasPrefix(text, "1 of 1 ") {
				t.Errorf("human text = %.200q", text)
			}
		}},
		{"path_filter", map[string]any{"query": "session", "path_filter": "auth/**"}, func(t *testing.T, hits []map[string]any, _ string) {
			for _, h := range hits {
				if !strings.HasPrefix(h["path"].(string), "auth/") {
					t.Errorf("path_filter auth/** let %s through", h["path"])
				}
			}
		}},
		{"extensions", map[string]any{"query": "session", "extensions": ".md, txt"}, func(t *testing.T, hits []map[string]any, _ string) {
			if len(hits) == 0 {
				t.Error("no results")
			}
			for _, h := range hits {
				if p := h["path"].(string); !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".txt") {
					t.Errorf("extensions md,txt let %s through", p)
				}
			}
		}},
		{"relative path", map[string]any{"query": "Login", "path": "."}, func(t *testing.T, hits []map[string]any, _ string) {
			if len(hits) == 0 {
				t.Error("path . found nothing")
			}
		}},
		{"format toon", map[string]any{"query": "Login", "format": "toon"}, func(t *testing.T, _ []map[string]any, text string) {
			if !strings.Contains(text, "results[") || strings.HasPrefix(text, "{") {
				t.Errorf("toon text = %.200q", text)
			}
		}},
		{"format human", map[string]any{"query": "Login", "format": "human"}, func(t *testing.T, _ []map[string]any, text string) {
			if !strings.Contains(text, "auth/login.go:") || !strings.Contains(text, "│ ") {
				t.Errorf("human text = %.300q", text)
			}
		}},
		{"format json", map[string]any{"query": "Login"}, func(t *testing.T, _ []map[string]any, text string) {
			var v map[string]any
			if json.Unmarshal([]byte(text), &v) != nil || v["results"] == nil {
				t.Errorf("json text = %.200q", text)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, cs, "search_code", tt.args)
			sc.check(t, "search_code", res)
			tt.check(t, hitsOf(t, res), textOf(res))
		})
	}

	docs := callTool(t, cs, "search_docs", map[string]any{"query": "installation configuration"})
	sc.check(t, "search_docs", docs)
	dh := hitsOf(t, docs)
	if len(dh) == 0 {
		t.Fatal("search_docs found nothing")
	}
	for _, h := range dh {
		if p := h["path"].(string); strings.HasSuffix(p, ".go") || h["start_line"].(float64) < 1 {
			t.Errorf("search_docs returned %v", h)
		}
	}
	if dh[0]["path"] != "docs/install.md" {
		t.Errorf("search_docs top = %v", dh[0]["path"])
	}
}

func TestCodeErrors(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	cs := connectSDK(t, e.server(t, nil), nil)
	sc := newSchemaChecker(t, cs)
	file := filepath.Join(e.root, "README.md")
	tests := []struct {
		tool, code, message string
		args                map[string]any
	}{
		{"search_code", "NO_INDEX", "No index found for path: " + e.root + ". Run 'index_codebase' tool first.", map[string]any{"query": "x"}},
		{"search_docs", "NO_INDEX", "No index found for path: " + filepath.Join(e.root, "auth") + ". Run 'index_codebase' tool first.", map[string]any{"query": "x", "path": "auth"}},
		{"search_code", "NOT_FOUND", "Path does not exist or is not a directory: " + filepath.Join(e.root, "missing"), map[string]any{"query": "x", "path": "missing"}},
		{"search_code", "PATH_OUTSIDE_ROOT", "Path is outside the allowed roots: /does/not/exist", map[string]any{"query": "x", "path": "/does/not/exist"}},
		{"search_code", "NOT_A_DIRECTORY", "Path does not exist or is not a directory: " + file, map[string]any{"query": "x", "path": file}},
		{"index_codebase", "NOT_FOUND", "Path does not exist or is not a directory: " + filepath.Join(e.root, "auth", "missing"), map[string]any{"path": filepath.Join(e.root, "auth", "missing")}},
		{"index_codebase", "PATH_OUTSIDE_ROOT", "Path is outside the allowed roots: /does/not/exist", map[string]any{"path": "/does/not/exist"}},
		{"index_codebase", "NOT_A_DIRECTORY", "Path does not exist or is not a directory: " + file, map[string]any{"path": file}},
		{"search_code", "QUERY_EMPTY", "Query cannot be empty", map[string]any{"query": " \t "}},
		{"search_docs", "QUERY_EMPTY", "Query cannot be empty", map[string]any{"query": ""}},
		{"search_code", "INVALID_ARGUMENT", "Missing required argument: query", map[string]any{}},
	}
	for _, tt := range tests {
		res := callTool(t, cs, tt.tool, tt.args)
		sc.check(t, tt.tool, res)
		te := toolErrorOf(t, res)
		if te["code"] != tt.code || te["message"] != tt.message || textOf(res) != tt.message {
			t.Errorf("%s %v:\n got %v / text %q\nwant %s %q", tt.tool, tt.args, te, textOf(res), tt.code, tt.message)
		}
	}
	// In --read-only the hint names the CLI, since index_codebase is absent.
	ro := connectSDK(t, e.server(t, func(o *Options) { o.ReadOnly = true }), nil)
	te := toolErrorOf(t, callTool(t, ro, "search_code", map[string]any{"query": "x"}))
	if te["message"] != "No index found for path: "+e.root+". Run 'lore index "+e.root+"' first." {
		t.Errorf("read-only no-index message = %q", te["message"])
	}
}

func TestAssistSources(t *testing.T) {
	e := newEnv(t, fixtureFiles)

	t.Run("builtin", func(t *testing.T) {
		cs := indexed(t, e, nil, nil)
		res := callTool(t, cs, "search_code", map[string]any{"query": "Login", "expand_query": true, "synthesize": true})
		out := structured(t, res)
		exp, _ := out["expansion"].(map[string]any)
		syn, _ := out["synthesis"].(map[string]any)
		if exp["source"] != "builtin" || syn["source"] != "builtin" || syn["summary"] == "" || len(syn["follow_ups"].([]any)) == 0 {
			t.Errorf("expansion %v synthesis %v", exp, syn)
		}
		// Without a model the query is searched as given, and the answer says so.
		if terms := exp["terms"].([]any); len(terms) != 0 || exp["query"] != "Login" || exp["note"] != assist.NeedsModel {
			t.Errorf("builtin expansion = %v", exp)
		}
	})

	t.Run("sampling", func(t *testing.T) {
		var prompts []string
		cs := indexed(t, e, &sdk.ClientOptions{
			CreateMessageHandler: func(_ context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
				prompt := req.Params.Messages[0].Content.(*sdk.TextContent).Text
				prompts = append(prompts, prompt)
				answer := "signin\nauthenticate\ncredentials"
				if strings.Contains(prompt, "SUMMARY:") {
					answer = "SUMMARY:\nLogin is in auth/login.go.\nFOLLOW-UPS:\n- Where is checkPassword used?"
				}
				return &sdk.CreateMessageResult{Content: &sdk.TextContent{Text: answer}, Model: "test-model", Role: "assistant"}, nil
			},
		}, nil)
		res := callTool(t, cs, "search_code", map[string]any{"query": "Login", "expand_query": true, "synthesize": true})
		out := structured(t, res)
		exp := out["expansion"].(map[string]any)
		syn := out["synthesis"].(map[string]any)
		if exp["source"] != "sampling" || exp["query"] != "Login signin authenticate credentials" {
			t.Errorf("expansion = %v", exp)
		}
		if syn["source"] != "sampling" || syn["summary"] != "Login is in auth/login.go." {
			t.Errorf("synthesis = %v", syn)
		}
		if len(prompts) != 2 || !strings.Contains(prompts[1], "auth/login.go") {
			t.Errorf("prompts = %q", prompts)
		}
	})

	t.Run("openai", func(t *testing.T) {
		endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"SUMMARY:\nFrom the endpoint.\nFOLLOW-UPS:\n- next"}}]}`))
		}))
		defer endpoint.Close()
		chat := &assist.Chat{BaseURL: endpoint.URL, Model: "m"}
		cs := indexed(t, e, nil, func(o *Options) { o.App = e.services(t, chat) })
		out := structured(t, callTool(t, cs, "search_code", map[string]any{"query": "Login", "synthesize": true}))
		if syn := out["synthesis"].(map[string]any); syn["source"] != "openai" || syn["summary"] != "From the endpoint." {
			t.Errorf("synthesis = %v", syn)
		}
	})
}
