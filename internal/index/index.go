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
	// MaxFileSize skips larger files; 0 means the walker's default (1 MiB),
	// a negative value means no limit.
	MaxFileSize int64
	SkipDirs    []string       // folder names to skip besides ignore rules and the default list
	Progress    func(Progress) // called as files are processed; may be nil
	// NoWait makes a run whose collection another run is writing (in
	// this process or another) fail at once with INDEX_BUSY instead of
	// waiting for it.
	NoWait bool
	// OnWait is called once when the run starts waiting for another run
	// to finish, with that run's process id (0 if unknown); may be nil.
	OnWait func(holderPID int)
}

// Progress reports how far an index run is.
type Progress struct {
	Done  int    // files processed so far
	Total int    // files to process
	Path  string // the file just processed, relative to the root
}

// Stats is what an index run did.
type Stats struct {
	Root       string        `json:"root"`
	IndexPath  string        `json:"index_path"`
	Collection string        `json:"collection"`
	Scanned    int           `json:"files_scanned"`
	Indexed    int           `json:"files_indexed"`
	Unchanged  int           `json:"files_unchanged"`
	Deleted    int           `json:"files_deleted"`
	Chunks     int           `json:"chunks"`
	Errors     int           `json:"errors"`
	FileErrors []FileError   `json:"file_errors,omitempty"`
	Packages   int           `json:"packages"`
	Specs      int           `json:"specs"`
	Warnings   []FileError   `json:"warnings,omitempty"` // manifests and specs that could not be parsed
	Duration   time.Duration `json:"-"`
	DurationMS int64         `json:"duration_ms"`
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
