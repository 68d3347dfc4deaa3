package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/index"
)

// exitCode is the exit status of a finished command (-1 when it did not
// exit normally).
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("running lore: %v", err)
	return -1
}

// holdWriter starts an index run of root into indexPath in this process,
// as lore serve's index_codebase does, and returns once it is writing; the
// run holds the index until release is called.
func holdWriter(t *testing.T, ctx context.Context, indexPath, root string) (release func()) {
	t.Helper()
	writing, proceed, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	var once, releaseOnce sync.Once
	services := svc.New(svc.Options{IndexFor: svc.DefaultIndexFor(indexPath)})
	go func() {
		_, err := services.Index(ctx, svc.IndexRequest{Root: root, Progress: func(index.Progress) {
			once.Do(func() { close(writing); <-proceed })
		}})
		done <- err
	}()
	select {
	case <-writing:
	case err := <-done:
		t.Fatalf("the holding run ended before it wrote: %v", err)
	}
	release = func() {
		releaseOnce.Do(func() {
			close(proceed)
			if err := <-done; err != nil {
				t.Errorf("the holding run: %v", err)
			}
			services.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// TestWriterLockAcrossProcesses: one writer per index across processes.
// The test process holds the index with a run of its own, as lore serve's
// index_codebase does; real lore index processes are refused with
// --no-wait, or wait and then finish.
func TestWriterLockAcrossProcesses(t *testing.T) {
	bin := loreBinary(t)
	root := realPath(t, cliRepo(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("no-wait fails naming the holder", func(t *testing.T) {
		indexPath := filepath.Join(t.TempDir(), "c.db")
		holdWriter(t, ctx, indexPath, root)
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, "--index", indexPath, "index", "--no-wait", root)
		cmd.Env, cmd.Stdout, cmd.Stderr = serveEnv(t), &stdout, &stderr
		code := exitCode(t, cmd.Run())
		want := fmt.Sprintf("lore: index %s is being updated by another lore process (pid %d)\n", indexPath, os.Getpid())
		if code != exitError || stderr.String() != want || stdout.Len() != 0 {
			t.Errorf("exit %d, stderr %q, stdout %q\nwant exit 1, stderr %q", code, stderr.String(), stdout.String(), want)
		}
	})

	t.Run("waits until the holder is done", func(t *testing.T) {
		indexPath := filepath.Join(t.TempDir(), "c.db")
		release := holdWriter(t, ctx, indexPath, root)
		var stdout bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, "--index", indexPath, "index", root)
		cmd.Env, cmd.Stdout = serveEnv(t), &stdout
		pipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stderr := bufio.NewReader(pipe)
		line, _ := stderr.ReadString('\n')
		if want := waitingMessage(indexPath, os.Getpid()) + "\n"; line != want {
			t.Errorf("stderr while waiting: %q, want %q", line, want)
		}
		release()
		rest, _ := io.ReadAll(stderr)
		if code := exitCode(t, cmd.Wait()); code != exitOK || len(rest) != 0 {
			t.Fatalf("after the lock was released: exit %d, stderr %q", code, rest)
		}
		if !strings.HasPrefix(stdout.String(), "indexed "+root) {
			t.Errorf("stdout: %q", stdout.String())
		}
	})

	// The reproduction: lore index & lore index on one file. Which
	// one waits depends on scheduling; both must succeed either way.
	t.Run("two indexers at once", func(t *testing.T) {
		indexPath := filepath.Join(t.TempDir(), "c.db")
		var cmds [2]*exec.Cmd
		var stderrs [2]bytes.Buffer
		for i := range cmds {
			cmds[i] = exec.CommandContext(ctx, bin, "--index", indexPath, "index", root)
			cmds[i].Env, cmds[i].Stderr = serveEnv(t), &stderrs[i]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, cmd := range cmds {
			code := exitCode(t, cmd.Wait())
			msg := stderrs[i].String()
			if code != exitOK || (msg != "" && !strings.HasPrefix(msg, "waiting for index "+indexPath+": it is being updated by another lore process (pid ")) {
				t.Errorf("indexer %d: exit %d, stderr %q", i, code, msg)
			}
		}
		search := exec.CommandContext(ctx, bin, "--index", indexPath, "search", "--root", root, "Router")
		search.Env = serveEnv(t)
		out, err := search.Output()
		if err != nil || !strings.Contains(string(out), "router.go") {
			t.Errorf("search after both: %v\n%s", err, out)
		}
	})
}

// TestNoIndexNamesTheFile: when --index or LORE_INDEX names the index,
// search and status say which file has no index, and whether it is
// missing or there but never finished (a first run that was killed, or an
// empty file), instead of "no index for <folder>". A cancelled first run
// leaves no file: its index is missing.
func TestNoIndexNamesTheFile(t *testing.T) {
	root := realPath(t, cliRepo(t))
	dir := t.TempDir()
	cancelled := filepath.Join(dir, "cancelled.db")
	ctx, cancel := context.WithCancel(context.Background())
	services := svc.New(svc.Options{IndexFor: svc.DefaultIndexFor(cancelled)})
	defer services.Close()
	_, err := services.Index(ctx, svc.IndexRequest{Root: root, Progress: func(index.Progress) { cancel() }})
	if errs.KindOf(err) != errs.Cancelled {
		t.Fatalf("cancelled first run: %v", err)
	}
	// A cancelled first build leaves nothing; a killed one leaves its
	// new file, which is written here (index's TestKillFirstBuild kills
	// real builds).
	killed := filepath.Join(dir, "killed.db")
	if err := os.WriteFile(killed+".build", []byte("half a build"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.db")

	unbuilt := func(file, run string) string {
		return fmt.Sprintf("lore: the index %s has not been built yet (an earlier run did not finish); run %q first\n", file, run)
	}
	tests := []struct {
		name, file, want string
		env              bool // LORE_INDEX instead of --index
	}{
		{"--index after a killed first run", killed, unbuilt(killed, "lore --index "+killed+" index "+root), false},
		{"--index after a cancelled first run", cancelled,
			fmt.Sprintf("lore: no index at %s for %s; run %q first\n", cancelled, root, "lore --index "+cancelled+" index "+root), false},
		{"--index on an empty file", empty, unbuilt(empty, "lore --index "+empty+" index "+root), false},
		{"--index on a missing file", missing,
			fmt.Sprintf("lore: no index at %s for %s; run %q first\n", missing, root, "lore --index "+missing+" index "+root), false},
		{"LORE_INDEX after a killed first run", killed, unbuilt(killed, "lore index "+root), true},
		{"LORE_INDEX on a missing file", missing,
			fmt.Sprintf("lore: no index at %s for %s; run %q first\n", missing, root, "lore index "+root), true},
	}
	for _, tt := range tests {
		for _, command := range [][]string{{"search", "--root", root, "Router"}, {"status", "--root", root}} {
			t.Run(tt.name+"/"+command[0], func(t *testing.T) {
				t.Setenv("LORE_CACHE_DIR", t.TempDir())
				args := append([]string{"--index", tt.file}, command...)
				if tt.env {
					t.Setenv("LORE_INDEX", tt.file)
					args = command
				} else {
					t.Setenv("LORE_INDEX", "")
				}
				var stdout, stderr bytes.Buffer
				code := runMain(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
				if code != exitNoIndex || stderr.String() != tt.want {
					t.Errorf("exit %d, stderr %q\nwant exit %d, %q", code, stderr.String(), exitNoIndex, tt.want)
				}
			})
		}
	}
}
