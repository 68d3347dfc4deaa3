package app

import (
	"context"

	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/specs"
)

// specIndex is the ranked search over one generation's requirements.
type specIndex struct {
	generation string
	index      *search.SpecIndex
}

// Specs reads a root's specs from its files (openspec/ and specs/, or
// specsDir relative to the root): listing and navigating specs needs no
// index and always sees the files as they are.
func (a *App) Specs(root, specsDir string) ([]specs.Spec, error) {
	return specs.Discover(root, specsDir)
}

// SearchSpecs ranks the requirements stored by a root's last index run
// against query. The query is checked before the index is opened.
func (a *App) SearchSpecs(ctx context.Context, root, query string, limit int) ([]specs.Hit, error) {
	if err := specs.CheckQuery(query); err != nil {
		return nil, err
	}
	r, loc, err := a.reader(ctx, root)
	if err != nil {
		return nil, err
	}
	generation, err := r.Generation(ctx)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	s, ok := a.specs[loc]
	a.mu.Unlock()
	if !ok || s.generation != generation {
		all, err := r.Specs(ctx)
		if err != nil {
			return nil, err
		}
		s = &specIndex{generation: generation, index: search.NewSpecIndex(all)}
		a.mu.Lock()
		a.specs[loc] = s
		a.mu.Unlock()
	}
	hits, err := s.index.Search(query, limit)
	if err != nil {
		return nil, err
	}
	if hits == nil {
		hits = []specs.Hit{}
	}
	return hits, nil
}
