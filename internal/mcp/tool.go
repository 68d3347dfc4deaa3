package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime/debug"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/errs"
)

// tool is one MCP tool: its definition, its arguments and what it does.
// Build one with newTool, which binds the arguments to their struct.
type tool struct {
	def         *sdk.Tool
	taskSupport string // "optional" when the tool may run as a task; "" forbids it
	jsonText    bool   // the text rendering is the JSON of the structured content (files family)
	rpcErrors   bool   // failures are JSON-RPC errors, not error results (collections family)
	// stopsOnShutdown marks a tool whose call is cancelled when the server
	// shuts down (index_codebase: the index keeps its previous generation)
	// rather than waited for.
	stopsOnShutdown bool

	args *argSpec                                                       // the arguments, read from the struct run takes
	run  func(ctx context.Context, c *call, args any) (*outcome, error) // args is the *In that args decoded
}

// newTool completes t (its def and options) with run, whose argument
// struct In declares the tool's arguments (args.go): the input schema
// sent in tools/list and the decoding of every call both come from In, and
// run receives the decoded, checked, defaulted values. A malformed In is a
// programming error: newTool panics, naming the tool, the field and the tag.
func newTool[In any](t *tool, run func(ctx context.Context, c *call, in *In) (*outcome, error)) *tool {
	spec, err := argSpecFor(reflect.TypeFor[In]())
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.def.Name, err))
	}
	t.args = spec
	t.run = func(ctx context.Context, c *call, args any) (*outcome, error) { return run(ctx, c, args.(*In)) }
	return t
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// call is one tools/call as a tool sees it; its arguments come beside it,
// as the tool's own struct.
type call struct {
	s   *Server
	req *sdk.CallToolRequest

	logAttrs []any // what the call's log line names (repo, root): never file contents
}

// logAs adds key=value to the call's log line.
func (c *call) logAs(key string, value any) { c.logAttrs = append(c.logAttrs, key, value) }

// outcome is what a tool produced.
type outcome struct {
	structured any           // the structuredContent, matching the output schema
	text       string        // the text rendering; "" means the JSON of structured
	content    []sdk.Content // more content after the text (resource links), passed through unchanged
	// encoded, when set, is the structured content already encoded, and
	// its text rendering: structured and text are then unused.
	encoded *encodedResult
}

// encodedResult is a structured content encoded once (encodeResult) and
// its JSON as the text rendering, for an answer a tool keeps and gives
// again (list_packages, per index generation).
type encodedResult struct {
	raw  json.RawMessage
	text string
}

// newEncodedResult encodes v as render would.
func newEncodedResult(v any) (*encodedResult, error) {
	data, err := encodeResult(v)
	if err != nil {
		return nil, err
	}
	return &encodedResult{raw: data, text: string(data)}, nil
}

// runGuarded runs a tool, turning a panic into an internal error: one bad
// call must not end the server for every client. The stack goes to the
// log; the client gets INTERNAL's generic message.
func (s *Server) runGuarded(ctx context.Context, t *tool, c *call, args any) (out *outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("tool call panicked", "tool", t.def.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			out, err = nil, fmt.Errorf("tool %s panicked: %v", t.def.Name, r)
		}
	}()
	return t.run(ctx, c, args)
}

// toolHandler wraps t.run: decode the arguments, run, render, log.
func (s *Server) toolHandler(t *tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		start := time.Now()
		c := &call{s: s, req: req}
		var out *outcome
		if !s.calls.begin() {
			err := errs.New(errs.Busy, errs.CodeShuttingDown, "lore is shutting down; call %s again on a running server", t.def.Name)
			if t.rpcErrors {
				return nil, collectionsRPCError(err)
			}
			return errorResult(t, err), nil
		}
		defer s.calls.end()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer s.cutoff.add(cancel)()
		if t.stopsOnShutdown {
			defer context.AfterFunc(s.lifetime, cancel)()
		}
		args, err := t.args.decode(req.Params.Arguments)
		if err == nil {
			out, err = s.runGuarded(ctx, t, c, args)
		}
		if err == nil && ctx.Err() != nil {
			err = ctx.Err() // the client gave up; do not report a success it will not read
		}
		err = s.mapError(err)
		res, err := s.render(t, out, err)
		attrs := append([]any{"tool", t.def.Name}, c.logAttrs...)
		if id := taskIDFrom(ctx); id != "" {
			attrs = append(attrs, "task", id)
		}
		attrs = append(attrs, "duration_ms", time.Since(start).Milliseconds())
		if err != nil {
			te := classify(err)
			attrs = append(attrs, "code", te.Code, "error", te.Message)
			if cause := causeOf(err); cause != "" && cause != te.Message {
				attrs = append(attrs, "cause", cause) // what the client was not told
			}
			s.log.Warn("tool call failed", attrs...)
		} else {
			s.log.Info("tool call", attrs...)
		}
		if err != nil && t.rpcErrors {
			return nil, collectionsRPCError(err)
		}
		return res, nil
	}
}

