package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestIsResponseEvent(t *testing.T) {
	for _, tt := range []struct {
		name  string
		event string
		want  bool
	}{
		{"result", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}\n\n", true},
		{"error", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32602,\"message\":\"x\"}}\n\n", true},
		{"with an event id", "event: message\nid: s_3\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n", true},
		{"a string id with braces", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"{\\\"result\\\"\",\"result\":{}}\n\n", true},
		{"progress notification", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n", false},
		{"request to the client", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sampling/createMessage\",\"params\":{}}\n\n", false},
		{"a result without an id", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"result\":{}}\n\n", false},
		{"priming event", "id: s_0\ndata: \n\n", false},
		{"not an event", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false},
		{"data inside a field", "event: xdata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n", false},
		{"truncated", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := isResponseEvent([]byte(tt.event)); got != tt.want {
				t.Errorf("isResponseEvent(%q) = %v, want %v", tt.event, got, tt.want)
			}
		})
	}
}

// flushCounter is a ResponseWriter that counts flushes and what was
// written at each.
type flushCounter struct {
	*httptest.ResponseRecorder
	flushedAt []int // bytes written when each flush came
}

func (f *flushCounter) Flush() { f.flushedAt = append(f.flushedAt, f.Body.Len()) }

// TestResponseFlushIsLeftToTheEnd: of a single request's events, those
// before its response are flushed as written; the response itself is left
// for the end of the HTTP response. A batch's responses are flushed.
func TestResponseFlushIsLeftToTheEnd(t *testing.T) {
	progress := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n"
	response := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	for _, tt := range []struct {
		name   string
		single bool
		want   []int
	}{
		{"single request", true, []int{len(progress), 2 * len(progress)}},
		{"batch", false, []int{len(progress), 2 * len(progress), 2*len(progress) + len(response)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fc := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
			w := &rpcErrorWriter{ResponseWriter: fc, single: tt.single}
			for _, ev := range []string{progress, progress, response} {
				if _, err := w.Write([]byte(ev)); err != nil {
					t.Fatal(err)
				}
				w.Flush()
			}
			if len(fc.flushedAt) != len(tt.want) {
				t.Fatalf("flushes after %v bytes, want %v", fc.flushedAt, tt.want)
			}
			for i := range tt.want {
				if fc.flushedAt[i] != tt.want[i] {
					t.Fatalf("flushes after %v bytes, want %v", fc.flushedAt, tt.want)
				}
			}
			if fc.Body.String() != progress+progress+response {
				t.Errorf("body %q", fc.Body.String())
			}
		})
	}
}

// TestProgressOverHTTP: over streamable HTTP, a call with a progress token
// gets its progress notifications and then its result, from the official
// SDK's client.
func TestProgressOverHTTP(t *testing.T) {
	e := newEnv(t, researchFiles)
	s := e.server(t, nil)
	srv := httptest.NewServer(s.HTTPHandler())
	defer srv.Close()
	progress := make(chan *sdk.ProgressNotificationParams, 32)
	c := sdk.NewClient(&sdk.Implementation{Name: "lore-test", Version: "0"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			progress <- req.Params
		},
	})
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{},
		DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res := callTool(t, cs, "index_codebase", map[string]any{"path": e.root}); res.IsError {
		t.Fatalf("index_codebase: %s", textOf(res))
	}
	params := &sdk.CallToolParams{Name: "code_research", Arguments: map[string]any{"query": "what calls authenticate()", "depth": 3}}
	params.SetProgressToken("research")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("code_research: %v %s", err, textOf(res))
	}
	// The notifications came on the call's own stream (the client has no
	// other: DisableStandaloneSSE). The client hands them to the handler
	// on its own goroutine: the wait is for that, not for the server.
	for hop := 1; hop <= 3; hop++ {
		select {
		case p := <-progress:
			if p.ProgressToken != "research" || p.Progress != float64(hop) {
				t.Errorf("progress %d: %+v", hop, p)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no progress notification for hop %d", hop)
		}
	}
}
