package research

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/packages"
)

// Bounds of a research.
const (
	MinDepth     = 1
	MaxDepth     = 5
	DefaultDepth = 2

	MaxNodes      = 250 // nodes a result holds; more sets Truncated
	MaxEdges      = 1000
	MaxChains     = 20
	MaxCandidates = 50
	MaxTargets    = 20
	MaxFindings   = 10 // search results an overview starts from
	overviewSeeds = 5  // findings whose definitions an overview expands
)

// Request is one research question.
type Request struct {
	Query string
	Depth int    // hops to follow, MinDepth..MaxDepth; 0 means DefaultDepth
	Focus string // "" or one of Focuses
	// Progress, if set, is called after each hop with the hop just done,
	// the depth asked and the nodes found so far.
	Progress func(hop, depth, nodes int)
	// Search ranks the index's code for a query (an overview's findings);
	// nil leaves overviews without findings.
	Search func(ctx context.Context, query string, limit int) ([]Finding, error)
	// Packages is the manifests' package graph (dependencies,
	// architecture); may be nil.
	Packages *packages.Graph
}

// Result is a research's answer. The same graph and request give the
// same result, byte for byte once encoded.
type Result struct {
	Query      string      `json:"query"`
	Intent     string      `json:"intent"`
	Focus      string      `json:"focus"`
	Depth      int         `json:"depth"`
	Targets    []Target    `json:"targets"`
	Candidates []Candidate `json:"candidates"`
	Nodes      []Node      `json:"nodes"`
	Edges      []Edge      `json:"edges"`
	Chains     [][]string  `json:"chains"`
	Findings   []Finding   `json:"findings"`
	Summary    string      `json:"summary"`
	Truncated  bool        `json:"truncated"`
}

// Target is a definition (or module) the query names, where research
// starts.
type Target struct {
	Node   string `json:"node"`
	Symbol string `json:"symbol"`
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
}

// Node is a definition, file, module or package research reached.
type Node struct {
	ID        string `json:"id"`
	Symbol    string `json:"symbol"`
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Depth     int    `json:"depth"`
	Container string `json:"container,omitempty"`
	Signature string `json:"signature,omitempty"`
	Role      string `json:"role,omitempty"` // a module's role (architecture), an entry point
}

// Edge is a call, use, conformance or import between two nodes, where the
// source says so.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	Path string `json:"path"`
	Line int    `json:"line"`
	// Ambiguous marks an edge from a reference that names several
	// definitions (see Result.Candidates); each of them got an edge.
	Ambiguous bool `json:"ambiguous,omitempty"`
}

// Candidate is a reference research followed that names several
// definitions: the reference to Symbol at Path:Line, in node From, may
// mean any of Definitions. Research kept an edge to each of them that it
// reached.
type Candidate struct {
	Symbol      string         `json:"symbol"`
	Path        string         `json:"path"`
	Line        int            `json:"line"`
	From        string         `json:"from"`
	Definitions []CandidateDef `json:"definitions"`
}

// CandidateDef is one definition an ambiguous reference may mean; Node is
// its node's id when research reached it.
type CandidateDef struct {
	Symbol string `json:"symbol"`
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Node   string `json:"node,omitempty"`
}

// Finding is a ranked search result an overview starts from.
type Finding struct {
	Path             string   `json:"path"`
	StartLine        int      `json:"start_line"`
	EndLine          int      `json:"end_line"`
	Kind             string   `json:"kind"`
	Symbols          []string `json:"symbols"`
	Signature        string   `json:"signature,omitempty"`
	RelevancePercent int      `json:"relevance_percent"`
}

// CheckRequest validates a request's depth and focus: a clear error names
// the allowed values.
func CheckRequest(depth int, focus string) error {
	if depth != 0 && (depth < MinDepth || depth > MaxDepth) {
		return errs.New(errs.Invalid, errs.CodeInvalidArgument, "depth must be between %d and %d, got %d", MinDepth, MaxDepth, depth).
			With("depth", depth)
	}
	if focus != "" && !slices.Contains(Focuses, focus) {
		return errs.New(errs.Invalid, errs.CodeInvalidArgument, "focus must be one of %s; got %q", strings.Join(Focuses, ", "), focus).
			With("focus", focus)
	}
	return nil
}

// nodeKind tells what a node stands for.
type nodeKind uint8

const (
	nkDef      nodeKind = iota // a definition (idx into Graph.defs)
	nkFile                     // top-level code of a file (idx into Graph.files)
	nkModule                   // a folder (idx into Graph.modules)
	nkPackage                  // a manifest's package (name)
	nkExternal                 // a module outside the repository (name)
	nkGroup                    // a folder of the architecture map (name: its path, "." for the repository)
)

