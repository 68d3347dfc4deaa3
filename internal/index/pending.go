package index

import (
	"context"
	"io"
	"os"
	"slices"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/store"
)

// maxPendingPaths bounds the paths Pending lists.
const maxPendingPaths = 20

// Changes is how a root differs from its index: what the next run would
// re-read or drop.
type Changes struct {
	Changed int `json:"changed"` // indexed files whose size or modification time differ
	Added   int `json:"added"`   // files the index does not have
	Removed int `json:"removed"` // indexed files that are gone
	// Paths lists some of them (at most 20), sorted.
	Paths []string `json:"paths"`
}

// Total is how many files differ.
func (c Changes) Total() int { return c.Changed + c.Added + c.Removed }

// Pending compares the files under root with what the collection r
// remembers of them, by size and modification time, without reading a
// file: the changes an index run would pick up. location is the index's
// database, never counted as a file of the root. The walk skips what the
// collection's last run skipped (its --skip-dir and --max-file-size).
func Pending(ctx context.Context, r store.Reader, root *fsroot.Root, location string) (*Changes, error) {
	known, err := r.FileStates(ctx)
	if err != nil {
		return nil, err
	}
	meta, err := r.Meta(ctx)
	if err != nil {
		return nil, err
	}
	// Generated files (lock files, bundles) are only in the n-gram index,
	// when the collection keeps one.
	var generated map[string]store.GramState
	if meta[store.MetaGramWalk] == store.GramWalkDefault {
		all, err := r.GramStates(ctx)
		if err != nil {
			return nil, err
		}
		generated = map[string]store.GramState{}
		for p, st := range all {
			if generatedName(p) {
				generated[p] = st
			}
		}
	}
	files, err := walk(ctx, root, location, recordedWalkOptions(meta))
	if err != nil {
		return nil, err
	}
	c := &Changes{Paths: []string{}}
	var paths []string
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		seen[f.Rel] = true
		if generatedName(f.Rel) {
			if generated == nil {
				continue
			}
			g, ok := generated[f.Rel]
			switch {
			case !ok:
				c.Added++
			case g.Size != f.Size || g.MTimeNS != f.ModTime.UnixNano():
				c.Changed++
			default:
				continue
			}
			paths = append(paths, f.Rel)
			continue
		}
		k, ok := known[f.Rel]
		switch {
		case !ok:
			if !readable(f.Abs) {
				continue // a binary or unreadable file: runs skip it too
			}
			c.Added++
		case k.Size != f.Size || k.MTimeNS != f.ModTime.UnixNano():
			c.Changed++
		default:
			continue
		}
		paths = append(paths, f.Rel)
	}
	for p := range known {
		if !seen[p] {
			c.Removed++
			paths = append(paths, p)
		}
	}
	for p := range generated {
		if !seen[p] {
			c.Removed++
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if len(paths) > maxPendingPaths {
		paths = paths[:maxPendingPaths]
	}
	c.Paths = append(c.Paths, paths...)
	return c, nil
}

// readable reports whether a run would index the file: it opens and its
// head is not binary.
func readable(abs string) bool {
	f, err := os.Open(abs)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, binaryProbe)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false
	}
	return !fsroot.IsBinary(head[:n])
}
