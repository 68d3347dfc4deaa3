package mcp

import (
	"encoding/json"
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
