package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/errs"
)

// tool is one MCP tool: its definition, its parameters and what it does.
type tool struct {
	def         *sdk.Tool
	params      []param // the input schema's properties, in order
	taskSupport string  // "optional" when the tool may run as a task; "" forbids it
	jsonText    bool    // the text rendering is the JSON of the structured content (files family)
	run         func(ctx context.Context, c *call) (*outcome, error)
}

// param is one tool argument. Arguments are decoded and checked against
// params before the tool runs, so tools read typed, defaulted values.
type param struct {
	name     string
	typ      string // "string", "integer", "number" or "boolean"
	desc     string
	required bool
	def      any      // the default when absent (nil: no default)
	enum     []string // allowed values of a string
	min, max *float64 // bounds of a number
	badCode  string   // the error code when the value is wrong; "" means INVALID_ARGUMENT
}

func ptr[T any](v T) *T { return &v }

// inputSchema is the JSON Schema of t's arguments.
func (t *tool) inputSchema() map[string]any {
	props := map[string]any{}
	var required []string
	for _, p := range t.params {
		s := map[string]any{"type": p.typ, "description": p.desc}
		if p.def != nil {
			s["default"] = p.def
		}
		if len(p.enum) > 0 {
			s["enum"] = p.enum
		}
		if p.min != nil {
			s["minimum"] = *p.min
		}
		if p.max != nil {
			s["maximum"] = *p.max
		}
		props[p.name] = s
		if p.required {
			required = append(required, p.name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema
}

// call is one tools/call as a tool sees it.
type call struct {
	s    *Server
	req  *sdk.CallToolRequest
	args map[string]any // decoded and defaulted, by parameter name

	logAttrs []any // what the call's log line names (repo, root): never file contents
}

func (c *call) str(name string) string     { v, _ := c.args[name].(string); return v }
func (c *call) integer(name string) int    { v, _ := c.args[name].(int); return v }
func (c *call) number(name string) float64 { v, _ := c.args[name].(float64); return v }
func (c *call) boolean(name string) bool   { v, _ := c.args[name].(bool); return v }
func (c *call) has(name string) bool       { _, ok := c.args[name]; return ok }

// logAs adds key=value to the call's log line.
func (c *call) logAs(key string, value any) { c.logAttrs = append(c.logAttrs, key, value) }

// outcome is what a tool produced.
type outcome struct {
	structured any           // the structuredContent, matching the output schema
	text       string        // the text rendering; "" means the JSON of structured
	content    []sdk.Content // more content after the text (resource links), passed through unchanged
}

// runGuarded runs a tool, turning a panic into an internal error: one bad
// call must not end the server for every client. The stack goes to the
// log; the client gets INTERNAL's generic message.
func (s *Server) runGuarded(ctx context.Context, t *tool, c *call) (out *outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("tool call panicked", "tool", t.def.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			out, err = nil, fmt.Errorf("tool %s panicked: %v", t.def.Name, r)
		}
	}()
	return t.run(ctx, c)
}

// toolHandler wraps t.run: decode the arguments, run, render, log.
func (s *Server) toolHandler(t *tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		start := time.Now()
		c := &call{s: s, req: req}
		var out *outcome
		args, err := decodeArgs(req.Params.Arguments, t.params)
		if err == nil {
			c.args = args
			out, err = s.runGuarded(ctx, t, c)
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
	text := out.text
	if text == "" || t.jsonText {
		data, jerr := json.Marshal(out.structured)
		if jerr != nil {
			err := fmt.Errorf("encoding the result of %s: %w", t.def.Name, jerr)
			return errorResult(t, err), err
		}
		text = string(data)
	}
	content := append([]sdk.Content{&sdk.TextContent{Text: text}}, out.content...)
	return &sdk.CallToolResult{Content: content, StructuredContent: out.structured}, nil
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
		return toolError{Code: "CANCELLED", Message: "The request was cancelled.", Details: map[string]any{}}
	}
	return toolError{Code: "INTERNAL", Message: internalMessage, Details: map[string]any{}}
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
		return "INVALID_ARGUMENT"
	case errs.NotFound:
		return "NOT_FOUND"
	case errs.OutOfRoot:
		return "PATH_OUTSIDE_ROOT"
	case errs.NoIndex:
		return "NO_INDEX"
	case errs.Cancelled:
		return "CANCELLED"
	default:
		return "INTERNAL"
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
	return errorResult(t, errs.New(errs.Cancelled, "CANCELLED", "The task was cancelled."))
}

// invalidArg is the error of a wrong argument.
func invalidArg(code, format string, args ...any) error {
	if code == "" {
		code = "INVALID_ARGUMENT"
	}
	return errs.New(errs.Invalid, code, format, args...)
}

// decodeArgs checks raw tool arguments against params and returns them
// typed, with defaults filled in. null counts as absent.
func decodeArgs(raw json.RawMessage, params []param) (map[string]any, error) {
	fields := map[string]json.RawMessage{}
	if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		if trimmed[0] != '{' || json.Unmarshal(trimmed, &fields) != nil {
			return nil, invalidArg("", "Arguments must be a JSON object")
		}
	}
	names := make([]string, 0, len(params))
	for _, p := range params {
		names = append(names, p.name)
	}
	var unknown []string
	for k := range fields {
		if !slices.Contains(names, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		if len(names) == 0 {
			return nil, invalidArg("", "Unknown argument: %s (this tool takes no arguments)", strings.Join(unknown, ", "))
		}
		return nil, invalidArg("", "Unknown argument: %s (this tool takes: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	out := make(map[string]any, len(params))
	for _, p := range params {
		v, ok := fields[p.name]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			if p.required {
				return nil, invalidArg("", "Missing required argument: %s", p.name)
			}
			if p.def != nil {
				out[p.name] = p.def
			}
			continue
		}
		val, err := p.decode(v)
		if err != nil {
			return nil, err
		}
		out[p.name] = val
	}
	return out, nil
}

func (p param) decode(v json.RawMessage) (any, error) {
	switch p.typ {
	case "string":
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, invalidArg(p.badCode, "Argument %s must be a string, got %s", p.name, jsonKind(v))
		}
		if len(p.enum) > 0 && !slices.Contains(p.enum, s) {
			return nil, invalidArg(p.badCode, "Argument %s must be one of %s; got %q", p.name, strings.Join(p.enum, ", "), s)
		}
		return s, nil
	case "boolean":
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return nil, invalidArg(p.badCode, "Argument %s must be a boolean, got %s", p.name, jsonKind(v))
		}
		return b, nil
	case "integer", "number":
		var f float64
		if json.Unmarshal(v, &f) != nil {
			return nil, invalidArg(p.badCode, "Argument %s must be %s, got %s", p.name, article(p.typ), jsonKind(v))
		}
		if p.typ == "integer" && (f != math.Trunc(f) || math.Abs(f) > 1<<53) {
			return nil, invalidArg(p.badCode, "Argument %s must be an integer, got %s", p.name, string(bytes.TrimSpace(v)))
		}
		if (p.min != nil && f < *p.min) || (p.max != nil && f > *p.max) {
			return nil, invalidArg(p.badCode, "Argument %s must be %s, got %s", p.name, bounds(p.min, p.max), string(bytes.TrimSpace(v)))
		}
		if p.typ == "integer" {
			return int(f), nil
		}
		return f, nil
	}
	return nil, fmt.Errorf("parameter %s has unknown type %q", p.name, p.typ)
}

func article(typ string) string {
	if typ == "integer" {
		return "an integer"
	}
	return "a number"
}

func bounds(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("between %g and %g", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("at least %g", *lo)
	default:
		return fmt.Sprintf("at most %g", *hi)
	}
}

// jsonKind names the JSON type of v, for error messages.
func jsonKind(v json.RawMessage) string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