// nodeKey identifies a node while research runs.
type nodeKey struct {
	kind nodeKind
	idx  int32
	name string
}

// work is one research in progress.
type work struct {
	ctx   context.Context
	g     *Graph
	req   Request
	depth int

	nodes    []*wnode
	byKey    map[nodeKey]*wnode
	edges    []*wedge
	edgeKeys map[[3]string]bool
	cands    []wcand
	candSeen map[int32]bool
	resolved map[int32][]int32

	truncated bool // something was left out: a cap was reached
	full      bool // the node cap was reached: traversal stops
	external  int  // references followed that reach nothing in the repository
	steps     int
}

// wnode is a node being collected.
type wnode struct {
	key    nodeKey
	depth  int
	parent *wnode // the node it was reached from (chains)
	dir    direction
	kids   int
	id     string
	role   string
}

type wedge struct {
	from, to  *wnode
	kind      string
	file      int32 // -1: path below
	path      string
	line      int
	ambiguous bool
}

type wcand struct {
	ref  int32
	from *wnode
	to   []int32
}

// Run answers a research request over the graph.
func Run(ctx context.Context, g *Graph, req Request) (*Result, error) {
	if err := CheckRequest(req.Depth, req.Focus); err != nil {
		return nil, err
	}
	query := strings.TrimSpace(req.Query)
	if query == "" {
		return nil, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	w := &work{ctx: ctx, g: g, req: req, depth: req.Depth, byKey: map[nodeKey]*wnode{}, edgeKeys: map[[3]string]bool{},
		resolved: map[int32][]int32{}, candSeen: map[int32]bool{}}
	if w.depth == 0 {
		w.depth = DefaultDepth
	}
	pq := parseQuery(query)
	res := &Result{Query: query, Intent: pq.intent, Focus: req.Focus, Depth: w.depth}
	var err error
	switch pq.intent {
	case IntentDependencies, IntentDependents:
		err = w.dependencies(pq, res)
	case IntentOverview:
		err = w.overview(query, res)
	default:
		err = w.symbolResearch(pq, res)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w.finish(pq, res)
	return res, nil
}

// checkCancel reports a cancelled context, cheaply enough to call often.
func (w *work) checkCancel() error {
	w.steps++
	if w.steps&255 == 0 {
		return w.ctx.Err()
	}
	return nil
}

// add returns the node for key, making it at depth (nil when the cap is
// reached).
func (w *work) add(key nodeKey, depth int, parent *wnode) (n *wnode, isNew bool) {
	if n, ok := w.byKey[key]; ok {
		return n, false
	}
	if len(w.nodes) >= MaxNodes {
		w.truncated, w.full = true, true
		return nil, false
	}
	n = &wnode{key: key, depth: depth, parent: parent}
	if parent != nil {
		parent.kids++
	}
	w.nodes = append(w.nodes, n)
	w.byKey[key] = n
	return n, true
}

// edge records an edge once per (from, to, kind).
func (w *work) edge(from, to *wnode, kind string, file int32, line int, ambiguous bool) {
	k := [3]string{keyString(from.key), keyString(to.key), kind}
	if w.edgeKeys[k] {
		return
	}
	if len(w.edges) >= MaxEdges {
		w.truncated = true
		return
	}
	w.edgeKeys[k] = true
	w.edges = append(w.edges, &wedge{from: from, to: to, kind: kind, file: file, line: line, ambiguous: ambiguous})
}

func keyString(k nodeKey) string { return fmt.Sprintf("%d/%d/%s", k.kind, k.idx, k.name) }

// resolveRef resolves a reference once per research.
func (w *work) resolveRef(ri int32) []int32 {
	if d, ok := w.resolved[ri]; ok {
		return d
	}
	d := w.g.resolve(ri)
	w.resolved[ri] = d
	return d
}

// holder is the node for what holds a reference: its enclosing definition,
// or the file's top level.
func holder(g *Graph, ri int32) nodeKey {
	r := &g.refs[ri]
	if r.enclosing >= 0 {
		return nodeKey{kind: nkDef, idx: r.enclosing}
	}
	return nodeKey{kind: nkFile, idx: r.file}
}

// direction of a traversal, for chains.
type direction int

const (
	incoming direction = iota // edges point at the targets (callers, implementations)
	outgoing                  // edges leave the targets (callees, dependencies)
)

// neighbour is one step of a traversal from a node.
type neighbour struct {
	key       nodeKey
	kind      string
	file      int32
	line      int
	ambiguous bool
	ref       int32 // the reference behind it, -1 for none
	cands     []int32
}

// expander lists a node's neighbours for one kind of research.
type expander func(n *wnode) ([]neighbour, error)

// walk is one traversal: from its frontier, along what expand lists, in
// one direction.
type walk struct {
	dir      direction
	expand   expander
	frontier []*wnode
}

// bfs runs walks from the nodes at depth 0, hop by hop, in lockstep: after
// each hop the nodes found so far are reported.
func (w *work) bfs(walks ...*walk) error {
	for _, wk := range walks {
		if wk.frontier == nil {
			for _, n := range w.nodes {
				if n.depth == 0 {
					wk.frontier = append(wk.frontier, n)
				}
			}
		}
	}
	// Every hop is reported, also once nothing is left to follow, so that
	// a client's progress reaches the depth it asked for.
	for hop := 1; hop <= w.depth; hop++ {
		for _, wk := range walks {
			if len(wk.frontier) == 0 || w.full {
				continue
			}
			next, err := w.hop(wk, hop)
			if err != nil {
				return err
			}
			wk.frontier = next
		}
		if w.req.Progress != nil {
			w.req.Progress(hop, w.depth, len(w.nodes))
		}
	}
	return nil
}

// hop expands one walk's frontier and returns the nodes it found.
func (w *work) hop(wk *walk, hop int) ([]*wnode, error) {
	w.sortNodes(wk.frontier)
	var next []*wnode
	for _, n := range wk.frontier {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
		neighbours, err := wk.expand(n)
		if err != nil {
			return nil, err
		}
		for _, nb := range neighbours {
			m, isNew := w.add(nb.key, hop, n)
			if m == nil {
				continue
			}
			if isNew {
				m.dir = wk.dir
				next = append(next, m)
			}
			from, to := m, n
			if wk.dir == outgoing {
				from, to = n, m
			}
			w.edge(from, to, nb.kind, nb.file, nb.line, nb.ambiguous)
			if nb.ambiguous && len(w.cands) < MaxCandidates && nb.ref >= 0 && !w.candSeen[nb.ref] {
				w.candSeen[nb.ref] = true
				w.cands = append(w.cands, wcand{ref: nb.ref, from: from, to: nb.cands})
			}
		}
		if w.full {
			break
		}
	}
	return next, nil
}

// sortNodes orders nodes by where they are, so that a hop's order (and so
// every id) does not depend on map iteration.
func (w *work) sortNodes(ns []*wnode) {
	sort.SliceStable(ns, func(i, j int) bool { return w.less(ns[i], ns[j]) })
}

func (w *work) less(a, b *wnode) bool {
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	pa, la, sa := w.position(a)
	pb, lb, sb := w.position(b)
	if pa != pb {
		return pa < pb
	}
	if la != lb {
		return la < lb
	}
	if sa != sb {
		return sa < sb
	}
	return a.key.kind < b.key.kind
}

// position is where a node is: path, line and symbol.
func (w *work) position(n *wnode) (string, int, string) {
	g := w.g
	switch n.key.kind {
	case nkDef:
		d := &g.defs[n.key.idx]
		return g.files[d.file].path, int(d.start), g.str(d.name)
	case nkFile:
		return g.files[n.key.idx].path, 0, ""
	case nkModule:
		return g.modules[n.key.idx].path, 0, ""
	case nkPackage:
		if p, ok := w.packageByName(n.key.name); ok {
			return p.Path, 0, p.Name
		}
		return "", 0, n.key.name
	case nkGroup:
		return n.key.name, 0, ""
	default:
		return "\uffff" + n.key.name, 0, n.key.name // external modules last
	}
}

// symbolResearch answers callers, callees, implementations and references.
func (w *work) symbolResearch(pq parsedQuery, res *Result) error {
	targets, err := w.g.findTargets(pq.subject, pq.intent)
	if err != nil {
		return err
	}
	if len(targets) > MaxTargets {
		targets, w.truncated = targets[:MaxTargets], true
	}
	for _, d := range targets {
		w.add(nodeKey{kind: nkDef, idx: d}, 0, nil)
	}
	switch pq.intent {
	case IntentCallers:
		err = w.bfs(&walk{dir: incoming, expand: w.callers})
	case IntentCallees:
		err = w.bfs(&walk{dir: outgoing, expand: w.callees})
	case IntentImplementations:
		err = w.bfs(&walk{dir: incoming, expand: w.implementers})
	case IntentReferences:
		err = w.bfs(&walk{dir: incoming, expand: w.references})
	}
	if err != nil {
		return err
	}
	return w.addFocus(res)
}

// incomingRefs lists the references, of the kinds wanted, that resolve to
// the definition d: what holds each is a neighbour.
func (w *work) incomingRefs(d int32, kinds func(refKind) bool) ([]neighbour, error) {
	g := w.g
	var out []neighbour
	for _, ri := range g.refsByName[g.defs[d].name] {
		if err := w.checkCancel(); err != nil {
			return nil, err
		}
		r := &g.refs[ri]
		if !kinds(r.kind) {
			continue
		}
		defs := w.resolveRef(ri)
		if !slices.Contains(defs, d) {
			continue
		}
		h := holder(g, ri)
		if h.kind == nkDef && h.idx == d {
			continue // recursion
		}
		out = append(out, neighbour{key: h, kind: r.kind.String(), file: r.file, line: int(r.line),
			ambiguous: len(defs) > 1, ref: ri, cands: defs})
	}
	return out, nil
}

func (w *work) callers(n *wnode) ([]neighbour, error) {
	if n.key.kind != nkDef {
		return nil, nil
	}
	return w.incomingRefs(n.key.idx, func(k refKind) bool { return k == rkCall })
}

func (w *work) references(n *wnode) ([]neighbour, error) {
	if n.key.kind != nkDef {
		return nil, nil
	}
	return w.incomingRefs(n.key.idx, func(refKind) bool { return true })
}

// constructorNames are the methods that building a value of a type runs.
var constructorNames = map[string]bool{"init": true, "__init__": true, "constructor": true, "initialize": true, "new": true}

// callees lists what a definition calls: the calls inside its lines that
// it (or a function nested in it) makes, resolved. Calling a type runs its
// constructor and field initialisers, not every method: a type's callees
// are those.
func (w *work) callees(n *wnode) ([]neighbour, error) {
	if n.key.kind != nkDef {
		return nil, nil
	}
	g := w.g
	d := n.key.idx
	f := &g.files[g.defs[d].file]
	isType := g.defs[d].kind.container()
	typeName := g.str(g.defs[d].name)
	var out []neighbour
	for ri := f.refs[0]; ri < f.refs[1]; ri++ {
		if err := w.checkCancel(); err != nil {
			return nil, err
		}
		r := &g.refs[ri]
		if r.kind != rkCall || r.line < g.defs[d].start || r.line > g.defs[d].end || !g.within(r.enclosing, d) {
			continue
		}
		if isType && r.enclosing != d {
			// Only in a constructor of this type.
			ctor := false
			for e := r.enclosing; e >= 0 && e != d; e = g.defs[e].parent {
				if name := g.str(g.defs[e].name); g.defs[e].parent == d && (constructorNames[name] || name == typeName) {
					ctor = true
				}
			}
			if !ctor {
				continue
			}
		}
		defs := w.resolveRef(ri)
		if len(defs) == 0 {
			w.external++
			continue
		}
		for _, t := range defs {
			if t == d {
				continue
			}
			out = append(out, neighbour{key: nodeKey{kind: nkDef, idx: t}, kind: r.kind.String(), file: r.file, line: int(r.line),
				ambiguous: len(defs) > 1, ref: ri, cands: defs})
		}
	}
	return out, nil
}

// within reports whether definition inner is outer or nested in it.
func (g *Graph) within(inner, outer int32) bool {
	for d := inner; d >= 0; d = g.defs[d].parent {
		if d == outer {
			return true
		}
	}
	return false
}

// implementers lists what implements, extends or conforms to a type: the
// definitions declaring it (a class, a Swift extension, a Rust impl), and
// for a Go interface the types whose method sets satisfy it.
func (w *work) implementers(n *wnode) ([]neighbour, error) {
	if n.key.kind != nkDef {
		return nil, nil
	}
	g := w.g
	d := n.key.idx
	out, err := w.incomingRefs(d, func(k refKind) bool { return k == rkImplements || k == rkExtends })
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].key.kind == nkFile {
			// A declaration lore saw outside any definition: the type
			// named as its source, in the same file.
			if s := g.sourceDef(out[i].ref); s >= 0 {
				out[i].key = nodeKey{kind: nkDef, idx: s}
			}
		}
	}
	def := &g.defs[d]
	if f := &g.files[def.file]; f.language == "go" && def.kind == dkInterface {
		impls, _ := g.goUniverse().implementations(f.module, g.str(def.name))
		for _, im := range impls {
			t := g.goTypeDef(im.key)
			if t < 0 || t == d {
				continue
			}
			tf := g.defs[t].file
			out = append(out, neighbour{key: nodeKey{kind: nkDef, idx: t}, kind: "implements", file: tf,
				line: int(g.defs[t].nameLine), ref: -1})
		}
	}
	return out, nil
}

// sourceDef finds the definition named as the source of an extends or
// implements reference, in its file.
func (g *Graph) sourceDef(ri int32) int32 {
	r := &g.refs[ri]
	f := &g.files[r.file]
	for d := f.defs[0]; d < f.defs[1]; d++ {
		if g.defs[d].name == r.source && g.defs[d].kind.typeLike() {
			return d
		}
	}
	return -1
}
