// Package mcp serves lore over the Model Context Protocol (MCP), on stdio
// and on streamable HTTP, using the official Go SDK.
//
// It only translates: each tool decodes its arguments, calls a core package
// (files, index, search, assist) and renders the answer as structured
// content plus a text rendering. What the SDK lacks is added here through
// its public hooks, without forking it: tools/list in registration order,
// MCP 2025-11-25 Tasks (tasks.go), and a stdio transport that survives bad
// input (conn.go).
//
// Tools come in families ("files", "code", ...). A family is a function that
// registers its tools; --toolsets picks the families, and tools/list returns
// tools in the order they were registered.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/fsroot"
)

// Options configures a Server.
type Options struct {
	Name    string // the server name reported at initialize ("lore")
	Version string // the server version reported at initialize

	Root     string       // the served root, absolute: "." of the code tools
	CodeRoot *fsroot.Root // the files tools' "code" root
	DocsRoot *fsroot.Root // the files tools' "docs" root

	// AllowRoots are more folders the code tools may index and search,
	// besides Root, CodeRoot and DocsRoot (lore serve --allow-root).
	AllowRoots []*fsroot.Root

	// SpecsDir is where the served root's specs live, relative to Root;
	// empty finds openspec/ and specs/ directly under Root.
	SpecsDir string

	Toolsets []string // the families to serve; nil means all
	ReadOnly bool     // no index_codebase; the index is only read

	// App is lore's services: every tool that reads or writes an index
	// calls it. It outlives the server; the caller closes it.
	App *app.App

	Logger *slog.Logger // where logs go (stderr); nil discards them
}

// Toolsets lists every tool family name --toolsets accepts, in the order
// families register their tools.
var Toolsets = []string{"files", "code", "packages", "specs", "collections"}

// family is a tool family: a name --toolsets knows and the function that
// registers its tools.
type family struct {
	name     string
	register func(*Server) error
}

var families = []family{
	{"files", registerFiles},
	{"code", registerCode},
	{"packages", registerPackages},
	{"specs", registerSpecs},
	{"collections", registerCollections},
}

