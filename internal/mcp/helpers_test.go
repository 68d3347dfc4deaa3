package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/lore-dev/lore/internal/testtree"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/assist"
	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/fsroot"
)

func writeTree(t testing.TB, dir string, files map[string]string) { testtree.Write(t, dir, files) }

// fixtureFiles is a small project: Go code, docs, a README.
var fixtureFiles = map[string]string{
	"auth/login.go": `package auth

// Login checks a user's password and opens a session.
func Login(user, password string) (*Session, error) {
	if !checkPassword(user, password) {
		return nil, ErrDenied
	}
	return openSession(user)
}

func checkPassword(user, password string) bool { return password != "" }
`,
	"auth/session.go": `package auth

import "errors"

// ErrDenied is returned when authentication fails.
var ErrDenied = errors.New("denied")

// Session is an authenticated user's session.
type Session struct{ User string }

func openSession(user string) (*Session, error) { return &Session{User: user}, nil }
`,
	"docs/install.md": "# Installation\n\nRun the installer to install the demo.\n\n## Configuration\n\nSet CODE_ROOT to the code folder.\n",
	"README.md":       "# Demo\n\nA demo project about authentication and sessions.\n",
	"notes.txt":       "alpha\nbeta needle\ngamma\nneedle again\n",
}

// env is one test's world: a served root, a cache for indexes, a log.
type env struct {
	root  string
	cache string
	log   *syncBuffer
}

func newEnv(t testing.TB, files map[string]string) *env {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	return &env{root: real, cache: t.TempDir(), log: &syncBuffer{}}
}

// services are lore's services with every index under the env's cache,
// closed at the end of the test; chat, when set, is their chat endpoint.
func (e *env) services(t testing.TB, chat assist.Model) *app.App {
	t.Helper()
	a := app.New(app.Options{IndexFor: app.IndexUnder(e.cache), Chat: chat, Collections: e.collectionsDB()})
	t.Cleanup(func() { a.Close() })
	return a
}

// collectionsDB is the env's database of named collections.
func (e *env) collectionsDB() string { return filepath.Join(e.cache, "collections.db") }

// indexCollection writes files to a new folder and indexes it as the named
// collection of the env's collections database.
func (e *env) indexCollection(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	a := app.New(app.Options{Collections: e.collectionsDB()})
	defer a.Close()
	if _, _, err := a.IndexCollection(context.Background(), name, app.IndexRequest{Root: root}); err != nil {
		t.Fatalf("indexing collection %s: %v", name, err)
	}
	return root
}

// indexFile is the index file of a root of the env.
func (e *env) indexFile(t testing.TB, absRoot string) string {
	t.Helper()
	loc, err := app.IndexUnder(e.cache)(absRoot)
	if err != nil {
		t.Fatal(err)
	}
	return loc.Database
}

// options are the Options of a server over e, with every family.
func (e *env) options(t testing.TB) Options {
	t.Helper()
	r, err := fsroot.Open(e.root)
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Name: config.DefaultServerName, Version: "1.2.3-test",
		Root: e.root, CodeRoot: r, DocsRoot: r,
		App:    e.services(t, nil),
		Logger: slog.New(slog.NewTextHandler(e.log, nil)),
	}
}

func (e *env) server(t testing.TB, edit func(*Options)) *Server {
	t.Helper()
	opts := e.options(t)
	if edit != nil {
		edit(&opts)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// syncBuffer is a bytes.Buffer safe for concurrent writers (the logger).
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// connectSDK connects the SDK's client to s over an in-memory pipe at
// protocol 2025-11-25; the server side is lore's own line transport, as on
// stdio.
func connectSDK(t testing.TB, s *Server, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	return connectSDKAt(t, s, opts, "2025-11-25")
}

// connectSDKAt is connectSDK at another protocol version; at 2026-07-28
// the client skips initialize and sends its version with every request.
func connectSDKAt(t testing.TB, s *Server, opts *sdk.ClientOptions, version string) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverEnd, clientEnd := net.Pipe()
	ss, err := s.sdk.Connect(ctx, s.lineTransport(serverEnd, serverEnd), nil)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "lore-test", Version: "0"}, opts)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: clientEnd, Writer: clientEnd}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}

// rawClient speaks raw JSON-RPC lines to a server's stdio loop, for what
// the SDK's client cannot send (tasks, other protocol versions, garbage).
type rawClient struct {
	t       testing.TB
	w       *io.PipeWriter
	mu      sync.Mutex
	nextID  int
	pending map[string]chan map[string]any
	notes   []map[string]any // notifications from the server, in order
	orphans chan map[string]any
	done    chan struct{}
}

