package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
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

// startServe runs Serve with opts in the background and returns its base
// URL; the server stops when the test ends.
func startServe(t *testing.T, opts Options) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	opts.Ready = func(base string) { ready <- base }
	go func() { done <- Serve(ctx, opts) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("Serve did not return after its context ended")
		}
	})
	select {
	case base := <-ready:
		return base
	case err := <-done:
		t.Fatalf("Serve ended early: %v", err)
		return ""
	}
}

// TestServeRefusesNonLoopbackWithoutToken: listening beyond loopback
// without a bearer token is refused, with a message that says how to set
// one; with a token it serves.
func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	tests := []struct {
		addr, token string
		wantErr     bool
	}{
		{addr: "0.0.0.0:0", wantErr: true},
		{addr: "[::]:0", wantErr: true},
		{addr: "0.0.0.0:0", token: "s3cret-token"},
		{addr: "127.0.0.1:0"},
		{addr: "localhost:0"},
		{addr: "0"},
	}
	for _, tt := range tests {
		t.Run(tt.addr+"/token="+strconv.FormatBool(tt.token != ""), func(t *testing.T) {
			if !tt.wantErr {
				startServe(t, Options{Addr: tt.addr, AuthToken: tt.token})
				return
			}
			err := Serve(context.Background(), Options{Addr: tt.addr})
			if err != nil && strings.Contains(err.Error(), "address family not supported") {
				t.Skip("no IPv6 here")
			}
			if !errors.Is(err, ErrTokenRequired) {
				t.Fatalf("Serve(%s) without a token = %v, want ErrTokenRequired", tt.addr, err)
			}
			for _, want := range []string{EnvAuthToken, "--auth-token-file", "127.0.0.1"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal %q does not mention %s", err, want)
				}
			}
		})
	}
}

// rpcErrorBody decodes a JSON-RPC error response body.
func rpcErrorBody(t *testing.T, data []byte) (code int, message string, id any) {
	t.Helper()
	var body struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &body); err != nil || body.JSONRPC != "2.0" || body.Error.Code == 0 {
		t.Errorf("body %q is not a JSON-RPC error with a code", data)
	}
	return body.Error.Code, body.Error.Message, body.ID
}

// TestCheckHost: the Host allow-list holds on every connection: localhost
// names, loopback addresses and listed entries pass, anything else is 403.
func TestCheckHost(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := CheckHost([]string{"0.0.0.0", "Lore.Example", "pinned.example:8443", "[2001:db8::1]"}, ok)
	tests := []struct {
		host string
		want int
	}{
		{"localhost", http.StatusTeapot},
		{"localhost:8765", http.StatusTeapot},
		{"LOCALHOST.:8765", http.StatusTeapot},
		{"app.localhost:3000", http.StatusTeapot},
		{"127.0.0.1:8765", http.StatusTeapot},
		{"127.1.2.3", http.StatusTeapot},
		{"[::1]:8765", http.StatusTeapot},
		{"0.0.0.0:8765", http.StatusTeapot},
		{"lore.example", http.StatusTeapot},
		{"lore.example:9999", http.StatusTeapot},
		{"pinned.example:8443", http.StatusTeapot},
		{"[2001:db8::1]:80", http.StatusTeapot},
		{"pinned.example:8444", http.StatusForbidden},
		{"pinned.example", http.StatusForbidden},
		{"evil.example", http.StatusForbidden},
		{"localhost.evil.example", http.StatusForbidden},
		{"192.168.1.5:8765", http.StatusForbidden},
		{"", http.StatusForbidden},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.Host = tt.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("Host %q: status %d, want %d", tt.host, w.Code, tt.want)
		}
		if w.Code == http.StatusForbidden {
			if code, msg, _ := rpcErrorBody(t, w.Body.Bytes()); code != -32600 || !strings.Contains(msg, "--allowed-host") {
				t.Errorf("Host %q: 403 body %q", tt.host, w.Body.String())
			}
		}
	}
}

