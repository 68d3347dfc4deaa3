// Package httpapi runs lore's HTTP server: the MCP streamable HTTP
// endpoint at /mcp (and the REST API as it lands), bound to loopback unless
// told otherwise, guarded against cross-origin and DNS-rebinding requests,
// behind a bearer token when it listens beyond loopback, bounded in time and
// connections, and shut down gracefully.
package httpapi

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// EnvAllowedOrigins lists extra browser origins allowed to call the
// server, comma-separated (e.g. https://app.example.com). Loopback origins
// are always allowed.
const EnvAllowedOrigins = "LORE_ALLOWED_ORIGINS"

// EnvAuthToken holds the bearer token HTTP clients must send
// (Authorization: Bearer <token>). It is required when the server listens
// on a non-loopback address; on loopback it is optional and, when set,
// enforced all the same.
const EnvAuthToken = "LORE_AUTH_TOKEN"

// Defaults of the Options limits.
const (
	// DefaultReadHeaderTimeout bounds reading a request's headers.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout bounds reading a whole request, body included (a
	// client trickling a body is cut off). It does not limit responses:
	// SSE streams last as long as they need.
	DefaultReadTimeout = 30 * time.Second
	// DefaultIdleTimeout closes keep-alive connections idle between
	// requests for this long.
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultMaxConns caps the connections served at once; further ones
	// wait in the accept queue until one closes (at the cap, open ones
	// close once their response is written, or once idle a while: see
	// limitListener).
	DefaultMaxConns = 256
)

// DefaultShutdownGrace is how long in-flight requests get to finish once
// a shutdown begins, unless Options.ShutdownGrace says otherwise.
const DefaultShutdownGrace = 30 * time.Second

// ErrTokenRequired is returned by Serve when the address is not loopback
// and no AuthToken is set.
var ErrTokenRequired = errors.New("a bearer token is required")

