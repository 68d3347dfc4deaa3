package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpSessionTimeout closes HTTP sessions idle for this long (their tasks
// are cancelled with them).
const httpSessionTimeout = time.Hour

// codeSessionNotFound is the JSON-RPC error code of a 404 answer to an
// unknown or expired Mcp-Session-Id (a server error code, as the
// TypeScript SDK uses; JSON-RPC defines none for it).
const codeSessionNotFound = -32001

// HTTPHandler serves MCP streamable HTTP; mount it at /mcp. Host, Origin and
// bearer-token checks belong to the HTTP server around it
// (internal/httpapi), so the SDK's own loopback Host check is off: lore's
// applies to every connection and knows --allowed-host.
//
// Requests of protocol 2026-07-28 and later (Mcp-Protocol-Version header)
// go to a stateless handler, the only kind the SDK serves that version
// from; older ones go to a stateful handler, whose sessions keep
// cross-request cancellation, server-to-client requests (sampling) and
// tasks working. Both serve the same server.
//
// Before the SDK sees a POST, lore answers, with a JSON-RPC error body:
//   - a body over maxMessageBytes: 413, -32600;
//   - invalid JSON: 400, -32700; a message that is not JSON-RPC 2.0 (the
//     rules of checkMessage, as on stdio): 400, -32600, with its id;
//   - a batch in a session of protocol 2025-06-18 or later: 400, -32600 (the
//     same rule as stdio: see batchesUntil);
//   - a stateful request without Mcp-Session-Id other than initialize: 400,
//     -32600 (the streamable HTTP spec's answer).
//
// The SDK's own plain-text refusals are rewritten into JSON-RPC errors of
// the same HTTP status: 404 (unknown or expired session) carries -32001,
// 5xx -32603, any other 4xx -32600.
func (s *Server) HTTPHandler() http.Handler {
	get := func(*http.Request) *sdk.Server { return s.sdk }
	logger := slog.New(minLevel{s.log.Handler(), slog.LevelWarn})
	stateful := sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{
		SessionTimeout: httpSessionTimeout, Logger: logger, MaxRequestBodyBytes: maxMessageBytes,
		DisableLocalhostProtection: true,
	})
	stateless := sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{
		Stateless: true, PropagateRequestCancellation: true, Logger: logger, MaxRequestBodyBytes: maxMessageBytes,
		DisableLocalhostProtection: true,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		isStateless := r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28"
		rw := &rpcErrorWriter{ResponseWriter: w}
		defer rw.finish()
		r.Header.Del(resultSlotHeader) // only lore names a slot (see resultSlots)
		if r.Method == http.MethodPost {
			// Shutdown closes the sessions only once the answer to every
			// POST is written.
			s.answers.add()
			defer s.answers.end()
		}
		if r.Method == http.MethodPost && r.Body != nil {
			body, ok := s.checkPOST(rw, r, !isStateless)
			if !ok {
				return
			}
			// Keep tools/call's "task" parameter, as lineConn does on stdio.
			body = moveTaskParams(body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			rw.id = rawID(body)
			rw.single = bytes.HasPrefix(bytes.TrimSpace(body), []byte("{"))
			if rw.single {
				name, slot := s.results.open(r.Header)
				defer s.results.close(name)
				rw.slot = slot
			}
		}
		if isStateless {
			stateless.ServeHTTP(rw, r)
			return
		}
		stateful.ServeHTTP(rw, r)
	})
}

// checkPOST reads a POST body and checks it as described on HTTPHandler;
// when it is refused, the answer is written and ok is false.
func (s *Server) checkPOST(w http.ResponseWriter, r *http.Request, stateful bool) (body []byte, ok bool) {
	limitOn := w
	if rw, isRW := w.(*rpcErrorWriter); isRW {
		limitOn = rw.ResponseWriter // so that the server closes the connection after a body over the limit
	}
	body, err := io.ReadAll(http.MaxBytesReader(limitOn, r.Body, maxMessageBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeHTTPError(w, http.StatusRequestEntityTooLarge, idFromHead(body), jsonrpc.CodeInvalidRequest, tooLongMessage)
		} else {
			// A client gone or too slow (the server's read timeout).
			writeHTTPError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "invalid request: the request body could not be read")
		}
		return nil, false
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return body, true // the SDK answers an empty body
	}
	if trimmed[0] != '[' {
		if bad := checkMessage(trimmed); bad != nil {
			writeHTTPError(w, http.StatusBadRequest, bad.id, bad.code, bad.message)
			return nil, false
		}
		if stateful && r.Header.Get("Mcp-Session-Id") == "" && !isInitialize(trimmed) {
			writeHTTPError(w, http.StatusBadRequest, rawID(trimmed), jsonrpc.CodeInvalidRequest,
				"Bad Request: no Mcp-Session-Id header: send initialize first, then its Mcp-Session-Id header with every request")
			return nil, false
		}
		return body, true
	}
	var members []json.RawMessage
	if json.Unmarshal(trimmed, &members) != nil {
		writeHTTPError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, "parse error: the batch is not valid JSON")
		return nil, false
	}
	if len(members) == 0 {
		writeHTTPError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "invalid request: empty batch")
		return nil, false
	}
	if v := batchVersion(s.httpVersion(r), members); v >= batchesUntil {
		writeHTTPError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, batchRefusal(v))
		return nil, false
	}
	if stateful && r.Header.Get("Mcp-Session-Id") == "" {
		writeHTTPError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest,
			"Bad Request: no Mcp-Session-Id header: send initialize first (on its own), then its Mcp-Session-Id header with every request")
		return nil, false
	}
	for i, m := range members {
		// The SDK refuses a whole POST over one bad member, so lore does too,
		// naming it (stdio answers each member in the batch's array).
		if bad := checkMessage(m); bad != nil {
			writeHTTPError(w, http.StatusBadRequest, nil, bad.code, fmt.Sprintf("%s (batch member %d)", bad.message, i+1))
			return nil, false
		}
	}
	return body, true
}

