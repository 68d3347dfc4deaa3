// Package watch tells when the files under a root change, so that an
// index can keep itself fresh. It watches with the platform's file events
// (inotify, kqueue, ReadDirectoryChangesW, through fsnotify) where it can,
// and falls back to a periodic scan where it cannot: network and FUSE file
// systems, whose events do not cover changes made by other machines, and
// a watch limit reached. Bursts of events (a branch switch, a formatter
// run over the tree) are collapsed into one batch, delivered once the tree
// has been quiet for a moment.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Defaults of Options.
const (
	DefaultQuiet    = 300 * time.Millisecond
	DefaultMaxDelay = 3 * time.Second
	DefaultPoll     = 2 * time.Second
)

// maxBatchPaths bounds the paths a batch lists; beyond it the batch only
// says it overflowed.
const maxBatchPaths = 10000

// Modes a watcher runs in.
const (
	ModeNotify = "notify" // the platform's file events
	ModePoll   = "poll"   // a periodic scan
)

// Options configures Watch.
type Options struct {
	// Ignored reports whether a path (relative to the root, with forward
	// slashes) is left out of the index: no watch is set on an ignored
	// folder, and a change to an ignored file does not count. nil ignores
	// nothing. Ignore files (.gitignore, .ignore) always count, since they
	// change what is ignored.
	Ignored func(rel string, isDir bool) bool
	// Quiet is how long the tree must be quiet before a batch is
	// delivered; MaxDelay bounds how long a batch may wait under a
	// steady stream of events. Zero means the defaults.
	Quiet, MaxDelay time.Duration
	// Poll, when positive, scans every Poll instead of using file events.
	// Zero picks file events, or a scan every DefaultPoll where events
	// cannot be trusted.
	Poll time.Duration
	// List, if set, lists the files a scan compares (relative path, size,
	// modification time), e.g. the indexer's own walk; nil walks the tree,
	// asking Ignored of every path.
	List   func(ctx context.Context, fn func(rel string, size int64, mtime time.Time)) error
	Logger *slog.Logger // nil discards
}

// Batch is the changes seen since the previous batch.
type Batch struct {
	// Paths that were created, written, removed or renamed, relative to
	// the root, sorted, without repeats. A folder created is listed with
	// what it holds; a folder removed is listed itself.
	Paths []string
	// Overflow is set when more changed than Paths lists: too many
	// paths, or events the platform dropped.
	Overflow bool
}

// Watcher watches one root.
type Watcher struct {
	root string
	opts Options
	log  *slog.Logger

	ready chan struct{} // closed once the watcher watches

	mu      sync.Mutex
	mode    string
	pending map[string]bool
	over    bool
	// delivering is the batch being delivered: still pending for
	// Pending until deliver returns, so that no change is out of sight
	// between the watcher and its consumer.
	delivering Batch
	kick       chan struct{} // an event arrived
}

// New prepares a watcher of root (an absolute folder); Run starts it.
func New(root string, opts Options) (*Watcher, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("watching %s: not a folder", root)
	}
	if opts.Ignored == nil {
		opts.Ignored = func(string, bool) bool { return false }
	}
	opts.Quiet = cmpOr(opts.Quiet, DefaultQuiet)
	opts.MaxDelay = cmpOr(opts.MaxDelay, DefaultMaxDelay)
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Watcher{root: root, opts: opts, log: log, pending: map[string]bool{}, kick: make(chan struct{}, 1), ready: make(chan struct{})}, nil
}

// Mode is how the watcher watches: ModeNotify or ModePoll ("" before Run).
func (w *Watcher) Mode() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.mode
}

// Ready is closed once the watcher watches: a change made after that is
// seen.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Changed reports changes the caller knows of (found by comparing the
// tree with an index, say), as if the watcher had seen them.
func (w *Watcher) Changed(rels ...string) {
	for _, rel := range rels {
		w.note(rel)
	}
}