// Options configures Serve.
type Options struct {
	Addr           string                 // "8080", ":8080" (both bind 127.0.0.1), "127.0.0.1:8080", "0.0.0.0:8080"
	MCP            http.Handler           // served at /mcp
	API            http.Handler           // the REST API, served under /api/ (see NewAPI)
	Health         http.Handler           // /healthz and /readyz (see Health); no token needed
	AllowedOrigins []string               // browser origins allowed besides loopback ones
	Logger         *slog.Logger           // nil discards
	Ready          func(listening string) // called with the base URL once listening

	// AuthToken, when set, is the bearer token every request must carry
	// (Authorization: Bearer <token>); others get 401. Serve refuses to
	// listen on a non-loopback address without one. It is never logged.
	AuthToken string
	// AllowedHosts lists Host header values accepted besides the defaults
	// (localhost names, loopback addresses and the bound address; bound to
	// 0.0.0.0 or [::], every address of the machine): a name or address
	// matches any port, "name:port" only that port.
	AllowedHosts []string

	ReadHeaderTimeout time.Duration // 0: DefaultReadHeaderTimeout
	ReadTimeout       time.Duration // 0: DefaultReadTimeout
	IdleTimeout       time.Duration // 0: DefaultIdleTimeout
	MaxConns          int           // 0: DefaultMaxConns; negative: no limit

	// ShutdownGrace is how long in-flight requests get to finish when ctx
	// ends; 0 means DefaultShutdownGrace. Requests still open then are
	// cut.
	ShutdownGrace time.Duration
	// OnShutdown, if set, is called once when a shutdown begins, beside
	// the in-flight requests finishing, with a context that ends with the
	// grace period: cancel background work, close long-lived sessions
	// (MCP's GET streams would otherwise hold the shutdown to its end).
	OnShutdown func(ctx context.Context)
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

// Handler is the HTTP API: /mcp, behind the Host check, the bearer token
// (when opts.AuthToken is set) and the Origin check, in that order. The
// Host allow-list is opts.AllowedHosts plus the host of opts.Addr and the
// localhost names.
func Handler(opts Options) http.Handler {
	hosts := slices.Clone(opts.AllowedHosts)
	if addr, err := ListenAddr(opts.Addr); err == nil {
		host, _, _ := net.SplitHostPort(addr)
		hosts = append(hosts, host)
	}
	return handler(opts, hosts)
}

func handler(opts Options, hosts []string) http.Handler {
	guarded := http.NewServeMux()
	if opts.MCP != nil {
		guarded.Handle("/mcp", opts.MCP)
	}
	if opts.API != nil {
		guarded.Handle("/api/", opts.API)
	}
	h := CheckOrigin(opts.AllowedOrigins, guarded)
	if opts.AuthToken != "" {
		h = RequireBearer(opts.AuthToken, h)
	}
	outer := http.NewServeMux()
	outer.Handle("/", h)
	if opts.Health != nil {
		// Probes (a load balancer, Kubernetes) carry no token; they learn
		// only whether lore is alive and ready.
		outer.Handle("/healthz", opts.Health)
		outer.Handle("/readyz", opts.Health)
	}
	return CheckHost(hosts, outer)
}

// Serve listens on opts.Addr and serves Handler(opts) until ctx ends, then
// shuts down gracefully. It refuses (ErrTokenRequired) to listen on a
// non-loopback address without opts.AuthToken.
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
	bound, _ := ln.Addr().(*net.TCPAddr)
	if opts.AuthToken == "" && (bound == nil || !bound.IP.IsLoopback()) {
		ln.Close()
		return fmt.Errorf("--http %s listens beyond this machine (not a loopback address), so clients must authenticate: "+
			"set %s or pass --auth-token-file FILE with a long random token (openssl rand -hex 32 makes one), "+
			"or bind 127.0.0.1: %w", opts.Addr, EnvAuthToken, ErrTokenRequired)
	}
	host, _, _ := net.SplitHostPort(addr)
	hosts := append(slices.Clone(opts.AllowedHosts), host)
	if bound != nil {
		hosts = append(hosts, bound.IP.String())
		if bound.IP.IsUnspecified() {
			// Bound to every address: each of them is "the bound address".
			hosts = append(hosts, interfaceIPs()...)
		}
	}
	var limited *limitedListener
	if max := cmpOr(opts.MaxConns, DefaultMaxConns); max > 0 {
		limited = limitListener(ln, max)
		ln = limited
	}
	h := handler(opts, hosts)
	if limited != nil {
		h = limited.yieldWhenFull(h)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: cmpOr(opts.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       cmpOr(opts.ReadTimeout, DefaultReadTimeout),
		IdleTimeout:       cmpOr(opts.IdleTimeout, DefaultIdleTimeout),
		// No WriteTimeout: SSE streams (long tool calls, GET streams) last
		// as long as they need.
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	if limited != nil {
		srv.ConnState = limited.connState
	}
	logger.Info("serving HTTP", "addr", ln.Addr().String(), "bearer_token", opts.AuthToken != "",
		"allowed_hosts", strings.Join(append([]string{"localhost"}, hosts...), ","))
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
	grace := cmpOr(opts.ShutdownGrace, DefaultShutdownGrace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	hooks := make(chan struct{})
	// Shutdown runs this once the listener is closed.
	srv.RegisterOnShutdown(func() {
		defer close(hooks)
		logger.Info("shutting down: no new connections; requests in flight get the grace period to finish", "grace", grace.String())
		if opts.OnShutdown != nil {
			opts.OnShutdown(shutdownCtx)
		}
	})
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Requests still open after the grace period are cut.
		logger.Warn("grace period over: closing the connections still open", "grace", grace.String())
		srv.Close()
	}
	<-hooks
	<-done
	return nil
}

// interfaceIPs lists the IP addresses of this machine's network
// interfaces. An address typed as the Host (http://192.168.1.5:8765) is
// no DNS-rebinding vector: that needs a name.
func interfaceIPs() []string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range addrs {
		if ipnet, ok := a.(*net.IPNet); ok {
			out = append(out, ipnet.IP.String())
		}
	}
	return out
}

// cmpOr is v, or def when v is zero.
func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// writeRPCError answers a request refused before it reaches MCP: the HTTP
// status says why, the body is a JSON-RPC error without id (code -32600,
// Invalid Request), which MCP clients know how to read.
func writeRPCError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": -32600, "message": message},
	})
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
		writeRPCError(w, http.StatusForbidden, fmt.Sprintf("Forbidden: origin %q is not allowed", origin))
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

