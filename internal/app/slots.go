package app

import (
	"context"
	"fmt"
	"runtime"

	"github.com/lore-dev/lore/internal/search"
)

// searchSlots bounds the ranked searches that run at once. A search is
// CPU work plus a few SQLite reads, each on a pooled connection: beyond
// a few per core, more at once only interleave (every one finishing
// later) and push the database pool past the connections it keeps idle,
// so that each search opened a fresh connection (schema read, statements
// prepared, page cache cold) and closed it again. Searches over the bound
// wait their turn, in arrival order, or until their context ends.
type searchSlots chan struct{}

// slotsPerCPU is how many searches run at once per usable CPU.
const slotsPerCPU = 2

func newSearchSlots() searchSlots {
	return make(searchSlots, max(2, slotsPerCPU*runtime.GOMAXPROCS(0)))
}

// acquire takes a slot, waiting for one or for ctx to end; release gives
// it back.
func (s searchSlots) acquire(ctx context.Context) (release func(), err error) {
	select {
	case s <- struct{}{}:
		return func() { <-s }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting to search: %w", ctx.Err())
	}
}

// search runs eng.Search in a slot.
func (s searchSlots) search(ctx context.Context, eng *search.Engine, opts search.Options) (*search.Response, error) {
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return eng.Search(ctx, opts)
}
