package app

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func TestSearchSlotsBound(t *testing.T) {
	s := newSearchSlots()
	if want := max(2, slotsPerCPU*runtime.GOMAXPROCS(0)); cap(s) != want {
		t.Fatalf("%d slots, want %d", cap(s), want)
	}
	var releases []func()
	for range cap(s) {
		release, err := s.acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	// Every slot is taken: the next search waits, until its context ends
	// or a slot is given back.
	for _, tc := range []struct {
		name   string
		ctx    func() context.Context
		wantOK bool
	}{
		{"cancelled", func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, false},
		{"released", func() context.Context { return context.Background() }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan error, 1)
			go func() {
				release, err := s.acquire(tc.ctx())
				if err == nil {
					release()
				}
				got <- err
			}()
			if tc.wantOK {
				select {
				case err := <-got:
					t.Fatalf("took a slot while all were taken (err %v)", err)
				default:
				}
				releases[0]()
				releases = releases[1:]
			}
			err := <-got
			switch {
			case tc.wantOK && err != nil:
				t.Fatalf("acquire after a release: %v", err)
			case !tc.wantOK && (!errors.Is(err, context.Canceled) || errs.KindOf(err) != errs.Cancelled):
				t.Fatalf("acquire with a cancelled context: %v, want a cancellation", err)
			}
		})
	}
	for _, r := range releases {
		r()
	}
	if len(s) != 0 {
		t.Fatalf("%d slots still taken", len(s))
	}
}
