package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer collects a process's stderr while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// httpServer is a running lore serve --http process.
type httpServer struct {
	url    string // http://127.0.0.1:PORT/mcp, whatever address it bound
	base   string // http://127.0.0.1:PORT
	port   string
	stderr *lockedBuffer
	stop   func() string // stops the process and returns its whole stderr

	cmd    *exec.Cmd
	exited chan error // receives the process's end once
}

// servingRE finds the address in lore serve's ready line, whether MCP is
// served at /mcp or only the REST API.
var servingRE = regexp.MustCompile(`serving (?:MCP|the REST API) at http://([^/\s]+)/`)

// terminate sends sig and waits for the process to exit; it returns the
// exit code and the whole stderr.
func (s *httpServer) terminate(t *testing.T, sig os.Signal) (int, string) {
	t.Helper()
	// A process already gone (an earlier signal ended it) just reports
	// how it exited.
	if err := s.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		s.exited <- err // for stop
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, s.stderr.String()
	case <-time.After(2 * time.Minute):
		t.Fatalf("lore serve did not exit 2 minutes after %v:\n%s", sig, s.stderr.String())
		return 0, ""
	}
}

// startHTTP starts lore serve --http with args and env and waits until it
// listens; it fails the test with the process's stderr if it exits first.
func startHTTP(t *testing.T, bin string, env []string, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = env
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &httpServer{stderr: &lockedBuffer{}, cmd: cmd}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			fmt.Fprintln(s.stderr, sc.Text())
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				listening <- m[1]
			}
		}
		io.Copy(io.Discard, pr)
	}()
	exited := make(chan error, 1)
	s.exited = exited
	go func() {
		err := cmd.Wait()
		pw.Close()
		exited <- err
	}()
	var stopOnce sync.Once
	s.stop = func() string {
		stopOnce.Do(func() {
			cmd.Process.Signal(os.Interrupt)
			select {
			case err := <-exited:
				exited <- err
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				<-exited
			}
		})
		return s.stderr.String()
	}
	t.Cleanup(func() { s.stop() })
	select {
	case hostport := <-listening:
		_, port, err := net.SplitHostPort(hostport)
		if err != nil {
			t.Fatalf("serving at %q: %v", hostport, err)
		}
		s.port = port
		s.base = "http://127.0.0.1:" + port
		s.url = s.base + "/mcp"
	case err := <-exited:
		t.Fatalf("lore serve exited before listening: %v\n%s", err, s.stderr.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("lore serve is not listening after 2 minutes:\n%s", s.stderr.String())
	}
	return s
}

// randomToken is a fresh bearer token.
func randomToken(t *testing.T) string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// httpReply is an answer to post.
type httpReply struct {
	status  int
	header  http.Header
	body    string
	message map[string]any // the last JSON-RPC message of the body (JSON or SSE)
}

// post sends a JSON-RPC body to url with the MCP headers plus extra (Host
// sets the Host header).
func post(t *testing.T, url, body string, extra map[string]string) httpReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range extra {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	r := httpReply{status: resp.StatusCode, header: resp.Header, body: string(data)}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimPrefix(line, "data: ")
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			r.message = m
		}
	}
	return r
}

// errorCode is the JSON-RPC error code of a reply, 0 when it has none.
func (r httpReply) errorCode() float64 {
	e, _ := r.message["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return code
}

// bearerTransport adds Authorization: Bearer to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// listTools runs a whole SDK client session against url (with token when
// not empty) and returns the number of tools listed.
func listTools(t *testing.T, url, token string) int {
	t.Helper()
	client := &http.Client{}
	if token != "" {
		client.Transport = bearerTransport{token}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "auth-test", Version: "0"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("SDK client session: %v", err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return len(list.Tools)
}

// nonLoopbackIP is an address of this machine other than loopback, or ""
// when it has none.
func nonLoopbackIP() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ipnet, ok := a.(*net.IPNet); ok && !ipnet.IP.IsLoopback() && ipnet.IP.To4() != nil {
			return ipnet.IP.String()
		}
	}
	return ""
}

// TestServeHTTPStartupRefusals: lore serve --http refuses to start beyond
// loopback without a token, and on a token it cannot use, saying how to
// fix it.
func TestServeHTTPStartupRefusals(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("tok-from-file\n"), 0o600)
	tests := []struct {
		name     string
		args     []string
		env      []string
		wantCode int
		want     []string
	}{
		{"non-loopback without a token", []string{"--http", "0.0.0.0:0"}, nil, 1,
			[]string{"LORE_AUTH_TOKEN", "--auth-token-file", "not a loopback address"}},
		{"empty token file", []string{"--http", "127.0.0.1:0", "--auth-token-file", empty}, nil, 1, []string{"--auth-token-file", "is empty"}},
		{"missing token file", []string{"--http", "127.0.0.1:0", "--auth-token-file", filepath.Join(dir, "none")}, nil, 1,
			[]string{"--auth-token-file", "does not exist"}},
		{"token file and LORE_AUTH_TOKEN", []string{"--http", "127.0.0.1:0", "--auth-token-file", good}, []string{"LORE_AUTH_TOKEN=tok-from-env"}, 1,
			[]string{"both LORE_AUTH_TOKEN and --auth-token-file"}},
		{"token file without --http", []string{"--auth-token-file", good}, nil, 2, []string{"apply to --http only"}},
		{"allowed host without --http", []string{"--allowed-host", "lore.example"}, nil, 2, []string{"apply to --http only"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"serve", "--root", root}, tt.args...)...)
			cmd.Env = serveEnv(t, tt.env...)
			cmd.Stdin = strings.NewReader("")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			done := make(chan error, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				cmd.Process.Kill()
				t.Fatalf("lore serve %v did not refuse to start:\n%s", tt.args, stderr.String())
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.wantCode, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q lacks %q", stderr.String(), w)
				}
			}
			if strings.Contains(stderr.String(), "tok-from") {
				t.Errorf("stderr shows the token: %s", stderr.String())
			}
		})
	}
}

