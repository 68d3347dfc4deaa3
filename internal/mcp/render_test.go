package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRenderJSONOnce checks that a result rendered as JSON carries the same
// bytes as text and as structured content, decodes to what json.Marshal
// would have said, and keeps <, > and & as they are.
func TestRenderJSONOnce(t *testing.T) {
	for _, tc := range []struct {
		name       string
		structured any
	}{
		{"code", map[string]any{"content": "fn f<T>(x: &T) -> Vec<T> { a && b }", "line": 3}},
		{"html", map[string]any{"text": "<script>alert('x')</script> & \u2028"}},
		{"empty", map[string]any{"matches": []string{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{}
			res, err := s.render(&tool{def: &sdk.Tool{Name: "t"}, jsonText: true}, &outcome{structured: tc.structured}, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*sdk.TextContent).Text
			ev, ok := res.StructuredContent.(*encodedValue)
			if !ok || string(ev.raw) != text {
				t.Fatalf("structured %T %v differs from the text %s", res.StructuredContent, res.StructuredContent, text)
			}
			// nativeCall encodes the value again, as the SDK's JSON-RPC
			// layer encodes a result: the same bytes as the text.
			if again := sdkEncode(t, ev.value); string(again) != text {
				t.Fatalf("the value encodes to\n%s\nthe text is\n%s", again, text)
			}
			if strings.Contains(text, `\u003c`) || strings.Contains(text, `\u0026`) || strings.HasSuffix(text, "\n") {
				t.Errorf("text %q: HTML-escaped or with a trailing newline", text)
			}
			want, _ := json.Marshal(tc.structured)
			var got, exp any
			if err := json.Unmarshal([]byte(text), &got); err != nil {
				t.Fatal(err)
			}
			json.Unmarshal(want, &exp)
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("decoded %v, want %v", got, exp)
			}
		})
	}
}
