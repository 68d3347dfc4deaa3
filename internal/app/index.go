package app

import (
	"cmp"
	"context"
	"os"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// IndexRequest asks for a root to be indexed.
type IndexRequest struct {
	Root        string // the folder to index; relative paths are relative to the working directory
	Force       bool   // rebuild instead of updating
	Embedder    string // "" keeps the recorded embedder
	SpecsDir    string // "" keeps the recorded specs folder
	MaxFileSize int64
	SkipDirs    []string
	Workers     int
	// MemoryBudget bounds the run's in-memory index, in bytes; 0 is the
	// default (see index.Options.MemoryBudget).
	MemoryBudget int64
	// NoWait fails with INDEX_BUSY instead of waiting for another writer;
	// OnWait is told, once, that the run waits and for which process.
	NoWait   bool
	OnWait   func(holderPID int)
	Progress func(index.Progress)
	// Paths, when not nil, are the only paths that changed since the last
	// run (see index.Options.Paths): a watcher's batch.
	Paths []string
	// DeferMerges: see index.Options.DeferMerges.
	DeferMerges bool
}

// Index builds or updates the index of a root: the collection Locate
// names for it, in a database opened for this run only.
func (a *App) Index(ctx context.Context, req IndexRequest) (*index.Stats, error) {
	root, err := fsroot.Open(req.Root)
	if err != nil {
		return nil, err
	}
	loc, err := a.Locate(root.Path())
	if err != nil {
		return nil, err
	}
	db, err := sqlite.Open(ctx, loc.Database)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	stats, err := index.Run(ctx, db, index.Options{
		Root: root.Path(), Collection: loc.Collection, Force: req.Force, Embedder: req.Embedder,
		SpecsDir: req.SpecsDir, MaxFileSize: req.MaxFileSize, SkipDirs: req.SkipDirs, Workers: req.Workers,
		MemoryBudget: cmp.Or(req.MemoryBudget, a.indexMemory), NoWait: req.NoWait, OnWait: req.OnWait, Progress: req.Progress, Paths: req.Paths,
		DeferMerges: req.DeferMerges,
	})
	if err == nil {
		a.keepFresh(root.Path(), "", loc) // a root indexed in a server stays fresh
	}
	return stats, err
}

// IndexStarted reports whether a run has begun the index file at path:
// the file is there, or a first build's new file is (a first build runs,
// or was killed, before the index file exists).
func IndexStarted(path string) bool {
	for _, p := range []string{path, sqlite.BuildPath(path)} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}
