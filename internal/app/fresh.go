package app

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
	"github.com/lore-dev/lore/internal/watch"
)

// An index that stays fresh by itself: a server (lore serve) asks the App
// to watch the roots it serves (Options.Watch); each watched root is
// re-indexed, incrementally and in the background, once a burst of
// changes has settled. A run commits as one generation, so a search sees
// the index before the run or after it, never half of it, and never waits
// for the run (only, once, for the engine to read the new generation,
// which the watcher does itself right after committing).

// WatchOptions turns on watching (see Options.Watch).
type WatchOptions struct {
	Quiet, MaxDelay time.Duration // the watcher's debouncing; zero means watch's defaults
	Poll            time.Duration // > 0 scans every Poll instead of using file events
	Logger          *slog.Logger  // nil discards
	// OnIndexed, if set, is told about every run a watcher made (err nil
	// on success), after the engine has read the new generation and the
	// run's deferred merge is done.
	OnIndexed func(root string, stats *index.Stats, err error)
}

// Freshness is how current an index is.
type Freshness struct {
	// Watching is set when this server keeps the index fresh by itself.
	Watching  bool   `json:"watching"`
	WatchMode string `json:"watch_mode,omitempty"` // "notify" (file events) or "poll" (scans)
	Indexing  bool   `json:"indexing"`             // a run is under way
	// PendingChanges counts the files changed since the last run: seen by
	// the watcher, or found by comparing sizes and modification times
	// when nothing watches. -1 means more than could be counted (the
	// platform dropped events).
	PendingChanges int `json:"pending_changes"`
	// PendingPaths lists some of them.
	PendingPaths []string `json:"pending_paths"`
	// LastRun is the watcher's last run, if any.
	LastRun   *WatchRun `json:"last_run,omitempty"`
	LastError string    `json:"last_error,omitempty"`
}

// WatchRun is one run a watcher made.
type WatchRun struct {
	Finished   time.Time `json:"finished"`
	DurationMS int64     `json:"duration_ms"`
	Changes    int       `json:"changes"` // the changes that started it
	Indexed    int       `json:"files_indexed"`
	Deleted    int       `json:"files_deleted"`
}

// watched is the state of one watched index.
type watched struct {
	root       string
	collection string // "" for a root's own index
	w          *watch.Watcher

	mu       sync.Mutex
	indexing bool
	batch    []string // the changes the current run picks up
	overflow bool
	synced   bool // the changes made before the watch started are known
	// walked is set once a run walked the whole root after the watch
	// started; until then, and after the changes found by comparing were
	// reported (Pending lists only some), a run walks instead of checking
	// just the batch's paths.
	walked  bool
	lastRun *WatchRun
	lastErr string
}

