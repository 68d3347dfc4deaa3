package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// oneShotMemoryLimit is the heap size at which a one-shot query collects
// garbage after all: far above what querying even a large index needs (a
// 100k-chunk snapshot is a few tens of MB), low enough that a runaway
// never takes the machine.
const oneShotMemoryLimit = 1 << 30

// tuneForOneShot sets the Go runtime up for a command that loads an index,
// answers one query on one goroutine and exits, and returns what to call
// once the index is loaded and the query starts.
//
// The process runs on one core: there is nothing to run in parallel, and
// on a busy 2-core machine the collector's workers and the query hopping
// between cores doubled a query's p95. Collection runs as usual while the
// snapshot loads, so the load's garbage is recycled instead of every
// allocation faulting in a fresh page (on the shared VMs lore is measured
// on, a page fault costs about 11 µs); then it stops, so no cycle starts
// in the middle of the query. Measured over the dev-set queries against
// the default runtime: took_ms p50 1.63 -> 1.30 ms, p95 4.5 -> 2.1 ms, and
// wall time 32.7 -> 31.1 ms. GOGC, GOMEMLIMIT or GOMAXPROCS in the
// environment switch this off.
func tuneForOneShot() (queryStarts func()) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT", "GOMAXPROCS"} {
		if os.Getenv(v) != "" {
			return func() {}
		}
	}
	runtime.GOMAXPROCS(1)
	return func() {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(oneShotMemoryLimit)
	}
}

// serveGCPercent is lore serve's GOGC. A server's requests allocate
// their answers (tens of KB of JSON each, encoded several times by the
// MCP SDK) over a live heap that is mostly the loaded index, so at the
// default of 100 the collector ran often and took a large share of each
// request's CPU. Measured with test/load, 100 MCP clients on tokio, one
// run each on the shared 2-core machine: server CPU per request
// search_code 4.9 -> 2.4 ms, list_packages 0.68 -> 0.37 ms, REST
// semantic search 2.5 -> 1.3 ms (GOGC 100 -> 400). The price is a heap
// up to five times the live one between collections.
const serveGCPercent = 400

// tuneForServe sets the Go runtime up for lore serve; GOGC or GOMEMLIMIT
// in the environment switch this off.
func tuneForServe() {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if os.Getenv(v) != "" {
			return
		}
	}
	debug.SetGCPercent(serveGCPercent)
}
