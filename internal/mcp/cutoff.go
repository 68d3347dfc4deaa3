package mcp

import (
	"context"
	"sync"
	"sync/atomic"
)

// cutoffSet holds the cancel functions of the tool calls running, so that
// Shutdown can cancel every call still running once its grace is over.
// Each call adds itself as it starts and leaves as it ends; with one
// lock (or one shared context, whose children sit under one lock) for
// all, every call of every client took it twice, and under load the
// calls queued behind whichever of them the scheduler had paused while
// holding it. The calls spread over shards, so that two take one lock
// only when they land on one shard.
type cutoffSet struct {
	next   atomic.Uint32
	cut    atomic.Bool // set once cutAll ran: calls added later are cancelled at once
	shards [cutoffShards]cutoffShard
}

// cutoffShards is how many locks the running calls spread over.
const cutoffShards = 16

type cutoffShard struct {
	mu    sync.Mutex
	calls map[*cutoffCall]struct{}
	_     [40]byte // a cache line of its own (the lock and the map header are 16 bytes)
}

// cutoffCall is one running call.
type cutoffCall struct {
	cancel context.CancelFunc
	shard  *cutoffShard
}

// add registers a running call's cancel function and returns what
// removes it; after cutAll, it cancels the call at once.
func (s *cutoffSet) add(cancel context.CancelFunc) (remove func()) {
	sh := &s.shards[s.next.Add(1)%cutoffShards]
	c := &cutoffCall{cancel: cancel, shard: sh}
	sh.mu.Lock()
	if sh.calls == nil {
		sh.calls = map[*cutoffCall]struct{}{}
	}
	sh.calls[c] = struct{}{}
	sh.mu.Unlock()
	if s.cut.Load() {
		cancel()
	}
	return func() {
		sh.mu.Lock()
		delete(sh.calls, c)
		sh.mu.Unlock()
	}
}

// cutAll cancels every running call, and every call added from now on.
func (s *cutoffSet) cutAll() {
	s.cut.Store(true)
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for c := range sh.calls {
			c.cancel()
		}
		sh.mu.Unlock()
	}
}
