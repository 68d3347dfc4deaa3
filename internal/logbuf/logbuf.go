// Package logbuf is a bounded, asynchronous writer for a server's log: a
// write copies the bytes into a buffer and returns, and one goroutine
// writes the buffer out, so that many request goroutines logging at once
// do not queue behind each other's write system calls (log/slog holds its
// handler's lock across the write). When the buffer is full, writers wait
// for the goroutine to take it: memory stays bounded (the buffer and the
// batch being written) and nothing is dropped.
package logbuf

import (
	"io"
	"sync"
)

// DefaultLimit is the buffer size New uses for a limit of 0 or less.
const DefaultLimit = 1 << 20

// Writer is an io.Writer that buffers writes for a background goroutine
// to write to the underlying writer, in order. Close writes what is left
// and stops the goroutine; writes after Close go straight through.
type Writer struct {
	out   io.Writer
	limit int

	mu      sync.Mutex
	drained *sync.Cond // signalled each time the goroutine takes the buffer
	buf     []byte     // what waits to be written
	closed  bool
	err     error // the first write error of out, reported by Close

	wake chan struct{} // capacity 1: something is in buf, or Close ran
	done chan struct{} // closed when the goroutine has written all and ended
}

// New starts a Writer over out holding at most limit bytes in waiting
// (DefaultLimit for limit <= 0; one write larger than that is held alone).
func New(out io.Writer, limit int) *Writer {
	if limit <= 0 {
		limit = DefaultLimit
	}
	w := &Writer{out: out, limit: limit, wake: make(chan struct{}, 1), done: make(chan struct{})}
	w.drained = sync.NewCond(&w.mu)
	go w.loop()
	return w
}

// Write implements io.Writer: it copies p into the buffer, waiting while
// the buffer cannot take it, and always reports p as written (a failure
// of the underlying writer is reported by Close).
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	for !w.closed && len(w.buf) > 0 && len(w.buf)+len(p) > w.limit {
		w.drained.Wait()
	}
	if w.closed {
		w.mu.Unlock()
		<-w.done // after everything buffered before Close
		return w.out.Write(p)
	}
	w.buf = append(w.buf, p...)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default: // the goroutine is already told
	}
	return len(p), nil
}

// loop writes out the buffer each time it is woken, until Close.
func (w *Writer) loop() {
	defer close(w.done)
	var spare []byte
	for range w.wake {
		w.mu.Lock()
		batch, closed := w.buf, w.closed
		w.buf = spare[:0]
		w.drained.Broadcast() // the buffer has room again
		w.mu.Unlock()
		if len(batch) > 0 {
			if _, err := w.out.Write(batch); err != nil {
				w.mu.Lock()
				if w.err == nil {
					w.err = err
				}
				w.mu.Unlock()
			}
		}
		if cap(batch) <= 4*w.limit { // keep one buffer for reuse, not an outsized one
			spare = batch[:0]
		} else {
			spare = nil
		}
		if closed {
			return
		}
	}
}

// Close writes out everything written before it, stops the goroutine and
// returns the first error the underlying writer gave, if any. Later
// writes go straight to the underlying writer. Close is safe to call
// more than once.
func (w *Writer) Close() error {
	w.mu.Lock()
	already := w.closed
	w.closed = true
	w.drained.Broadcast()
	w.mu.Unlock()
	if !already {
		// The goroutine sees closed after taking the last batch and ends;
		// the buffer of one may already hold a wake-up, which suffices.
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
