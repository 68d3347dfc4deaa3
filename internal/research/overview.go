package research

import (
	"sort"
	"strings"
)

// An overview starts from lore's ranked search: the definitions in the
// best results are expanded along the graph as the focus says (calls both
// ways by default and for flow, import edges for dependencies,
// implementations and same-named definitions for patterns). With focus
// architecture it maps the repository's folders level by level instead.

// overview answers a question that names no symbol.
func (w *work) overview(query string, res *Result) error {
	if w.req.Search != nil {
		findings, err := w.req.Search(w.ctx, query, MaxFindings)
		if err != nil {
			return err
		}
		res.Findings = findings
	}
	if w.req.Focus == FocusArchitecture {
		return w.architecture()
	}
	if w.req.Focus == FocusDependencies {
		for i, f := range res.Findings {
			if i == overviewSeeds {
				break
			}
			if fi, ok := w.g.byPath[f.Path]; ok {
				w.add(nodeKey{kind: nkModule, idx: w.g.files[fi].module}, 0, nil)
			}
		}
		return w.bfs(&walk{dir: outgoing, expand: w.moduleDependencies})
	}
	for _, d := range w.seeds(res.Findings) {
		w.add(nodeKey{kind: nkDef, idx: d}, 0, nil)
	}
	if w.req.Focus == FocusPatterns {
		return w.bfs(&walk{dir: incoming, expand: w.patterns})
	}
	return w.bfs(&walk{dir: incoming, expand: w.callers}, &walk{dir: outgoing, expand: w.callees})
}

// maxSeedsPerFinding bounds the definitions an overview takes from one
// search result.
const maxSeedsPerFinding = 3

// seeds returns the definitions of the best findings: those whose name is
// in a result's lines, types and functions before constants and variables.
func (w *work) seeds(findings []Finding) []int32 {
	g := w.g
	var out []int32
	for i, f := range findings {
		if i == overviewSeeds {
			break
		}
		fi, ok := g.byPath[f.Path]
		if !ok {
			continue
		}
		file := &g.files[fi]
		n := 0
		for d := file.defs[0]; d < file.defs[1] && n < maxSeedsPerFinding; d++ {
			def := &g.defs[d]
			if def.nameLine < int32(f.StartLine) || def.nameLine > int32(f.EndLine) {
				continue
			}
			switch def.kind {
			case dkVariable, dkConstant, dkModule, dkOther:
				continue
			}
			out = append(out, d)
			n++
		}
	}
	return out
}

// maxSimilar bounds the same-named definitions patterns lists for one.
const maxSimilar = 20

// patterns lists, for a type, what implements or extends it; for a
// function or method, the other definitions of the same name and family
// (the same method on several types: an implicit pattern).
func (w *work) patterns(n *wnode) ([]neighbour, error) {
	if n.key.kind != nkDef {
		return nil, nil
	}
	g := w.g
	d := n.key.idx
	def := &g.defs[d]
	if def.kind.typeLike() {
		return w.implementers(n)
	}
	if def.kind != dkMethod && def.kind != dkFunction {
		return nil, nil
	}
	family := g.files[def.file].family
	var out []neighbour
	for _, o := range g.defsByName[def.name] {
		if o == d || g.defs[o].kind != def.kind || g.files[g.defs[o].file].family != family {
			continue
		}
		if len(out) == maxSimilar {
			w.truncated = true
			break
		}
		out = append(out, neighbour{key: nodeKey{kind: nkDef, idx: o}, kind: "similar", file: g.defs[o].file,
			line: int(g.defs[o].nameLine), ref: -1})
	}
	return out, nil
}

// folder is one node of the architecture map: a folder and what is below
// it, to the depth asked.
type folder struct {
	path    string
	modules []int32 // the modules it stands for (itself and, at the deepest level, those below)
	node    *wnode
}

