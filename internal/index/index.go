// Package index builds and incrementally updates a root's index: walk,
// parse into chunks, store, in one atomic commit.
package index

import (
	"context"
	"time"

	"github.com/lore-dev/lore/internal/errs"
)

// Options says what to index and where.
type Options struct {
	Root      string // the directory to index; made absolute
	IndexPath string // the SQLite file; empty means the default for Root
	Force     bool   // rebuild from scratch instead of updating
	Embedder  string // embedder spec ("builtin", "model2vec:<dir>", "openai:<model>"); empty keeps the recorded one
	SpecsDir  string // where specs live, relative to Root; empty finds openspec/ and specs/
	Workers   int    // parse workers; 0 means GOMAXPROCS
	// MaxFileSize skips larger files; 0 means the walker's default (1 MiB),
	// a negative value means no limit.
	MaxFileSize int64
	SkipDirs    []string       // folder names to skip besides ignore rules and the default list
	Progress    func(Progress) // called as files are processed; may be nil
	// NoWait makes a run whose index another run is writing (in this
	// process or another) fail at once with INDEX_BUSY instead of waiting
	// for it; see Lock.
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

// Run indexes opts.Root. Cancelling ctx stops the run promptly and leaves
// the previous index untouched. Runs on one index file take turns: each
// holds the index's writer lock (see Lock) from before it opens the file
// until it has committed, truncated the write-ahead log and closed it.
func Run(ctx context.Context, opts Options) (*Stats, error) {
	stats, err := run(ctx, opts)
	if err != nil && ctx.Err() != nil && errs.KindOf(err) != errs.Cancelled {
		// Cancelling rolls the transaction back under whatever statement was
		// running; its error ("statement is closed") is the cancellation.
		return nil, cancelled(ctx.Err())
	}
	return stats, err
}
