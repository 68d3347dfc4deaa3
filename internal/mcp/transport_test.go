package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// bigMessage is a ping of about 5 MiB, over maxMessageBytes; idLast puts
// the id after the params, as the TypeScript SDK writes it.
func bigMessage(id any, idLast bool) string {
	pad := strings.Repeat("x", 5<<20)
	idJSON, _ := json.Marshal(id)
	if idLast {
		return fmt.Sprintf(`{"method":"ping","params":{"pad":%q},"jsonrpc":"2.0","id":%s}`, pad, idJSON)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping","params":{"pad":%q}}`, idJSON, pad)
}

// internalText is text of Go's decoders that must never reach a client.
var internalText = []string{"Go struct", "Go value", "unmarshal", "json:", "wireCombined", "jsonrpc2"}

// TestStdioProtocolAnswers sends messages that are not valid requests over
// stdio: each gets a JSON-RPC error with a defined code and, when it has a
// valid one, its id; the messages name the rule, never a decoder's
// internals; the session goes on.
func TestStdioProtocolAnswers(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	c := newRawClient(t, e.server(t, nil))
	tests := []struct {
		name, line  string
		wantCode    float64
		wantID      any // nil: null
		wantMessage string
	}{
		{"no method", `{"jsonrpc":"2.0","id":5}`, -32600, float64(5), `no "method"`},
		{"no method, string id", `{"jsonrpc":"2.0","id":"q"}`, -32600, "q", `no "method"`},
		{"nothing but the version", `{"jsonrpc":"2.0"}`, -32600, nil, `no "method"`},
		{"method not a string", `{"jsonrpc":"2.0","id":6,"method":7}`, -32600, float64(6), `"method" must be`},
		{"params not structured", `{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}`, -32600, float64(7), `"params" must be`},
		{"wrong version", `{"jsonrpc":"1.0","id":8,"method":"ping"}`, -32600, float64(8), `"jsonrpc" must be "2.0"`},
		{"id an object", `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, -32600, nil, `"id" must be`},
		{"id a fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil, `"id" must be`},
		{"not an object", `null`, -32600, nil, "must be a JSON object"},
		{"5 MiB, id first", bigMessage(9, false), -32600, float64(9), "longer than 4194304 bytes"},
		{"5 MiB, id last", bigMessage("big", true), -32600, "big", "longer than 4194304 bytes"},
		{"method before initialize", `{"jsonrpc":"2.0","id":10,"method":"tools/list"}`, -32600, float64(10), "initialization"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.send(tt.line)
			select {
			case msg := <-c.orphans:
				e, _ := msg["error"].(map[string]any)
				if e == nil || e["code"] != tt.wantCode || msg["id"] != tt.wantID {
					t.Fatalf("answered %.300v, want error %v with id %v", msg, tt.wantCode, tt.wantID)
				}
				text, _ := e["message"].(string)
				if !strings.Contains(text, tt.wantMessage) {
					t.Errorf("message %q lacks %q", text, tt.wantMessage)
				}
				for _, bad := range internalText {
					if strings.Contains(text, bad) {
						t.Errorf("message %q shows decoder internals (%q)", text, bad)
					}
				}
			case <-time.After(30 * time.Second):
				t.Fatal("no answer")
			}
			if _, rpcErr := c.call("ping", nil); rpcErr != nil {
				t.Fatalf("ping after it: %v", rpcErr)
			}
		})
	}
}

// batchCase is one protocol version of the batch rule.
type batchCase struct {
	version string
	served  bool
}

// batchCases: batches are served before 2025-06-18 (which removed them)
// and refused from it on.
var batchCases = []batchCase{
	{"2024-11-05", true},
	{"2025-03-26", true},
	{"2025-06-18", false},
	{"2025-11-25", false},
}

const testBatch = `[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"tools/list"}]`

// TestBatchRuleStdio: on stdio a batch is answered with one array in a
// session before 2025-06-18 and refused with one -32600 error (id null)
// from 2025-06-18 on, including a 2026-07-28 batch (version in _meta).
func TestBatchRuleStdio(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	for _, tt := range batchCases {
		t.Run(tt.version, func(t *testing.T) {
			c := newRawClient(t, s)
			c.initialize(tt.version, nil)
			c.send(testBatch)
			checkStdioBatch(t, c, tt.served)
		})
	}
	t.Run("2026-07-28", func(t *testing.T) {
		c := newRawClient(t, s)
		meta := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`
		c.send(`[{"jsonrpc":"2.0","id":"b1","method":"tools/list","params":` + meta + `}]`)
		checkStdioBatch(t, c, false)
	})
}