// ParseToolsets parses a --toolsets value ("files,code"); empty means all.
// An unknown name is an error naming it and the known ones.
func ParseToolsets(value string) ([]string, error) {
	if strings.TrimSpace(value) == "" {
		return slices.Clone(Toolsets), nil
	}
	var out []string
	for _, name := range strings.Split(value, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if !slices.Contains(Toolsets, name) {
			return nil, fmt.Errorf("unknown toolset %q (known: %s)", name, strings.Join(Toolsets, ", "))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no toolset named in %q (known: %s)", value, strings.Join(Toolsets, ", "))
	}
	return out, nil
}

// Server is lore's MCP server: one per process, serving any number of
// sessions (one on stdio, many on HTTP).
type Server struct {
	opts Options
	sdk  *sdk.Server
	log  *slog.Logger

	mu     sync.Mutex
	tools  []*tool // registration order
	byName map[string]*tool

	allowed  *fsroot.Allowed // where the code tools' path may lead
	tasks    *taskStore
	calls    inflight        // the tool calls running, for Shutdown
	answers  inflight        // calls read from a client whose response is not yet written, for Shutdown
	lifetime context.Context // ends at Close; background work derives from it
	stop     context.CancelFunc
	cutoff   cutoffSet   // the calls running: cancelled when Shutdown's grace is over
	results  resultSlots // tools/call results written by the HTTP handler itself (splice.go)
}

// New builds a Server with the tool families of opts.Toolsets.
func New(opts Options) (*Server, error) {
	if opts.Name == "" {
		opts.Name = "lore"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Toolsets == nil {
		opts.Toolsets = slices.Clone(Toolsets)
	}
	if opts.App == nil {
		return nil, errors.New("mcp: Options.App is required")
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	served, err := fsroot.Open(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("opening the served root: %w", err)
	}
	s := &Server{
		allowed: fsroot.NewAllowed(served, append([]*fsroot.Root{opts.CodeRoot, opts.DocsRoot}, opts.AllowRoots...)...),
		opts:    opts,
		log:     logger,
		byName:  map[string]*tool{},
		tasks:   newTaskStore(),
	}
	s.lifetime, s.stop = context.WithCancel(context.Background())
	s.tasks.onStop = func(t *task, afterCancel time.Duration) {
		s.log.Info("task work stopped", "task", t.id, "tool", t.tool, "after_cancel_ms", afterCancel.Milliseconds())
	}
	s.sdk = sdk.NewServer(
		&sdk.Implementation{Name: opts.Name, Title: "lore", Version: opts.Version},
		&sdk.ServerOptions{
			Instructions: s.instructions(),
			// The SDK logs every session at Info; lore's log is one line per tool call.
			Logger: slog.New(minLevel{logger.Handler(), slog.LevelWarn}),
		})
	s.sdk.AddReceivingMiddleware(s.encodeMiddleware, s.tasksMiddleware, s.listOrderMiddleware)
	if err := s.registerTaskMethods(); err != nil {
		return nil, fmt.Errorf("adding the tasks methods: %w", err)
	}
	for _, f := range families {
		if !slices.Contains(opts.Toolsets, f.name) {
			continue
		}
		if err := f.register(s); err != nil {
			return nil, fmt.Errorf("registering the %s tools: %w", f.name, err)
		}
	}
	return s, nil
}

// Serve runs one MCP session over newline-delimited JSON on in and out
// (stdio) until the client closes in or ctx ends.
func (s *Server) Serve(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	err := s.sdk.Run(ctx, s.lineTransport(in, out))
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Close stops background work (tasks). The App stays open.
func (s *Server) Close() error {
	s.stop()
	s.tasks.cancelAll()
	return nil
}

// Shutdown ends the server gracefully: new tool calls are refused
// (SHUTTING_DOWN), index runs and tasks are cancelled (an index keeps its
// previous generation), the calls in flight get until ctx ends to answer,
// and then every session is closed, on stdio and on HTTP. Calls still
// running when ctx ends are cancelled, and Shutdown returns ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	idle := s.calls.drain()
	s.Close()
	var err error
	select {
	case <-idle:
		// A call's handler has returned, but its response may still be on
		// its way to the transport: closing a session drops the responses
		// not yet written, so wait for them too.
		select {
		case <-s.answers.wait():
		case <-ctx.Done():
			err = ctx.Err()
		}
	case <-ctx.Done():
		err = ctx.Err()
		s.cutoff.cutAll() // a session closes only once its calls have returned
	}
	for ss := range s.sdk.Sessions() {
		ss.Close()
	}
	return err
}

// inflight counts running tool calls and, once draining, refuses new
// ones.
type inflight struct {
	mu       sync.Mutex
	n        int
	draining bool
	idle     chan struct{} // closed when n drops to 0 while draining
}

// begin counts a call in; false means the server is shutting down.
func (f *inflight) begin() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.draining {
		return false
	}
	f.n++
	return true
}

// add counts a call in, even while draining.
func (f *inflight) add() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
}

// end counts a call out.
func (f *inflight) end() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// drain refuses new calls from now on and returns a channel closed once
// no call runs.
func (f *inflight) drain() <-chan struct{} {
	f.mu.Lock()
	f.draining = true
	f.mu.Unlock()
	return f.wait()
}

// wait returns a channel closed once no call runs, without refusing new
// ones.
func (f *inflight) wait() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan struct{})
	if f.n == 0 {
		close(ch)
	} else if f.idle == nil {
		f.idle = ch
	} else {
		ch = f.idle
	}
	return ch
}

// ToolNames lists the served tools in registration order.
func (s *Server) ToolNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.def.Name
	}
	return names
}

// register adds t, or replaces the tool of the same name in place: its
// position in tools/list does not change. t comes from newTool.
func (s *Server) register(t *tool) {
	if t.args == nil || t.run == nil {
		panic(fmt.Sprintf("tool %s was not built by newTool", t.def.Name))
	}
	t.def.InputSchema = t.args.schema()
	s.mu.Lock()
	if old, ok := s.byName[t.def.Name]; ok {
		s.tools[slices.Index(s.tools, old)] = t
	} else {
		s.tools = append(s.tools, t)
	}
	s.byName[t.def.Name] = t
	s.mu.Unlock()
	s.sdk.AddTool(t.def, s.toolHandler(t))
}

