// Package files is the core of lore's read-only "files" tools: keyword and
// regex search, reading a file or a line range, and listing a folder, over
// two configured roots named "docs" and "code".
//
// The package sees exactly what the indexer sees: hidden, ignored and
// default-skipped paths (see package fsroot) are invisible to every
// function here, reported as NOT_FOUND when named directly. That keeps
// secrets such as ".env" out of reach and the tools consistent with search.
// Every failure is an *errs.Error whose Code is one of the Code* constants;
// presentation layers (MCP, HTTP, CLI) only translate. Nothing here ever
// writes into a root.
package files

import (
	"errors"
	"runtime"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
)

// Repository names.
const (
	RepoDocs = "docs"
	RepoCode = "code"
	RepoBoth = "both" // Search only
)

// Error codes of this package.
const (
	CodeRepoInvalid     = errs.CodeRepoInvalid
	CodeOutsideRoot     = errs.CodeOutsideRoot
	CodeNotFound        = errs.CodeNotFound
	CodeNotAFile        = errs.CodeNotAFile
	CodeNotADirectory   = errs.CodeNotADirectory
	CodeUnreadable      = errs.CodeUnreadable
	CodeBinaryFile      = errs.CodeBinaryFile
	CodeFileTooLarge    = errs.CodeFileTooLarge
	CodeInvalidRange    = errs.CodeInvalidRange
	CodeInvalidArgument = errs.CodeInvalidArgument
	CodeQueryEmpty      = errs.CodeQueryEmpty
	CodeLimitInvalid    = errs.CodeLimitInvalid
)

// Service answers the files tools over the docs and code roots. It holds
// no mutable state and is safe for concurrent use.
type Service struct {
	docs, code *fsroot.Root
	index      IndexFunc // nil: every search scans
	// running bounds the searches that read files at once: each already
	// reads with a worker per CPU, so more at once only interleave, every
	// one finishing later, while each holds its read buffers. Searches
	// over the bound wait their turn or until their context ends.
	running chan struct{}
}

// New returns a Service over the two roots; either may be nil when that
// repository is not configured (naming it then gives REPO_INVALID).
func New(docs, code *fsroot.Root) *Service {
	return &Service{docs: docs, code: code, running: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
}

// root returns the root for a single repository name.
func (s *Service) root(repo string) (*fsroot.Root, error) {
	var r *fsroot.Root
	switch repo {
	case RepoDocs:
		r = s.docs
	case RepoCode:
		r = s.code
	default:
		return nil, errs.New(errs.Invalid, CodeRepoInvalid, "repo %q is not valid: use %q or %q", repo, RepoDocs, RepoCode).With("repo", repo)
	}
	if r == nil {
		return nil, errs.New(errs.Invalid, CodeRepoInvalid, "repo %q is not configured", repo).With("repo", repo)
	}
	return r, nil
}

// repoRoot is a repository selected for a search.
type repoRoot struct {
	name string
	root *fsroot.Root
}

// searchRoots returns the configured repositories a search covers, docs
// before code. When both roots are the same folder it is searched once,
// labelled "docs": every hit is then readable under either name.
func (s *Service) searchRoots(repo string) ([]repoRoot, error) {
	switch repo {
	case "", RepoBoth:
		var out []repoRoot
		if s.docs != nil {
			out = append(out, repoRoot{RepoDocs, s.docs})
		}
		if s.code != nil && (s.docs == nil || s.docs.Path() != s.code.Path()) {
			out = append(out, repoRoot{RepoCode, s.code})
		}
		if len(out) == 0 {
			return nil, errs.New(errs.Invalid, CodeRepoInvalid, "no repo is configured").With("repo", repo)
		}
		return out, nil
	case RepoDocs, RepoCode:
		r, err := s.root(repo)
		if err != nil {
			return nil, err
		}
		return []repoRoot{{repo, r}}, nil
	}
	return nil, errs.New(errs.Invalid, CodeRepoInvalid, "repo %q is not valid: use %q, %q or %q", repo, RepoDocs, RepoCode, RepoBoth).With("repo", repo)
}

// withRepo adds the repo and path details to a typed error from fsroot,
// keeping its code (fsroot uses the same code names) and kind.
func withRepo(err error, repo, path string) error {
	var e *errs.Error
	if !errors.As(err, &e) {
		return errs.New(errs.Internal, CodeUnreadable, "reading %q in %s: %v", path, repo, err).With("repo", repo).With("path", path).Wrap(err)
	}
	return e.With("repo", repo).With("path", path)
}

// invisible is the error for a path that exists but is hidden or ignored.
func invisible(repo, path string) error {
	return errs.New(errs.NotFound, CodeNotFound, "path %q in %s is hidden or ignored", path, repo).With("repo", repo).With("path", path)
}

// displayPath is how a cleaned relative path is shown: "." for the root.
func displayPath(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
