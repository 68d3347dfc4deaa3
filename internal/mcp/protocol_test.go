package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBadInput sends invalid messages on stdio: each is answered (or, for
// notifications, ignored) and the session goes on.
func TestBadInput(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	c := newRawClient(t, e.server(t, nil))
	tests := []struct {
		line     string
		wantCode float64 // 0: no answer expected
	}{
		{`{not json`, -32700},
		{`"just a string"`, -32600},
		{`42`, -32600},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, -32600},
		{`{"jsonrpc":"2.0","id":7,"method":""}`, -32600},
		{`[]`, -32600},
		{`[1,2`, -32700},
		{`{"jsonrpc":"2.0","method":"notifications/unknown"}`, 0},
		{`{"jsonrpc":"2.0","id":99,"result":{}}`, 0}, // a response nobody asked for
		{"\x00\x01\x02", -32700},
		{strings.Repeat("[", 100000), -32700},
	}
	for _, tt := range tests {
		c.send(tt.line)
		if tt.wantCode != 0 {
			select {
			case msg := <-c.orphans:
				e, _ := msg["error"].(map[string]any)
				if e == nil || e["code"] != tt.wantCode {
					t.Errorf("%.40q answered %v, want error %v", tt.line, msg, tt.wantCode)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%.40q: no answer", tt.line)
			}
		}
		// The session is still alive.
		if _, rpcErr := c.call("ping", nil); rpcErr != nil {
			t.Fatalf("ping after %.40q: %v", tt.line, rpcErr)
		}
	}
	// A method before initialize is refused, initialize still works.
	if _, rpcErr := c.call("tools/list", nil); rpcErr == nil {
		t.Error("tools/list before initialize succeeded")
	}
	c.initialize("2025-03-26", nil)
	// 2025-03-26 allows batches: the answers come back as one array.
	c.send(`[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","method":"notifications/unknown"},{"jsonrpc":"2.0","id":"b2","method":"tools/list"},{"bad":true}]`)
	select {
	case msg := <-c.orphans:
		batch, _ := msg["batch"].([]map[string]any)
		var ids []string
		for _, m := range batch {
			ids = append(ids, fmt.Sprint(m["id"]))
		}
		if len(batch) != 3 || !slices.Contains(ids, "b1") || !slices.Contains(ids, "b2") {
			t.Errorf("batch answer = %v", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to the batch")
	}
}

// FuzzJSONRPC feeds arbitrary bytes to the stdio server as messages: it
// must never crash, must write only valid JSON, and must keep answering.
func FuzzJSONRPC(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"open_file","arguments":{"repo":"code","path":"../x"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"query":"a"},"task":{"ttl":1}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":null}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"ping\"}", "\xff\xfe", "null", "[[[]]]", "",
	} {
		f.Add([]byte(seed))
	}
	e := newEnv(f, fixtureFiles)
	s := e.server(f, func(o *Options) { o.Toolsets = []string{"files"} }) // read-only tools only
	f.Fuzz(func(t *testing.T, data []byte) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- s.Serve(context.Background(), inR, outW)
			outW.Close()
		}()
		pong := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(outR)
			sc.Buffer(make([]byte, 1<<20), 64<<20)
			found := false
			for sc.Scan() {
				if !json.Valid(sc.Bytes()) {
					t.Errorf("server wrote invalid JSON: %q", sc.Bytes())
				}
				if bytes.Contains(sc.Bytes(), []byte(`"id":"fuzz-ping"`)) && !found {
					found = true
					pong <- true
				}
			}
			io.Copy(io.Discard, outR)
		}()
		go func() {
			inW.Write(append(bytes.ReplaceAll(data, []byte("fuzz-ping"), nil), '\n'))
			inW.Write([]byte(`{"jsonrpc":"2.0","id":"fuzz-ping","method":"ping"}` + "\n"))
		}()
		select {
		case <-pong:
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to ping after %q", data)
		}
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("server did not stop after %q", data)
		}
	})
}