// TestRequireBearer: only the exact token passes; a refusal is 401 with a
// Bearer challenge, and the token never reaches the handler.
func TestRequireBearer(t *testing.T) {
	const token = "correct-horse-battery-staple"
	h := RequireBearer(token, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Error("the Authorization header reached the handler")
		}
		w.WriteHeader(http.StatusTeapot)
	}))
	tests := []struct {
		name, header, wantChallenge string
		want                        int
	}{
		{"no header", "", `Bearer realm="lore"`, http.StatusUnauthorized},
		{"right token", "Bearer " + token, "", http.StatusTeapot},
		{"scheme in lower case", "bearer " + token, "", http.StatusTeapot},
		{"wrong token", "Bearer " + token + "x", `Bearer realm="lore", error="invalid_token"`, http.StatusUnauthorized},
		{"prefix of the token", "Bearer " + token[:5], `Bearer realm="lore", error="invalid_token"`, http.StatusUnauthorized},
		{"empty token", "Bearer ", `Bearer realm="lore"`, http.StatusUnauthorized},
		{"basic auth", "Basic " + token, `Bearer realm="lore"`, http.StatusUnauthorized},
		{"token without scheme", token, `Bearer realm="lore"`, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			if tt.header != "" {
				r.Header.Set("Authorization", tt.header)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d", w.Code, tt.want)
			}
			if got := w.Header().Get("WWW-Authenticate"); got != tt.wantChallenge {
				t.Errorf("WWW-Authenticate = %q, want %q", got, tt.wantChallenge)
			}
			if w.Code == http.StatusUnauthorized {
				rpcErrorBody(t, w.Body.Bytes())
				if strings.Contains(w.Body.String(), token[:5]) {
					t.Errorf("the 401 body echoes the token: %s", w.Body.String())
				}
			}
		})
	}
}

// TestLoadToken: the token comes from LORE_AUTH_TOKEN or a file (trailing
// newline trimmed); an empty, missing or doubly given token is an error
// that never shows the token.
func TestLoadToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, env, file, want, wantErr string
	}{
		{name: "neither"},
		{name: "env", env: "tok-env", want: "tok-env"},
		{name: "file with a trailing newline", file: write("nl", "tok-file\n"), want: "tok-file"},
		{name: "file with CRLF", file: write("crlf", "tok-file\r\n"), want: "tok-file"},
		{name: "empty file", file: write("empty", "\n"), wantErr: "the file is empty"},
		{name: "missing file", file: filepath.Join(dir, "none"), wantErr: "does not exist"},
		{name: "token with a space", file: write("space", "tok en\n"), wantErr: "whitespace"},
		{name: "both", env: "tok-env", file: write("both", "tok-file"), wantErr: "both LORE_AUTH_TOKEN and --auth-token-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LoadToken(tt.env, tt.file)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("LoadToken = %q, %v; want error with %q", got, err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "tok-") || strings.Contains(err.Error(), "tok en") {
					t.Errorf("the error shows the token: %v", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("LoadToken = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// readUntilClosed reads conn until the server closes it and reports
// whether it did before the safety deadline (which only bounds a failing
// test).
func readUntilClosed(t *testing.T, conn net.Conn) (closed bool, data string) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	all, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false, string(all)
	}
	return true, string(all) // EOF or a reset: closed by the server
}

// TestSlowBodyIsCut: a client that declares a 100,000-byte body and sends
// 10 bytes is cut off once the read timeout passes, not held open.
func TestSlowBodyIsCut(t *testing.T) {
	handlerDone := make(chan error, 1)
	base := startServe(t, Options{
		Addr:        "0",
		ReadTimeout: 300 * time.Millisecond,
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, err := io.ReadAll(r.Body)
			handlerDone <- err
			if err != nil {
				http.Error(w, "body not read", http.StatusBadRequest)
			}
		}),
	})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n0123456789")
	if closed, data := readUntilClosed(t, conn); !closed {
		t.Fatalf("the connection of a stalled body is still open after a minute (read %q)", data)
	}
	select {
	case err := <-handlerDone: // sent before the server closed the connection
		if err == nil {
			t.Error("the handler read a whole body out of 10 bytes")
		}
	default: // cut while reading the headers: the handler never ran
	}
}

// TestIdleConnectionIsClosed: a keep-alive connection idle past the idle
// timeout is closed by the server.
func TestIdleConnectionIsClosed(t *testing.T) {
	base := startServe(t, Options{
		Addr:        "0",
		IdleTimeout: 300 * time.Millisecond,
		MCP:         http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }),
	})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	closed, data := readUntilClosed(t, conn)
	if !strings.HasPrefix(data, "HTTP/1.1 200") {
		t.Fatalf("response %q", data)
	}
	if !closed {
		t.Fatal("an idle keep-alive connection is still open after a minute")
	}
}

