//go:build unix

package files

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpenFileRefusesFIFO(t *testing.T) {
	fx := newFixture(t, nil, nil)
	if err := syscall.Mkfifo(filepath.Join(fx.code, "pipe"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	_, err := fx.svc.OpenFile(context.Background(), "code", "pipe")
	requireError(t, err, CodeNotAFile, "pipe")
}
