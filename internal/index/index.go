// Package index builds and incrementally updates a collection: walk the
// root, parse each file once into chunks, terms and symbols (what it
// defines and refers to), write them through a store.WriteTx, in one
// atomic commit.
package index

import (
	"context"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
)

// Options says what to index.
type Options struct {
	Root       string // the directory to index; made absolute
	Collection string // the collection to write; "" means store.DefaultCollection
	Force      bool   // rebuild from scratch instead of updating
	Embedder   string // embedder spec ("builtin", "model2vec:<dir>", "openai:<model>"); empty keeps the recorded one
	SpecsDir   string // where specs live, relative to Root; empty finds openspec/ and specs/
	Workers    int    // parse workers; 0 means GOMAXPROCS
	// MemoryBudget bounds the inverted index the run holds in memory, in
	// bytes (see store.WriteOptions.MemoryBudget); 0 means
	// store.DefaultMemoryBudget. It changes how the run writes, never what.
	MemoryBudget int64
	// MaxFileSize skips larger files; 0 keeps the limit the collection was
	// last indexed with, or the walker's default (1 MiB); a negative value
	// means no limit.
	MaxFileSize int64
	// SkipDirs are folder names to skip besides ignore rules and the
	// default list; nil keeps the ones the collection was last indexed
	// with (so a watching server's runs skip what the user's did), an
	// empty slice clears them.
	SkipDirs []string
	// Paths, when not nil, are the only paths (relative to Root,
	// slash-separated) that may have changed since the last run: what a
	// watcher saw created, written or removed. The run then checks just
	// them instead of walking the root, so that its cost follows the
	// change; it walks anyway when it cannot be limited (a forced rebuild,
	// other walk options, a folder, a symlink or a package manifest among
	// the paths, more than a few hundred paths). Stats.Scanned counts the
	// paths checked.
	Paths    []string
	Progress func(Progress) // called as files are processed; may be nil
	// NoWait makes a run whose collection another run is writing (in
	// this process or another) fail at once with INDEX_BUSY instead of
	// waiting for it.
	NoWait bool
	// OnWait is called once when the run starts waiting for another run
	// to finish, with that run's process id (0 if unknown); may be nil.
	OnWait func(holderPID int)
	// DeferMerges leaves merging the collection's segments to a later
	// store.DB.Maintain (see store.WriteOptions), so that the run's change
	// is searchable before the merge's cost: what a watching server does.
	DeferMerges bool
}

// Progress reports how far an index run is.
type Progress struct {
	Done  int    // files processed so far
	Total int    // files to process: those the walk found so far, until it ends
	Path  string // the file just processed, relative to the root
}

// Stats is what an index run did. Its JSON is lore's one vocabulary for
// index statistics: lore index --format json prints it, index_codebase
// answers it as its structured content and a REST index job reports it as
// its stats. The files_* counts are of this run; chunks_written is what
// this run wrote (0 when nothing changed), not what the index holds.
type Stats struct {
	Root       string      `json:"root"`
	IndexPath  string      `json:"index_path"`
	Collection string      `json:"collection"`
	Scanned    int         `json:"files_scanned"`   // files the walk found; binary ones are not indexed
	Indexed    int         `json:"files_indexed"`   // files (re)parsed and written
	Unchanged  int         `json:"files_unchanged"` // files skipped because they did not change
	Deleted    int         `json:"files_deleted"`   // files gone since the last run, removed from the index
	Chunks     int         `json:"chunks_written"`  // chunks of the files indexed
	Errors     int         `json:"errors"`          // files that could not be indexed: len(FileErrors)
	FileErrors []FileError `json:"file_errors"`
	Packages   int         `json:"packages"` // packages the index holds after the run
	Specs      int         `json:"specs"`    // specs the index holds after the run
	// Packages and specs are incremental: the manifests and spec files
	// read because they are new or changed (of all there are), whether the
	// stored packages and specs were replaced, and the time each took, a
	// part of DurationMS.
	Manifests       int           `json:"manifests"`
	ManifestsRead   int           `json:"manifests_read"`
	PackagesUpdated bool          `json:"packages_updated"`
	PackagesMS      int64         `json:"packages_ms"`
	SpecFiles       int           `json:"spec_files"`
	SpecFilesRead   int           `json:"spec_files_read"`
	SpecsUpdated    bool          `json:"specs_updated"`
	SpecsMS         int64         `json:"specs_ms"`
	Warnings        []FileError   `json:"warnings"` // manifests and specs that could not be parsed
	Duration        time.Duration `json:"-"`
	DurationMS      int64         `json:"duration_ms"`
}

// NoChanges reports whether the run found nothing to do: no file indexed,
// deleted or failed.
func (s *Stats) NoChanges() bool {
	return s.Indexed == 0 && s.Deleted == 0 && s.Errors == 0
}

// FileError is a file that could not be indexed; the run goes on without it.
type FileError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Run indexes opts.Root into a collection of db. Cancelling ctx stops the
// run promptly and leaves the previous generation untouched. Runs on one
// collection take turns: each is the collection's writer (see
// store.DB.Write) from before it walks the root until it commits.
func Run(ctx context.Context, db store.DB, opts Options) (*Stats, error) {
	stats, err := run(ctx, db, opts)
	if err != nil && ctx.Err() != nil && errs.KindOf(err) != errs.Cancelled {
		// Cancelling rolls the transaction back under whatever statement was
		// running; its error ("statement is closed") is the cancellation.
		return nil, cancelled(ctx.Err())
	}
	return stats, err
}