// TestNewProtocolSession runs a session at 2026-07-28 (no handshake, the
// version in every request), the SDK client's default.
func TestNewProtocolSession(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	cs := connectSDKAt(t, s, nil, "2026-07-28")
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %s", v)
	}
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, allTools) {
		t.Errorf("tools/list at 2026-07-28 = %v", names)
	}
	if res := callTool(t, cs, "index_codebase", map[string]any{"path": e.root}); res.IsError {
		t.Fatalf("index_codebase: %s", textOf(res))
	}
	res := callTool(t, cs, "search_code", map[string]any{"query": "Login", "expand_query": true})
	if res.IsError || !strings.Contains(textOf(res), "auth/login.go") {
		t.Errorf("search_code at 2026-07-28: %.300s", textOf(res))
	}
	// Sampling is a server-to-client request, which 2026-07-28 forbids: the built-in expansion answers.
	if exp := structured(t, res)["expansion"].(map[string]any); exp["source"] != "builtin" {
		t.Errorf("expansion at 2026-07-28 = %v", exp)
	}
	if res := callTool(t, cs, "search", map[string]any{"query": "needle"}); res.IsError {
		t.Errorf("files search at 2026-07-28: %s", textOf(res))
	}
}

// postMCP sends one JSON-RPC message over streamable HTTP and returns the
// response message (from a JSON or an SSE body) and the session id.
func postMCP(t *testing.T, url, session, version string, msg any) (map[string]any, string, int) {
	t.Helper()
	body, _ := json.Marshal(msg)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	if m, ok := msg.(map[string]any); ok && version >= "2026-07-28" {
		// 2026-07-28 repeats the method (and a tool's name) in headers.
		req.Header.Set("Mcp-Method", fmt.Sprint(m["method"]))
		if p, ok := m["params"].(map[string]any); ok && m["method"] == "tools/call" {
			req.Header.Set("Mcp-Name", fmt.Sprint(p["name"]))
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				var m map[string]any
				if json.Unmarshal([]byte(rest), &m) == nil && m["id"] != nil {
					out = m
				}
			}
		}
	} else if len(data) > 0 {
		json.Unmarshal(data, &out)
	}
	return out, resp.Header.Get("Mcp-Session-Id"), resp.StatusCode
}

func TestHTTP(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	srv := httptest.NewServer(s.HTTPHandler())
	defer srv.Close()

	// The SDK's client over streamable HTTP.
	client := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, allTools) {
		t.Errorf("tools/list over HTTP = %v", names)
	}
	params := &sdk.CallToolParams{Name: "index_codebase", Arguments: map[string]any{"path": e.root}}
	params.SetProgressToken("h1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("index_codebase over HTTP: %v %v", err, res)
	}

	// A task over HTTP: the "task" parameter survives the body rewrite.
	init, session, _ := postMCP(t, srv.URL, "", "", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize",
		"params": map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "0"}}})
	if session == "" || init["result"] == nil {
		t.Fatalf("initialize over HTTP: %v (session %q)", init, session)
	}
	postMCP(t, srv.URL, session, "2025-11-25", map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	created, _, _ := postMCP(t, srv.URL, session, "2025-11-25", map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": "index_codebase", "arguments": map[string]any{"path": e.root}, "task": map[string]any{"ttl": 30000}}})
	task, _ := created["result"].(map[string]any)["task"].(map[string]any)
	if task == nil || task["status"] != "working" {
		t.Fatalf("task-augmented call over HTTP: %v", created)
	}
	result, _, _ := postMCP(t, srv.URL, session, "2025-11-25", map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tasks/result",
		"params": map[string]any{"taskId": task["taskId"]}})
	if r, _ := result["result"].(map[string]any); r == nil || r["isError"] == true {
		t.Errorf("tasks/result over HTTP: %v", result)
	}

	// 2026-07-28 goes to the stateless handler, which serves that version.
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
	disc, _, status := postMCP(t, srv.URL, "", "2026-07-28", map[string]any{"jsonrpc": "2.0", "id": 4, "method": "server/discover", "params": map[string]any{"_meta": meta}})
	r, _ := disc["result"].(map[string]any)
	if status != http.StatusOK || r == nil || !strings.Contains(fmt.Sprint(r["supportedVersions"]), "2026-07-28") {
		t.Errorf("server/discover at 2026-07-28 over HTTP: %d %v", status, disc)
	}
	call, _, _ := postMCP(t, srv.URL, "", "2026-07-28", map[string]any{"jsonrpc": "2.0", "id": 5, "method": "tools/call",
		"params": map[string]any{"_meta": meta, "name": "search_code", "arguments": map[string]any{"query": "Login"}}})
	if r, _ := call["result"].(map[string]any); r == nil || r["isError"] == true {
		t.Errorf("tools/call at 2026-07-28 over HTTP: %v", call)
	}
}
