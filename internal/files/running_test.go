package files

import (
	"context"
	"errors"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

// TestSearchWaitsForARunningSlot takes every running slot of a Service:
// a search then waits, and ends with a cancellation when its context
// does, or runs once a slot is given back.
func TestSearchWaitsForARunningSlot(t *testing.T) {
	fx := newFixture(t, map[string]string{"a.md": "needle here\n"}, map[string]string{"b.go": "needle there\n"})
	for range cap(fx.svc.running) {
		fx.svc.running <- struct{}{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := fx.svc.Search(ctx, SearchQuery{Query: "needle"})
	if !errors.Is(err, context.Canceled) || errs.KindOf(err) != errs.Cancelled {
		t.Fatalf("a search with every slot taken and its context cancelled: %v, want a cancellation", err)
	}

	done := make(chan *SearchResult, 1)
	go func() {
		res, err := fx.svc.Search(context.Background(), SearchQuery{Query: "needle"})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case <-done:
		t.Fatal("a search ran while every slot was taken")
	default:
	}
	<-fx.svc.running // one slot free
	res := <-done
	if res == nil || len(res.Results) != 2 {
		t.Fatalf("after a slot was freed: %+v, want 2 hits", res)
	}
	if len(fx.svc.running) != cap(fx.svc.running)-1 {
		t.Fatalf("%d slots taken after the search, want %d", len(fx.svc.running), cap(fx.svc.running)-1)
	}
}
