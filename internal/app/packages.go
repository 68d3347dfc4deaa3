package app

import (
	"context"
	"sync"

	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/search"
)

// Packages are the packages of one generation of an index: their graph,
// and a search over their names, descriptions and paths.
type Packages struct {
	*packages.Graph
	generation string
	index      *search.PackageIndex

	memo sync.Map // what Memo built, by key (string -> any)
}

// Memo returns what build makes of these packages under key, building it
// once: a front end's rendering of an answer that depends only on the
// packages and on key (list_packages' JSON for one kind). It lives as long
// as this generation's packages, so it is never stale; keys must come
// from a small fixed set (they are never dropped before the generation).
// A failed build is not kept. Concurrent first calls may each build; one
// result is kept and returned to all later calls.
func (p *Packages) Memo(key string, build func() (any, error)) (any, error) {
	if v, ok := p.memo.Load(key); ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	kept, _ := p.memo.LoadOrStore(key, v)
	return kept, nil
}

// Search ranks the packages against query (see search.PackageIndex).
func (p *Packages) Search(query string, limit int) ([]packages.Package, error) {
	return p.index.Search(query, limit)
}

// SearchCount is Search that also returns how many packages matched,
// however many the limit let through.
func (p *Packages) SearchCount(query string, limit int) ([]packages.Package, int, error) {
	return p.index.SearchCount(query, limit)
}

// Packages returns the packages of a root's index, loaded once per
// generation.
func (a *App) Packages(ctx context.Context, root string) (*Packages, error) {
	r, loc, err := a.reader(ctx, root)
	if err != nil {
		return nil, err
	}
	generation, err := r.Generation(ctx)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	p, ok := a.packages[loc]
	a.mu.Unlock()
	if ok && p.generation == generation {
		return p, nil
	}
	all, err := r.Packages(ctx)
	if err != nil {
		return nil, err
	}
	p = &Packages{Graph: packages.NewGraph(all), generation: generation, index: search.NewPackageIndex(all)}
	a.mu.Lock()
	a.packages[loc] = p
	a.mu.Unlock()
	return p, nil
}

// SearchPackages ranks a root's packages against query. The query is
// checked before the index is opened.
func (a *App) SearchPackages(ctx context.Context, root, query string, limit int) ([]packages.Package, error) {
	found, _, err := a.SearchPackagesCount(ctx, root, query, limit)
	return found, err
}

// SearchPackagesCount is SearchPackages that also returns how many
// packages matched, however many the limit let through.
func (a *App) SearchPackagesCount(ctx context.Context, root, query string, limit int) ([]packages.Package, int, error) {
	if err := packages.CheckQuery(query); err != nil {
		return nil, 0, err
	}
	p, err := a.Packages(ctx, root)
	if err != nil {
		return nil, 0, err
	}
	return p.SearchCount(query, limit)
}
