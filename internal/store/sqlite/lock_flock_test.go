//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
)

// lockHolderEnv makes TestLockHolderProcess hold the lock of the index it
// names instead of testing anything.
const lockHolderEnv = "LORE_TEST_HOLD_INDEX_LOCK"

// TestLockHolderProcess is the helper process of TestLockReleasedWhenHolderDies:
// it takes the writer lock, says so on stdout, and keeps it until stdin
// closes or it is killed.
func TestLockHolderProcess(t *testing.T) {
	indexPath := os.Getenv(lockHolderEnv)
	if indexPath == "" {
		t.Skip("helper process only")
	}
	lock, err := Lock(context.Background(), indexPath, store.WriteOptions{NoWait: true})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	lock.Release()
	os.Exit(0)
}

// TestLockReleasedWhenHolderDies: the lock is an flock, so a lore process
// killed in the middle of a run (kill -9, OOM) does not leave the index
// locked; while it lived, others were refused with its pid.
func TestLockReleasedWhenHolderDies(t *testing.T) {
	indexPath := filepath.Join(t.TempDir(), "index.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+indexPath)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("helper process said %q (%v)", line, err)
	}

	_, err = Lock(context.Background(), indexPath, store.WriteOptions{NoWait: true})
	want := fmt.Sprintf("index %s is being updated by another lore process (pid %d)", indexPath, cmd.Process.Pid)
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeIndexBusy || e.Message != want {
		t.Fatalf("lock held by another process: %v, want %q", err, want)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	lock, err := Lock(context.Background(), indexPath, store.WriteOptions{NoWait: true})
	if err != nil {
		t.Fatalf("lock after its holder was killed: %v", err)
	}
	lock.Release()
}
