//go:build unix

package files

import (
	"fmt"
	"slices"
	"syscall"

	"github.com/lore-dev/lore/internal/fsroot"
)

// readWalked reads up to f.Size bytes of a file found by the walk into buf
// (grown as needed) and returns them. It uses raw system calls: os.Open
// also tries to register every file with the network poller and sets a
// finalizer, which on a syscall-expensive machine costs a good part of a
// search. O_NONBLOCK keeps a FIFO swapped in since the walk from blocking.
func readWalked(f fsroot.File, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(f.Abs, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf[:0], fmt.Errorf("opening %s: %w", f.Rel, err)
	}
	defer syscall.Close(fd)
	buf = slices.Grow(buf[:0], int(f.Size))[:f.Size]
	n := 0
	for n < len(buf) {
		k, err := syscall.Read(fd, buf[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return buf[:0], fmt.Errorf("reading %s: %w", f.Rel, err)
		case k == 0:
			return buf[:n], nil // shrank since the walk
		}
		n += k
	}
	return buf[:n], nil
}