// TestServeHTTPAuth drives real lore serve --http processes with a real
// HTTP client: the bearer token, the Host allow-list and loopback without
// a token.
func TestServeHTTPAuth(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)

	t.Run("non-loopback with LORE_AUTH_TOKEN", func(t *testing.T) {
		token := randomToken(t)
		wrong := randomToken(t)
		srv := startHTTP(t, bin, serveEnv(t, "LORE_AUTH_TOKEN="+token), "--root", root, "--http", "0.0.0.0:0")
		tests := []struct {
			name          string
			headers       map[string]string
			wantStatus    int
			wantChallenge string
		}{
			{"no Authorization", nil, http.StatusUnauthorized, `Bearer realm="lore"`},
			{"wrong token", map[string]string{"Authorization": "Bearer " + wrong}, http.StatusUnauthorized, `Bearer realm="lore", error="invalid_token"`},
			{"token as Basic", map[string]string{"Authorization": "Basic " + token}, http.StatusUnauthorized, `Bearer realm="lore"`},
			{"right token", map[string]string{"Authorization": "Bearer " + token}, http.StatusOK, ""},
			{"right token, foreign Host", map[string]string{"Authorization": "Bearer " + token, "Host": "evil.example:" + srv.port}, http.StatusForbidden, ""},
			{"no token, foreign Host", map[string]string{"Host": "evil.example"}, http.StatusForbidden, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := post(t, srv.url, initializeBody, tt.headers)
				if r.status != tt.wantStatus {
					t.Fatalf("status %d, want %d: %.300s", r.status, tt.wantStatus, r.body)
				}
				if got := r.header.Get("WWW-Authenticate"); got != tt.wantChallenge {
					t.Errorf("WWW-Authenticate = %q, want %q", got, tt.wantChallenge)
				}
				if r.status != http.StatusOK && r.errorCode() != -32600 {
					t.Errorf("refusal body %q is not a JSON-RPC -32600 error", r.body)
				}
				if r.status == http.StatusOK && r.header.Get("Mcp-Session-Id") == "" {
					t.Errorf("initialize with the token opened no session: %.300s", r.body)
				}
			})
		}
		t.Run("non-loopback connection", func(t *testing.T) {
			ip := nonLoopbackIP()
			if ip == "" {
				t.Skip("this machine has no non-loopback IPv4 address")
			}
			url := "http://" + net.JoinHostPort(ip, srv.port) + "/mcp"
			auth := map[string]string{"Authorization": "Bearer " + token}
			if r := post(t, url, initializeBody, auth); r.status != http.StatusOK {
				t.Errorf("Host %s (an address of the machine): %d %.300s", ip, r.status, r.body)
			}
			auth["Host"] = "evil.example:" + srv.port
			if r := post(t, url, initializeBody, auth); r.status != http.StatusForbidden {
				t.Errorf("foreign Host over a non-loopback connection: %d %.300s, want 403", r.status, r.body)
			}
			if r := post(t, url, initializeBody, nil); r.status != http.StatusUnauthorized {
				t.Errorf("no token over a non-loopback connection: %d, want 401", r.status)
			}
		})
		t.Run("SDK client with the token", func(t *testing.T) {
			if n := listTools(t, srv.url, token); n == 0 {
				t.Error("no tools listed")
			}
		})
		log := srv.stop()
		if strings.Contains(log, token) || strings.Contains(log, wrong) {
			t.Errorf("a token appears in the log:\n%s", log)
		}
		if !strings.Contains(log, "bearer_token=true") {
			t.Errorf("the log does not say a token is required:\n%s", log)
		}
	})

	t.Run("token file with a trailing newline", func(t *testing.T) {
		token := randomToken(t)
		file := filepath.Join(t.TempDir(), "token")
		if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		srv := startHTTP(t, bin, serveEnv(t), "--root", root, "--http", "0.0.0.0:0", "--auth-token-file", file)
		if r := post(t, srv.url, initializeBody, map[string]string{"Authorization": "Bearer " + token}); r.status != http.StatusOK {
			t.Errorf("with the file's token: %d %.300s", r.status, r.body)
		}
		if r := post(t, srv.url, initializeBody, map[string]string{"Authorization": "Bearer " + token + "\\n"}); r.status != http.StatusUnauthorized {
			t.Errorf("with a wrong token: %d", r.status)
		}
		if log := srv.stop(); strings.Contains(log, token) {
			t.Errorf("the token appears in the log:\n%s", log)
		}
	})

	t.Run("loopback without a token", func(t *testing.T) {
		srv := startHTTP(t, bin, serveEnv(t), "--root", root, "--http", "127.0.0.1:0")
		if r := post(t, srv.url, initializeBody, nil); r.status != http.StatusOK {
			t.Errorf("initialize: %d %.300s", r.status, r.body)
		}
		if n := listTools(t, srv.url, ""); n == 0 {
			t.Error("no tools listed")
		}
		if r := post(t, srv.url, initializeBody, map[string]string{"Host": "evil.example"}); r.status != http.StatusForbidden {
			t.Errorf("foreign Host on loopback: %d, want 403", r.status)
		}
	})

	t.Run("loopback with a token set", func(t *testing.T) {
		token := randomToken(t)
		srv := startHTTP(t, bin, serveEnv(t, "LORE_AUTH_TOKEN="+token), "--root", root, "--http", "127.0.0.1:0")
		if r := post(t, srv.url, initializeBody, nil); r.status != http.StatusUnauthorized {
			t.Errorf("without the token: %d, want 401", r.status)
		}
		if r := post(t, srv.url, initializeBody, map[string]string{"Authorization": "Bearer " + token}); r.status != http.StatusOK {
			t.Errorf("with the token: %d %.300s", r.status, r.body)
		}
	})

	t.Run("--allowed-host", func(t *testing.T) {
		srv := startHTTP(t, bin, serveEnv(t), "--root", root, "--http", "127.0.0.1:0", "--allowed-host", "lore.example", "--allowed-host", "pinned.example:1")
		tests := []struct {
			host string
			want int
		}{
			{"lore.example:" + srv.port, http.StatusOK},
			{"LORE.example", http.StatusOK},
			{"localhost:" + srv.port, http.StatusOK},
			{"other.example:" + srv.port, http.StatusForbidden},
			{"pinned.example:" + srv.port, http.StatusForbidden},
		}
		for _, tt := range tests {
			r := post(t, srv.url, initializeBody, map[string]string{"Host": tt.host})
			if r.status != tt.want {
				t.Errorf("Host %s: %d, want %d (%.300s)", tt.host, r.status, tt.want, r.body)
			}
		}
	})
}

