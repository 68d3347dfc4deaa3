// Command load measures a running lore serve --http under concurrent
// clients. Each front end is one kind of request: the REST API's semantic
// search ("rest", POST /api/v1/collections/{name}/search/semantic) or one
// MCP tool at /mcp, one MCP session per client: search_code_semantic,
// search_code (over -path, the served root by default), list_packages or
// search (the files search: literal or, with -files_regex, regular
// expressions, case-insensitive, -files_limit results). MCP clients are
// the official Go SDK's (-client sdk) or lean plain-HTTP ones (-client
// raw) that speak the same streamable HTTP protocol but decode only what
// tells success from failure, so that the clients take less of the
// machine from the server they measure. The front ends named by
// -fronts run side by side in one run, rounds alternating so that the
// machine's load touches them alike. It prints, per front end and
// concurrency, the requests served, errors, throughput, p50/p95/p99
// latency, the server's CPU time per request (user + system, from
// /proc/PID/stat over the rounds), the load generator's own CPU time per
// request (it shares the machine with the server it measures) and the
// server's RSS.
//
//	lore index --collection tokio ~/src/tokio
//	lore index ~/src/tokio
//	lore serve --root ~/src/tokio --http 127.0.0.1:8765 &
//	go run ./test/load -url http://127.0.0.1:8765 -collection tokio -pid $! \
//		-fronts rest,search_code,list_packages
//	go run ./test/load -client raw -protocol 2025-11-25 -fronts search -files_regex
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// queries are what the clients ask, in turn: questions a developer asks
// of a codebase, none tuned to one.
var queries = []string{
	"spawn a background task", "read bytes from a TCP stream", "timeout for a future", "graceful shutdown signal",
	"channel send and receive", "mutex lock guard", "parse configuration options", "error handling and retries",
	"buffered writer flush", "schedule work on a thread pool", "interval timer tick", "cancel a running operation",
}

// fileQueries and fileRegexQueries are what the clients of the files
// search ask, in turn (case-insensitive): strings and patterns a developer
// greps for in any codebase, common and rare alike.
var (
	fileQueries = []string{
		"context.Context", "TODO", "func New", "deprecated", "timeout", "http.Client", "return nil, err",
		"license", "mutex", "panic(", "unsafe", "retry", "sync.WaitGroup", "errors.Is", "Copyright",
		"json:\"name\"", "benchmark", "shutdown",
	}
	fileRegexQueries = []string{
		`func \w+Handler`, `TODO|FIXME`, `errors\.(Is|As)\(`, `time\.(Second|Millisecond)`, `^import \(`,
		`http\.Status\w+`, `go func\(\)`, `\bdefer \w+\.Close\(\)`, `fmt\.Errorf\("[^"]*%w`, `[A-Z]{2,}_[A-Z]+`,
		`sync\.(RW)?Mutex`, `@deprecated|Deprecated:`,
	}
)