func newRawClient(t testing.TB, s *Server) *rawClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &rawClient{t: t, w: inW, pending: map[string]chan map[string]any{}, orphans: make(chan map[string]any, 100), done: make(chan struct{})}
	go func() {
		s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
				var batch []map[string]any
				if err := json.Unmarshal(line, &batch); err != nil {
					t.Errorf("server wrote invalid JSON: %q", line)
					continue
				}
				c.orphans <- map[string]any{"batch": batch}
				continue
			}
			var msg map[string]any
			if err := json.Unmarshal(line, &msg); err != nil {
				t.Errorf("server wrote invalid JSON: %q", line)
				continue
			}
			c.dispatch(msg)
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			t.Error("server did not end after stdin closed")
		}
	})
	return c
}

func (c *rawClient) dispatch(msg map[string]any) {
	id, hasID := msg["id"]
	_, isResponse := msg["result"]
	if _, isErr := msg["error"]; isErr {
		isResponse = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case isResponse && hasID && id != nil:
		key := fmt.Sprint(id)
		if ch, ok := c.pending[key]; ok {
			delete(c.pending, key)
			ch <- msg
			return
		}
		c.orphans <- msg
	case isResponse:
		c.orphans <- msg
	default:
		c.notes = append(c.notes, msg)
	}
}

// send writes one raw line.
func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// call sends a request and waits for its response; it returns the result
// or the JSON-RPC error object.
func (c *rawClient) call(method string, params any) (result map[string]any, rpcErr map[string]any) {
	c.t.Helper()
	ch := c.start(method, params)
	return c.wait(ch, method)
}

func (c *rawClient) start(method string, params any) chan map[string]any {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan map[string]any, 1)
	c.pending[fmt.Sprint(id)] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	data, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(string(data))
	return ch
}

func (c *rawClient) wait(ch chan map[string]any, what string) (map[string]any, map[string]any) {
	c.t.Helper()
	select {
	case msg := <-ch:
		if e, ok := msg["error"].(map[string]any); ok {
			return nil, e
		}
		res, _ := msg["result"].(map[string]any)
		return res, nil
	case <-time.After(30 * time.Second):
		c.t.Fatalf("no response to %s", what)
		return nil, nil
	}
}

func (c *rawClient) notify(method string, params any) {
	c.t.Helper()
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	c.send(string(data))
}

// initialize performs the handshake at version and returns the result.
func (c *rawClient) initialize(version string, caps map[string]any) map[string]any {
	c.t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	res, rpcErr := c.call("initialize", map[string]any{
		"protocolVersion": version, "capabilities": caps,
		"clientInfo": map[string]any{"name": "raw", "version": "0"},
	})
	if rpcErr != nil {
		c.t.Fatalf("initialize %s: %v", version, rpcErr)
	}
	c.notify("notifications/initialized", map[string]any{})
	return res
}

// notifications returns the notifications received so far with method.
func (c *rawClient) notifications(method string) []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]any
	for _, n := range c.notes {
		if n["method"] == method {
			out = append(out, n)
		}
	}
	return out
}

// callTool calls a tool through the SDK client and returns its result.
func callTool(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	return res
}

// structured decodes a result's structured content into a generic map.
func structured(t testing.TB, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("structured content %s is not an object: %v", data, err)
	}
	return m
}

// toolError returns a failed result's error object, failing the test when
// the result is not an error.
func toolErrorOf(t testing.TB, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an error result, got %s", textOf(res))
	}
	e, _ := structured(t, res)["error"].(map[string]any)
	if e == nil {
		t.Fatalf("error result without structured error: %s", textOf(res))
	}
	return e
}

func textOf(res *sdk.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// schemaChecker validates structured content against each tool's output
// schema, as a strict client would.
type schemaChecker map[string]*jsonschema.Resolved

func newSchemaChecker(t testing.TB, cs *sdk.ClientSession) schemaChecker {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := schemaChecker{}
	for _, tool := range list.Tools {
		data, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: output schema does not parse: %v", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
		}
		sc[tool.Name] = r
	}
	return sc
}

func (sc schemaChecker) check(t testing.TB, tool string, res *sdk.CallToolResult) {
	t.Helper()
	r, ok := sc[tool]
	if !ok {
		t.Fatalf("no schema for %s", tool)
	}
	data, _ := json.Marshal(res.StructuredContent)
	var v any
	json.Unmarshal(data, &v)
	if err := r.Validate(v); err != nil {
		t.Errorf("%s: structured content does not match the output schema: %v\n%s", tool, err, data)
	}
}
