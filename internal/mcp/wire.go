package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"

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

// encodeMiddleware wraps every tools/call result in an encodedCall. It is
// the outermost middleware: the tasks middleware and the SDK's own see
// the *sdk.CallToolResult.
func (s *Server) encodeMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		if r, ok := res.(*sdk.CallToolResult); ok && r != nil {
			return &encodedCall{res: r}, nil
		}
		return res, nil
	}
}

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
		return nil, err
	}
	// The envelope's own content key is its last: _meta, the only member
	// that could hold the same bytes in a nested object, comes before it.
	at := bytes.LastIndex(head, contentKey)
	if at < 0 {
		return nil, fmt.Errorf("encoding a tool result: no content member in %.200s", head)
	}
	var structured []byte
	switch v := c.res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		structured = v
	default:
		if structured, err = encodeResult(v); err != nil {
			return nil, fmt.Errorf("encoding a tool result's structured content: %w", err)
		}
	}
	var buf bytes.Buffer
	buf.Grow(len(head) + 3*len(structured) + 64) // the text is about the structured content again, escaped
	buf.Write(head[:at])
	buf.WriteString(`"content":[`)
	for i, item := range c.res.Content {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeContent(&buf, item); err != nil {
			return nil, err
		}
	}
	buf.WriteByte(']')
	if structured != nil {
		buf.WriteString(`,"structuredContent":`)
		buf.Write(structured)
	}
	buf.Write(head[at+len(contentKey):])
	return buf.Bytes(), nil
}

// writeContent writes one content item: a plain text item as lore encodes
// JSON, any other as the SDK does.
func writeContent(buf *bytes.Buffer, item sdk.Content) error {
	if t, ok := item.(*sdk.TextContent); ok && t.Meta == nil && t.Annotations == nil {
		buf.WriteString(`{"type":"text","text":`)
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(t.Text); err != nil {
			return fmt.Errorf("encoding a text content: %w", err)
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
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