// readLines returns the non-blank lines of a file, or exits naming flag.
func readLines(flag, name string) []string {
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(os.Stderr, "load: %s: %v\n", flag, err)
		os.Exit(2)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		fmt.Fprintf(os.Stderr, "load: %s: %s has no queries\n", flag, name)
		os.Exit(2)
	}
	return lines
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8765", "lore serve's base URL")
	collection := flag.String("collection", "", "the collection to search")
	pid := flag.Int("pid", 0, "lore serve's process id, to read its RSS (Linux)")
	levels := flag.String("c", "1,10,100", "concurrent clients, comma-separated")
	perRound := flag.Duration("d", 5*time.Second, "duration of one round")
	rounds := flag.Int("rounds", 3, "rounds per front end and concurrency, alternating REST and MCP")
	topK := flag.Int("top_k", 10, "results per search")
	token := flag.String("token", os.Getenv("LORE_AUTH_TOKEN"), "bearer token, if the server needs one")
	frontNames := flag.String("fronts", "rest,search_code_semantic",
		"front ends, comma-separated: rest, search_code_semantic, search_code, list_packages, search (the files search)")
	path := flag.String("path", ".", "search_code's path: the indexed directory, relative to the served root")
	protocol := flag.String("protocol", "", "the MCP protocol version the clients ask for (2025-11-25: one stateful session "+
		"each; 2026-07-28: stateless requests); empty: the SDK's latest")
	clientMode := flag.String("client", "sdk", "how MCP clients speak: sdk (the official Go SDK's client, which decodes "+
		"every result in full) or raw (plain HTTP: initialize, the Mcp-Session-Id header, tools/call, and a decode "+
		"of the answer's id, error and isError only), to spend less of the machine on the clients")
	filesQueries := flag.String("files_queries", "", "the files search front end's queries, one per line, from FILE "+
		"(default: a built-in set of identifiers and phrases)")
	queryFile := flag.String("queries", "", "the ranked search front ends' queries, one per line, from FILE "+
		"(default: a built-in set of 12, asked in turn); give many distinct ones to measure what a cache does for queries it has not seen")
	filesRegex := flag.Bool("files_regex", false, "the files search front end's queries are regular expressions")
	filesLimit := flag.Int("files_limit", 200, "the files search front end's limit")
	verify := flag.String("verify", "", "before the load, call every query of the MCP front ends once on this server "+
		"too (base URL: the same root served another way, e.g. without an index, so by a full scan) and fail unless "+
		"both answer the same structured result (the files tools' meta, which holds a duration, aside)")
	cpuProfile := flag.String("cpuprofile", "", "write the load generator's own CPU profile to FILE")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "load: -cpuprofile: %v\n", err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "load: -cpuprofile: %v\n", err)
			os.Exit(2)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	if *clientMode != "sdk" && *clientMode != "raw" {
		fmt.Fprintf(os.Stderr, "load: -client %q: want sdk or raw\n", *clientMode)
		os.Exit(2)
	}
	if *filesRegex {
		fileQueries = fileRegexQueries
	}
	if *filesQueries != "" {
		fileQueries = readLines("-files_queries", *filesQueries)
	}
	if *queryFile != "" {
		queries = readLines("-queries", *queryFile)
	}
	names := strings.Split(*frontNames, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		switch names[i] {
		case "rest", "search_code_semantic":
			if *collection == "" {
				fmt.Fprintf(os.Stderr, "load: -collection is required for %s\n", names[i])
				os.Exit(2)
			}
		case "search_code", "list_packages", "search":
		default:
			fmt.Fprintf(os.Stderr, "load: -fronts: unknown front end %q\n", names[i])
			os.Exit(2)
		}
	}
	var concurrency []int
	for _, f := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "load: -c %q: want positive integers\n", *levels)
			os.Exit(2)
		}
		concurrency = append(concurrency, n)
	}
	httpClient := &http.Client{Transport: &bearer{token: *token, base: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 0,
		// Answers of tens of kilobytes in a few reads, not one per 4 KB.
		ReadBufferSize: 64 << 10}}}

	if *verify != "" {
		for _, n := range names {
			if n == "rest" {
				continue
			}
			qs := queries
			if n == "search" {
				qs = fileQueries
			}
			args := mcpArgs(n, *collection, *path, *topK, *filesRegex, *filesLimit)
			if err := verifySame(httpClient, *base, *verify, *protocol, n, args, qs); err != nil {
				fmt.Fprintf(os.Stderr, "load: -verify: %v\n", err)
				os.Exit(1)
			}
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "front end\tclients\trequests\terrors\treq/s\tp50 ms\tp95 ms\tp99 ms\tCPU ms/req\tload CPU ms/req\tRSS MiB\tpeak RSS MiB\t")
	for _, c := range concurrency {
		var fronts []*front
		for _, n := range names {
			f := &front{name: n, pid: *pid, queries: queries}
			if n == "rest" {
				f.name = "REST semantic"
				f.clients = restClients(httpClient, *base, *collection, *topK, c)
			} else {
				f.name = "MCP " + n
				if n == "search" {
					f.name = fmt.Sprintf("MCP search (files, regex=%v)", *filesRegex)
					f.queries = fileQueries
				}
				args := mcpArgs(n, *collection, *path, *topK, *filesRegex, *filesLimit)
				if *clientMode == "raw" {
					f.name += " raw"
					f.clients = rawClients(httpClient, *base, *protocol, n, args, c)
				} else {
					f.clients = mcpClients(httpClient, *base, *protocol, n, args, c)
				}
			}
			fronts = append(fronts, f)
		}
		for r := 0; r < *rounds; r++ {
			for _, f := range fronts {
				f.run(*perRound)
			}
		}
		for _, f := range fronts {
			f.close()
			rss, peak := readRSS(*pid)
			lat := slices.Clone(f.latencies)
			slices.Sort(lat)
			cpu, self := "-", "-"
			if n := len(lat) + f.errors; n > 0 {
				if *pid != 0 {
					cpu = fmt.Sprintf("%.3f", float64(f.cpu.Microseconds())/1000/float64(n))
				}
				self = fmt.Sprintf("%.3f", float64(f.selfCPU.Microseconds())/1000/float64(n))
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t\n", f.name, c, len(lat), f.errors,
				float64(len(lat))/f.elapsed.Seconds(), pct(lat, 50), pct(lat, 95), pct(lat, 99), cpu, self, rss, peak)
		}
	}
	tw.Flush()
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average after the run: %s", la)
	}
}

