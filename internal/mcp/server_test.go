package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// packagesTools and specsTools are those families' tools in registration order.
var (
	packagesTools = []string{"search_packages", "get_package", "package_dependencies", "package_dependents",
		"dependency_graph", "list_packages", "index_status"}
	specsTools       = []string{"list_specs", "get_spec_requirements", "get_scenario", "search_specs"}
	collectionsTools = []string{"search_code_semantic", "search_code_fulltext", "search_code_by_payload"}
)

// allTools is every tool in registration order (files, code, packages,
// specs, collections).
var allTools = slices.Concat([]string{"search", "open_file", "get_snippet", "list_dir", "index_codebase", "search_code", "search_docs", "code_research"},
	packagesTools, specsTools, collectionsTools)

func TestInitializeVersions(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	tests := []struct {
		ask, want string
	}{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", "2025-11-25"}, // initialize cannot negotiate the handshake-less protocol
		{"2099-01-01", "2025-11-25"}, // newer than known
		{"1999-01-01", "2025-11-25"}, // unknown
	}
	for _, tt := range tests {
		t.Run(tt.ask, func(t *testing.T) {
			c := newRawClient(t, s)
			res := c.initialize(tt.ask, nil)
			if res["protocolVersion"] != tt.want {
				t.Errorf("protocolVersion = %v, want %s", res["protocolVersion"], tt.want)
			}
			info, _ := res["serverInfo"].(map[string]any)
			if info["name"] != "lore" || info["version"] != "1.2.3-test" {
				t.Errorf("serverInfo = %v", info)
			}
			if instr, _ := res["instructions"].(string); !strings.Contains(instr, "search_code") || !strings.Contains(instr, "open_file") {
				t.Errorf("instructions do not say which tool to use: %q", instr)
			}
			caps, _ := res["capabilities"].(map[string]any)
			_, hasTasks := caps["tasks"]
			if hasTasks != (tt.want == "2025-11-25") {
				t.Errorf("tasks capability present = %v at %s: %v", hasTasks, tt.want, caps)
			}
			if tt.want == "2025-11-25" {
				want := map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
					"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
				if !reflect.DeepEqual(caps["tasks"], want) {
					t.Errorf("tasks capability = %v, want %v", caps["tasks"], want)
				}
			}
			if _, ok := caps["tools"]; !ok {
				t.Errorf("no tools capability: %v", caps)
			}
			// The session works at the negotiated version.
			list, rpcErr := c.call("tools/list", nil)
			if rpcErr != nil {
				t.Fatalf("tools/list after initialize at %s: %v", tt.ask, rpcErr)
			}
			if names := toolNames(list); !slices.Equal(names, allTools) {
				t.Errorf("tools/list after initialize at %s: %v", tt.ask, names)
			}
		})
	}
}

func TestDiscoverNewProtocol(t *testing.T) {
	// 2026-07-28 has no handshake: each request carries its version.
	e := newEnv(t, fixtureFiles)
	c := newRawClient(t, e.server(t, nil))
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "new", "version": "0"},
	}
	res, rpcErr := c.call("server/discover", map[string]any{"_meta": meta})
	if rpcErr != nil {
		t.Fatalf("server/discover: %v", rpcErr)
	}
	versions, _ := res["supportedVersions"].([]any)
	var got []string
	for _, v := range versions {
		got = append(got, v.(string))
	}
	for _, want := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		if !slices.Contains(got, want) {
			t.Errorf("supportedVersions %v lacks %s", got, want)
		}
	}
	list, rpcErr := c.call("tools/list", map[string]any{"_meta": meta})
	if rpcErr != nil {
		t.Fatalf("tools/list at 2026-07-28: %v", rpcErr)
	}
	if names := toolNames(list); !slices.Equal(names, allTools) {
		t.Errorf("tools/list at 2026-07-28 = %v, want %v", names, allTools)
	}
	for _, raw := range list["tools"].([]any) {
		if _, ok := raw.(map[string]any)["execution"]; ok {
			t.Errorf("execution advertised at 2026-07-28, where tasks are an extension")
		}
	}
}

func toolNames(list map[string]any) []string {
	var names []string
	for _, raw := range list["tools"].([]any) {
		names = append(names, raw.(map[string]any)["name"].(string))
	}
	return names
}

