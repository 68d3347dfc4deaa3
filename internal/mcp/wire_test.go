package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEncodedCallMatchesTheSDK: a result encoded by encodedCall decodes to
// the same JSON value as the SDK's own encoding of it, and back into the
// same CallToolResult, whatever it holds.
func TestEncodedCallMatchesTheSDK(t *testing.T) {
	raw := json.RawMessage(`{"query":"a <b> & c","results":[{"path":"x.go","content":"if a < b && c > d {}"}],"total":1}`)
	link := &sdk.ResourceLink{URI: "file:///r/x.go", Name: "x.go", MIMEType: "text/x-go", Description: "lines 1-3",
		Annotations: &sdk.Annotations{Audience: []sdk.Role{"assistant"}, Priority: 1}}
	for _, tt := range []struct {
		name     string
		res      *sdk.CallToolResult
		wrapMeta sdk.Meta // what the SDK sets on the result after the middleware
	}{
		{"text only", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "plain"}}}, nil},
		{"text, link, raw structured", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(raw)}, link},
			StructuredContent: raw}, nil},
		{"structured as a value", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x"}},
			StructuredContent: map[string]any{"html": "<a href=\"x\">&amp;</a>", "n": 3}}, nil},
		{"error", &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "No index found"}},
			StructuredContent: map[string]any{"error": map[string]any{"code": "NO_INDEX"}}}, nil},
		{"empty content", &sdk.CallToolResult{Content: []sdk.Content{}}, nil},
		{"annotated text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "t",
			Annotations: &sdk.Annotations{Audience: []sdk.Role{"user"}}}}}, nil},
		{"escapes and unicode", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
			Text: "quote \" backslash \\ newline \n tab \t nul \x00 line sep \u2028 é 😀 \"content\":[]"}}}, nil},
		{"result meta", &sdk.CallToolResult{Meta: sdk.Meta{"k": "v", "nested": map[string]any{"content": []any{}}},
			Content: []sdk.Content{&sdk.TextContent{Text: "m"}}}, nil},
		{"meta set after the middleware", &sdk.CallToolResult{Meta: sdk.Meta{"k": "v"},
			Content: []sdk.Content{&sdk.TextContent{Text: "m"}}}, sdk.Meta{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "lore"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ec := &encodedCall{res: tt.res}
			want := *tt.res
			if tt.wrapMeta != nil {
				ec.SetMeta(tt.wrapMeta)
				want.Meta = sdk.Meta{}
				for k, v := range tt.res.Meta {
					want.Meta[k] = v
				}
				for k, v := range tt.wrapMeta {
					want.Meta[k] = v
				}
			}
			got, err := ec.MarshalJSON() // as the JSON-RPC layer takes it: json.Marshal would add HTML escapes
			if err != nil {
				t.Fatal(err)
			}
			sdkJSON, err := json.Marshal(&want)
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, got)
			}
			if err := json.Unmarshal(sdkJSON, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("encodedCall gives\n%s\nthe SDK\n%s", got, sdkJSON)
			}
			var back sdk.CallToolResult
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if len(back.Content) != len(tt.res.Content) {
				t.Fatalf("%d content items back, want %d", len(back.Content), len(tt.res.Content))
			}
			for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
				if strings.Contains(string(got), esc) {
					t.Errorf("HTML escaping (%s) in %s", esc, got)
				}
			}
		})
	}
}