// mapError gives a core error the shape this front end promises, once for
// every tool: an index that does not exist yet is the code family's
// NO_INDEX message, which names the root and says what to run.
func (s *Server) mapError(err error) error {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.NoIndex || e.Code != errs.CodeNoIndex {
		return err
	}
	root, _ := e.Details["root"].(string)
	if root == "" {
		return err
	}
	return s.noIndexError(root).Wrap(err)
}

// render turns a tool's outcome or error into a CallToolResult. It also
// returns the error the result reports (err, or a failure to encode the
// outcome), for the log.
func (s *Server) render(t *tool, out *outcome, err error) (*sdk.CallToolResult, error) {
	if err != nil {
		return errorResult(t, err), err
	}
	if enc := out.encoded; enc != nil {
		content := append([]sdk.Content{&sdk.TextContent{Text: enc.text}}, out.content...)
		return &sdk.CallToolResult{Content: content, StructuredContent: enc.raw}, nil
	}
	text, structured := out.text, out.structured
	if text == "" || t.jsonText {
		data, jerr := encodeResult(out.structured)
		if jerr != nil {
			err := fmt.Errorf("encoding the result of %s: %w", t.def.Name, jerr)
			return errorResult(t, err), err
		}
		// The text is the structured content's JSON: encode it once.
		text, structured = string(data), &encodedValue{value: out.structured, raw: data}
	}
	content := append([]sdk.Content{&sdk.TextContent{Text: text}}, out.content...)
	return &sdk.CallToolResult{Content: content, StructuredContent: structured}, nil
}

// encodeResult is v as JSON, without the HTML escaping of json.Marshal:
// a result goes to an MCP client, never into a web page, and source code
// is full of <, > and &, each of which would grow to six bytes in the
// structured content and seven in its text rendering, to be copied and
// scanned again by every pass the SDK makes over the answer.
func encodeResult(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// toolError is the structured form of every tool error:
// {"error": {"code", "message", "details"}}.
type toolError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// internalMessage is what a client is told of an internal failure: an
// untyped error's text may be a driver's or the operating system's
// message (SQLite's "too many SQL variables", a file path), so it goes to
// the server log only.
const internalMessage = "internal error; the server log has the details"

// classify maps any error to its code and message: the one place where
// lore's typed errors (errs.Error) become MCP tool errors. Only a typed
// error's own message reaches the client; anything else is INTERNAL with
// internalMessage.
func classify(err error) toolError {
	if e, ok := errs.As(err); ok {
		te := toolError{Code: e.Code, Message: e.Message, Details: e.Details}
		if te.Code == "" {
			te.Code = kindCode(e.Kind)
		}
		if te.Message == "" {
			// Error() would be the cause's text: only a cancellation's is
			// known to be harmless.
			te.Message = internalMessage
			if e.Kind == errs.Cancelled {
				te.Message = "The request was cancelled."
			}
		}
		if te.Details == nil {
			te.Details = map[string]any{}
		}
		return te
	}
	if errs.KindOf(err) == errs.Cancelled {
		return toolError{Code: errs.CodeCancelled, Message: "The request was cancelled.", Details: map[string]any{}}
	}
	return toolError{Code: errs.CodeInternal, Message: internalMessage, Details: map[string]any{}}
}

// causeOf is the full text of what went wrong, for the server log: an
// untyped error's text, or a typed error's underlying cause ("" when it
// has none).
func causeOf(err error) string {
	if e, ok := errs.As(err); ok {
		if e.Err == nil {
			return ""
		}
		return e.Err.Error()
	}
	return err.Error()
}

func kindCode(k errs.Kind) string {
	switch k {
	case errs.Invalid:
		return errs.CodeInvalidArgument
	case errs.NotFound:
		return errs.CodeNotFound
	case errs.OutOfRoot:
		return errs.CodeOutsideRoot
	case errs.NoIndex:
		return errs.CodeNoIndex
	case errs.Cancelled:
		return errs.CodeCancelled
	default:
		return errs.CodeInternal
	}
}

// errorResult is a tool error as an isError result: structured content
// {"error": …} and a text rendering (the message, or the JSON for tools
// whose text is JSON).
func errorResult(t *tool, err error) *sdk.CallToolResult {
	te := classify(err)
	structured := map[string]any{"error": te}
	text := te.Message
	if t.jsonText {
		data, _ := json.Marshal(structured)
		text = string(data)
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: text}},
		StructuredContent: structured,
		IsError:           true,
	}
}

// cancelledResult is what tasks/result returns for a cancelled task of tool.
func (s *Server) cancelledResult(toolName string) *sdk.CallToolResult {
	t, ok := s.lookupTool(toolName)
	if !ok {
		t = &tool{def: &sdk.Tool{Name: toolName}}
	}
	return errorResult(t, errs.New(errs.Cancelled, errs.CodeCancelled, "The task was cancelled."))
}
