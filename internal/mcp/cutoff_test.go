package mcp

import (
	"context"
	"sync"
	"testing"
)

// TestCutoffSet: cutAll cancels every call still registered, from many
// goroutines at once, and none that left before it; a call added after it
// is cancelled at once.
func TestCutoffSet(t *testing.T) {
	var s cutoffSet
	const n = 100
	ctxs := make([]context.Context, n)
	removes := make([]func(), n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(context.Background())
			ctxs[i], removes[i] = ctx, s.add(cancel)
		}()
	}
	wg.Wait()
	for i := 0; i < n; i += 2 {
		removes[i]() // these calls ended
	}
	s.cutAll()
	for i, ctx := range ctxs {
		if ended := ctx.Err() != nil; ended != (i%2 == 1) {
			t.Fatalf("call %d: cancelled %v, want %v", i, ended, i%2 == 1)
		}
	}
	late, cancel := context.WithCancel(context.Background())
	defer s.add(cancel)()
	if late.Err() == nil {
		t.Fatal("a call added after cutAll was not cancelled")
	}
}