// Pending is the changes seen and not yet delivered, with the batch being
// delivered (until deliver returns).
func (w *Watcher) Pending() Batch {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := Batch{Overflow: w.over || w.delivering.Overflow, Paths: make([]string, 0, len(w.pending)+len(w.delivering.Paths))}
	for p := range w.pending {
		b.Paths = append(b.Paths, p)
	}
	b.Paths = append(b.Paths, w.delivering.Paths...)
	slices.Sort(b.Paths)
	b.Paths = slices.Compact(b.Paths)
	return b
}

// Delivered tells the watcher, from inside deliver, that the batch being
// delivered is handled (its changes committed and visible): Pending stops
// listing it before deliver returns, so that whatever deliver does after
// (telling others the changes are in) sees no change left.
func (w *Watcher) Delivered() {
	w.mu.Lock()
	w.delivering = Batch{}
	w.mu.Unlock()
}

// Run watches until ctx ends, calling deliver with each batch, one at a
// time, from one goroutine. It returns nil when ctx ends, or the error
// that made watching impossible.
func (w *Watcher) Run(ctx context.Context, deliver func(Batch)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	source := make(chan error, 1)
	go func() { source <- w.watch(ctx) }()
	for {
		batch, err := w.next(ctx, source)
		if err != nil || ctx.Err() != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		deliver(batch)
		w.Delivered() // if deliver did not say so itself
	}
}

// next waits for the first change, then for the quiet period (bounded by
// MaxDelay), and takes the batch.
func (w *Watcher) next(ctx context.Context, source <-chan error) (Batch, error) {
	select {
	case <-ctx.Done():
		return Batch{}, nil
	case err := <-source:
		return Batch{}, err
	case <-w.kick:
	}
	deadline := time.NewTimer(w.opts.MaxDelay)
	defer deadline.Stop()
	quiet := time.NewTimer(w.opts.Quiet)
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return Batch{}, nil
		case err := <-source:
			return Batch{}, err
		case <-w.kick:
			quiet.Reset(w.opts.Quiet)
			continue
		case <-quiet.C:
		case <-deadline.C:
		}
		return w.take(), nil
	}
}

// take empties the pending changes into a batch.
func (w *Watcher) take() Batch {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := Batch{Overflow: w.over}
	for p := range w.pending {
		b.Paths = append(b.Paths, p)
	}
	slices.Sort(b.Paths)
	w.pending, w.over = map[string]bool{}, false
	w.delivering = b
	return b
}

// note records a change of rel and wakes the batcher.
func (w *Watcher) note(rel string) {
	w.mu.Lock()
	if len(w.pending) < maxBatchPaths {
		w.pending[rel] = true
	} else {
		w.over = true
	}
	w.mu.Unlock()
	w.wake()
}

// overflow records that changes were lost.
func (w *Watcher) overflow() {
	w.mu.Lock()
	w.over = true
	w.mu.Unlock()
	w.wake()
}

func (w *Watcher) wake() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

func (w *Watcher) setMode(mode string) {
	w.mu.Lock()
	first := w.mode == ""
	w.mode = mode
	w.mu.Unlock()
	if first {
		close(w.ready)
	}
}

// watch feeds changes until ctx ends: file events when they can be
// trusted and set up, else a periodic scan.
func (w *Watcher) watch(ctx context.Context) error {
	if w.opts.Poll > 0 {
		return w.poll(ctx, w.opts.Poll)
	}
	if fsType, remote := remoteFileSystem(w.root); remote {
		w.log.Info("watching by scanning: file events do not cover this file system", "root", w.root, "fs", fsType, "every", DefaultPoll.String())
		return w.poll(ctx, DefaultPoll)
	}
	err := w.notify(ctx)
	if err == nil || ctx.Err() != nil {
		return nil
	}
	w.log.Warn("file events unavailable; watching by scanning", "root", w.root, "error", err.Error(), "every", DefaultPoll.String())
	w.overflow() // what happened while switching is unknown
	return w.poll(ctx, DefaultPoll)
}

