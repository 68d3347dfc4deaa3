package index_test

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// usage is what the process has used so far: CPU time, all threads, and
// bytes handed to write calls (what a build writes to its files, the
// index and any write-ahead log, before the page cache).
func usage() (cpu time.Duration, written int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	io, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, 0, false
	}
	for _, line := range bytes.Split(io, []byte("\n")) {
		if v, found := bytes.CutPrefix(line, []byte("wchar: ")); found {
			written, err = strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return 0, 0, false
			}
		}
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), written, true
}
