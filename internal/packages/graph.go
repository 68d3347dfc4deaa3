package packages

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
)

// Depth bounds for Graph.Edges.
const (
	MinEdgeDepth = 1
	MaxEdgeDepth = 20
)

// Edge is one internal dependency: From declares a dependency on To. The
// paths tell packages that share a name apart.
type Edge struct {
	From     string `json:"from"`
	To       string `json:"to"`
	DepKind  string `json:"dep_kind"`
	FromPath string `json:"from_path"`
	ToPath   string `json:"to_path"`
}

// Query names a package: by its exact name, narrowed by kind and by path
// (its folder or its manifest, relative to the root) when several packages
// share the name.
type Query struct {
	Name string
	Kind string
	Path string
}

// Candidate is one of several packages a Query could mean.
type Candidate struct {
	Kind     string `json:"kind"`
	Path     string `json:"path"`
	Manifest string `json:"manifest"`
	Role     string `json:"role,omitempty"`
}

// Graph answers dependency questions over a fixed set of packages. A
// package is identified by kind and path; a name shared by several
// packages means the one that is part of the repository's workspaces
// (without a role) when there is exactly one such, and is ambiguous
// otherwise (see Find).
type Graph struct {
	packages []Package         // sorted by name, then path
	byName   map[string][]int  // name → packages, in order
	byRef    map[refKey]int    // kind, path, name → package
	byFolder map[[2]string]int // kind, path → the first package there
}

type refKey struct{ kind, path, name string }

// NewGraph builds a graph over pkgs; it keeps its own sorted copy.
func NewGraph(pkgs []Package) *Graph {
	g := &Graph{packages: append([]Package(nil), pkgs...), byName: map[string][]int{},
		byRef: map[refKey]int{}, byFolder: map[[2]string]int{}}
	sortPackages(g.packages)
	for i, p := range g.packages {
		g.byName[p.Name] = append(g.byName[p.Name], i)
		if _, taken := g.byRef[refKey{p.Kind, p.Path, p.Name}]; !taken {
			g.byRef[refKey{p.Kind, p.Path, p.Name}] = i
		}
		if _, taken := g.byFolder[[2]string{p.Kind, p.Path}]; !taken {
			g.byFolder[[2]string{p.Kind, p.Path}] = i
		}
	}
	return g
}

// Packages returns every package, sorted by name then path.
func (g *Graph) Packages() []Package {
	return append([]Package(nil), g.packages...)
}

// RoleOf returns a package's role (RoleFixture, RoleExample, RoleDocs), ""
// for a package of the repository's own build.
func RoleOf(p Package) string {
	role, _ := p.Metadata["role"].(string)
	return role
}

// Find returns the package q names. Without kind and path, a name shared
// by several packages means the only one without a role; when there is no
// such single package, the answer is a PACKAGE_AMBIGUOUS error listing the
// candidates (details: name, candidates) so the caller can choose with kind
// or path. A name nobody has is PACKAGE_NOT_FOUND, worded as seed 000 says.
func (g *Graph) Find(q Query) (Package, error) {
	i, err := g.find(q)
	if err != nil {
		return Package{}, err
	}
	return g.packages[i], nil
}

func (g *Graph) find(q Query) (int, error) {
	all := g.byName[q.Name]
	if len(all) == 0 {
		return 0, notFound(q.Name)
	}
	wantPath := cleanQueryPath(q.Path)
	var matched []int
	for _, i := range all {
		p := g.packages[i]
		if q.Kind != "" && p.Kind != q.Kind {
			continue
		}
		if wantPath != "" && p.Path != wantPath && p.Manifest != wantPath {
			continue
		}
		matched = append(matched, i)
	}
	switch {
	case len(matched) == 0:
		return 0, g.notFoundWith(q, all)
	case len(matched) == 1:
		return matched[0], nil
	}
	var regular []int
	for _, i := range matched {
		if RoleOf(g.packages[i]) == "" {
			regular = append(regular, i)
		}
	}
	if len(regular) == 1 {
		return regular[0], nil
	}
	return 0, g.ambiguous(q.Name, matched)
}

func notFound(name string) error {
	return errs.New(errs.NotFound, errs.CodePackageNotFound, "Package '%s' not found", name).With("name", name)
}

// notFoundWith says that packages of the name exist, but none of the kind
// or at the path asked for.
func (g *Graph) notFoundWith(q Query, all []int) error {
	var where []string
	if q.Kind != "" {
		where = append(where, fmt.Sprintf("of kind '%s'", q.Kind))
	}
	if q.Path != "" {
		where = append(where, fmt.Sprintf("at path '%s'", q.Path))
	}
	return errs.New(errs.NotFound, errs.CodePackageNotFound, "Package '%s' not found %s; packages of that name: %s",
		q.Name, strings.Join(where, " "), g.describe(all)).With("name", q.Name).With("candidates", g.candidates(all))
}