// TestSSEOutlivesReadTimeout: a response stream (SSE, as MCP uses for GET
// streams and long tool calls) goes on past the read timeout, for a GET
// and for a POST whose body was read.
func TestSSEOutlivesReadTimeout(t *testing.T) {
	const readTimeout = 200 * time.Millisecond
	const events = 12
	const every = 50 * time.Millisecond // events*every = 3 read timeouts
	base := startServe(t, Options{
		Addr:        "0",
		ReadTimeout: readTimeout,
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			if _, err := io.ReadAll(r.Body); err != nil {
				http.Error(w, "body not read", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			tick := time.NewTicker(every)
			defer tick.Stop()
			for i := range events {
				fmt.Fprintf(w, "data: %d %d\n\n", i, time.Since(start).Milliseconds())
				http.NewResponseController(w).Flush()
				select {
				case <-tick.C:
				case <-r.Context().Done():
					return
				}
			}
		}),
	})
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		t.Run(method, func(t *testing.T) {
			var body io.Reader
			if method == http.MethodPost {
				body = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
			}
			req, _ := http.NewRequest(method, base+"/mcp", body)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("the stream broke after %q: %v", data, err)
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n\n")
			if len(lines) != events {
				t.Fatalf("got %d events, want %d: %q", len(lines), events, data)
			}
			var last, elapsed int
			fmt.Sscanf(lines[len(lines)-1], "data: %d %d", &last, &elapsed)
			if time.Duration(elapsed)*time.Millisecond <= readTimeout {
				t.Errorf("the last event came %d ms in, not after the %v read timeout", elapsed, readTimeout)
			}
		})
	}
}

// TestMaxConns: past the connection cap a new connection is not served
// while every open one is busy with a request; it is served once one of
// them finishes (its response says Connection: close), and when the open
// ones are idle keep-alive connections, once one has been idle for
// idleYield.
func TestMaxConns(t *testing.T) {
	// Restored once the server has stopped (cleanups run last first): its
	// Accept reads idleYield while it waits for a slot.
	saved := idleYield
	t.Cleanup(func() { idleYield = saved })
	idleYield = 200 * time.Millisecond
	release := make(chan struct{})
	started := make(chan struct{}, 4)
	base := startServe(t, Options{
		Addr:     "0",
		MaxConns: 2,
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Has("block") {
				started <- struct{}{}
				<-release
			}
			io.WriteString(w, "ok")
		}),
	})
	addr := strings.TrimPrefix(base, "http://")
	request := func(path string) string { return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
	// readResponse reads one response, or fails by the deadline.
	readResponse := func(conn net.Conn, r *bufio.Reader, within time.Duration) error {
		conn.SetReadDeadline(time.Now().Add(within))
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	dial := func() (net.Conn, *bufio.Reader) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn, bufio.NewReader(conn)
	}

	// Two connections busy in a request hold both slots.
	var busy []*bufio.Reader
	var busyConns []net.Conn
	for range 2 {
		conn, r := dial()
		io.WriteString(conn, request("/mcp?block"))
		<-started
		busy, busyConns = append(busy, r), append(busyConns, conn)
	}
	third, r3 := dial() // the kernel queues it
	io.WriteString(third, request("/mcp"))
	err := readResponse(third, r3, time.Second)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("a third connection over a cap of 2, both busy, was answered (err %v)", err)
	}
	// The busy requests finish; the first response written while the
	// third client waits closes its connection, which serves the third.
	// (The other one may be written after the third took the slot, when
	// nobody waits any more: it may keep its connection.)
	close(release)
	closing := 0
	for i, r := range busy {
		busyConns[i].SetReadDeadline(time.Now().Add(time.Minute))
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("busy request %d: %v", i, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.Close {
			closing++
		}
	}
	if closing == 0 {
		t.Error("no busy response closed its connection while a client waited")
	}
	if err := readResponse(third, r3, time.Minute); err != nil {
		t.Fatalf("the third connection was not served once a slot freed: %v", err)
	}

	// Now a second connection is served and idle; the first two were
	// closed. Fill the cap with idle keep-alive connections: a new one is
	// served once one of them has been idle for idleYield.
	other, r := dial()
	io.WriteString(other, request("/mcp"))
	if err := readResponse(other, r, time.Minute); err != nil {
		t.Fatalf("a second connection beside the third: %v", err)
	}
	fourth, r4 := dial()
	io.WriteString(fourth, request("/mcp"))
	if err := readResponse(fourth, r4, time.Minute); err != nil {
		t.Fatalf("a new connection, with only idle ones open, was not served: %v", err)
	}
}
