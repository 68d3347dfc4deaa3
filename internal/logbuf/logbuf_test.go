package logbuf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// gate is an underlying writer whose writes wait for a release, so that a
// test can hold the background goroutine mid-write.
type gate struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	entered chan struct{} // one value per write begun
	release chan struct{} // one value lets one write finish
	err     error
}

func (g *gate) Write(p []byte) (int, error) {
	g.entered <- struct{}{}
	<-g.release
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buf.Write(p)
	return len(p), g.err
}

func (g *gate) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.String()
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestWritesArriveInOrderAndWhole(t *testing.T) {
	for _, tc := range []struct {
		name    string
		limit   int
		writers int
		lines   int
	}{
		{"one writer", 0, 1, 1000},
		{"many writers", 0, 16, 200},
		{"tiny buffer", 64, 8, 100},
		{"buffer smaller than a line", 4, 4, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out syncBuffer
			w := New(&out, tc.limit)
			var wg sync.WaitGroup
			for g := range tc.writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range tc.lines {
						if n, err := fmt.Fprintf(w, "writer %d line %d\n", g, i); err != nil || n == 0 {
							t.Errorf("write: %d, %v", n, err)
						}
					}
				}()
			}
			wg.Wait()
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != tc.writers*tc.lines {
				t.Fatalf("%d lines, want %d", len(lines), tc.writers*tc.lines)
			}
			next := make([]int, tc.writers)
			for _, l := range lines {
				var g, i int
				if _, err := fmt.Sscanf(l, "writer %d line %d", &g, &i); err != nil {
					t.Fatalf("torn line %q: %v", l, err)
				}
				if i != next[g] {
					t.Fatalf("writer %d: line %d after %d", g, i, next[g]-1)
				}
				next[g]++
			}
		})
	}
}

// TestFullBufferWaits holds the underlying writer mid-write and checks
// that a write that does not fit waits until the goroutine takes the
// buffer, and that the wait ends once it does; the bytes keep their order.
func TestFullBufferWaits(t *testing.T) {
	g := &gate{entered: make(chan struct{}, 8), release: make(chan struct{}, 8)}
	w := New(g, 10)
	w.Write([]byte("0123456789")) // taken by the goroutine, which blocks in g
	<-g.entered
	w.Write([]byte("abcdefghij")) // fills the buffer again
	wrote := make(chan struct{})
	go func() {
		w.Write([]byte("X")) // cannot fit: waits for the drain
		close(wrote)
	}()
	// The goroutine is held in g with the buffer full: the write cannot
	// have returned (a wrong Writer may not have got to it yet either,
	// so this catches it only sometimes, but never fails a right one).
	select {
	case <-wrote:
		t.Fatal("a write into a full buffer returned before the buffer was taken")
	default:
	}
	g.release <- struct{}{} // the first batch ends; the goroutine takes the second
	<-g.entered
	<-wrote // the buffer drained into the second batch: the write fits now
	g.release <- struct{}{}
	g.release <- struct{}{} // for the last batch ("X")
	go func() {
		for range g.entered {
		}
	}()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := g.String(); got != "0123456789abcdefghijX" {
		t.Fatalf("wrote %q", got)
	}
}

func TestCloseReportsErrorAndWritesThroughAfter(t *testing.T) {
	g := &gate{entered: make(chan struct{}, 8), release: make(chan struct{}, 8), err: errors.New("disk full")}
	for range 8 {
		g.release <- struct{}{}
	}
	w := New(g, 0)
	w.Write([]byte("a"))
	if err := w.Close(); err == nil || err.Error() != "disk full" {
		t.Fatalf("Close: %v, want disk full", err)
	}
	if err := w.Close(); err == nil {
		t.Fatal("a second Close lost the error")
	}
	if _, err := w.Write([]byte("b")); err == nil {
		t.Fatal("a write after Close did not go straight through")
	}
	if got := g.String(); got != "ab" {
		t.Fatalf("wrote %q", got)
	}
}