// httpVersion is the protocol version of an HTTP request: its
// Mcp-Protocol-Version header, else the version its session negotiated,
// else "" (unknown).
func (s *Server) httpVersion(r *http.Request) string {
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
		return v
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		return ""
	}
	for ss := range s.sdk.Sessions() {
		if ss.ID() == id {
			if p := ss.InitializeParams(); p != nil {
				return negotiatedVersion(p.ProtocolVersion)
			}
		}
	}
	return ""
}

// isInitialize reports whether a single message is an initialize request.
func isInitialize(raw []byte) bool {
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(raw, &msg) == nil && msg.Method == "initialize"
}

// writeHTTPError answers with a JSON-RPC error response (id nil: null) and
// the HTTP status.
func writeHTTPError(w http.ResponseWriter, status int, id any, code int64, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	w.Write(append(errorResponse(id, code, message), '\n'))
}

// rpcErrorWriter turns the SDK's plain-text error answers (http.Error)
// into JSON-RPC error responses of the same status, so that every answer
// lore gives a client is JSON-RPC with a defined code (see HTTPHandler).
// Anything else passes through untouched, streamed and flushed as written,
// but for the one flush that would follow the response to a POST of a
// single request: that event ends the stream, so the SDK returns right
// after writing it and the HTTP server sends it then, with the end of
// the response, in one write instead of two. Progress notifications and
// requests to the client that come before it are flushed as they are
// written.
type rpcErrorWriter struct {
	http.ResponseWriter
	id        any  // the request's id, when it was one message
	single    bool // the POST was one message, not a batch
	status    int  // the held-back error status; 0 when not rewriting
	text      bytes.Buffer
	finished  bool
	skipFlush bool        // the last event written was the response that ends a single request's stream
	slot      *resultSlot // where a tools/call result's JSON waits to be written; nil for a batch
}

// WriteHeader implements http.ResponseWriter.
func (w *rpcErrorWriter) WriteHeader(status int) {
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write implements http.ResponseWriter.
func (w *rpcErrorWriter) Write(p []byte) (int, error) {
	if w.status != 0 {
		return w.text.Write(p)
	}
	w.skipFlush = w.single && isResponseEvent(p)
	if w.slot != nil {
		if head, body, tail, ok := w.slot.spliceResult(p); ok {
			err := w.writeParts(head, body.Bytes(), tail)
			putBody(body)
			return len(p), err
		}
	}
	return w.ResponseWriter.Write(p)
}

// writeParts writes the parts of one event in turn.
func (w *rpcErrorWriter) writeParts(parts ...[]byte) error {
	for _, part := range parts {
		if _, err := w.ResponseWriter.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// Flush implements http.Flusher (SSE streams flush each event).
func (w *rpcErrorWriter) Flush() {
	if w.skipFlush {
		w.skipFlush = false
		return
	}
	if w.status == 0 {
		http.NewResponseController(w.ResponseWriter).Flush()
	}
}

// isResponseEvent reports whether p is one server-sent event whose data
// is a JSON-RPC response: an object whose key after "jsonrpc" and "id" is
// "result" or "error" (a request to the client has "method" there, a
// notification no "id"). Only the head of the message is read.
func isResponseEvent(p []byte) bool {
	i := bytes.Index(p, []byte("data: "))
	if i < 0 || (i > 0 && p[i-1] != '\n') {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(p[i+len("data: "):]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	sawID := false
	for range 3 {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		switch key {
		case "result", "error":
			return sawID
		case "jsonrpc", "id":
			sawID = sawID || key == "id"
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// Unwrap lets http.ResponseController reach the connection.
func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the held-back error, if any, as a JSON-RPC error.
func (w *rpcErrorWriter) finish() {
	if w.status == 0 || w.finished {
		return
	}
	w.finished = true
	code := int64(jsonrpc.CodeInvalidRequest)
	switch {
	case w.status == http.StatusNotFound:
		code = codeSessionNotFound
	case w.status >= 500:
		code = jsonrpc.CodeInternalError
	}
	message := strings.TrimSpace(w.text.String())
	if message == "" {
		message = http.StatusText(w.status)
	}
	if w.status == http.StatusNotFound {
		message += ": the session expired or was closed; start a new one with initialize"
	}
	writeHTTPError(w.ResponseWriter, w.status, w.id, code, message)
}