func TestToolsListOrderAndFields(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	cs := connectSDK(t, s, nil)
	first, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range first.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, allTools) {
		t.Fatalf("tools/list = %v, want registration order %v", names, allTools)
	}
	if !slices.Equal(s.ToolNames(), allTools) {
		t.Errorf("ToolNames = %v", s.ToolNames())
	}
	for i := 0; i < 3; i++ {
		again, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(first)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("tools/list changed between calls")
		}
	}
	for _, tool := range first.Tools {
		t.Run(tool.Name, func(t *testing.T) {
			if tool.Title == "" || len(tool.Description) < 40 {
				t.Errorf("title %q, description %q", tool.Title, tool.Description)
			}
			in, _ := tool.InputSchema.(map[string]any)
			if in["type"] != "object" || in["properties"] == nil || in["additionalProperties"] != false {
				t.Errorf("inputSchema = %v", in)
			}
			out, _ := tool.OutputSchema.(map[string]any)
			if out["type"] != "object" || out["properties"] == nil {
				t.Errorf("outputSchema = %v", out)
			}
			a := tool.Annotations
			if a == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Fatalf("annotations %+v: openWorldHint must be false", a)
			}
			readOnly := tool.Name != "index_codebase"
			if a.ReadOnlyHint != readOnly || !a.IdempotentHint {
				t.Errorf("annotations %+v: readOnlyHint want %v, idempotentHint want true", a, readOnly)
			}
			if !readOnly && (a.DestructiveHint == nil || *a.DestructiveHint) {
				t.Errorf("index_codebase must say destructiveHint false: %+v", a)
			}
			if len(tool.Icons) == 0 || !strings.HasPrefix(tool.Icons[0].Source, "data:image/svg+xml;base64,") || tool.Icons[0].MIMEType != "image/svg+xml" {
				t.Errorf("icons = %+v", tool.Icons)
			}
		})
	}
}

func TestExecutionTaskSupport(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		c := newRawClient(t, s)
		c.initialize(version, nil)
		list, rpcErr := c.call("tools/list", nil)
		if rpcErr != nil {
			t.Fatal(rpcErr)
		}
		if names := toolNames(list); !slices.Equal(names, allTools) {
			t.Errorf("%s: order %v", version, names)
		}
		for _, raw := range list["tools"].([]any) {
			tool := raw.(map[string]any)
			exec, has := tool["execution"].(map[string]any)
			wantTask := version == "2025-11-25" && tool["name"] == "index_codebase"
			if has != wantTask || (wantTask && exec["taskSupport"] != "optional") {
				t.Errorf("%s: %s execution = %v", version, tool["name"], tool["execution"])
			}
		}
	}
}

func TestReRegisterKeepsPosition(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	replacement := s.searchCodeTool()
	replacement.def.Description = "replaced description, long enough to count as a real description"
	s.register(replacement)
	cs := connectSDK(t, s, nil)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Name == "search_code" && tool.Description != replacement.def.Description {
			t.Errorf("search_code was not replaced: %q", tool.Description)
		}
	}
	if !slices.Equal(names, allTools) {
		t.Errorf("after re-registering search_code: %v, want %v", names, allTools)
	}
	// A new name goes last.
	extra := s.searchDocsTool()
	extra.def = &sdk.Tool{Name: "zz_extra", Title: "x", Description: "y", Annotations: extra.def.Annotations, OutputSchema: extra.def.OutputSchema}
	s.register(extra)
	if got := s.ToolNames(); got[len(got)-1] != "zz_extra" || len(got) != len(allTools)+1 {
		t.Errorf("new tool not appended: %v", got)
	}
}

func TestToolsetsAndReadOnly(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	tests := []struct {
		toolsets []string
		readOnly bool
		want     []string
	}{
		{toolsets: []string{"code"}, want: []string{"index_codebase", "search_code", "search_docs", "code_research"}},
		{toolsets: []string{"files"}, want: []string{"search", "open_file", "get_snippet", "list_dir"}},
		{toolsets: []string{"code", "files"}, want: allTools[:8]}, // registration order, not flag order
		{toolsets: []string{"files", "code"}, readOnly: true, want: []string{"search", "open_file", "get_snippet", "list_dir", "search_code", "search_docs", "code_research"}},
		{toolsets: []string{"specs", "packages"}, want: slices.Concat(packagesTools, specsTools)},
		{toolsets: []string{"packages", "specs"}, readOnly: true, want: slices.Concat(packagesTools, specsTools)},
		{toolsets: []string{"collections"}, want: collectionsTools},
		{toolsets: []string{"collections", "files"}, readOnly: true, want: slices.Concat(allTools[:4], collectionsTools)}, // listed after the others
	}
	for _, tt := range tests {
		s := e.server(t, func(o *Options) { o.Toolsets, o.ReadOnly = tt.toolsets, tt.readOnly })
		if got := s.ToolNames(); !slices.Equal(got, tt.want) {
			t.Errorf("toolsets %v read-only %v: tools %v, want %v", tt.toolsets, tt.readOnly, got, tt.want)
		}
	}
	if _, err := ParseToolsets("files, code ,files"); err != nil {
		t.Errorf("ParseToolsets with spaces and repeats: %v", err)
	}
	for _, bad := range []string{"files,nope", ",", "FILEZ"} {
		if _, err := ParseToolsets(bad); err == nil {
			t.Errorf("ParseToolsets(%q) accepted", bad)
		}
	}
	if got, _ := ParseToolsets(""); !slices.Equal(got, Toolsets) {
		t.Errorf("ParseToolsets(\"\") = %v, want all", got)
	}
}

