package app

import (
	"context"
	"sync"

	"github.com/lore-dev/lore/internal/files"
	"github.com/lore-dev/lore/internal/store"
)

// The exact search's n-gram index (files.FileIndex): loaded from a
// collection once per generation and kept, and vouched complete while the
// collection's watcher has seen no change since its last run, so that a
// search lists the files from it instead of walking the root.

// fileIndexes are the loaded n-gram indexes, by collection.
type fileIndexes struct {
	mu    sync.Mutex
	byLoc map[store.Locator]*fileIndexEntry
}

// fileIndexEntry is one collection's n-gram index.
type fileIndexEntry struct {
	load sync.Mutex // held while a generation loads

	mu         sync.Mutex
	generation string           // "" before the first load
	ix         *files.FileIndex // of generation; nil when it has none
}

func (fi *fileIndexes) entry(loc store.Locator) *fileIndexEntry {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if fi.byLoc == nil {
		fi.byLoc = map[store.Locator]*fileIndexEntry{}
	}
	e, ok := fi.byLoc[loc]
	if !ok {
		e = &fileIndexEntry{}
		fi.byLoc[loc] = e
	}
	return e
}

func (fi *fileIndexes) loaded(loc store.Locator) bool {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	_, ok := fi.byLoc[loc]
	return ok
}

// FileIndex is a files.IndexFunc: the n-gram index of the collection that
// indexes root, nil when there is none. It is Complete when a watcher of
// this App vouches that nothing changed since the run that wrote it.
// While a newer generation loads, other callers get the previous one, not
// complete (the search then compares every file with it).
func (a *App) FileIndex(ctx context.Context, root string) *files.FileIndex {
	loc, err := a.Locate(root)
	if err != nil {
		return nil
	}
	// Whether anything changed is read before the generation: a change
	// seen later belongs to a later search.
	complete := a.unchangedSinceRun(loc)
	r, err := a.readerAt(ctx, loc)
	if err != nil {
		return nil
	}
	gen, err := r.Generation(ctx)
	if err != nil {
		return nil
	}
	e := a.fileIndexes.entry(loc)
	e.mu.Lock()
	ix, current, loaded := e.ix, e.generation == gen, e.generation != ""
	e.mu.Unlock()
	if !current {
		if loaded && !e.load.TryLock() {
			return withComplete(ix, false) // another call is loading it
		}
		if !loaded {
			e.load.Lock()
		}
		ix, err = a.loadFileIndex(ctx, e, r, gen)
		e.load.Unlock()
		if err != nil {
			a.logWarn("cannot load the exact search's index; searching by scanning", "root", root, "error", err.Error())
			return nil
		}
	}
	return withComplete(ix, complete)
}

// loadFileIndex makes e hold generation gen, read from r; the caller holds
// e.load.
func (a *App) loadFileIndex(ctx context.Context, e *fileIndexEntry, r store.Reader, gen string) (*files.FileIndex, error) {
	e.mu.Lock()
	if e.generation == gen {
		defer e.mu.Unlock()
		return e.ix, nil // loaded while this call waited
	}
	prev, prevGen := e.ix, e.generation
	e.mu.Unlock()
	if prev != nil {
		// A run's change, applied: reading the index whole takes seconds
		// on a large root, after every save.
		changes, ok, err := r.Changes(ctx, prevGen)
		if err != nil {
			return nil, err
		}
		if ok && len(changes) > 0 {
			if ix, ok := prev.WithChanges(changes); ok {
				e.mu.Lock()
				e.ix, e.generation = ix, changes[len(changes)-1].Generation
				e.mu.Unlock()
				return ix, nil
			}
		}
	}
	ix, err := files.LoadIndex(ctx, r)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.ix, e.generation = ix, gen
	e.mu.Unlock()
	return ix, nil
}

func withComplete(ix *files.FileIndex, complete bool) *files.FileIndex {
	if ix == nil {
		return nil
	}
	c := *ix
	c.Complete = complete
	return &c
}

// unchangedSinceRun reports whether the collection at loc is watched and
// its watcher has seen no change since the last run committed: none
// pending, none being indexed, the last run successful, and the changes
// made before the watch started already compared.
func (a *App) unchangedSinceRun(loc store.Locator) bool {
	a.watchers.mu.Lock()
	st := a.watchers.byLoc[loc]
	a.watchers.mu.Unlock()
	if st == nil {
		return false
	}
	p := st.w.Pending()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.synced && !st.indexing && st.lastErr == "" && len(p.Paths) == 0 && !p.Overflow
}

// refreshFileIndex loads a watched root's new generation right after a
// run, when a search has used its index before, so that searches need not.
func (a *App) refreshFileIndex(ctx context.Context, root string, loc store.Locator) {
	if a.fileIndexes.loaded(loc) {
		a.FileIndex(ctx, root)
	}
}

func (a *App) logWarn(msg string, args ...any) {
	if a.watchOpts != nil && a.watchOpts.Logger != nil {
		a.watchOpts.Logger.Warn(msg, args...)
	}
}
