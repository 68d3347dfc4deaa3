package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/app"
)

// serveQueries are what the benchmark's search clients ask, in turn
// (test/load asks the same).
var serveQueries = []string{
	"spawn a background task", "read bytes from a TCP stream", "timeout for a future", "graceful shutdown signal",
	"channel send and receive", "mutex lock guard", "parse configuration options", "error handling and retries",
	"buffered writer flush", "schedule work on a thread pool", "interval timer tick", "cancel a running operation",
}

// serveBenchTree is a small generated repository for BenchmarkServeHTTP
// when LORE_BENCH_ROOT names none: Go and Rust files, two Cargo crates
// and a Go module.
func serveBenchTree() map[string]string {
	files := map[string]string{
		"go.mod":           "module example.com/bench\n\ngo 1.22\n",
		"Cargo.toml":       "[workspace]\nmembers = [\"rt\", \"io\"]\n",
		"rt/Cargo.toml":    "[package]\nname = \"rt\"\nversion = \"0.1.0\"\ndescription = \"a task scheduler\"\n\n[dependencies]\nio = { path = \"../io\" }\n",
		"io/Cargo.toml":    "[package]\nname = \"io\"\nversion = \"0.1.0\"\ndescription = \"buffered streams\"\n",
		"README.md":        "# bench\n\nA generated repository: tasks, streams, timers and channels.\n",
		"docs/overview.md": "# Overview\n\n## Tasks\n\nSpawn a background task on the thread pool.\n\n## Shutdown\n\nA graceful shutdown signal cancels every running operation.\n",
	}
	words := []string{"task", "stream", "timer", "channel", "mutex", "config", "retry", "writer", "pool", "signal", "future", "buffer"}
	for i := range 240 {
		w, v := words[i%len(words)], words[(i/len(words))%len(words)]
		files[fmt.Sprintf("pkg/%s/%s_%d.go", w, v, i)] = fmt.Sprintf(`package %s

// %s%d handles the %s of a %s: it reads bytes, waits for a timeout and
// retries on error.
func %s%d(n int) (int, error) {
	total := 0
	for i := 0; i < n; i++ {
		total += i * %d
	}
	return total, nil
}

// %sGuard%d holds the lock of a %s while a %s runs.
type %sGuard%d struct{ held bool }

// Release drops the lock.
func (g *%sGuard%d) Release() { g.held = false }
`, w, v, i, v, w, v, i, i, w, i, w, v, w, i, w, i)
		files[fmt.Sprintf("%s/src/%s_%d.rs", []string{"rt", "io"}[i%2], w, i)] = fmt.Sprintf(`/// Spawns a %s that sends on a %s and flushes the buffered writer.
pub fn spawn_%s_%d(interval: u64) -> u64 {
    let mut tick = 0;
    while tick < interval {
        tick += %d;
    }
    tick
}

/// Cancels a running %s.
pub fn cancel_%s_%d() {}
`, w, v, w, i, i%7+1, w, w, i)
	}
	return files
}

// BenchmarkServeHTTP measures lore's MCP streamable HTTP endpoint under
// concurrent clients: each client is one session of the official SDK over
// a real HTTP connection to an httptest server, calling search_code (the
// queries of serveQueries in turn) or list_packages back to back; the
// benchmark's N calls are shared among the clients. It reports requests
// per second and p50/p99 latency. The repository is LORE_BENCH_ROOT when
// set (e.g. LORE_BENCH_ROOT=~/bench/tokio), else a small generated one.
// Profile with -cpuprofile:
//
//	LORE_BENCH_ROOT=~/bench/tokio go test ./internal/mcp -run '^$' \
//		-bench ServeHTTP -benchtime 3000x -cpuprofile /tmp/serve.pprof
func BenchmarkServeHTTP(b *testing.B) {
	var e *env
	if root := os.Getenv("LORE_BENCH_ROOT"); root != "" {
		real, err := filepath.EvalSymlinks(root)
		if err != nil {
			b.Fatal(err)
		}
		e = &env{root: real, cache: b.TempDir(), log: &syncBuffer{}}
	} else {
		e = newEnv(b, serveBenchTree())
	}
	s := e.server(b, nil)
	if _, err := s.opts.App.Index(context.Background(), app.IndexRequest{Root: e.root}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s.HTTPHandler())
	b.Cleanup(srv.Close)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	b.Cleanup(hc.CloseIdleConnections)

	tools := []struct {
		name string
		args func(i int) map[string]any
	}{
		{"search_code", func(i int) map[string]any {
			return map[string]any{"query": serveQueries[i%len(serveQueries)], "limit": 10}
		}},
		{"list_packages", func(int) map[string]any { return map[string]any{} }},
	}
	for _, tl := range tools {
		for _, clients := range []int{1, 10, 100} {
			b.Run(fmt.Sprintf("%s/clients=%d", tl.name, clients), func(b *testing.B) {
				sessions := make([]*sdk.ClientSession, clients)
				for i := range sessions {
					c := sdk.NewClient(&sdk.Implementation{Name: "lore-bench", Version: "0"}, nil)
					cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: hc}, nil)
					if err != nil {
						b.Fatal(err)
					}
					sessions[i] = cs
				}
				defer func() {
					for _, cs := range sessions {
						cs.Close()
					}
				}()
				// One call each first: sessions and the index are warm.
				for i, cs := range sessions {
					serveCall(b, cs, tl.name, tl.args(i))
				}
				var next atomic.Int64
				var mu sync.Mutex
				var all []time.Duration
				var wg sync.WaitGroup
				n := int64(b.N)
				b.ResetTimer()
				start := time.Now()
				for _, cs := range sessions {
					wg.Add(1)
					go func() {
						defer wg.Done()
						var mine []time.Duration
						for {
							i := next.Add(1) - 1
							if i >= n {
								break
							}
							t0 := time.Now()
							serveCall(b, cs, tl.name, tl.args(int(i)))
							mine = append(mine, time.Since(t0))
						}
						mu.Lock()
						all = append(all, mine...)
						mu.Unlock()
					}()
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
				b.ReportMetric(percentile(all, 50), "p50-ms")
				b.ReportMetric(percentile(all, 99), "p99-ms")
			})
		}
	}
}

// serveCall calls a tool and fails the benchmark on any error.
func serveCall(b *testing.B, cs *sdk.ClientSession, name string, args map[string]any) {
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		b.Error(err)
		return
	}
	if res.IsError {
		b.Errorf("%s: %s", name, textOf(res))
	}
}
