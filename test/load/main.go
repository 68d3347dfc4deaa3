// Command load measures a running lore serve --http under concurrent
// clients: the REST API's semantic search and the same search through
// MCP at /mcp (search_code_semantic, one MCP session per client), side by
// side in one run, rounds alternating so that the machine's load touches
// both alike. It prints, per front end and concurrency, the requests
// served, errors, throughput, p50/p95/p99 latency, and the server's RSS.
//
//	lore index --collection tokio ~/src/tokio
//	lore serve --http 127.0.0.1:8765 &
//	go run ./test/load -url http://127.0.0.1:8765 -collection tokio -pid $!
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// queries are what the clients ask, in turn: questions a developer asks
// of a codebase, none tuned to one.
var queries = []string{
	"spawn a background task", "read bytes from a TCP stream", "timeout for a future", "graceful shutdown signal",
	"channel send and receive", "mutex lock guard", "parse configuration options", "error handling and retries",
	"buffered writer flush", "schedule work on a thread pool", "interval timer tick", "cancel a running operation",
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
	flag.Parse()
	if *collection == "" {
		fmt.Fprintln(os.Stderr, "load: -collection is required")
		os.Exit(2)
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
	httpClient := &http.Client{Transport: &bearer{token: *token, base: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 0}}}

	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "front end\tclients\trequests\terrors\treq/s\tp50 ms\tp95 ms\tp99 ms\tRSS MiB\tpeak RSS MiB\t")
	for _, c := range concurrency {
		fronts := []*front{
			{name: "REST", clients: restClients(httpClient, *base, *collection, *topK, c)},
			{name: "MCP", clients: mcpClients(httpClient, *base, *collection, *topK, c)},
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
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%s\t%s\t\n", f.name, c, len(lat), f.errors,
				float64(len(lat))/f.elapsed.Seconds(), pct(lat, 50), pct(lat, 95), pct(lat, 99), rss, peak)
		}
	}
	tw.Flush()
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
	firstErr  error
}

// run lets every client search back to back for d.
func (f *front) run(d time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var next atomic.Int64
	start := time.Now()
	for _, c := range f.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []float64
			errors := 0
			for ctx.Err() == nil {
				q := queries[int(next.Add(1))%len(queries)]
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

// mcpClients are n MCP sessions over streamable HTTP, each calling
// search_code_semantic.
func mcpClients(hc *http.Client, base, collection string, topK, n int) []client {
	out := make([]client, n)
	for i := range out {
		c := sdk.NewClient(&sdk.Implementation{Name: "lore-load", Version: "0"}, nil)
		cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, nil)
		if err != nil {
			fmt.Fprintf(os.Stderr, "load: connecting MCP client %d: %v\n", i, err)
			os.Exit(1)
		}
		out[i] = client{
			search: func(ctx context.Context, query string) error {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_code_semantic",
					Arguments: map[string]any{"query": query, "collectionName": collection, "top_k": topK}})
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