func checkStdioBatch(t *testing.T, c *rawClient, served bool) {
	t.Helper()
	select {
	case msg := <-c.orphans:
		batch, isBatch := msg["batch"].([]map[string]any)
		if served {
			if !isBatch || len(batch) != 2 || batch[0]["result"] == nil || batch[1]["result"] == nil {
				t.Errorf("batch answer = %.300v, want two results", msg)
			}
			return
		}
		e, _ := msg["error"].(map[string]any)
		if isBatch || e == nil || e["code"] != float64(-32600) || msg["id"] != nil ||
			!strings.Contains(fmt.Sprint(e["message"]), "batches are not supported") {
			t.Errorf("batch answer = %.300v, want one -32600 error with id null", msg)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no answer to the batch")
	}
	if _, rpcErr := c.call("ping", nil); rpcErr != nil {
		t.Fatalf("ping after the batch: %v", rpcErr)
	}
}

// httpAnswer is an HTTP response to a raw MCP POST: status, headers and
// the JSON-RPC messages of its body (one JSON value, or SSE events).
type httpAnswer struct {
	status   int
	header   http.Header
	body     string
	messages []map[string]any
}

// rawHTTP sends body to url with the MCP headers (session and version when
// not empty) and decodes the answer.
func rawHTTP(t *testing.T, method, url, session, version, body string) httpAnswer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	a := httpAnswer{status: resp.StatusCode, header: resp.Header, body: string(data)}
	var values []string
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				values = append(values, rest)
			}
		}
	} else if len(bytes.TrimSpace(data)) > 0 {
		values = append(values, string(data))
	}
	for _, v := range values {
		var one map[string]any
		var many []map[string]any
		switch {
		case json.Unmarshal([]byte(v), &one) == nil:
			a.messages = append(a.messages, one)
		case json.Unmarshal([]byte(v), &many) == nil:
			a.messages = append(a.messages, many...)
		default:
			t.Errorf("%s answered a body that is not JSON: %.300q", method, v)
		}
	}
	return a
}

// rpcError returns the answer's JSON-RPC error, failing the test when the
// answer is not exactly one error response in a JSON body.
func (a httpAnswer) rpcError(t *testing.T) (code float64, message string, id any) {
	t.Helper()
	if !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") || len(a.messages) != 1 {
		t.Fatalf("status %d answer %.300q is not one JSON-RPC message", a.status, a.body)
	}
	e, _ := a.messages[0]["error"].(map[string]any)
	if e == nil {
		t.Fatalf("status %d answer %.300q is not a JSON-RPC error", a.status, a.body)
	}
	code, _ = e["code"].(float64)
	message, _ = e["message"].(string)
	return code, message, a.messages[0]["id"]
}

