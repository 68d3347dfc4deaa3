package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestListenAddr(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "8080", want: "127.0.0.1:8080"},
		{in: ":8080", want: "127.0.0.1:8080"},
		{in: "0", want: "127.0.0.1:0"},
		{in: "localhost:9000", want: "localhost:9000"},
		{in: "0.0.0.0:80", want: "0.0.0.0:80"},
		{in: "[::1]:80", want: "[::1]:80"},
		{in: "", wantErr: "needs an address"},
		{in: "host", wantErr: "missing port"},
		{in: "host:http", wantErr: "not a number"},
		{in: "70000", wantErr: "missing port"},
	}
	for _, tt := range tests {
		got, err := ListenAddr(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ListenAddr(%q) = %q, %v; want error with %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestCheckOrigin(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := CheckOrigin(ParseOrigins(" https://app.example.com/ ,"), ok)
	tests := []struct {
		origin string
		want   int
	}{
		{"", http.StatusTeapot},
		{"http://localhost:3000", http.StatusTeapot},
		{"http://127.0.0.1", http.StatusTeapot},
		{"https://[::1]:8443", http.StatusTeapot},
		{"http://app.localhost:5173", http.StatusTeapot},
		{"https://app.example.com", http.StatusTeapot},
		{"https://evil.example.com", http.StatusForbidden},
		{"http://localhost.evil.com", http.StatusForbidden},
		{"http://192.168.1.5:8080", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"file://", http.StatusForbidden},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("Origin %q: status %d, want %d", tt.origin, w.Code, tt.want)
		}
		if w.Code == http.StatusForbidden {
			var body struct {
				JSONRPC string `json:"jsonrpc"`
				ID      any    `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.JSONRPC != "2.0" || body.Error.Code != -32600 ||
				!strings.Contains(body.Error.Message, "not allowed") || body.ID != nil {
				t.Errorf("Origin %q: 403 body %q is not a JSON-RPC error without id", tt.origin, w.Body.String())
			}
		}
	}
}

func TestServeAndShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, Options{
			Addr:  "0",
			MCP:   http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "mcp here") }),
			Ready: func(base string) { ready <- base },
		})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("Serve ended early: %v", err)
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Errorf("a bare port must bind 127.0.0.1, got %s", base)
	}
	resp, err := http.Get(base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "mcp here" {
		t.Errorf("GET /mcp = %q", body)
	}
	if resp, err := http.Get(base + "/other"); err == nil {
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET /other = %d, want 404", resp.StatusCode)
		}
		resp.Body.Close()
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after shutdown = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
}
