package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tools/call result goes through encoding/json several times on its way
// out: the SDK's CallToolResult.MarshalJSON marshals each content item and
// the structured content, and validates and compacts each of their JSON;
// the JSON-RPC layer then compacts the whole result, and again the whole
// message. A search_code answer is about 55 KB of structured content and
// as much again as its text, so each pass over it costs. encodedCall
// writes the result's JSON itself, in one pass over the parts: the SDK's
// envelope (isError, _meta, resultType: whatever its version adds) is
// still the SDK's own marshalling of the result without its content, the
// structured content is the JSON the tool already encoded, and the text
// content is encoded once, without HTML escaping (as the structured
// content: see encodeResult). The JSON-RPC layer still validates the
// whole, so a bad result cannot go out.

// encodeMiddleware wraps every tools/call result in a splicedCall when
// lore's HTTP handler writes the result itself (splice.go), else in a
// nativeCall, or an encodedCall when the SDK's envelope holds more than
// nativeCall's members. It is the outermost middleware: the tasks middleware and the
// SDK's own see the *sdk.CallToolResult.
func (s *Server) encodeMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		if r, ok := res.(*sdk.CallToolResult); ok && r != nil {
			if slot := s.results.of(req); slot != nil {
				return &splicedCall{encodedCall: encodedCall{res: r}, slot: slot}, nil
			}
			if n := newNativeCall(r); n != nil {
				return n, nil
			}
			return &encodedCall{res: r}, nil
		}
		return res, nil
	}
}

// A json.Marshaler's output is compacted by encoding/json, and the SDK
// marshals a result twice (into the JSON-RPC response, then the wire
// message): so the JSON encodedCall writes is still scanned twice, byte
// by byte. A value encoding/json encodes itself, field by field, is not:
// its strings go through the encoder's fast path, and only the second
// pass compacts the whole. nativeCall is that value: a CallToolResult's
// members as plain fields, used when the SDK's envelope holds nothing
// else (newNativeCall checks); encodedCall remains for the rest.

// nativeCall is a tools/call result encoding/json encodes field by field,
// with the members of the SDK's CallToolResult, in its order.
type nativeCall struct {
	sdk.ResultBase          // _meta: the result's own, and what the SDK adds after the middleware
	Content           []any `json:"content"` // textItem or the sdk.Content itself
	StructuredContent any   `json:"structuredContent,omitempty"`
	IsError           bool  `json:"isError,omitempty"`
}

// textItem is a plain text content item, as sdk.TextContent marshals one
// without _meta and annotations.
type textItem struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// plainEnvelopes are the SDK's encodings of a CallToolResult that holds
// nothing but empty content and IsError: anything else (a result type,
// input requests, members a later SDK adds) makes newNativeCall decline.
var plainEnvelopes = []string{`{"content":[]}`, `{"content":[],"isError":true}`}

// newNativeCall returns r as a nativeCall, or nil when the SDK would encode
// r with more than nativeCall's members.
func newNativeCall(r *sdk.CallToolResult) *nativeCall {
	env := *r // with its unexported members (the result type)
	env.Meta, env.Content, env.StructuredContent = nil, []sdk.Content{}, nil
	head, err := env.MarshalJSON()
	if err != nil || !slices.Contains(plainEnvelopes, string(head)) {
		return nil
	}
	n := &nativeCall{Content: make([]any, len(r.Content)), IsError: r.IsError}
	if len(r.Meta) > 0 {
		n.Meta = maps.Clone(r.Meta) // the SDK adds to it in place
	}
	for i, item := range r.Content {
		if t, ok := item.(*sdk.TextContent); ok && t.Meta == nil && t.Annotations == nil {
			n.Content[i] = textItem{Type: "text", Text: t.Text}
		} else {
			n.Content[i] = item
		}
	}
	n.StructuredContent = r.StructuredContent
	if v, ok := r.StructuredContent.(*encodedValue); ok {
		n.StructuredContent = v.value
	}
	return n
}

// encodedValue is a structured content already encoded (encodeResult),
// whose JSON is also the text content, with the value it was encoded
// from: nativeCall encodes the value again, field by field, which costs
// less than encoding/json's compaction of the encoded JSON.
type encodedValue struct {
	value any
	raw   json.RawMessage
}

// MarshalJSON implements json.Marshaler: the JSON encoded before.
func (v *encodedValue) MarshalJSON() ([]byte, error) { return v.raw, nil }

// encodedCall is a tools/call result that marshals itself (see above). Its
// own _meta is what the SDK adds after the middleware (the server's
// identity, from protocol 2026-07-28 on).
type encodedCall struct {
	sdk.ResultBase
	res *sdk.CallToolResult
}

// contentKey is the content member of the envelope, which content is
// spliced into.
var contentKey = []byte(`"content":[]`)

// MarshalJSON implements json.Marshaler.
func (c *encodedCall) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := c.writeTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeTo appends the result's JSON to buf.
func (c *encodedCall) writeTo(buf *bytes.Buffer) error {
	env := *c.res
	env.Content = []sdk.Content{}
	env.StructuredContent = nil
	if len(c.Meta) > 0 {
		env.Meta = maps.Clone(c.res.Meta)
		if env.Meta == nil {
			env.Meta = sdk.Meta{}
		}
		maps.Copy(env.Meta, c.Meta)
	}
	head, err := env.MarshalJSON()
	if err != nil {
		return err
	}
	// The envelope's own content key is its last: _meta, the only member
	// that could hold the same bytes in a nested object, comes before it.
	at := bytes.LastIndex(head, contentKey)
	if at < 0 {
		return fmt.Errorf("encoding a tool result: no content member in %.200s", head)
	}
	var structured []byte
	switch v := c.res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		structured = v
	case *encodedValue:
		structured = v.raw
	default:
		if structured, err = encodeResult(v); err != nil {
			return fmt.Errorf("encoding a tool result's structured content: %w", err)
		}
	}
	// The text is usually the structured content again, escaped: a tenth
	// longer, for the quotes.
	buf.Grow(len(head) + 2*len(structured) + len(structured)/8 + 64)
	buf.Write(head[:at])
	buf.WriteString(`"content":[`)
	for i, item := range c.res.Content {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeContent(buf, item); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	if structured != nil {
		buf.WriteString(`,"structuredContent":`)
		buf.Write(structured)
	}
	buf.Write(head[at+len(contentKey):])
	return nil
}

// writeContent writes one content item: a plain text item as lore encodes
// JSON, any other as the SDK does.
func writeContent(buf *bytes.Buffer, item sdk.Content) error {
	if t, ok := item.(*sdk.TextContent); ok && t.Meta == nil && t.Annotations == nil {
		buf.WriteString(`{"type":"text","text":`)
		appendJSONString(buf, t.Text)
		buf.WriteByte('}')
		return nil
	}
	data, err := item.MarshalJSON()
	if err != nil {
		return fmt.Errorf("encoding a content item: %w", err)
	}
	buf.Write(data)
	return nil
}