func (s *Server) lookupTool(name string) (*tool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byName[name]
	return t, ok
}

// listOrderMiddleware returns tools/list in registration order (the SDK
// sorts by name) and, for 2025-11-25 sessions, adds execution.taskSupport.
// The SDK's page size (1000) is far above lore's tool count, so its
// name-based cursor never splits the list.
func (s *Server) listOrderMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/list" {
			return res, err
		}
		list, ok := res.(*sdk.ListToolsResult)
		if !ok {
			return res, nil
		}
		s.mu.Lock()
		position := make(map[string]int, len(s.tools))
		taskSupport := map[string]string{}
		for i, t := range s.tools {
			position[t.def.Name] = i
			if t.taskSupport != "" {
				taskSupport[t.def.Name] = t.taskSupport
			}
		}
		s.mu.Unlock()
		slices.SortStableFunc(list.Tools, func(a, b *sdk.Tool) int {
			return position[a.Name] - position[b.Name]
		})
		lr, ok := req.(*sdk.ListToolsRequest)
		if !ok || protocolVersion(lr) != tasksProtocolVersion || len(taskSupport) == 0 {
			return list, nil
		}
		return patchJSON(list, func(m map[string]any) {
			tools, _ := m["tools"].([]any)
			for _, raw := range tools {
				t, _ := raw.(map[string]any)
				if name, _ := t["name"].(string); taskSupport[name] != "" {
					t["execution"] = map[string]any{"taskSupport": taskSupport[name]}
				}
			}
		})
	}
}

// instructions tell an agent which tool to use for what.
func (s *Server) instructions() string {
	var b strings.Builder
	b.WriteString("lore answers questions about this codebase from a local index and the files themselves; it never changes the code.\n")
	if slices.Contains(s.opts.Toolsets, "code") {
		b.WriteString("- search_code: ranked search over code chunks (natural language or identifiers); start here to find where something is implemented. Filter with path_filter (glob) and extensions.\n")
		b.WriteString("- search_docs: search the documentation (Markdown, reStructuredText, AsciiDoc, text).\n")
		b.WriteString("- code_research: who calls a function (with call chains), what it calls, what implements an interface, where a name is used, what a module depends on, or how the project is organised (focus architecture); follows the symbol graph up to depth hops.\n")
		if !s.opts.ReadOnly {
			b.WriteString("- index_codebase: build or refresh the index of a directory; run it first when a search answers that no index exists. It can run as a task with progress.\n")
		}
	}
	if slices.Contains(s.opts.Toolsets, "files") {
		b.WriteString("- search: exact keyword or regex search, one entry per matching line, over the docs and code roots; use it for exact strings.\n")
		b.WriteString("- list_dir, open_file, get_snippet: browse and read files (paths relative to the root); prefer get_snippet for a known line range.\n")
	}
	if slices.Contains(s.opts.Toolsets, "packages") {
		b.WriteString("- list_packages, search_packages, get_package: the repository's packages (npm, Go, Cargo, Python, Maven, Gradle, Composer, gems, NuGet, Dart, Swift) from the index.\n")
		b.WriteString("- package_dependencies, package_dependents, dependency_graph: who depends on what inside the monorepo; index_status says when the index was built.\n")
	}
	if slices.Contains(s.opts.Toolsets, "specs") {
		b.WriteString("- list_specs, get_spec_requirements, get_scenario: navigate OpenSpec and spec-kit specs (no index needed); search_specs ranks requirements (needs the index).\n")
	}
	if slices.Contains(s.opts.Toolsets, "collections") {
		b.WriteString("- search_code_semantic, search_code_fulltext, search_code_by_payload: search a named collection (an indexed root) by meaning, by text or by metadata; results carry a payload with filePath, lines and code.\n")
	}
	b.WriteString("Paths are relative to the served root; results carry path and line numbers.")
	return b.String()
}

// minLevel drops records below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
