// Package app holds lore's services: the logic every front end shares. The
// CLI (cmd/lore), the MCP server (internal/mcp) and the HTTP API
// (internal/httpapi) parse their input, call a service here and render
// its answer; none of them opens an index or ranks anything itself.
//
// One App serves one process: it knows where each root's index lives,
// keeps the open index databases and the search engines, packages and
// specs loaded from them, and reloads what a newer run replaced. It is
// safe for concurrent use.
package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/lore-dev/lore/internal/assist"
	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// Options configures an App.
type Options struct {
	// IndexFor names the collection that indexes an absolute root; nil
	// means the default: the root's own file under the user's cache,
	// collection store.DefaultCollection.
	IndexFor func(absRoot string) (store.Locator, error)
	// Chat is an OpenAI-compatible chat endpoint for query expansion and
	// synthesis when the caller brings no model of its own; may be nil.
	Chat assist.Model
	// Collections is the database of named collections (lore index
	// --collection, lore collections, the collections tools); "" means
	// config.CollectionsPath's default.
	Collections string
	// Served, when not empty, restricts the named collections this App
	// reads, lists and writes to these (lore serve --collection).
	Served []string
	// Watch, when set, lets Watch, WatchCollection and WatchServed keep
	// indexes fresh by themselves (lore serve; not one-shot commands).
	Watch *WatchOptions
	// IndexMemory is the memory budget, in bytes, of the index runs whose
	// request gives none: the watcher's, the index tools' and routes' (lore
	// serve reads LORE_INDEX_MEMORY). 0 is the store's default.
	IndexMemory int64
}

// App is lore's services over the indexes of one process.
type App struct {
	indexFor    func(string) (store.Locator, error)
	chat        assist.Model
	collections string   // the database of named collections; "" until first needed
	served      []string // the named collections served; nil means all

	mu       sync.Mutex
	dbs      map[string]store.DB              // read-only databases by location
	engines  map[store.Locator]*search.Engine // by collection
	packages map[store.Locator]*Packages      // the last loaded generation of each
	specs    map[store.Locator]*specIndex
	scans    map[store.Locator]*scanIndex
	graphs   map[store.Locator]*symbolGraph // research graphs, the last loaded generation of each
	// fileIndexes has its own locks: loading one must not hold a.mu.
	fileIndexes fileIndexes
	jobs        *jobs
	watchOpts   *WatchOptions
	watchers    *watchers
	indexMemory int64 // Options.IndexMemory

	graphBuild sync.Mutex // held while a research graph is built
	searches   searchSlots
}

// New returns an App.
func New(opts Options) *App {
	indexFor := opts.IndexFor
	if indexFor == nil {
		indexFor = DefaultIndexFor("")
	}
	return &App{
		indexFor:    indexFor,
		chat:        opts.Chat,
		collections: opts.Collections,
		served:      opts.Served,
		dbs:         map[string]store.DB{},
		engines:     map[store.Locator]*search.Engine{},
		packages:    map[store.Locator]*Packages{},
		specs:       map[store.Locator]*specIndex{},
		scans:       map[store.Locator]*scanIndex{},
		graphs:      map[store.Locator]*symbolGraph{},
		jobs:        newJobs(),
		watchOpts:   opts.Watch,
		indexMemory: opts.IndexMemory,
		watchers:    newWatchers(),
		searches:    newSearchSlots(),
	}
}

// DefaultIndexFor is where a root's index lives: the file indexFile when
// set (lore --index, LORE_INDEX), else the root's own file under the
// user's cache; collection store.DefaultCollection either way.
func DefaultIndexFor(indexFile string) func(string) (store.Locator, error) {
	return func(absRoot string) (store.Locator, error) {
		path, err := config.IndexPath(indexFile, absRoot)
		if err != nil {
			return store.Locator{}, err
		}
		return store.Locator{Database: path, Collection: store.DefaultCollection}, nil
	}
}

// IndexUnder keeps every root's index in its own file under the folder
// cache, as the default does under the user's cache.
func IndexUnder(cache string) func(string) (store.Locator, error) {
	return func(absRoot string) (store.Locator, error) {
		return store.Locator{Database: config.IndexPathIn(cache, absRoot), Collection: store.DefaultCollection}, nil
	}
}