// mcpArgs are the arguments every call of an MCP tool sends; search
// tools vary the query per call.
func mcpArgs(tool, collection, path string, topK int, regex bool, filesLimit int) func(query string) map[string]any {
	switch tool {
	case "search":
		return func(q string) map[string]any { return map[string]any{"query": q, "regex": regex, "limit": filesLimit} }
	case "search_code_semantic":
		return func(q string) map[string]any {
			return map[string]any{"query": q, "collectionName": collection, "top_k": topK}
		}
	case "search_code":
		return func(q string) map[string]any { return map[string]any{"query": q, "path": path, "limit": topK} }
	default:
		return func(string) map[string]any { return map[string]any{} }
	}
}

// client runs one search and reports its error.
type client struct {
	search func(ctx context.Context, query string) error
	close  func()
}

// front is one front end at one concurrency: its clients and what they
// measured over every round.
type front struct {
	name      string
	clients   []client
	latencies []float64 // ms, successful requests
	errors    int
	elapsed   time.Duration
	cpu       time.Duration // the server's CPU time over the rounds
	selfCPU   time.Duration // this process's CPU time over the rounds: the load's own share of the machine
	pid       int
	firstErr  error
	queries   []string // asked in turn
}

// run lets every client search back to back for d.
func (f *front) run(d time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var next atomic.Int64
	cpu0, self0 := readCPU(f.pid), readCPU(os.Getpid())
	start := time.Now()
	for _, c := range f.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []float64
			errors := 0
			for ctx.Err() == nil {
				q := f.queries[int(next.Add(1))%len(f.queries)]
				t0 := time.Now()
				err := c.search(context.Background(), q)
				if err != nil {
					errors++
					mu.Lock()
					if f.firstErr == nil {
						f.firstErr = err
						fmt.Fprintf(os.Stderr, "load: %s: %v\n", f.name, err)
					}
					mu.Unlock()
					continue
				}
				lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
			}
			mu.Lock()
			f.latencies = append(f.latencies, lat...)
			f.errors += errors
			mu.Unlock()
		}()
	}
	wg.Wait()
	f.elapsed += time.Since(start)
	f.cpu += readCPU(f.pid) - cpu0
	f.selfCPU += readCPU(os.Getpid()) - self0
}

func (f *front) close() {
	for _, c := range f.clients {
		c.close()
	}
}

// restClients are n clients of POST /api/v1/collections/{name}/search/semantic.
func restClients(hc *http.Client, base, collection string, topK, n int) []client {
	url := base + "/api/v1/collections/" + collection + "/search/semantic"
	out := make([]client, n)
	for i := range out {
		out[i] = client{
			search: func(ctx context.Context, query string) error {
				body, _ := json.Marshal(map[string]any{"query": query, "top_k": topK})
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := hc.Do(req)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				var answer struct {
					Results []json.RawMessage `json:"results"`
				}
				if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
					return err
				}
				if resp.StatusCode != http.StatusOK || len(answer.Results) == 0 {
					return fmt.Errorf("status %d, %d results", resp.StatusCode, len(answer.Results))
				}
				return nil
			},
			close: func() {},
		}
	}
	return out
}

