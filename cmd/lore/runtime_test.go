package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestTuneForOneShot(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	gc := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(procs)
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
	})

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOMAXPROCS", "")
	queryStarts := tuneForOneShot()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS = %d, want 1", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("while loading, GC percent = %d, want the default 100", got)
	}
	queryStarts()
	if got := debug.SetGCPercent(100); got != -1 {
		t.Errorf("during the query, GC percent = %d, want -1 (off)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != oneShotMemoryLimit {
		t.Errorf("memory limit = %d, want %d", got, oneShotMemoryLimit)
	}

	// A setting in the environment is the user's choice: nothing changes.
	runtime.GOMAXPROCS(procs)
	t.Setenv("GOGC", "50")
	tuneForOneShot()()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, GC percent = %d, want it left at 100", got)
	}
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("with GOGC set, GOMAXPROCS = %d, want it left at %d", got, procs)
	}
}