// ServeIndexFor is where lore serve finds indexes: indexFile (lore
// --index, LORE_INDEX) for the served root, every other root its own
// default file, so that indexing another allowed root never writes into
// the served root's index.
func ServeIndexFor(servedRoot, indexFile string) func(string) (store.Locator, error) {
	served, others := DefaultIndexFor(indexFile), DefaultIndexFor("")
	return func(absRoot string) (store.Locator, error) {
		if absRoot == servedRoot {
			return served(absRoot)
		}
		return others(absRoot)
	}
}

// Locate names the collection that indexes an absolute root.
func (a *App) Locate(absRoot string) (store.Locator, error) {
	loc, err := a.indexFor(absRoot)
	if err != nil {
		return store.Locator{}, err
	}
	loc.Collection = loc.Name()
	return loc, nil
}

// Close stops background jobs and releases every open index.
func (a *App) Close() error {
	a.watchers.stop()
	a.WaitJobs(context.Background())
	a.mu.Lock()
	defer a.mu.Unlock()
	var all []error
	for loc, db := range a.dbs {
		if err := db.Close(); err != nil {
			all = append(all, fmt.Errorf("closing the index %s: %w", loc, err))
		}
	}
	a.dbs = map[string]store.DB{}
	a.engines = map[store.Locator]*search.Engine{}
	a.packages = map[store.Locator]*Packages{}
	a.specs = map[store.Locator]*specIndex{}
	a.scans = map[store.Locator]*scanIndex{}
	a.graphs = map[store.Locator]*symbolGraph{}
	a.fileIndexes.mu.Lock()
	a.fileIndexes.byLoc = nil
	a.fileIndexes.mu.Unlock()
	return errors.Join(all...)
}

// reader returns the collection that indexes root. A root without an
// index is an *errs.Error of kind NoIndex whose details name the root and
// the index's location.
func (a *App) reader(ctx context.Context, root string) (store.Reader, store.Locator, error) {
	loc, err := a.Locate(root)
	if err != nil {
		return nil, loc, err
	}
	r, err := a.readerAt(ctx, loc)
	if err != nil {
		return nil, loc, noIndex(err, root, loc)
	}
	return r, loc, nil
}

// readerAt returns a collection, opening its database read-only once; a
// failure to open is not remembered, so the next call retries.
func (a *App) readerAt(ctx context.Context, loc store.Locator) (store.Reader, error) {
	a.mu.Lock()
	db, ok := a.dbs[loc.Database]
	if !ok {
		var err error
		db, err = sqlite.OpenReadOnly(ctx, loc.Database)
		if err != nil {
			a.mu.Unlock()
			return nil, err
		}
		a.dbs[loc.Database] = db
	}
	a.mu.Unlock()
	return db.Reader(ctx, loc.Collection)
}

// noIndex adds what front ends need to say what to run to a NoIndex
// error: the root and the index's location.
func noIndex(err error, root string, loc store.Locator) error {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.NoIndex {
		return err
	}
	return e.With("root", root).With("index", loc.Database).With("collection", loc.Collection)
}

// engine returns the search engine of the collection that indexes root.
func (a *App) engine(ctx context.Context, root string) (*search.Engine, store.Locator, error) {
	loc, err := a.Locate(root)
	if err != nil {
		return nil, loc, err
	}
	e, err := a.engineAt(ctx, loc)
	if err != nil {
		return nil, loc, noIndex(err, root, loc)
	}
	return e, loc, nil
}

// engineAt returns the search engine of a collection, made once and kept:
// it reloads by itself when a run commits.
func (a *App) engineAt(ctx context.Context, loc store.Locator) (*search.Engine, error) {
	a.mu.Lock()
	if e, ok := a.engines[loc]; ok {
		a.mu.Unlock()
		return e, nil
	}
	a.mu.Unlock()
	r, err := a.readerAt(ctx, loc)
	if err != nil {
		return nil, err
	}
	e, err := search.New(ctx, r)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if prev, ok := a.engines[loc]; ok {
		return prev, nil // another call made it meanwhile
	}
	a.engines[loc] = e
	return e, nil
}