// mcpClients are n MCP sessions over streamable HTTP, each calling tool
// with the arguments args makes of the query.
func mcpClients(hc *http.Client, base, protocol, tool string, args func(query string) map[string]any, n int) []client {
	out := make([]client, n)
	for i := range out {
		c := sdk.NewClient(&sdk.Implementation{Name: "lore-load", Version: "0"}, nil)
		cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc},
			&sdk.ClientSessionOptions{ProtocolVersion: protocol})
		if err != nil {
			fmt.Fprintf(os.Stderr, "load: connecting MCP client %d: %v\n", i, err)
			os.Exit(1)
		}
		out[i] = client{
			search: func(ctx context.Context, query string) error {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args(query)})
				if err != nil {
					return err
				}
				if res.IsError {
					return fmt.Errorf("tool error: %v", res.Content)
				}
				return nil
			},
			close: func() { cs.Close() },
		}
	}
	return out
}

// pct is the p-th percentile of sorted values (nearest rank).
func pct(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// readCPU reads a process's CPU time, user plus system (Linux); 0 when
// unknown.
func readCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, field 2, may hold spaces: count from its ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times:
// 100 on every Linux architecture Go supports.
const clockTicks = 100

// readRSS reads a process's resident and peak resident memory in MiB.
func readRSS(pid int) (rss, peak string) {
	if pid == 0 {
		return "-", "-"
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?", "?"
	}
	rss, peak = "?", "?"
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(fields[1], 64)
		switch fields[0] {
		case "VmRSS:":
			rss = fmt.Sprintf("%.0f", kb/1024)
		case "VmHWM:":
			peak = fmt.Sprintf("%.0f", kb/1024)
		}
	}
	return rss, peak
}

// bearer adds the bearer token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.base.RoundTrip(r)
}

// rawClients are n MCP clients over streamable HTTP that speak the
// protocol with plain HTTP requests instead of the SDK: a session's
// initialize (its Mcp-Session-Id kept) and notifications/initialized, or
// none for a stateless protocol version, then one tools/call POST per
// search, whose answer (JSON or one SSE message) is checked for the
// request's id, no JSON-RPC error and no isError, without decoding the
// result's content. The load then costs the machine little beside the
// server.
func rawClients(hc *http.Client, base, protocol, tool string, args func(query string) map[string]any, n int) []client {
	if protocol == "" {
		protocol = "2025-11-25"
	}
	stateless := protocol >= "2026-07-28"
	out := make([]client, n)
	for i := range out {
		rc := &rawClient{hc: hc, url: base + "/mcp", protocol: protocol}
		if !stateless {
			if err := rc.initialize(); err != nil {
				fmt.Fprintf(os.Stderr, "load: connecting raw MCP client %d: %v\n", i, err)
				os.Exit(1)
			}
		}
		out[i] = client{
			search: func(ctx context.Context, query string) error {
				return rc.callTool(ctx, tool, args(query))
			},
			close: rc.close,
		}
	}
	return out
}

// rawClient is one MCP session spoken over plain HTTP.
type rawClient struct {
	hc       *http.Client
	url      string
	protocol string
	session  string // Mcp-Session-Id; "" when stateless
	nextID   int
	buf      bytes.Buffer // the last answer read
}

// rpcAnswer is what a raw client reads of a JSON-RPC response.
type rpcAnswer struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result struct {
		IsError         bool   `json:"isError"`
		ProtocolVersion string `json:"protocolVersion"`
		// Content counts the content items without copying them: the
		// text of a search_code answer is tens of kilobytes.
		Content []struct{} `json:"content"`
	} `json:"result"`
	raw []byte // the message, valid until the client's next request
}