// ambiguous lists the packages a name could mean, those without a role
// first.
func (g *Graph) ambiguous(name string, matched []int) error {
	sorted := append([]int(nil), matched...)
	sort.SliceStable(sorted, func(a, b int) bool {
		return RoleOf(g.packages[sorted[a]]) == "" && RoleOf(g.packages[sorted[b]]) != ""
	})
	return errs.New(errs.Invalid, errs.CodePackageAmbiguous,
		"Package '%s' is ambiguous: %d packages have that name (%s); give kind or path to choose",
		name, len(sorted), g.describe(sorted)).With("name", name).With("candidates", g.candidates(sorted))
}

// describe renders packages as "kind path" (with the role), at most ten.
func (g *Graph) describe(list []int) string {
	var parts []string
	for n, i := range list {
		if n == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(list)-n))
			break
		}
		p := g.packages[i]
		part := p.Kind + " " + p.Path
		if role := RoleOf(p); role != "" {
			part += " (" + role + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

func (g *Graph) candidates(list []int) []Candidate {
	out := make([]Candidate, 0, len(list))
	for _, i := range list {
		p := g.packages[i]
		out = append(out, Candidate{Kind: p.Kind, Path: p.Path, Manifest: p.Manifest, Role: RoleOf(p)})
	}
	return out
}

// target returns the package an internal dependency resolves to: its
// Target, or, in an index written before targets existed, the package the
// name means.
func (g *Graph) target(dep Dependency) (int, bool) {
	if !dep.IsInternal {
		return 0, false
	}
	if dep.Target != nil {
		if i, ok := g.byRef[refKey{dep.Target.Kind, dep.Target.Path, dep.Name}]; ok {
			return i, true
		}
		i, ok := g.byFolder[[2]string{dep.Target.Kind, dep.Target.Path}]
		return i, ok
	}
	i, err := g.find(Query{Name: dep.Name})
	return i, err == nil
}

// Dependencies returns the package q names and its declared dependencies,
// only those on packages of this repository when internalOnly.
func (g *Graph) Dependencies(q Query, internalOnly bool) (Package, []Dependency, error) {
	p, err := g.Find(q)
	if err != nil {
		return Package{}, nil, err
	}
	deps := []Dependency{}
	for _, dep := range p.Dependencies {
		if dep.IsInternal || !internalOnly {
			deps = append(deps, dep)
		}
	}
	return p, deps, nil
}

// Dependents returns the package q names and every package that declares
// a dependency resolving to it, sorted by name then path.
func (g *Graph) Dependents(q Query) (Package, []Package, error) {
	i, err := g.find(q)
	if err != nil {
		return Package{}, nil, err
	}
	dependents := []Package{}
	for _, p := range g.packages {
		for _, dep := range p.Dependencies {
			if t, ok := g.target(dep); ok && t == i {
				dependents = append(dependents, p)
				break
			}
		}
	}
	return g.packages[i], dependents, nil
}

// Edges walks internal dependencies breadth-first from the package q names
// up to depth levels (clamped to MinEdgeDepth..MaxEdgeDepth) and returns
// the edges in BFS-level order, then by from, to, kind and paths. A
// package is expanded once, so cycles end; an edge back to an expanded
// package is still listed.
func (g *Graph) Edges(q Query, depth int) (Package, []Edge, error) {
	root, err := g.find(q)
	if err != nil {
		return Package{}, nil, err
	}
	depth = max(MinEdgeDepth, min(depth, MaxEdgeDepth))
	edges := []Edge{}
	expanded := map[int]bool{root: true}
	frontier := []int{root}
	type step struct {
		edge Edge
		to   int
	}
	for level := 0; level < depth && len(frontier) > 0; level++ {
		var steps []step
		seen := map[Edge]bool{}
		for _, from := range frontier {
			p := g.packages[from]
			for _, dep := range p.Dependencies {
				to, ok := g.target(dep)
				if !ok {
					continue
				}
				t := g.packages[to]
				edge := Edge{From: p.Name, To: t.Name, DepKind: dep.DepKind, FromPath: p.Path, ToPath: t.Path}
				if !seen[edge] {
					seen[edge] = true
					steps = append(steps, step{edge, to})
				}
			}
		}
		sort.Slice(steps, func(i, j int) bool { return edgeLess(steps[i].edge, steps[j].edge) })
		var next []int
		for _, s := range steps {
			edges = append(edges, s.edge)
			if !expanded[s.to] {
				expanded[s.to] = true
				next = append(next, s.to)
			}
		}
		frontier = next
	}
	return g.packages[root], edges, nil
}

func edgeLess(a, b Edge) bool {
	switch {
	case a.From != b.From:
		return a.From < b.From
	case a.FromPath != b.FromPath:
		return a.FromPath < b.FromPath
	case a.To != b.To:
		return a.To < b.To
	case a.ToPath != b.ToPath:
		return a.ToPath < b.ToPath
	}
	return a.DepKind < b.DepKind
}
