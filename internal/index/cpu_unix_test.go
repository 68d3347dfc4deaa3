//go:build unix

package index

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, all threads: on a busy
// machine it measures a benchmark's work where wall time measures the
// other processes too.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
