//go:build !linux

package fsroot

import "os"

// beneath is Linux's openat2 opener; elsewhere it is off and an Opener
// opens through os.Root.
type beneath struct{}

func openBeneath(string) beneath { return beneath{} }

func (b *beneath) open(string) (*os.File, bool) { return nil, false }

func (b *beneath) close() {}
