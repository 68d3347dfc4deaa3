package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/assist"
	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/httpapi"
	"github.com/lore-dev/lore/internal/logbuf"
	"github.com/lore-dev/lore/internal/mcp"
)

func init() {
	register("serve", command{summary: "serve lore to AI assistants over MCP (stdio, or streamable HTTP with --http) and the REST API", run: runServe})
}

func runServe(ctx context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	rootFlag := fs.String("root", ".", "the served folder: the code tools' \".\" and the default CODE_ROOT")
	toolsets := fs.String("toolsets", strings.Join(mcp.Toolsets, ","), "tool families to serve, comma-separated")
	readOnly := fs.Bool("read-only", false, "only read the index: no index_codebase, and a missing index is an error")
	httpAddr := fs.String("http", "", "serve HTTP at ADDR: MCP at /mcp and the REST API at /api/v1 (PORT or :PORT bind 127.0.0.1)")
	mcpMode := fs.String("mcp", "", "where to speak MCP: stdio, http (at /mcp, needs --http) or off (REST only, needs --http); "+
		"default: "+config.EnvMCPEnabled+" and "+config.EnvMCPTransport+", else stdio, or http with --http")
	specsDir := fs.String("specs-dir", "", "the served folder's specs folder, relative to it (default: openspec/ and specs/)")
	configFile := fs.String("config", "", "config file (default: lore.toml in the working directory, if present)")
	shutdownTimeout := fs.Duration("shutdown-timeout", httpapi.DefaultShutdownGrace, "on SIGINT or SIGTERM, how long requests in flight get to finish")
	noWatch := fs.Bool("no-watch", false, "do not re-index served roots by themselves as files change")
	var allowRoots, allowedHosts, collections listFlag
	fs.Var(&allowRoots, "allow-root", "one more folder the code tools may index and search (repeatable; the served root, CODE_ROOT and DOCS_ROOT always are)")
	fs.Var(&collections, "collection", "serve only this named collection (repeatable; default: every collection of the database)")
	authTokenFile := fs.String("auth-token-file", "", "with --http: the bearer token clients must send, read from FILE (or set "+httpapi.EnvAuthToken+"); required on a non-loopback address")
	fs.Var(&allowedHosts, "allowed-host", "with --http: one more Host header value to accept, NAME or NAME:PORT (repeatable; localhost names and the bound address always are)")
	fs.Usage = func() {
		commandUsage(fs, "lore serve [--root PATH] [--allow-root DIR]... [--toolsets LIST] [--read-only] [--collection NAME]... "+
			"[--http ADDR [--auth-token-file FILE] [--allowed-host HOST]...] [--mcp stdio|http|off] [--shutdown-timeout D] [--no-watch] [--config FILE] [--specs-dir DIR]")
	}
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve takes no arguments, got %q; use --root", strings.Join(pos, " "))
	}
	sets, err := mcp.ParseToolsets(*toolsets)
	if err != nil {
		return usagef("--toolsets: %v", err)
	}
	if *httpAddr != "" {
		if _, err := httpapi.ListenAddr(*httpAddr); err != nil {
			return usagef("%v", err)
		}
	} else if *authTokenFile != "" || len(allowedHosts) > 0 {
		return usagef("--auth-token-file and --allowed-host apply to --http only")
	}
	mode, err := config.MCPMode(*mcpMode, os.Getenv, *httpAddr != "")
	if err != nil {
		return usagef("%v", err)
	}
	if *shutdownTimeout <= 0 {
		return usagef("--shutdown-timeout %s: want a positive duration (30s, 2m)", *shutdownTimeout)
	}
	for _, name := range collections {
		if err := svc.CheckCollectionName(name); err != nil {
			return usagef("--collection: %v", err)
		}
	}
	var authToken string
	if *httpAddr != "" {
		if authToken, err = httpapi.LoadToken(os.Getenv(httpapi.EnvAuthToken), *authTokenFile); err != nil {
			return err
		}
	}

	// stdout belongs to the protocol on stdio: everything else goes to
	// stderr, through a buffer a goroutine writes out: slog holds its lock
	// across each write, and a line per tool call from many clients at
	// once queued every request behind that lock (a lock convoy under
	// load). What is buffered is written out before serve returns.
	errOut := logbuf.New(a.stderr, 0)
	defer errOut.Close()
	logger := slog.New(slog.NewTextHandler(errOut, nil))
	cfg, err := config.LoadServe(config.ServeInputs{Root: *rootFlag, AllowRoots: allowRoots, ConfigFile: *configFile, DefaultVersion: buildVersion()})
	if err != nil {
		return err
	}
	served, err := fsroot.Open(cfg.Root)
	if err != nil {
		return err
	}
	codeRoot, err := fsroot.Open(cfg.CodeRoot)
	if err != nil {
		return fmt.Errorf("%s: %w", config.EnvCodeRoot, err)
	}
	docsRoot, err := fsroot.Open(cfg.DocsRoot)
	if err != nil {
		return fmt.Errorf("%s: %w", config.EnvDocsRoot, err)
	}
	var extraRoots []*fsroot.Root
	for _, dir := range cfg.AllowRoots {
		r, err := fsroot.Open(dir)
		if err != nil {
			return fmt.Errorf("--allow-root: %w", err)
		}
		extraRoots = append(extraRoots, r)
	}
	chat, err := assist.ChatFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	// The runs a server makes (its watcher's, index_codebase's) keep within
	// LORE_INDEX_MEMORY, as lore index does.
	indexMemory, err := config.IndexMemoryBudget("", os.Getenv)
	if err != nil {
		return err
	}
	// --index and LORE_INDEX name the served root's index (and hold the
	// named collections); any other root indexed through index_codebase
	// gets its own default location.
	svcOpts := svc.Options{IndexFor: svc.ServeIndexFor(served.Path(), a.indexFlag), Served: collections, IndexMemory: indexMemory}
	if a.indexFlag != "" {
		svcOpts.Collections, _ = filepath.Abs(a.indexFlag)
	}
	if chat != nil { // a nil *Chat in the interface would look configured
		svcOpts.Chat = chat
	}
	watching := !*noWatch && !*readOnly // --read-only never writes the index
	if watching {
		svcOpts.Watch = &svc.WatchOptions{Logger: logger}
	}
	services := svc.New(svcOpts)
	defer services.Close()
	if *readOnly {
		if err := services.Warm(ctx, served.Path()); err != nil {
			if e, ok := errs.As(err); ok && e.Kind == errs.NoIndex && e.Code == errs.CodeNoIndex {
				return errs.New(errs.NoIndex, errs.CodeNoIndex,
					"no index for %s (looked at %s); run \"lore index %s\" first: --read-only serves an existing index only",
					served.Path(), e.Details["index"], served.Path())
			}
			return err
		}
	}
	if *specsDir == "" {
		*specsDir = services.RecordedSpecsDir(ctx, served.Path())
	}
	if watching {
		// Keep the served root fresh when it has an index (one made later by
		// index_codebase is watched from then on), and, as a service over
		// HTTP, the named collections it serves. Setting the watches walks
		// the tree: it must not hold up the first request.
		go func() {
			if err := services.Watch(ctx, served.Path()); err != nil && errs.KindOf(err) != errs.NoIndex {
				logger.Warn("cannot watch the served root", "root", served.Path(), "error", err.Error())
			}
			if *httpAddr != "" {
				if err := services.WatchServed(ctx); err != nil {
					logger.Warn("cannot watch the collections", "error", err.Error())
				}
			}
		}()
	}
	tuneForServe()
	if addr := os.Getenv(envPprof); addr != "" {
		ln, err := pprofListener(addr)
		if err != nil {
			return err
		}
		go servePprof(ctx, ln, logger)
	}
	srv, err := mcp.New(mcp.Options{
		Name: cfg.ServerName, Version: cfg.ServerVersion,
		Root: served.Path(), CodeRoot: codeRoot, DocsRoot: docsRoot, AllowRoots: extraRoots, SpecsDir: *specsDir,
		Toolsets: sets, ReadOnly: *readOnly, App: services, Logger: logger,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	logger.Info("lore serve", "version", cfg.ServerVersion, "root", served.Path(), "code_root", codeRoot.Path(),
		"docs_root", docsRoot.Path(), "allow_roots", strings.Join(cfg.AllowRoots, ","), "mcp", mode, "toolsets", strings.Join(sets, ","),
		"read_only", *readOnly, "collections", strings.Join(collections, ","), "tools", strings.Join(srv.ToolNames(), ","))

	grace := *shutdownTimeout
	if *httpAddr == "" {
		return serveStdio(ctx, a, srv, grace, logger)
	}
	allowed := fsroot.NewAllowed(served, append([]*fsroot.Root{codeRoot, docsRoot}, extraRoots...)...)
	opts := httpapi.Options{
		Addr:           *httpAddr,
		API:            httpapi.NewAPI(httpapi.APIOptions{Services: services, Allowed: allowed, Logger: logger}),
		Health:         httpapi.Health(services.Ready),
		AllowedOrigins: httpapi.ParseOrigins(os.Getenv(httpapi.EnvAllowedOrigins)),
		AuthToken:      authToken,
		AllowedHosts:   allowedHosts,
		Logger:         logger,
		ShutdownGrace:  grace,
		OnShutdown: func(ctx context.Context) {
			// Index jobs stop at once (their index keeps its previous
			// generation); MCP calls in flight finish, then the sessions
			// close, which ends their streams.
			services.WaitJobs(ctx)
			if mode == config.MCPHTTP {
				srv.Shutdown(ctx)
			}
		},
		Ready: func(base string) {
			if mode == config.MCPHTTP {
				fmt.Fprintf(errOut, "lore: serving MCP at %s/mcp and the REST API at %s/api/v1\n", base, base)
			} else {
				fmt.Fprintf(errOut, "lore: serving the REST API at %s/api/v1 (MCP: %s)\n", base, mode)
			}
		},
	}
	if mode == config.MCPHTTP {
		opts.MCP = srv.HTTPHandler()
	}
	if mode != config.MCPStdio {
		return httpapi.Serve(ctx, opts)
	}
	// MCP on stdio beside HTTP: the stdio session may end (the client
	// closes stdin) while HTTP serves on until a signal.
	httpDone := make(chan error, 1)
	go func() { httpDone <- httpapi.Serve(ctx, opts) }()
	if err := serveStdio(ctx, a, srv, grace, logger); err != nil {
		return err
	}
	if ctx.Err() == nil {
		logger.Info("the MCP session on stdio ended; HTTP serves on until SIGINT or SIGTERM")
	}
	return <-httpDone
}

// serveStdio runs the MCP session on stdin/stdout until the client closes
// stdin, or until ctx ends (a signal): then calls in flight get grace to
// answer before the session closes, and the shutdown is a success.
func serveStdio(ctx context.Context, a *cli, srv *mcp.Server, grace time.Duration, logger *slog.Logger) error {
	// The session does not end with ctx: Shutdown drains it first.
	session, endSession := context.WithCancel(context.WithoutCancel(ctx))
	defer endSession()
	drained := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(drained)
		logger.Info("shutting down: calls in flight get the grace period to finish", "grace", grace.String())
		shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil {
			logger.Warn("grace period over: calls still running were cancelled", "grace", grace.String())
		}
		endSession()
	})
	err := srv.Serve(session, readCloser(a.stdin), writeCloser(a.stdout))
	if !stop() {
		<-drained // a signal came: the shutdown it started has finished
		return nil
	}
	return err
}

// buildVersion is the version the binary was built as: the module version
// of a go install, else the VCS revision, else "dev".
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "dev+" + s.Value[:12]
		}
	}
	return "dev"
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}

func writeCloser(w io.Writer) io.WriteCloser {
	// Closing the session must not close the process's stdout.
	return nopWriteCloser{w}
}
