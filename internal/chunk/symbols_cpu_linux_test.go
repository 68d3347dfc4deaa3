//go:build linux

package chunk

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread, which other
// processes on a busy machine do not inflate as they do wall time.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