// TestServeHTTPProtocolAnswers: a real lore serve --http answers protocol
// mistakes with the status the streamable HTTP spec gives and a JSON-RPC
// error of a defined code, and applies the batch rule.
func TestServeHTTPProtocolAnswers(t *testing.T) {
	bin := loreBinary(t)
	srv := startHTTP(t, bin, serveEnv(t), "--root", serveFixture(t), "--http", "127.0.0.1:0")
	open := func(version string) string {
		r := post(t, srv.url, strings.Replace(initializeBody, "2025-11-25", version, 1), nil)
		session := r.header.Get("Mcp-Session-Id")
		if r.status != http.StatusOK || session == "" {
			t.Fatalf("initialize %s: %d %.300s", version, r.status, r.body)
		}
		post(t, srv.url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": session})
		return session
	}
	const batch = `[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]`
	tests := []struct {
		name       string
		body       string
		headers    map[string]string
		wantStatus int
		wantCode   float64
		wantID     any
	}{
		{"tools/list without a session", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, nil, http.StatusBadRequest, -32600, float64(3)},
		{"unknown session", `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, map[string]string{"Mcp-Session-Id": "nope"}, http.StatusNotFound, -32001, float64(4)},
		{"no method", `{"jsonrpc":"2.0","id":5}`, map[string]string{"Mcp-Session-Id": open("2025-11-25")}, http.StatusBadRequest, -32600, float64(5)},
		{"batch at 2025-03-26", batch, map[string]string{"Mcp-Session-Id": open("2025-03-26")}, http.StatusOK, 0, nil},
		{"batch at 2025-11-25", batch, map[string]string{"Mcp-Session-Id": open("2025-11-25"), "Mcp-Protocol-Version": "2025-11-25"}, http.StatusBadRequest, -32600, nil},
		{"batch at 2025-06-18, no version header", batch, map[string]string{"Mcp-Session-Id": open("2025-06-18")}, http.StatusBadRequest, -32600, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, srv.url, tt.body, tt.headers)
			if r.status != tt.wantStatus || r.errorCode() != tt.wantCode {
				t.Fatalf("answer %d %.300s, want %d with code %v", r.status, r.body, tt.wantStatus, tt.wantCode)
			}
			if tt.wantCode != 0 && r.message["id"] != tt.wantID {
				t.Errorf("id %v, want %v", r.message["id"], tt.wantID)
			}
			if tt.body == batch && tt.wantStatus == http.StatusOK &&
				(!strings.Contains(r.body, `"id":"b1","result"`) || !strings.Contains(r.body, `"id":"b2","result"`)) {
				t.Errorf("served batch answered %.300s, want results for b1 and b2", r.body)
			}
		})
	}
}

// stdioSession is a raw JSON-RPC line session with a lore serve process.
type stdioSession struct {
	t     *testing.T
	stdin io.WriteCloser
	lines chan string
}

func startStdio(t *testing.T, bin, root string) *stdioSession {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--root", root)
	cmd.Env = serveEnv(t)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &stdioSession{t: t, stdin: stdin, lines: make(chan string, 16)}
	go func() {
		defer close(s.lines)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				s.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Errorf("lore serve did not end when its stdin closed:\n%s", stderr.String())
		}
	})
	return s
}

// exchange writes one line and returns the next message the server writes.
func (s *stdioSession) exchange(line string) any {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatalf("writing to lore serve: %v", err)
	}
	select {
	case out, ok := <-s.lines:
		if !ok {
			s.t.Fatal("lore serve closed its stdout")
		}
		var msg any
		if err := json.Unmarshal([]byte(out), &msg); err != nil {
			s.t.Fatalf("lore serve wrote invalid JSON %q", out)
		}
		return msg
	case <-time.After(time.Minute):
		s.t.Fatalf("no answer to %.100s", line)
		return nil
	}
}

// TestServeStdioProtocolAnswers: a real lore serve over stdio answers a
// message without a method and a 5 MiB message with -32600 and their ids,
// goes on serving, and applies the batch rule.
func TestServeStdioProtocolAnswers(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)
	errorOf := func(msg any) (float64, any) {
		m, _ := msg.(map[string]any)
		e, _ := m["error"].(map[string]any)
		code, _ := e["code"].(float64)
		return code, m["id"]
	}
	t.Run("bad messages", func(t *testing.T) {
		s := startStdio(t, bin, root)
		big := `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`
		tests := []struct {
			name, line string
			wantID     any
		}{
			{"no method", `{"jsonrpc":"2.0","id":5}`, float64(5)},
			{"5 MiB", big, float64(6)},
			{"method before initialize", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, float64(7)},
		}
		for _, tt := range tests {
			if code, id := errorOf(s.exchange(tt.line)); code != -32600 || id != tt.wantID {
				t.Errorf("%s: answered code %v id %v, want -32600 with id %v", tt.name, code, id, tt.wantID)
			}
			if msg := s.exchange(`{"jsonrpc":"2.0","id":"p","method":"ping"}`); msg.(map[string]any)["result"] == nil {
				t.Fatalf("ping after %s: %v", tt.name, msg)
			}
		}
	})
	for _, tt := range []struct {
		version string
		served  bool
	}{{"2025-03-26", true}, {"2025-11-25", false}} {
		t.Run("batch at "+tt.version, func(t *testing.T) {
			s := startStdio(t, bin, root)
			s.exchange(strings.Replace(initializeBody, "2025-11-25", tt.version, 1))
			io.WriteString(s.stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			answer := s.exchange(`[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]`)
			if arr, isBatch := answer.([]any); tt.served != isBatch || (isBatch && len(arr) != 2) {
				t.Fatalf("batch answer %v, served=%v wanted", answer, tt.served)
			}
			if !tt.served {
				if code, id := errorOf(answer); code != -32600 || id != nil {
					t.Errorf("refused batch: %v, want -32600 with id null", answer)
				}
			}
		})
	}
}