// post sends one JSON-RPC message and returns the HTTP response.
func (rc *rawClient) post(ctx context.Context, msg any) (*http.Response, error) {
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rc.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", rc.protocol)
	if rc.session != "" {
		req.Header.Set("Mcp-Session-Id", rc.session)
	}
	if rc.protocol >= "2026-07-28" {
		// Stateless requests name their method (and tool) in headers too.
		var head struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &head) == nil && head.Method != "" {
			req.Header.Set("Mcp-Method", head.Method)
			if head.Method == "tools/call" {
				req.Header.Set("Mcp-Name", head.Params.Name)
			}
		}
	}
	return rc.hc.Do(req)
}

// request sends a request and reads its answer: the body as JSON, or the
// first SSE event's data.
func (rc *rawClient) request(ctx context.Context, method string, params any) (*http.Response, *rpcAnswer, error) {
	rc.nextID++
	id := rc.nextID
	resp, err := rc.post(ctx, map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	// One buffer per client, read into again and again: the answers are
	// tens of kilobytes and the load generator shares the machine with
	// the server it measures.
	rc.buf.Reset()
	if _, err := rc.buf.ReadFrom(resp.Body); err != nil {
		return nil, nil, err
	}
	data := rc.buf.Bytes()
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("%s: HTTP %d: %.200s", method, resp.StatusCode, data)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		if data, err = sseData(data); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", method, err)
		}
	}
	// segmentio's decoder validates the whole message as encoding/json
	// does, in one pass instead of two (about a tenth of the CPU on a
	// 48 KB answer).
	ans := rpcAnswer{raw: data}
	if err := segjson.Unmarshal(data, &ans); err != nil {
		return nil, nil, fmt.Errorf("%s: the answer is not JSON-RPC: %w", method, err)
	}
	if string(ans.ID) != strconv.Itoa(id) {
		return nil, nil, fmt.Errorf("%s: answer id %s, want %d", method, ans.ID, id)
	}
	if ans.Error != nil {
		return nil, nil, fmt.Errorf("%s: JSON-RPC error %d: %s", method, ans.Error.Code, ans.Error.Message)
	}
	return resp, &ans, nil
}

// sseData is the data of the first SSE event that has any: the answer
// to a POST is one message event.
func sseData(stream []byte) ([]byte, error) {
	var data []byte
	copied := false // data is its own copy once a second line joined it
	for line := range bytes.SplitSeq(stream, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(line) == 0:
			if data != nil {
				return data, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			switch {
			case data == nil:
				data = d[:len(d):len(d)] // the one line of most events, not copied
			case !copied:
				data, copied = append(append(append([]byte{}, data...), '\n'), d...), true
			default:
				data = append(append(data, '\n'), d...)
			}
		}
	}
	if data == nil {
		return nil, fmt.Errorf("an event stream without data")
	}
	return data, nil
}

// initialize opens the session: initialize, then notifications/initialized.
func (rc *rawClient) initialize() error {
	ctx := context.Background()
	resp, ans, err := rc.request(ctx, "initialize", map[string]any{
		"protocolVersion": rc.protocol, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "lore-load-raw", "version": "0"},
	})
	if err != nil {
		return err
	}
	if ans.Result.ProtocolVersion != rc.protocol {
		return fmt.Errorf("the server chose protocol %q, not %q", ans.Result.ProtocolVersion, rc.protocol)
	}
	rc.session = resp.Header.Get("Mcp-Session-Id")
	if rc.session == "" {
		return fmt.Errorf("initialize: no Mcp-Session-Id header")
	}
	nresp, err := rc.post(ctx, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	if err != nil {
		return err
	}
	io.Copy(io.Discard, nresp.Body)
	nresp.Body.Close()
	if nresp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("notifications/initialized: HTTP %d, want 202", nresp.StatusCode)
	}
	return nil
}

// callParams are tools/call's params; a stateless request (no session)
// carries the protocol version, client info and capabilities in _meta.
func (rc *rawClient) callParams(tool string, args map[string]any) map[string]any {
	params := map[string]any{"name": tool, "arguments": args}
	if rc.session == "" {
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    rc.protocol,
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "lore-load-raw", "version": "0"},
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		}
	}
	return params
}