func TestArgumentErrors(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	cs := connectSDK(t, e.server(t, nil), nil)
	sc := newSchemaChecker(t, cs)
	tests := []struct {
		tool     string
		args     map[string]any
		code     string
		contains string
	}{
		{"search_code", map[string]any{}, "INVALID_ARGUMENT", "Missing required argument: query"},
		{"search_docs", map[string]any{"path": "."}, "INVALID_ARGUMENT", "Missing required argument: query"},
		{"index_codebase", map[string]any{}, "INVALID_ARGUMENT", "Missing required argument: path"},
		{"search_code", map[string]any{"query": "x", "bogus": 1}, "INVALID_ARGUMENT", "Unknown argument: bogus"},
		{"search_code", map[string]any{"query": 5}, "INVALID_ARGUMENT", "Argument query must be a string, got a number"},
		{"search_code", map[string]any{"query": "x", "limit": "ten"}, "INVALID_ARGUMENT", "Argument limit must be an integer, got a string"},
		{"search_code", map[string]any{"query": "x", "limit": 2.5}, "INVALID_ARGUMENT", "must be an integer, got 2.5"},
		{"search_code", map[string]any{"query": "x", "limit": 0}, "INVALID_ARGUMENT", "Argument limit must be between 1 and 1000, got 0"},
		{"search_code", map[string]any{"query": "x", "semantic_weight": 1.5}, "INVALID_ARGUMENT", "between 0 and 1"},
		{"search_code", map[string]any{"query": "x", "format": "xml"}, "INVALID_ARGUMENT", "Argument format must be one of json, toon, human"},
		{"search_code", map[string]any{"query": "x", "expand_query": "yes"}, "INVALID_ARGUMENT", "must be a boolean"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.tool, tt.args), func(t *testing.T) {
			res := callTool(t, cs, tt.tool, tt.args)
			te := toolErrorOf(t, res)
			if te["code"] != tt.code || !strings.Contains(te["message"].(string), tt.contains) {
				t.Errorf("error = %v, want code %s containing %q", te, tt.code, tt.contains)
			}
			if textOf(res) != te["message"] {
				t.Errorf("code tools' text must be the message: %q vs %q", textOf(res), te["message"])
			}
			sc.check(t, tt.tool, res)
		})
	}
	// Arguments that are not an object.
	raw := newRawClient(t, e.server(t, nil))
	raw.initialize("2025-11-25", nil)
	res, rpcErr := raw.call("tools/call", map[string]any{"name": "search_code", "arguments": []int{1}})
	if rpcErr == nil {
		if res["isError"] != true || !strings.Contains(fmt.Sprint(res), "Arguments must be a JSON object") {
			t.Errorf("array arguments: %v", res)
		}
	}
	// An unknown tool is a protocol error.
	if _, rpcErr := raw.call("tools/call", map[string]any{"name": "nope", "arguments": map[string]any{}}); rpcErr == nil || rpcErr["code"] != float64(-32602) {
		t.Errorf("unknown tool: %v", rpcErr)
	}
}

// A tool's content passes through the server unchanged, whatever its type.
func TestContentTypesPassThrough(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	want := []sdk.Content{
		&sdk.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"},
		&sdk.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav", Annotations: &sdk.Annotations{Audience: []sdk.Role{"user"}}},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///x.txt", MIMEType: "text/plain", Text: "hello"}},
		&sdk.ResourceLink{URI: "file:///y.go", Name: "y.go", MIMEType: "text/x-go", Description: "lines 1-2",
			Annotations: &sdk.Annotations{Audience: []sdk.Role{"assistant"}, Priority: 0.5}},
	}
	s.register(newTool(&tool{
		def: &sdk.Tool{Name: "echo_content", Title: "Echo", Description: "test tool", Annotations: readOnlyAnnotations("Echo"),
			OutputSchema: outputSchema(map[string]any{"ok": sBool("")}, "ok")},
	}, func(ctx context.Context, c *call, _ *noArgs) (*outcome, error) {
		return &outcome{structured: map[string]any{"ok": true}, text: "ok", content: want}, nil
	}))
	cs := connectSDK(t, s, nil)
	res := callTool(t, cs, "echo_content", nil)
	if len(res.Content) != len(want)+1 {
		t.Fatalf("content = %d items", len(res.Content))
	}
	for i, w := range want {
		a, _ := json.Marshal(w)
		b, _ := json.Marshal(res.Content[i+1])
		if string(a) != string(b) {
			t.Errorf("content %d changed:\n sent %s\n got  %s", i, a, b)
		}
	}
}
