package index

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/store"
)

// maxLimitedPaths bounds the paths a limited run checks one by one; more
// are walked.
const maxLimitedPaths = 256

// A limited run: when the caller knows which paths changed (Options.Paths,
// from a watcher), the run checks those paths instead of walking the root
// and reading what the collection remembers of every file, so that
// re-indexing a saved file costs the same in any root. It applies the
// walk's rules to each path (ignore files, hidden and skipped folders, the
// size limit), and gives up, for a full walk, on anything whose effect
// reaches beyond the path: a folder, a symlink, a package manifest.

// limitedRun is what a limited run checks.
type limitedRun struct {
	files     []fsroot.File              // the paths that are files a walk would visit
	known     map[string]store.FileState // what the collection remembers of the paths
	gramKnown map[string]store.GramState // what the n-gram index holds of them
}

// canLimit reports whether a run may check only opts.Paths: nothing else
// about the run changes what the index holds.
func canLimit(opts Options, prevMeta map[string]string, keepGrams bool) bool {
	return opts.Paths != nil && len(opts.Paths) <= maxLimitedPaths && !opts.Force &&
		opts.SkipDirs == nil && opts.MaxFileSize == 0 &&
		(opts.Embedder == "" || opts.Embedder == prevMeta[store.MetaEmbedderSpec]) &&
		keepGrams == (prevMeta[store.MetaGramWalk] == store.GramWalkDefault) &&
		prevMeta[metaPackagesState] == packagesState
}

// limit prepares a limited run over paths, or returns nil when the run
// must walk the whole root.
func limit(ctx context.Context, tx store.WriteTx, root *fsroot.Root, location string, paths []string, walkOpts fsroot.WalkOptions) (*limitedRun, error) {
	indexAbs, _ := filepath.Abs(location)
	maxSize := walkOpts.MaxFileSize
	if maxSize == 0 {
		maxSize = fsroot.DefaultMaxFileSize
	}
	listed := map[string]map[string]bool{} // folder → the files a walk visits in it
	visible := func(rel string) (bool, error) {
		dir := path.Dir(rel)
		if dir == "." {
			dir = ""
		}
		names, ok := listed[dir]
		if !ok {
			entries, err := root.ReadDir(dir, walkOpts)
			if err != nil && errs.KindOf(err) != errs.NotFound {
				return false, err
			}
			names = map[string]bool{}
			for _, e := range entries {
				if !e.IsDir {
					names[e.Rel] = true
				}
			}
			listed[dir] = names
		}
		return names[rel], nil
	}
	lim := &limitedRun{}
	var rels []string
	for _, p := range paths {
		rel, err := root.CleanRel(p)
		if err != nil || rel == "" || rel == "." || packages.IsManifest(rel) {
			return nil, nil
		}
		rels = append(rels, rel)
		abs := filepath.Join(root.Path(), filepath.FromSlash(rel))
		if strings.HasPrefix(abs, indexAbs) {
			continue // the index itself
		}
		info, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid):
			continue // removed: what the collection remembers under it goes
		case err != nil || !info.Mode().IsRegular():
			return nil, nil // unreadable, a folder or a link: walk
		}
		if real, err := filepath.EvalSymlinks(abs); err != nil || real != abs {
			return nil, nil // reached through a linked folder
		}
		ok, err := visible(rel)
		if err != nil {
			return nil, nil
		}
		if !ok || (maxSize > 0 && info.Size() > maxSize) {
			continue // ignored, hidden or too large: dropped if it was indexed
		}
		lim.files = append(lim.files, fsroot.File{Rel: rel, Abs: abs, Size: info.Size(), ModTime: info.ModTime()})
	}
	slices.SortFunc(lim.files, func(a, b fsroot.File) int { return strings.Compare(a.Rel, b.Rel) })
	lim.files = slices.CompactFunc(lim.files, func(a, b fsroot.File) bool { return a.Rel == b.Rel })
	var err error
	if lim.known, err = tx.FileStatesOf(ctx, rels); err != nil {
		return nil, err
	}
	if lim.gramKnown, err = tx.GramStatesOf(ctx, rels); err != nil {
		return nil, err
	}
	// A removed folder may have held manifests: the packages then change.
	for p := range lim.known {
		if packages.IsManifest(p) {
			return nil, nil
		}
	}
	for p := range lim.gramKnown {
		if packages.IsManifest(p) {
			return nil, nil
		}
	}
	return lim, nil
}