// CheckHost refuses requests whose Host header is not allowed, on every
// connection (loopback or not), against DNS rebinding: a page on
// attacker.example whose name is made to resolve to this server sends
// Host: attacker.example. Allowed are localhost names (localhost,
// *.localhost), loopback addresses, and the entries of allowed: a bare
// name or address matches it on any port, "name:port" only on that port
// (case-insensitive). A refusal is 403 with a JSON-RPC error body.
func CheckHost(allowed []string, next http.Handler) http.Handler {
	names := map[string]bool{}
	for _, a := range allowed {
		if a = normalizeHost(a); a != "" {
			names[a] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, port := splitHost(r.Host)
		if host != "" && (isLoopbackHost(host) || names[host] || (port != "" && names[net.JoinHostPort(host, port)])) {
			next.ServeHTTP(w, r)
			return
		}
		writeRPCError(w, http.StatusForbidden, fmt.Sprintf(
			"Forbidden: Host %q is not allowed (start lore serve with --allowed-host NAME to accept it)", r.Host))
	})
}

// splitHost splits a Host header into a lower-case name (IPv6 without
// brackets, no trailing dot) and its port, "" when absent.
func splitHost(hostport string) (host, port string) {
	hostport = strings.ToLower(strings.TrimSpace(hostport))
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, p
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
	}
	return strings.TrimSuffix(host, "."), port
}

// normalizeHost is an --allowed-host entry in the form CheckHost compares:
// "name" or "name:port" (JoinHostPort form), lower-case.
func normalizeHost(entry string) string {
	host, port := splitHost(entry)
	if host == "" {
		return ""
	}
	if port != "" {
		return net.JoinHostPort(host, port)
	}
	return host
}

// RequireBearer serves only requests carrying Authorization: Bearer
// <token>. The comparison is constant-time (over SHA-256 digests, so the
// token's length does not leak either). A refusal is 401 with
// WWW-Authenticate: Bearer (error="invalid_token" when a wrong token was
// sent) and a JSON-RPC error body. The header is removed before the
// request goes on, so the token never reaches handlers or their logs.
func RequireBearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, sent := bearerToken(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 || !sent {
			challenge := `Bearer realm="lore"`
			message := "Unauthorized: this server needs Authorization: Bearer <token>"
			if sent {
				challenge += `, error="invalid_token"`
				message = "Unauthorized: the bearer token is not valid"
			}
			w.Header().Set("WWW-Authenticate", challenge)
			writeRPCError(w, http.StatusUnauthorized, message)
			return
		}
		r = r.Clone(r.Context())
		r.Header.Del("Authorization")
		next.ServeHTTP(w, r)
	})
}

// bearerToken extracts the token of an "Authorization: Bearer <token>"
// value (the scheme is case-insensitive); sent is false when there is
// none.
func bearerToken(header string) (token string, sent bool) {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(rest)
	return token, token != ""
}

// ValidToken checks a bearer token read from LORE_AUTH_TOKEN or a token
// file: non-empty, and free of whitespace and control characters (which an
// Authorization header cannot carry).
func ValidToken(token string) error {
	if token == "" {
		return errors.New("the token is empty")
	}
	for _, r := range token {
		if r <= ' ' || r == 0x7f {
			return errors.New("the token contains whitespace or control characters")
		}
	}
	return nil
}

// LoadToken returns the bearer token lore serve --http uses: the value of
// LORE_AUTH_TOKEN (env), or the content of the --auth-token-file file,
// whitespace around it trimmed (a trailing newline is fine); "" when
// neither is given. Both at once, an unreadable or empty file and an
// invalid token are errors, whose messages never hold the token.
func LoadToken(env, file string) (string, error) {
	switch {
	case file != "" && env != "":
		return "", fmt.Errorf("both %s and --auth-token-file are set: use one", EnvAuthToken)
	case file != "":
		data, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("--auth-token-file %s: the file does not exist", file)
		}
		if err != nil {
			return "", fmt.Errorf("--auth-token-file %s: %w", file, err)
		}
		token := strings.TrimSpace(string(data))
		if token == "" {
			return "", fmt.Errorf("--auth-token-file %s: the file is empty; put a long random token in it (e.g. openssl rand -hex 32 > %s)", file, file)
		}
		if err := ValidToken(token); err != nil {
			return "", fmt.Errorf("--auth-token-file %s: %w", file, err)
		}
		return token, nil
	case env != "":
		token := strings.TrimSpace(env)
		if err := ValidToken(token); err != nil {
			return "", fmt.Errorf("%s: %w", EnvAuthToken, err)
		}
		return token, nil
	}
	return "", nil
}

