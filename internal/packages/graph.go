package packages

import (
	"sort"

	"github.com/lore-dev/lore/internal/errs"
)

// Depth bounds for Graph.Edges.
const (
	MinEdgeDepth = 1
	MaxEdgeDepth = 20
)

// Edge is one internal dependency: From declares a dependency on To.
type Edge struct {
	From    string `json:"from"`
	To      string `json:"to"`
	DepKind string `json:"dep_kind"`
}

// Graph answers dependency questions over a fixed set of packages. When
// several packages share a name (across ecosystems, say), the one that sorts
// first by path stands for the name.
type Graph struct {
	packages []Package // sorted by name, then path
	byName   map[string]int
}

// NewGraph builds a graph over pkgs; it keeps its own sorted copy.
func NewGraph(pkgs []Package) *Graph {
	g := &Graph{packages: append([]Package(nil), pkgs...), byName: map[string]int{}}
	sortPackages(g.packages)
	for i, p := range g.packages {
		if _, taken := g.byName[p.Name]; !taken {
			g.byName[p.Name] = i
		}
	}
	return g
}

// Packages returns every package, sorted by name then path.
func (g *Graph) Packages() []Package {
	return append([]Package(nil), g.packages...)
}

// Get returns the package called name.
func (g *Graph) Get(name string) (Package, bool) {
	i, ok := g.byName[name]
	if !ok {
		return Package{}, false
	}
	return g.packages[i], true
}

func notFound(name string) error {
	return errs.New(errs.NotFound, errs.CodePackageNotFound, "Package '%s' not found", name).With("name", name)
}

// Dependencies returns the declared dependencies of the package called
// name, only those on packages of this repository when internalOnly.
func (g *Graph) Dependencies(name string, internalOnly bool) ([]Dependency, error) {
	p, ok := g.Get(name)
	if !ok {
		return nil, notFound(name)
	}
	deps := []Dependency{}
	for _, dep := range p.Dependencies {
		if dep.IsInternal || !internalOnly {
			deps = append(deps, dep)
		}
	}
	return deps, nil
}

// Dependents returns every package that declares a dependency on the
// package called name, sorted by name then path.
func (g *Graph) Dependents(name string) ([]Package, error) {
	if _, ok := g.Get(name); !ok {
		return nil, notFound(name)
	}
	dependents := []Package{}
	for _, p := range g.packages {
		for _, dep := range p.Dependencies {
			if dep.IsInternal && dep.Name == name {
				dependents = append(dependents, p)
				break
			}
		}
	}
	return dependents, nil
}

// Edges walks internal dependencies breadth-first from root up to depth
// levels (clamped to MinEdgeDepth..MaxEdgeDepth) and returns the edges in
// BFS-level order, then by from, to and kind. A package is expanded once,
// so cycles end; an edge back to an expanded package is still listed.
func (g *Graph) Edges(root string, depth int) ([]Edge, error) {
	if _, ok := g.Get(root); !ok {
		return nil, notFound(root)
	}
	depth = max(MinEdgeDepth, min(depth, MaxEdgeDepth))
	edges := []Edge{}
	expanded := map[string]bool{root: true}
	frontier := []string{root}
	for level := 0; level < depth && len(frontier) > 0; level++ {
		var levelEdges []Edge
		seen := map[Edge]bool{}
		for _, from := range frontier {
			p, _ := g.Get(from)
			for _, dep := range p.Dependencies {
				edge := Edge{From: from, To: dep.Name, DepKind: dep.DepKind}
				if dep.IsInternal && !seen[edge] {
					seen[edge] = true
					levelEdges = append(levelEdges, edge)
				}
			}
		}
		sort.Slice(levelEdges, func(i, j int) bool {
			a, b := levelEdges[i], levelEdges[j]
			if a.From != b.From {
				return a.From < b.From
			}
			if a.To != b.To {
				return a.To < b.To
			}
			return a.DepKind < b.DepKind
		})
		var next []string
		for _, edge := range levelEdges {
			if _, known := g.byName[edge.To]; known && !expanded[edge.To] {
				expanded[edge.To] = true
				next = append(next, edge.To)
			}
		}
		edges = append(edges, levelEdges...)
		frontier = next
	}
	return edges, nil
}