// httpInitialize opens a session at version over HTTP and returns its id.
func httpInitialize(t *testing.T, url, version string) string {
	t.Helper()
	a := rawHTTP(t, http.MethodPost, url, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+
		`","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	session := a.header.Get("Mcp-Session-Id")
	if a.status != http.StatusOK || session == "" {
		t.Fatalf("initialize %s: %d %q", version, a.status, a.body)
	}
	if a := rawHTTP(t, http.MethodPost, url, session, version, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); a.status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %q", a.status, a.body)
	}
	return session
}

// TestBatchRuleHTTP: the same rule over streamable HTTP. The version is
// the MCP-Protocol-Version header, else the session's; a refusal is 400
// with one -32600 error.
func TestBatchRuleHTTP(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	srv := httptest.NewServer(e.server(t, nil).HTTPHandler())
	defer srv.Close()
	for _, tt := range batchCases {
		for _, withHeader := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/header=%v", tt.version, withHeader), func(t *testing.T) {
				session := httpInitialize(t, srv.URL, tt.version)
				header := ""
				if withHeader {
					header = tt.version
				}
				a := rawHTTP(t, http.MethodPost, srv.URL, session, header, testBatch)
				if tt.served {
					if a.status != http.StatusOK || len(a.messages) != 2 || a.messages[0]["result"] == nil || a.messages[1]["result"] == nil {
						t.Errorf("batch: %d %.300q, want two results", a.status, a.body)
					}
					return
				}
				code, message, id := a.rpcError(t)
				if a.status != http.StatusBadRequest || code != -32600 || id != nil || !strings.Contains(message, "batches are not supported") {
					t.Errorf("batch: %d %.300q, want 400 with one -32600 error", a.status, a.body)
				}
			})
		}
	}
	t.Run("2026-07-28", func(t *testing.T) {
		a := rawHTTP(t, http.MethodPost, srv.URL, "", "2026-07-28", `[{"jsonrpc":"2.0","id":"b1","method":"tools/list"}]`)
		if code, _, _ := a.rpcError(t); a.status != http.StatusBadRequest || code != -32600 {
			t.Errorf("batch at 2026-07-28: %d %.300q", a.status, a.body)
		}
	})
}

// TestHTTPProtocolAnswers: every refusal over HTTP is a JSON-RPC error
// with a defined code (never code 0, never plain text) and the status the
// streamable HTTP spec gives: 400 without a session, 404 for an unknown
// one, 413 for a body over 4 MiB.
func TestHTTPProtocolAnswers(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	srv := httptest.NewServer(e.server(t, nil).HTTPHandler())
	defer srv.Close()
	session := httpInitialize(t, srv.URL, "2025-11-25")
	tests := []struct {
		name, method, session, body string
		wantStatus                  int
		wantCode                    float64
		wantID                      any
		wantMessage                 string
	}{
		{"tools/list without a session", http.MethodPost, "", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
			http.StatusBadRequest, -32600, float64(3), "Mcp-Session-Id"},
		{"notification without a session", http.MethodPost, "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			http.StatusBadRequest, -32600, nil, "Mcp-Session-Id"},
		{"unknown session", http.MethodPost, "no-such-session", `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
			http.StatusNotFound, -32001, float64(4), "initialize"},
		{"GET without a session", http.MethodGet, "", "", http.StatusBadRequest, -32600, nil, "Mcp-Session-Id"},
		{"no method", http.MethodPost, session, `{"jsonrpc":"2.0","id":5}`, http.StatusBadRequest, -32600, float64(5), `no "method"`},
		{"not JSON", http.MethodPost, session, `{"jsonrpc":`, http.StatusBadRequest, -32700, nil, "not valid JSON"},
		{"5 MiB", http.MethodPost, session, bigMessage(6, false), http.StatusRequestEntityTooLarge, -32600, float64(6), "longer than 4194304 bytes"},
		{"PUT", http.MethodPut, session, `{}`, http.StatusMethodNotAllowed, -32600, nil, "Method Not Allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := rawHTTP(t, tt.method, srv.URL, tt.session, "2025-11-25", tt.body)
			code, message, id := a.rpcError(t)
			if a.status != tt.wantStatus || code != tt.wantCode || id != tt.wantID {
				t.Errorf("answer %d %.300q, want %d with code %v and id %v", a.status, a.body, tt.wantStatus, tt.wantCode, tt.wantID)
			}
			if !strings.Contains(message, tt.wantMessage) {
				t.Errorf("message %q lacks %q", message, tt.wantMessage)
			}
			for _, bad := range internalText {
				if strings.Contains(message, bad) {
					t.Errorf("message %q shows decoder internals (%q)", message, bad)
				}
			}
		})
	}
	// The session still works, then is gone once deleted.
	if a := rawHTTP(t, http.MethodPost, srv.URL, session, "2025-11-25", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`); a.status != http.StatusOK {
		t.Fatalf("tools/list in the session: %d %.300q", a.status, a.body)
	}
	if a := rawHTTP(t, http.MethodDelete, srv.URL, session, "2025-11-25", ""); a.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %q", a.status, a.body)
	}
	a := rawHTTP(t, http.MethodPost, srv.URL, session, "2025-11-25", `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`)
	if code, _, _ := a.rpcError(t); a.status != http.StatusNotFound || code != -32001 {
		t.Errorf("after DELETE: %d %q, want 404 with -32001", a.status, a.body)
	}
}