// watchers are the App's watched indexes.
type watchers struct {
	mu     sync.Mutex
	byLoc  map[store.Locator]*watched
	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newWatchers() *watchers {
	ctx, cancel := context.WithCancel(context.Background())
	return &watchers{byLoc: map[store.Locator]*watched{}, ctx: ctx, cancel: cancel}
}

// stop ends every watcher and waits for them. No watcher starts after
// it: watch checks ctx and adds to wg under mu.
func (ws *watchers) stop() {
	ws.mu.Lock()
	ws.cancel()
	ws.mu.Unlock()
	ws.wg.Wait()
}

// Watch keeps the index of root fresh until the App closes: root must
// have an index already. Watching a root twice is watching it once. It
// does nothing unless Options.Watch is set.
func (a *App) Watch(ctx context.Context, root string) error {
	loc, err := a.Locate(root)
	if err != nil {
		return err
	}
	if _, err := a.readerAt(ctx, loc); err != nil {
		return noIndex(err, root, loc)
	}
	return a.watch(root, "", loc)
}

// WatchCollection keeps a named collection fresh until the App closes.
func (a *App) WatchCollection(ctx context.Context, name string) error {
	r, loc, err := a.collectionReader(ctx, name)
	if err != nil {
		return err
	}
	c, err := r.Collection(ctx)
	if err != nil {
		return err
	}
	return a.watch(c.Root, name, loc)
}

// WatchServed watches every named collection the App serves.
func (a *App) WatchServed(ctx context.Context) error {
	names, err := a.collectionNames(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		if !a.serves(name) {
			continue
		}
		if err := a.WatchCollection(ctx, name); err != nil && errs.KindOf(err) != errs.NotFound {
			return err
		}
	}
	return nil
}

// keepFresh starts watching an index that a run has just written, when
// the App watches; a failure to watch is logged, never the run's.
func (a *App) keepFresh(root, collection string, loc store.Locator) {
	if a.watchOpts == nil {
		return
	}
	if err := a.watch(root, collection, loc); err != nil && a.watchOpts.Logger != nil {
		a.watchOpts.Logger.Warn("cannot watch for changes", "root", root, "error", err.Error())
	}
}

func (a *App) watch(root, collection string, loc store.Locator) error {
	if a.watchOpts == nil {
		return nil
	}
	ws := a.watchers
	r, err := fsroot.Open(root)
	if err != nil {
		return err
	}
	opts := a.watchOpts
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w, err := watch.New(r.Path(), watch.Options{
		Ignored: r.Ignored, Quiet: opts.Quiet, MaxDelay: opts.MaxDelay, Poll: opts.Poll, Logger: log,
		// Scans compare what the indexer walks, walked as it walks.
		List: func(ctx context.Context, fn func(string, int64, time.Time)) error {
			return r.Walk(ctx, fsroot.WalkOptions{}, func(f fsroot.File) error {
				fn(f.Rel, f.Size, f.ModTime)
				return nil
			})
		},
	})
	if err != nil {
		return err
	}
	st := &watched{root: r.Path(), collection: collection, w: w}
	ws.mu.Lock()
	if _, ok := ws.byLoc[loc]; ok || ws.ctx.Err() != nil {
		ws.mu.Unlock()
		return nil
	}
	ws.byLoc[loc] = st
	ws.wg.Add(1)
	ws.mu.Unlock()
	stopped := make(chan struct{})
	go func() {
		defer ws.wg.Done()
		defer close(stopped)
		err := w.Run(ws.ctx, func(b watch.Batch) { a.freshen(ws.ctx, st, loc, b, log) })
		if err != nil {
			log.Error("watching stopped", "root", st.root, "error", err.Error())
			st.mu.Lock()
			st.lastErr = "watching stopped: " + err.Error()
			st.mu.Unlock()
		}
	}()
	// Once it watches, anything changed since the index was written (before
	// the watch could see it) is picked up by comparing.
	select {
	case <-w.Ready():
	case <-stopped:
		return nil
	}
	log.Info("watching for changes", "root", st.root, "collection", collection, "mode", w.Mode())
	if rd, err := a.readerAt(ws.ctx, loc); err == nil {
		if c, err := index.Pending(ws.ctx, rd, r, loc.Database); err == nil {
			if c.Total() > 0 {
				st.mu.Lock()
				st.walked = false // c.Paths may list only some of them
				st.mu.Unlock()
				w.Changed(c.Paths...)
			}
			st.mu.Lock()
			st.synced = true
			st.mu.Unlock()
		}
	}
	return nil
}

// freshen re-indexes a watched root after a batch of changes, then has the
// engine read the new generation.
func (a *App) freshen(ctx context.Context, st *watched, loc store.Locator, b watch.Batch, log *slog.Logger) {
	st.mu.Lock()
	st.indexing, st.batch, st.overflow = true, b.Paths, b.Overflow
	// The run's change is searchable first; its segments merge after.
	req := IndexRequest{Root: st.root, DeferMerges: true}
	if st.walked && !b.Overflow {
		// The batch lists every change: the run checks just those paths.
		req.Paths = append([]string{}, b.Paths...)
	}
	st.walked = true
	st.mu.Unlock()
	start := time.Now()
	var stats *index.Stats
	var err error
	if st.collection == "" {
		stats, err = a.Index(ctx, req)
	} else {
		_, stats, err = a.IndexCollection(ctx, st.collection, req)
	}
	if err == nil {
		if eng, eerr := a.engineAt(ctx, loc); eerr == nil {
			err = eng.Refresh(ctx)
		}
		if st.collection == "" {
			a.refreshFileIndex(ctx, st.root, loc)
		}
	}
	st.mu.Lock()
	st.indexing, st.batch, st.overflow = false, nil, false
	if err != nil {
		st.walked = false // the batch's changes are not in the index: walk next time
		st.lastErr = errMessage(err)
	} else {
		st.lastErr = ""
		st.lastRun = &WatchRun{Finished: time.Now().UTC(), DurationMS: time.Since(start).Milliseconds(), Changes: len(b.Paths),
			Indexed: stats.Indexed, Deleted: stats.Deleted}
	}
	st.mu.Unlock()
	// The batch is in the index (or its failure recorded): no longer
	// pending, before anyone is told the run ended.
	st.w.Delivered()
	switch {
	case err != nil && ctx.Err() == nil:
		log.Warn("re-indexing after changes failed", "root", st.root, "changes", len(b.Paths), "error", errMessage(err))
	case err == nil:
		log.Info("re-indexed after changes", "root", st.root, "changes", len(b.Paths), "indexed", stats.Indexed,
			"deleted", stats.Deleted, "duration_ms", time.Since(start).Milliseconds())
	}
	if err == nil {
		// Searches already see the change; the merge it deferred comes now.
		if merr := a.maintain(ctx, loc); merr != nil && ctx.Err() == nil {
			log.Warn("merging the index's segments failed; the next run tries again", "root", st.root, "error", errMessage(merr))
		}
	}
	if a.watchOpts.OnIndexed != nil && ctx.Err() == nil {
		a.watchOpts.OnIndexed(st.root, stats, err)
	}
}

// maintain merges the segments a watched run left to merge.
func (a *App) maintain(ctx context.Context, loc store.Locator) error {
	db, err := sqlite.Open(ctx, loc.Database)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Maintain(ctx, loc.Collection)
}

// errMessage is what a typed error tells its caller; an untyped one's
// text stays in the log.
func errMessage(err error) string {
	if e, ok := errs.As(err); ok && e.Message != "" {
		return e.Message
	}
	return "internal error; the server log has the details"
}

// Freshness reports how current the index of root is: from its watcher
// when one runs, else by comparing the files with the index.
func (a *App) Freshness(ctx context.Context, root string) (*Freshness, error) {
	r, loc, err := a.reader(ctx, root)
	if err != nil {
		return nil, err
	}
	return a.freshness(ctx, r, loc, root)
}

// CollectionFreshness is Freshness for a named collection.
func (a *App) CollectionFreshness(ctx context.Context, name string) (*Freshness, error) {
	r, loc, err := a.collectionReader(ctx, name)
	if err != nil {
		return nil, err
	}
	c, err := r.Collection(ctx)
	if err != nil {
		return nil, err
	}
	return a.freshness(ctx, r, loc, c.Root)
}

func (a *App) freshness(ctx context.Context, r store.Reader, loc store.Locator, root string) (*Freshness, error) {
	a.watchers.mu.Lock()
	st := a.watchers.byLoc[loc]
	a.watchers.mu.Unlock()
	if st == nil {
		fr, err := fsroot.Open(root)
		if err != nil {
			return nil, err
		}
		c, err := index.Pending(ctx, r, fr, loc.Database)
		if err != nil {
			return nil, err
		}
		return &Freshness{PendingChanges: c.Total(), PendingPaths: c.Paths}, nil
	}
	waiting := st.w.Pending()
	st.mu.Lock()
	defer st.mu.Unlock()
	paths := append(append([]string{}, st.batch...), waiting.Paths...)
	sort.Strings(paths)
	paths = dedupe(paths)
	f := &Freshness{Watching: true, WatchMode: st.w.Mode(), Indexing: st.indexing, PendingChanges: len(paths),
		LastRun: st.lastRun, LastError: st.lastErr}
	if st.overflow || waiting.Overflow {
		f.PendingChanges = -1
	}
	if len(paths) > maxPendingPaths {
		paths = paths[:maxPendingPaths]
	}
	f.PendingPaths = append([]string{}, paths...)
	return f, nil
}

// maxPendingPaths bounds Freshness.PendingPaths.
const maxPendingPaths = 20

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
