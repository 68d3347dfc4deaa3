package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"time"
)

// envPprof names the opt-in profiling endpoint of lore serve: when set to
// a loopback HOST:PORT (127.0.0.1:6060), lore serve also serves Go's
// pprof handlers there, under /debug/pprof/, on a listener of their own
// (never the API's). Unset, nothing is served; a host that is not a
// loopback address is refused: profiles show what the process reads.
const envPprof = "LORE_PPROF_ADDR"

// pprofListener opens the profiling listener of addr, which must be a
// loopback IP address and a port.
func pprofListener(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%s=%q: %v (want a loopback HOST:PORT, e.g. 127.0.0.1:6060)", envPprof, addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("%s=%q: profiles are served on a loopback address only (127.0.0.1 or ::1)", envPprof, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", envPprof, err)
	}
	return ln, nil
}

// Sampling rates of the contention profiles, on only with the profiling
// endpoint: one mutex contention event in mutexProfileFraction, and
// blocking events of about blockProfileRate nanoseconds or more.
const (
	mutexProfileFraction = 5
	blockProfileRate     = 10_000
)

// servePprof serves the pprof handlers on ln until ctx ends, with the
// mutex and block profiles (/debug/pprof/mutex, /debug/pprof/block)
// sampling, so that lock contention under load can be seen.
func servePprof(ctx context.Context, ln net.Listener, logger *slog.Logger) {
	runtime.SetMutexProfileFraction(mutexProfileFraction)
	runtime.SetBlockProfileRate(blockProfileRate)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	logger.Info("serving profiles", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Warn("the profiling endpoint stopped", "error", err.Error())
	}
}