// callTool calls a tool and checks that it succeeded.
func (rc *rawClient) callTool(ctx context.Context, tool string, args map[string]any) error {
	_, ans, err := rc.request(ctx, "tools/call", rc.callParams(tool, args))
	if err != nil {
		return err
	}
	if ans.Result.IsError {
		var failed struct {
			Result struct {
				Content json.RawMessage `json:"content"`
			} `json:"result"`
		}
		json.Unmarshal(ans.raw, &failed)
		return fmt.Errorf("tool error: %.300s", failed.Result.Content)
	}
	if len(ans.Result.Content) == 0 {
		return fmt.Errorf("tools/call: a result without content")
	}
	return nil
}

// close ends the session (DELETE with its Mcp-Session-Id).
func (rc *rawClient) close() {
	if rc.session == "" {
		return
	}
	req, err := http.NewRequest(http.MethodDelete, rc.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", rc.session)
	req.Header.Set("Mcp-Protocol-Version", rc.protocol)
	if resp, err := rc.hc.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// verifySame calls tool with every query on two servers and compares the
// structured results, which must be equal byte for byte once decoded (a
// files tool's meta, which holds the duration, aside). It prints one line
// per query with the number of matches and each server's time.
func verifySame(hc *http.Client, baseA, baseB, protocol, tool string, args func(string) map[string]any, qs []string) error {
	a := &rawClient{hc: hc, url: baseA + "/mcp", protocol: protocolOr(protocol)}
	b := &rawClient{hc: hc, url: baseB + "/mcp", protocol: protocolOr(protocol)}
	for _, rc := range []*rawClient{a, b} {
		if rc.protocol < "2026-07-28" {
			if err := rc.initialize(); err != nil {
				return fmt.Errorf("%s: %w", rc.url, err)
			}
			defer rc.close()
		}
	}
	for _, q := range qs {
		var got [2]string
		var took [2]time.Duration
		var count int
		for i, rc := range []*rawClient{a, b} {
			t0 := time.Now()
			structured, err := rc.callToolStructured(context.Background(), tool, args(q))
			took[i] = time.Since(t0)
			if err != nil {
				return fmt.Errorf("%s %q on %s: %w", tool, q, rc.url, err)
			}
			var v map[string]any
			if err := json.Unmarshal(structured, &v); err != nil {
				return fmt.Errorf("%s %q on %s: structured content: %w", tool, q, rc.url, err)
			}
			if m, ok := v["meta"].(map[string]any); ok {
				delete(m, "duration_ms")
			}
			if r, ok := v["result"].(map[string]any); ok {
				if ms, ok := r["matches"].([]any); ok {
					count = len(ms)
				}
			}
			norm, _ := json.Marshal(v)
			got[i] = string(norm)
		}
		if got[0] != got[1] {
			return fmt.Errorf("%s %q: the servers disagree:\n%s: %.2000s\n%s: %.2000s", tool, q, baseA, got[0], baseB, got[1])
		}
		fmt.Printf("verified %s %q: %d matches, identical (%.1f ms vs %.1f ms)\n", tool, q, count,
			float64(took[0].Microseconds())/1000, float64(took[1].Microseconds())/1000)
	}
	return nil
}

func protocolOr(p string) string {
	if p == "" {
		return "2025-11-25"
	}
	return p
}

// callToolStructured calls a tool and returns its structured content.
func (rc *rawClient) callToolStructured(ctx context.Context, tool string, args map[string]any) (json.RawMessage, error) {
	rc.nextID++
	id := rc.nextID
	resp, err := rc.post(ctx, map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": rc.callParams(tool, args)})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, data)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		if data, err = sseData(data); err != nil {
			return nil, err
		}
	}
	var ans struct {
		Error  json.RawMessage `json:"error"`
		Result struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, err
	}
	if ans.Error != nil || ans.Result.IsError {
		return nil, fmt.Errorf("failed: %.500s", data)
	}
	return ans.Result.StructuredContent, nil
}
