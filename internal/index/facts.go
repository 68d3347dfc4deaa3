package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/specs"
	"github.com/lore-dev/lore/internal/store"
)

// factsInput is what saveProjectFacts needs of a run.
type factsInput struct {
	root     *fsroot.Root
	files    []fsroot.File // the walked files
	walkOpts fsroot.WalkOptions
	specsDir string
}

// saveProjectFacts parses the package manifests among the walked files
// (and those in hidden folders a workspace names as members) and the specs
// under the root, and stores both in the run's transaction.
func saveProjectFacts(ctx context.Context, tx store.WriteTx, in factsInput, stats *Stats) error {
	var parsed []packages.Parsed
	seen := map[string]bool{}
	read := func(files []fsroot.File) {
		for _, f := range files {
			if seen[f.Rel] || !packages.IsManifest(f.Rel) {
				continue
			}
			seen[f.Rel] = true
			data, err := os.ReadFile(f.Abs)
			if err != nil {
				stats.Warnings = append(stats.Warnings, FileError{Path: f.Rel, Message: err.Error()})
				continue
			}
			parsed = append(parsed, packages.Parse(packages.Manifest{Path: f.Rel, Data: data}))
		}
	}
	read(in.files)
	// Workspaces may name hidden folders ("examples/.*/*"); their members'
	// manifests count, though the folders stay hidden to everything else.
	// A member found there may declare hidden members of its own.
	walked := map[string]bool{}
	for round := 0; round < 4; round++ {
		hidden := packages.FindHiddenMembers(parsed)
		if hidden.Empty() {
			break
		}
		extra, err := walkHiddenMembers(ctx, in, hidden, walked)
		if err != nil {
			return err
		}
		before := len(parsed)
		read(extra)
		if len(parsed) == before {
			break
		}
	}
	pkgs, problems := packages.Resolve(parsed)
	for _, p := range problems {
		stats.Warnings = append(stats.Warnings, FileError{Path: p.Path, Message: p.Message})
	}
	if err := tx.SavePackages(ctx, pkgs); err != nil {
		return fmt.Errorf("saving packages: %w", err)
	}
	stats.Packages = len(pkgs)

	found, err := specs.Discover(in.root.Path(), in.specsDir)
	if err != nil {
		return err
	}
	for _, s := range found {
		for _, w := range s.Warnings {
			stats.Warnings = append(stats.Warnings, FileError{Path: s.Path, Message: w})
		}
	}
	if err := tx.SaveSpecs(ctx, found); err != nil {
		return fmt.Errorf("saving specs: %w", err)
	}
	stats.Specs = len(found)
	return nil
}

// walkHiddenMembers walks the folders that lead to hidden workspace
// members (each base once per run) and returns the files found inside
// hidden folders. Ignore rules, the default skips and the size limit apply
// as in the main walk.
func walkHiddenMembers(ctx context.Context, in factsInput, hidden packages.HiddenMembers, walked map[string]bool) ([]fsroot.File, error) {
	var out []fsroot.File
	for _, base := range hidden.Bases() {
		if walked[base] {
			continue
		}
		walked[base] = true
		opts := in.walkOpts
		opts.Dir, opts.ShowHidden, opts.Skipped = base, hidden.Shows, nil
		err := in.root.Walk(ctx, opts, func(f fsroot.File) error {
			if inHiddenFolder(f.Rel) && packages.IsManifest(f.Rel) {
				out = append(out, f)
			}
			return nil
		})
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return nil, cancelled(ctx.Err())
		case errs.KindOf(err) == errs.NotFound || errs.KindOf(err) == errs.Invalid || errors.Is(err, os.ErrNotExist):
			// The folder a glob starts in does not exist (or is a file).
		default:
			return nil, fmt.Errorf("walking %s for hidden workspace members: %w", base, err)
		}
	}
	return out, nil
}

// inHiddenFolder reports whether a file lies in a folder whose name starts
// with ".".
func inHiddenFolder(rel string) bool {
	segments := strings.Split(rel, "/")
	for _, s := range segments[:len(segments)-1] {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return false
}
