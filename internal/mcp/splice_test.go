package mcp

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// TestSpliceResult: the writer puts a result's JSON where the placeholder
// is only when it is the last member of the response, and only once.
func TestSpliceResult(t *testing.T) {
	body := []byte(`{"content":[],"structuredContent":{"a":1}}`)
	for _, tt := range []struct {
		name, p  string
		stored   bool
		want     string // "" when nothing is spliced
		wantKept bool   // the slot still holds the body afterwards
	}{
		{"SSE event", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":" + resultPlaceholder + "}\n\n", true,
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":" + string(body) + "}\n\n", false},
		{"JSON body", `{"jsonrpc":"2.0","id":"x","result":` + resultPlaceholder + `}`, true,
			`{"jsonrpc":"2.0","id":"x","result":` + string(body) + `}`, false},
		{"nothing stored", `{"jsonrpc":"2.0","id":1,"result":` + resultPlaceholder + `}`, false, "", false},
		{"another message", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n", true, "", true},
		{"placeholder in the id only", `{"jsonrpc":"2.0","id":` + resultPlaceholder + `,"result":{}}`, true, "", true},
		{"placeholder inside the result", `{"jsonrpc":"2.0","id":1,"result":{"x":` + resultPlaceholder + `}}`, true, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			slot := &resultSlot{}
			if tt.stored {
				slot.body.Store(bytes.NewBuffer(body))
			}
			head, got, tail, ok := slot.spliceResult([]byte(tt.p))
			if ok != (tt.want != "") {
				t.Fatalf("spliced = %v, want %v", ok, tt.want != "")
			}
			if ok {
				if s := string(head) + got.String() + string(tail); s != tt.want {
					t.Errorf("spliced\n%s\nwant\n%s", s, tt.want)
				}
			}
			if kept := slot.body.Load() != nil; kept != tt.wantKept {
				t.Errorf("slot holds the body afterwards: %v, want %v", kept, tt.wantKept)
			}
		})
	}
}

// TestSplicedAnswersOverHTTP: a tools/call answer over HTTP, whose result
// lore's writer splices in, is the same JSON value as the answer the same
// call gets on stdio, where the SDK's JSON-RPC layer encodes the whole
// result; for a search, an error and a cached answer. A slot header sent
// by a client names nothing.
func TestSplicedAnswersOverHTTP(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	e.indexFile(t, e.root)
	srv := httptest.NewServer(s.HTTPHandler())
	defer srv.Close()
	stdio := newRawClient(t, s)
	stdio.initialize("2025-11-25", nil)
	session := httpInitialize(t, srv.URL, "2025-11-25")

	for i, call := range []map[string]any{
		{"name": "search_code", "arguments": map[string]any{"query": "Login checks a user's password", "path": e.root}},
		{"name": "search_code", "arguments": map[string]any{"query": "Login", "path": e.root + "/no/such/dir"}},
		{"name": "list_packages", "arguments": map[string]any{}},
		{"name": "no_such_tool", "arguments": map[string]any{}},
	} {
		t.Run(call["name"].(string), func(t *testing.T) {
			want, wantErr := stdio.call("tools/call", call)
			msg := map[string]any{"jsonrpc": "2.0", "id": 100 + i, "method": "tools/call", "params": call}
			got, _, status := postMCP(t, srv.URL, session, "2025-11-25", msg)
			if status != http.StatusOK {
				t.Fatalf("HTTP status %d: %v", status, got)
			}
			if wantErr != nil {
				if !reflect.DeepEqual(got["error"], any(wantErr)) {
					t.Errorf("HTTP error %v, stdio %v", got["error"], wantErr)
				}
				return
			}
			gotResult, _ := got["result"].(map[string]any)
			if gotResult == nil {
				t.Fatalf("HTTP answer without a result object: %v", got)
			}
			dropTimes(gotResult)
			dropTimes(want)
			if !reflect.DeepEqual(gotResult, want) {
				t.Errorf("HTTP result\n%v\nstdio result\n%v", gotResult, want)
			}
		})
	}

	t.Run("stateless, with the _meta the SDK adds", func(t *testing.T) {
		call := map[string]any{"name": "list_packages", "arguments": map[string]any{}}
		want, _ := stdio.call("tools/call", call)
		stateless := map[string]any{"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		}}
		for k, v := range call {
			stateless[k] = v
		}
		got, _, status := postMCP(t, srv.URL, "", "2026-07-28", map[string]any{"jsonrpc": "2.0", "id": 300, "method": "tools/call", "params": stateless})
		result, _ := got["result"].(map[string]any)
		if status != http.StatusOK || result == nil {
			t.Fatalf("stateless tools/call: %d %v", status, got)
		}
		meta, _ := result["_meta"].(map[string]any)
		if meta["io.modelcontextprotocol/serverInfo"] == nil {
			t.Errorf("stateless result without the server's identity in _meta: %v", result["_meta"])
		}
		if result["resultType"] != "complete" {
			t.Errorf("stateless result's resultType %v, want complete", result["resultType"])
		}
		delete(result, "_meta")
		delete(result, "resultType")
		if !reflect.DeepEqual(result, want) {
			t.Errorf("stateless HTTP result\n%v\nstdio result\n%v", result, want)
		}
	})

	t.Run("a client's slot header", func(t *testing.T) {
		before := rawHTTP(t, http.MethodPost, srv.URL, session, "2025-11-25",
			`{"jsonrpc":"2.0","id":200,"method":"tools/call","params":{"name":"list_packages","arguments":{}}}`)
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(
			`{"jsonrpc":"2.0","id":201,"method":"tools/call","params":{"name":"list_packages","arguments":{}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		req.Header.Set(resultSlotHeader, "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(data), `"result":{"content":[`) {
			t.Errorf("a request with a slot header: status %d %.300s", resp.StatusCode, data)
		}
		if strings.Contains(before.body, resultPlaceholder) {
			t.Errorf("an answer holds the placeholder: %.300s", before.body)
		}
	})
}

// dropTimes removes what differs between two runs of one call: a
// search's took_ms, in its structured content and in the text that
// repeats it.
func dropTimes(result map[string]any) {
	if sc, ok := result["structuredContent"].(map[string]any); ok {
		delete(sc, "took_ms")
	}
	if content, ok := result["content"].([]any); ok && len(content) > 0 {
		if item, ok := content[0].(map[string]any); ok {
			if text, ok := item["text"].(string); ok {
				if i := strings.Index(text, `,"took_ms":`); i >= 0 {
					end := strings.IndexAny(text[i+1:], ",}")
					item["text"] = text[:i] + text[i+1+end:]
				}
			}
		}
	}
}
