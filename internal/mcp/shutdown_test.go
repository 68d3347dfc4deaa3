package mcp

import (
	"context"
	"errors"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/errs"
)

// blockingTool is a test tool whose calls report that they started and
// then wait for release, or, when it stops on shutdown, for their context.
func blockingTool(name string, started chan<- struct{}, release <-chan struct{}, stopsOnShutdown bool) *tool {
	return newTool(&tool{
		def:             &sdk.Tool{Name: name, Title: name, Description: "a test tool that waits"},
		stopsOnShutdown: stopsOnShutdown,
	}, func(ctx context.Context, c *call, _ *noArgs) (*outcome, error) {
		started <- struct{}{}
		select {
		case <-release:
			return &outcome{structured: map[string]any{"done": true}}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// Shutdown lets the calls in flight answer, cancels the ones that stop on
// shutdown (index runs), refuses new calls, and then closes the sessions.
func TestShutdownDrainsCalls(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	s.register(blockingTool("zz_search", started, release, false))
	s.register(blockingTool("zz_index", started, release, true))
	cs := connectSDK(t, s, nil)
	ctx := context.Background()

	type answer struct {
		res *sdk.CallToolResult
		err error
	}
	call := func(name string) chan answer {
		ch := make(chan answer, 1)
		go func() {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{}})
			ch <- answer{res, err}
		}()
		return ch
	}
	search, index := call("zz_search"), call("zz_index")
	<-started
	<-started

	shutdown := make(chan error, 1)
	go func() { shutdown <- s.Shutdown(ctx) }()

	// The index run is cancelled at once and answers so.
	got := <-index
	if got.err != nil || !got.res.IsError || toolErrorOf(t, got.res)["code"] != errs.CodeCancelled {
		t.Fatalf("zz_index during shutdown = %+v, %v; want a CANCELLED result", got.res, got.err)
	}
	// A new call is refused while the search still runs.
	res := callTool(t, cs, "search_code", map[string]any{"query": "login"})
	if !res.IsError || toolErrorOf(t, res)["code"] != errs.CodeShuttingDown {
		t.Fatalf("a call during shutdown = %s, want SHUTTING_DOWN", textOf(res))
	}
	select {
	case err := <-shutdown:
		t.Fatalf("Shutdown returned (%v) while a call was in flight", err)
	default:
	}
	close(release)
	if got := <-search; got.err != nil || got.res.IsError {
		t.Fatalf("the in-flight search = %+v, %v; want its answer", got.res, got.err)
	}
	if err := <-shutdown; err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	// The session is closed: the client's next request fails.
	if _, err := cs.ListTools(ctx, nil); err == nil {
		t.Error("the session still answers after Shutdown")
	}
}

// Shutdown gives up waiting when its context ends, and still closes the
// sessions.
func TestShutdownDeadline(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	defer close(release)
	s.register(blockingTool("zz_search", started, release, false))
	cs := connectSDK(t, s, nil)
	go cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "zz_search", Arguments: map[string]any{}})
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the grace period is over before it starts
	if err := s.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v, want context.Canceled", err)
	}
	if _, err := cs.ListTools(context.Background(), nil); err == nil {
		t.Error("the session still answers after Shutdown")
	}
}
