package index

import (
	"context"
	"fmt"
	"os"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/specs"
	"github.com/lore-dev/lore/internal/store"
)

// saveProjectFacts parses the package manifests among the walked files and
// the specs under the root, and stores both in the run's transaction. They
// are re-read on every run: there are few of them, and a dependency's
// internal/external status depends on every other manifest.
func saveProjectFacts(ctx context.Context, tx store.WriteTx, root string, files []fsroot.File, specsDir string, stats *Stats) error {
	var manifests []packages.Manifest
	for _, f := range files {
		if !packages.IsManifest(f.Rel) {
			continue
		}
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			stats.Warnings = append(stats.Warnings, FileError{Path: f.Rel, Message: err.Error()})
			continue
		}
		manifests = append(manifests, packages.Manifest{Path: f.Rel, Data: data})
	}
	pkgs, problems := packages.Build(manifests)
	for _, p := range problems {
		stats.Warnings = append(stats.Warnings, FileError{Path: p.Path, Message: p.Message})
	}
	if err := tx.SavePackages(ctx, pkgs); err != nil {
		return fmt.Errorf("saving packages: %w", err)
	}
	stats.Packages = len(pkgs)

	found, err := specs.Discover(root, specsDir)
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
