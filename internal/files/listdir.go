package files

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
)

// MaxListEntries caps the entries ListDir returns; beyond it the listing
// is marked Truncated.
const MaxListEntries = 1000

// Entry types in a Listing.
const (
	TypeFile = "file"
	TypeDir  = "dir"
)

// Listing is the visible content of a folder.
type Listing struct {
	Path      string     `json:"path"` // the folder, relative to the repo root; "." for the root
	Entries   []DirEntry `json:"entries"`
	Truncated bool       `json:"truncated"` // more than MaxListEntries entries
}

// DirEntry is one entry of a Listing.
type DirEntry struct {
	Name string `json:"name"`
	Path string `json:"path"` // relative to the repo root, slash-separated
	Type string `json:"type"` // "file" or "dir"
	Size int64  `json:"size"` // bytes; 0 for folders
}

// ListDir lists the folder path of repo: folders first, then files, each
// sorted by name (byte order). Hidden, ignored and default-skipped entries
// are left out, as are symlinks leading outside the root; a folder that is
// itself hidden or ignored is NOT_FOUND, a file NOT_A_DIRECTORY.
func (s *Service) ListDir(ctx context.Context, repo, path string) (*Listing, error) {
	root, err := s.root(repo)
	if err != nil {
		return nil, err
	}
	rel, err := root.CleanRel(path)
	if err != nil {
		return nil, withRepo(err, repo, path)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing %s in %s: %w", path, repo, err)
	}
	entries, err := root.ReadDir(rel, fsroot.WalkOptions{})
	if err != nil {
		if e, ok := errs.As(err); ok && e.Code == CodeNotADirectory && root.Ignored(rel, false) {
			return nil, invisible(repo, path)
		}
		return nil, withRepo(err, repo, path)
	}
	slices.SortFunc(entries, func(a, b fsroot.Entry) int {
		if a.IsDir != b.IsDir {
			if a.IsDir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	out := &Listing{Path: displayPath(rel), Entries: make([]DirEntry, 0, min(len(entries), MaxListEntries))}
	if len(entries) > MaxListEntries {
		entries, out.Truncated = entries[:MaxListEntries], true
	}
	for _, e := range entries {
		d := DirEntry{Name: e.Name, Path: e.Rel, Type: TypeFile, Size: e.Size}
		if e.IsDir {
			d.Type, d.Size = TypeDir, 0
		}
		out.Entries = append(out.Entries, d)
	}
	return out, nil
}