// limitListener returns a listener that serves at most max connections at
// once; further clients wait in the kernel's accept queue until one
// closes. While one waits, open connections give their slots up without
// failing a request: every response then says Connection: close (the
// client opens a new connection for its next request, which queues like
// any other), and a keep-alive connection idle for idleYield or longer
// is closed. Without that, idle keep-alive connections (every HTTP client
// keeps some) would hold the slots until the idle timeout while new
// clients wait. A connection idle for less is left alone: its client may
// be sending a request on it at this very moment.
func limitListener(ln net.Listener, max int) *limitedListener {
	return &limitedListener{Listener: ln, slots: make(chan struct{}, max), closed: make(chan struct{})}
}

// idleYield is how long a keep-alive connection must have been idle before
// it is closed for a client waiting for a slot.
var idleYield = 5 * time.Second

type limitedListener struct {
	net.Listener
	slots     chan struct{}
	closeOnce sync.Once
	closed    chan struct{}

	waiting atomic.Bool // Accept waits for a slot
	// conns holds the open connections (*limitedConn), each of which
	// knows since when it is idle: a request changes only its own
	// connection's state, so that requests on different connections
	// never wait for one another; only closeLongIdle, when a client
	// waits, looks at them all.
	conns sync.Map
}

// Accept implements net.Listener.
func (l *limitedListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		l.waiting.Store(true)
		tick := time.NewTicker(idleYield / 5)
		for done := false; !done; {
			l.closeLongIdle()
			select {
			case l.slots <- struct{}{}:
				done = true
			case <-tick.C:
			case <-l.closed:
				tick.Stop()
				l.waiting.Store(false)
				return nil, net.ErrClosed
			}
		}
		tick.Stop()
		l.waiting.Store(false)
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	lc := &limitedConn{Conn: c}
	lc.release = func() {
		l.conns.Delete(lc)
		<-l.slots
	}
	l.conns.Store(lc, struct{}{})
	return lc, nil
}

// closeLongIdle closes the connection idle the longest, if it has been
// idle for idleYield or longer.
func (l *limitedListener) closeLongIdle() {
	var oldest *limitedConn
	var since int64
	l.conns.Range(func(k, _ any) bool {
		c := k.(*limitedConn)
		if t := c.idleSince.Load(); t != 0 && (oldest == nil || t < since) {
			oldest, since = c, t
		}
		return true
	})
	if oldest == nil || time.Since(time.Unix(0, since)) < idleYield {
		return
	}
	// Unless a request came on it meanwhile: that one is served.
	if oldest.idleSince.CompareAndSwap(since, 0) {
		oldest.Close() // frees its slot
	}
}

// connState is the server's http.Server.ConnState: it tracks the
// connections idle between requests.
func (l *limitedListener) connState(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return // not one of l's
	}
	if state == http.StateIdle {
		lc.idleSince.Store(time.Now().UnixNano())
	} else {
		lc.idleSince.Store(0)
	}
}

// yieldWhenFull wraps the server's handler: a response whose headers are
// written while a client waits for a slot closes its connection once
// written.
func (l *limitedListener) yieldWhenFull(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&yieldingWriter{ResponseWriter: w, l: l}, r)
	})
}

// yieldingWriter adds Connection: close to a response's headers when they
// are written while a client waits for a slot.
type yieldingWriter struct {
	http.ResponseWriter
	l       *limitedListener
	written bool
}

func (w *yieldingWriter) writeHeaders() {
	if !w.written {
		w.written = true
		if w.l.waiting.Load() {
			w.Header().Set("Connection", "close")
		}
	}
}

// WriteHeader implements http.ResponseWriter.
func (w *yieldingWriter) WriteHeader(status int) {
	if status >= 200 { // informational responses (1xx) come before the real headers
		w.writeHeaders()
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write implements http.ResponseWriter.
func (w *yieldingWriter) Write(p []byte) (int, error) {
	w.writeHeaders()
	return w.ResponseWriter.Write(p)
}

// Flush implements http.Flusher (SSE streams flush each event).
func (w *yieldingWriter) Flush() {
	w.writeHeaders()
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (w *yieldingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Close implements net.Listener; it also wakes an Accept waiting for a slot.
func (l *limitedListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.closed) })
	return err
}

type limitedConn struct {
	net.Conn
	once      sync.Once
	release   func()
	idleSince atomic.Int64 // Unix nanoseconds since the connection is idle between requests; 0 while not
}

// Close implements net.Conn; the first call frees the connection's slot.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
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
