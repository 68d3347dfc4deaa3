// Package httpapi runs lore's HTTP server: the MCP streamable HTTP
// endpoint at /mcp (and the REST API as it lands), bound to loopback unless
// told otherwise, guarded against cross-origin and DNS-rebinding requests,
// and shut down gracefully.
package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EnvAllowedOrigins lists extra browser origins allowed to call the
// server, comma-separated (e.g. https://app.example.com). Loopback origins
// are always allowed.
const EnvAllowedOrigins = "LORE_ALLOWED_ORIGINS"

// shutdownGrace is how long open requests (SSE streams) get to finish.
const shutdownGrace = 5 * time.Second

// Options configures Serve.
type Options struct {
	Addr           string                 // "8080", ":8080" (both bind 127.0.0.1), "127.0.0.1:8080", "0.0.0.0:8080"
	MCP            http.Handler           // served at /mcp
	AllowedOrigins []string               // browser origins allowed besides loopback ones
	Logger         *slog.Logger           // nil discards
	Ready          func(listening string) // called with the base URL once listening
}

// ListenAddr normalizes an --http value: a bare port, or ":port", binds
// 127.0.0.1, so that lore is not reachable from the network unless a host
// is named.
func ListenAddr(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return "", errors.New("--http needs an address: PORT, :PORT or HOST:PORT")
	}
	if _, err := strconv.ParseUint(addr, 10, 16); err == nil {
		return net.JoinHostPort("127.0.0.1", addr), nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: %v (want PORT, :PORT or HOST:PORT)", addr, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("--http %q: port %q is not a number from 0 to 65535", addr, port)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// Handler is the HTTP API: /mcp, behind the origin check.
func Handler(opts Options) http.Handler {
	mux := http.NewServeMux()
	if opts.MCP != nil {
		mux.Handle("/mcp", opts.MCP)
	}
	return CheckOrigin(opts.AllowedOrigins, mux)
}

// Serve listens on opts.Addr and serves Handler(opts) until ctx ends, then
// shuts down gracefully.
func Serve(ctx context.Context, opts Options) error {
	addr, err := ListenAddr(opts.Addr)
	if err != nil {
		return err
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           Handler(opts),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	if opts.Ready != nil {
		opts.Ready("http://" + ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving HTTP on %s: %w", addr, err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Streams still open after the grace period are cut.
		srv.Close()
	}
	<-done
	return nil
}

// CheckOrigin refuses browser requests from other origins, as the MCP
// streamable HTTP transport requires (against DNS rebinding): a request
// with an Origin header is served only when that origin is a loopback one
// (http(s)://localhost, 127.0.0.0/8, [::1], any port) or listed in allowed.
// Requests without Origin (non-browser clients) pass. A refusal is 403 with
// a JSON-RPC error body without id.
func CheckOrigin(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || originAllowed(origin, allowed) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		json.NewEncoder(w).Encode(map[string]any{
			"jsonrpc": "2.0",
			"error":   map[string]any{"code": -32600, "message": fmt.Sprintf("Forbidden: origin %q is not allowed", origin)},
		})
	})
}

func originAllowed(origin string, allowed []string) bool {
	if slices.Contains(allowed, strings.TrimRight(origin, "/")) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // includes the opaque origin "null"
	}
	return isLoopbackHost(u.Hostname())
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ParseOrigins splits a LORE_ALLOWED_ORIGINS value.
func ParseOrigins(value string) []string {
	var out []string
	for _, o := range strings.Split(value, ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o != "" {
			out = append(out, o)
		}
	}
	return out
}