// architecture maps the repository level by level: the repository, then
// its top folders, then theirs, to the depth asked; each with its role
// (what it defines and imports), entry points (main functions), import
// edges between the folders of the deepest level reached, and the
// manifests' packages with their internal dependencies.
func (w *work) architecture() error {
	g := w.g
	root, _ := w.add(nodeKey{kind: nkGroup, name: "."}, 0, nil)
	// Every module belongs to its ancestor folder at each level.
	at := func(p string, level int) (string, bool) {
		if p == "." {
			return "", false
		}
		segs := strings.Split(p, "/")
		if len(segs) < level {
			return "", false
		}
		return strings.Join(segs[:level], "/"), true
	}
	owner := make([]*wnode, len(g.modules)) // the deepest node standing for each module
	for i := range owner {
		owner[i] = root
	}
	parents := map[string]*wnode{".": root}
	for level := 1; level <= w.depth; level++ {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		byPath := map[string][]int32{}
		for m := range g.modules {
			if p, ok := at(g.modules[m].path, level); ok {
				byPath[p] = append(byPath[p], int32(m))
			}
		}
		var paths []string
		for p := range byPath {
			paths = append(paths, p)
		}
		// Bigger folders first, so that a cap keeps what matters.
		size := func(p string) int {
			n := 0
			for _, m := range byPath[p] {
				for _, f := range g.modules[m].files {
					n += int(g.files[f].defs[1] - g.files[f].defs[0])
				}
			}
			return n
		}
		sizes := map[string]int{}
		for _, p := range paths {
			sizes[p] = size(p)
		}
		sort.Slice(paths, func(i, j int) bool {
			if sizes[paths[i]] != sizes[paths[j]] {
				return sizes[paths[i]] > sizes[paths[j]]
			}
			return paths[i] < paths[j]
		})
		for _, p := range paths {
			parentPath := "."
			if i := strings.LastIndex(p, "/"); i >= 0 {
				parentPath = p[:i]
			}
			parent := parents[parentPath]
			if parent == nil {
				continue // its parent was cut by the cap
			}
			n, _ := w.add(nodeKey{kind: nkGroup, name: p}, level, parent)
			if n == nil {
				break
			}
			parents[p] = n
			w.edge(parent, n, "contains", -1, 0, false)
			var roles []string
			for _, m := range byPath[p] {
				owner[m] = n
				roles = append(roles, g.moduleRoles(m)...)
			}
			n.role = strings.Join(uniqueRoles(roles), ", ")
		}
		if w.req.Progress != nil {
			w.req.Progress(level, w.depth, len(w.nodes))
		}
	}
	root.role = strings.Join(uniqueRoles(g.moduleRoles(g.byDir["."])), ", ")
	if _, ok := g.byDir["."]; !ok {
		root.role = ""
	}
	// Imports between the folders reached.
	for m := range g.modules {
		from := owner[m]
		for _, fi := range g.modules[m].files {
			for _, imp := range g.files[fi].imports {
				targets := append([]int32(nil), imp.modules...)
				for _, t := range imp.files {
					targets = append(targets, g.files[t].module)
				}
				for _, t := range targets {
					if to := owner[t]; to != from && !ancestor(to, from) && !ancestor(from, to) {
						w.edge(from, to, "import", fi, int(imp.line), false)
					}
				}
			}
		}
	}
	// Entry points: main functions, under the folder holding them.
	if id, ok := g.lookup("main"); ok {
		for _, d := range g.defsByName[id] {
			def := &g.defs[d]
			if def.kind != dkFunction || isTestPath(g.files[def.file].path) {
				continue
			}
			from := owner[g.files[def.file].module]
			n, _ := w.add(nodeKey{kind: nkDef, idx: d}, from.depth+1, from)
			if n == nil {
				break
			}
			n.role = "entry point"
			w.edge(from, n, "defines", def.file, int(def.nameLine), false)
		}
	}
	// The manifests' packages and their internal dependencies.
	if w.req.Packages != nil {
		for _, p := range w.req.Packages.Packages() {
			n, _ := w.add(nodeKey{kind: nkPackage, name: p.Name}, 1, root)
			if n == nil {
				break
			}
			n.role = p.Kind + " package"
		}
		for _, p := range w.req.Packages.Packages() {
			from := w.byKey[nodeKey{kind: nkPackage, name: p.Name}]
			if from == nil {
				continue
			}
			for _, d := range p.Dependencies {
				if to := w.byKey[nodeKey{kind: nkPackage, name: d.Name}]; to != nil && d.IsInternal && to != from {
					w.edge(from, to, "depends", -1, 0, false)
				}
			}
		}
	}
	return nil
}

// ancestor reports whether a is b or holds it in the folder tree.
func ancestor(a, b *wnode) bool {
	for n := b; n != nil; n = n.parent {
		if n == a {
			return true
		}
	}
	return false
}

// uniqueRoles keeps each role once, in a fixed order.
func uniqueRoles(roles []string) []string {
	order := []string{"entry point", "HTTP", "command line", "tests", "interfaces", "types", "functions"}
	var out []string
	for _, r := range order {
		for _, have := range roles {
			if have == r {
				out = append(out, r)
				break
			}
		}
	}
	return out
}
