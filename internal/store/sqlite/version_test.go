package sqlite

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/store"
)

// commitOnce writes one file to collection c on w and commits: a new
// generation.
func commitOnce(t testing.TB, w *DB, i int) {
	t.Helper()
	tx, err := w.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.PutFile(ctx, store.File{Path: fmt.Sprintf("f%d.go", i), Language: "go", Hash: fmt.Sprint(i)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// writerGeneration is the generation of collection c as its writer sees it.
func writerGeneration(t testing.TB, w *DB) string {
	t.Helper()
	r, err := w.Reader(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestVersionFromWALHeader: a read-only DB answers the data version from
// the WAL index header while it is unchanged, and never gives an old
// generation once a commit returned: many commits, each checked at once
// while other readers ask all the time.
func TestVersionFromWALHeader(t *testing.T) {
	w, path := written(t)
	ro, r := openReadOnlyReader(t, path)
	for range 2 {
		if _, err := r.Generation(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if ro.version.known.Load() == nil {
		t.Fatal("no WAL header remembered after two reads: the version is never read from it")
	}

	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for !stop.Load() {
				if _, err := r.Generation(ctx); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	prev := writerGeneration(t, w)
	for i := range 200 {
		commitOnce(t, w, i)
		want := writerGeneration(t, w)
		if want == prev {
			t.Fatalf("commit %d: the writer's generation did not change", i)
		}
		if got, err := r.Generation(ctx); got != want || err != nil {
			t.Fatalf("after commit %d: Generation = %q, %v; want %q", i, got, err, want)
		}
		prev = want
	}
	stop.Store(true)
	wg.Wait()
}

// TestVersionFromWALHeaderAcrossProcesses: the same when the writer is
// another process, which tells this one of each commit once it returned.
func TestVersionFromWALHeaderAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	_, path := written(t)
	_, r := openReadOnlyReader(t, path)
	for range 2 {
		if _, err := r.Generation(ctx); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWALWriterProcess$")
	cmd.Env = append(os.Environ(), "LORE_TEST_WAL_WRITER="+path)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	lines := bufio.NewScanner(out)
	for i := range 50 {
		fmt.Fprintln(in, "commit")
		want := ""
		for lines.Scan() {
			if g, ok := strings.CutPrefix(lines.Text(), "generation "); ok {
				want = g
				break
			}
		}
		if want == "" {
			t.Fatalf("commit %d: the writer process said nothing", i)
		}
		if got, err := r.Generation(ctx); got != want || err != nil {
			t.Fatalf("after the other process's commit %d: Generation = %q, %v; want %q", i, got, err, want)
		}
	}
}

// TestWALWriterProcess is the writer of TestVersionFromWALHeaderAcrossProcesses:
// for each line on stdin it commits, then prints the new generation.
func TestWALWriterProcess(t *testing.T) {
	path := os.Getenv("LORE_TEST_WAL_WRITER")
	if path == "" {
		t.Skip("the writer of TestVersionFromWALHeaderAcrossProcesses")
	}
	w, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	in := bufio.NewScanner(os.Stdin)
	for i := 0; in.Scan(); i++ {
		commitOnce(t, w, 1000+i)
		fmt.Printf("generation %s\n", writerGeneration(t, w))
	}
}