// sdkEncode is v as the SDK's JSON-RPC layer encodes a result: an Encoder
// without HTML escaping, its newline trimmed.
func sdkEncode(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// TestNativeCallMatchesTheSDK: the middleware's result, encoded as the
// JSON-RPC layer encodes it, is the SDK's own encoding of the tool's
// result (as a JSON value), for every shape nativeCall takes, including
// a rendered search answer whose text is its structured content's JSON;
// shapes it cannot take go to encodedCall.
func TestNativeCallMatchesTheSDK(t *testing.T) {
	s := &Server{}
	out := searchOutput{Query: "a <b> & c", Root: "/r", Results: []codeHit{{Path: "x.go", StartLine: 1, EndLine: 3,
		RelevancePercent: 100, Kind: "function", Symbols: []string{"f"}, Content: "if a < b && c > d {\n\t\"q\" \\ \u2028 é\n}"}},
		Total: 1, TookMS: 0.25}
	rendered, err := s.render(&tool{def: &sdk.Tool{Name: "search_code"}}, &outcome{structured: out,
		content: resourceLinks([]linkHit{{root: "/r", path: "x.go", start: 1, end: 3}})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	link := &sdk.ResourceLink{URI: "file:///r/x.go", Name: "x.go", MIMEType: "text/x-go", Description: "lines 1-3",
		Annotations: &sdk.Annotations{Audience: []sdk.Role{"assistant"}, Priority: 1}}
	serverInfo := sdk.Meta{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "lore"}}
	for _, tt := range []struct {
		name     string
		res      *sdk.CallToolResult
		wrapMeta sdk.Meta // what the SDK sets on the result after the middleware
		native   bool
	}{
		{"rendered search", rendered, nil, true},
		{"rendered search, server info", rendered, serverInfo, true},
		{"text only", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "plain"}}}, nil, true},
		{"structured as a value", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x"}, link},
			StructuredContent: map[string]any{"html": "<a href=\"x\">&amp;</a>", "n": 3}}, nil, true},
		{"raw structured", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "{}"}},
			StructuredContent: json.RawMessage(`{"a": [1, 2]}`)}, nil, true},
		{"error", &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "No index found"}},
			StructuredContent: map[string]any{"error": map[string]any{"code": "NO_INDEX"}}}, nil, true},
		{"empty content", &sdk.CallToolResult{Content: []sdk.Content{}}, nil, true},
		{"annotated text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "t",
			Annotations: &sdk.Annotations{Audience: []sdk.Role{"user"}}}}}, nil, true},
		{"result meta and server info", &sdk.CallToolResult{Meta: sdk.Meta{"k": "v"},
			Content: []sdk.Content{&sdk.TextContent{Text: "m"}}}, serverInfo, true},
		{"input requests", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "more"}},
			InputRequests: sdk.InputRequestMap{"q": &sdk.ElicitParams{Message: "which?"}}}, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var metaBefore sdk.Meta
			if tt.res.Meta != nil {
				metaBefore = maps.Clone(tt.res.Meta)
			}
			res, _ := s.encodeMiddleware(func(context.Context, string, sdk.Request) (sdk.Result, error) { return tt.res, nil })(
				context.Background(), "tools/call", nil)
			if _, ok := res.(*nativeCall); ok != tt.native {
				t.Fatalf("middleware gave %T, want native %v", res, tt.native)
			}
			want := *tt.res
			if tt.wrapMeta != nil {
				m := res.GetMeta()
				if m == nil {
					m = map[string]any{}
				}
				maps.Copy(m, tt.wrapMeta) // as the SDK does: in place
				res.SetMeta(m)
				want.Meta = maps.Clone(tt.res.Meta)
				if want.Meta == nil {
					want.Meta = sdk.Meta{}
				}
				maps.Copy(want.Meta, tt.wrapMeta)
			}
			if !reflect.DeepEqual(tt.res.Meta, metaBefore) {
				t.Fatalf("the tool's result meta changed: %v", tt.res.Meta)
			}
			got := sdkEncode(t, res)
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, got)
			}
			if err := json.Unmarshal(sdkEncode(t, &want), &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("the middleware's result gives\n%s\nthe SDK\n%s", got, sdkEncode(t, &want))
			}
			var back sdk.CallToolResult
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if len(back.Content) != len(tt.res.Content) {
				t.Fatalf("%d content items back, want %d", len(back.Content), len(tt.res.Content))
			}
			if ev, ok := tt.res.StructuredContent.(*encodedValue); ok {
				// The text twin is the structured content's JSON, byte for byte.
				var parts struct {
					Content           []struct{ Text string } `json:"content"`
					StructuredContent json.RawMessage         `json:"structuredContent"`
				}
				if err := json.Unmarshal(got, &parts); err != nil {
					t.Fatal(err)
				}
				if parts.Content[0].Text != string(parts.StructuredContent) || parts.Content[0].Text != string(ev.raw) {
					t.Fatalf("text\n%s\nstructured\n%s", parts.Content[0].Text, parts.StructuredContent)
				}
			}
		})
	}
}