// notify watches with file events. It returns an error when they cannot
// be set up (the watch limit, say); changes are then polled.
func (w *Watcher) notify(ctx context.Context) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer fw.Close()
	if err := w.addTree(fw, "", false); err != nil {
		return err
	}
	w.setMode(ModeNotify)
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-fw.Errors:
			if !ok {
				return errors.New("the event stream closed")
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.log.Warn("file events were dropped; the next index run checks every file", "root", w.root)
				w.overflow()
				continue
			}
			w.log.Warn("file event error", "root", w.root, "error", err.Error())
		case ev, ok := <-fw.Events:
			if !ok {
				return errors.New("the event stream closed")
			}
			if err := w.event(fw, ev); err != nil {
				return err
			}
		}
	}
}

// event handles one file event.
func (w *Watcher) event(fw *fsnotify.Watcher, ev fsnotify.Event) error {
	if ev.Op == fsnotify.Chmod {
		return nil // permissions and times only: the content is the same
	}
	rel, ok := w.rel(ev.Name)
	if !ok || rel == "" {
		return nil
	}
	isDir := false
	if ev.Has(fsnotify.Create) {
		if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
			isDir = true
		}
	}
	if w.ignored(rel, isDir) {
		return nil
	}
	w.note(rel)
	if isDir {
		// A new folder: watch it, and count what it already holds (files
		// may have landed before its watch did).
		return w.addTree(fw, rel, true)
	}
	return nil
}

// addTree adds watches on rel and every folder under it that is not
// ignored; with noteFiles it also counts the files found as changed.
// Symlinked folders are not followed.
func (w *Watcher) addTree(fw *fsnotify.Watcher, rel string, noteFiles bool) error {
	return filepath.WalkDir(filepath.Join(w.root, filepath.FromSlash(rel)), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return nil // gone already, or unreadable: nothing to index there
			}
			return err
		}
		r, _ := w.rel(path)
		if !d.IsDir() {
			if noteFiles && !w.ignored(r, false) {
				w.note(r)
			}
			return nil
		}
		if r != "" && w.ignored(r, true) {
			return filepath.SkipDir
		}
		if err := fw.Add(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipDir
			}
			return fmt.Errorf("watching %s: %w", path, err)
		}
		return nil
	})
}

// rel is path relative to the root, with forward slashes; false when it
// is outside.
func (w *Watcher) rel(path string) (string, bool) {
	rel, err := filepath.Rel(w.root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}

// ignored is Options.Ignored, except that ignore files always count.
func (w *Watcher) ignored(rel string, isDir bool) bool {
	if !isDir {
		switch rel[strings.LastIndexByte(rel, '/')+1:] {
		case ".gitignore", ".ignore":
			return w.opts.Ignored(parentOf(rel), true)
		}
	}
	return w.opts.Ignored(rel, isDir)
}

func parentOf(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// entry is what a scan remembers of a path.
type entry struct {
	size  int64
	mtime time.Time
	dir   bool
}

// poll scans the tree every interval and reports what differs from the
// previous scan.
func (w *Watcher) poll(ctx context.Context, every time.Duration) error {
	prev, err := w.scan(ctx)
	if err != nil {
		return err
	}
	w.setMode(ModePoll) // ready: a change from now on differs from prev
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		cur, err := w.scan(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			w.log.Warn("scanning for changes failed", "root", w.root, "error", err.Error())
			continue
		}
		for rel, e := range cur {
			if p, ok := prev[rel]; !ok || p != e {
				w.note(rel)
			}
		}
		for rel := range prev {
			if _, ok := cur[rel]; !ok {
				w.note(rel)
			}
		}
		prev = cur
	}
}

// scan records size and modification time of every path under the root
// that is not ignored.
func (w *Watcher) scan(ctx context.Context) (map[string]entry, error) {
	out := map[string]entry{}
	if w.opts.List != nil {
		err := w.opts.List(ctx, func(rel string, size int64, mtime time.Time) {
			out[rel] = entry{size: size, mtime: mtime}
		})
		return out, err
	}
	err := filepath.WalkDir(w.root, func(path string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return nil
			}
			return err
		}
		rel, _ := w.rel(path)
		if rel == "" {
			return nil
		}
		if w.ignored(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // gone meanwhile
		}
		e := entry{dir: d.IsDir()}
		if !e.dir {
			e.size, e.mtime = info.Size(), info.ModTime()
		}
		out[rel] = e
		return nil
	})
	return out, err
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
