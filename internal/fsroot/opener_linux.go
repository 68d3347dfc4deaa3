package fsroot

import (
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// beneath opens files below one folder with openat2(2) and
// RESOLVE_BENEATH: the kernel resolves the whole path in one call and
// refuses any that would leave the folder (an absolute link, ".." above
// it, a link out), so the open is as confined as os.Root's without a call
// per component. A kernel without openat2 (before 5.6, or a seccomp
// filter that refuses it) turns it off for good.
type beneath struct {
	dir *os.File // nil when off
}

func openBeneath(path string) beneath {
	if openat2Off.Load() {
		return beneath{}
	}
	dir, err := os.Open(path)
	if err != nil {
		return beneath{}
	}
	return beneath{dir: dir}
}

// openat2Off is set once openat2 is known not to work here.
var openat2Off atomic.Bool

// open opens rel, relative to the folder, for reading; ok is false when
// it cannot, and the caller tries another way.
func (b *beneath) open(rel string) (f *os.File, ok bool) {
	if b.dir == nil {
		return nil, false
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(int(b.dir.Fd()), rel, &how)
		switch {
		case err == nil:
			return os.NewFile(uintptr(fd), filepath.Join(b.dir.Name(), rel)), true
		case errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN):
			continue // EAGAIN: a rename raced the lookup; try again
		case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM):
			openat2Off.Store(true)
			b.close()
		}
		return nil, false
	}
}

func (b *beneath) close() {
	if b.dir != nil {
		b.dir.Close()
		b.dir = nil
	}
}
