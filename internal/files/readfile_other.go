//go:build !unix

package files

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/lore-dev/lore/internal/fsroot"
)

// readWalked reads up to f.Size bytes of a file found by the walk into buf
// (grown as needed) and returns them.
func readWalked(f fsroot.File, buf []byte) ([]byte, error) {
	file, err := f.Open()
	if err != nil {
		return buf[:0], err
	}
	defer file.Close()
	buf = slices.Grow(buf[:0], int(f.Size))[:f.Size]
	n, err := io.ReadFull(file, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return buf[:0], fmt.Errorf("reading %s: %w", f.Rel, err)
	}
	return buf[:n], nil
}
