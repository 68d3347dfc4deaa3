package research

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// finish turns the collected nodes and edges into the result: ids in a
// fixed order, targets, edges, candidates, chains and the summary.
func (w *work) finish(pq parsedQuery, res *Result) {
	g := w.g
	sort.SliceStable(w.nodes, func(i, j int) bool { return w.less(w.nodes[i], w.nodes[j]) })
	res.Nodes = make([]Node, 0, len(w.nodes))
	for i, n := range w.nodes {
		n.id = "n" + strconv.Itoa(i)
		res.Nodes = append(res.Nodes, w.node(n))
	}
	res.Targets = []Target{}
	for _, n := range w.nodes {
		if n.depth != 0 {
			continue
		}
		out := w.node(n)
		line := out.StartLine
		if n.key.kind == nkDef {
			line = int(g.defs[n.key.idx].nameLine)
		}
		res.Targets = append(res.Targets, Target{Node: n.id, Symbol: out.Symbol, Kind: out.Kind, Path: out.Path, Line: line})
	}
	res.Edges = make([]Edge, 0, len(w.edges))
	sort.SliceStable(w.edges, func(i, j int) bool {
		a, b := w.edges[i], w.edges[j]
		if a.from != b.from {
			return idNum(a.from.id) < idNum(b.from.id)
		}
		if a.to != b.to {
			return idNum(a.to.id) < idNum(b.to.id)
		}
		return a.kind < b.kind
	})
	for _, e := range w.edges {
		p := e.path
		if e.file >= 0 {
			p = g.files[e.file].path
		}
		res.Edges = append(res.Edges, Edge{From: e.from.id, To: e.to.id, Kind: e.kind, Path: p, Line: e.line, Ambiguous: e.ambiguous})
	}
	res.Candidates = []Candidate{}
	for _, c := range w.cands {
		r := &g.refs[c.ref]
		cand := Candidate{Symbol: g.str(r.name), Path: g.files[r.file].path, Line: int(r.line), From: c.from.id}
		for _, d := range c.to {
			def := &g.defs[d]
			cd := CandidateDef{Symbol: g.qualifiedName(d), Kind: def.kind.String(), Path: g.files[def.file].path, Line: int(def.nameLine)}
			if n := w.byKey[nodeKey{kind: nkDef, idx: d}]; n != nil {
				cd.Node = n.id
			}
			cand.Definitions = append(cand.Definitions, cd)
		}
		res.Candidates = append(res.Candidates, cand)
	}
	sort.SliceStable(res.Candidates, func(i, j int) bool {
		a, b := res.Candidates[i], res.Candidates[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	res.Chains = w.chains(pq.intent)
	if res.Findings == nil {
		res.Findings = []Finding{}
	}
	res.Truncated = w.truncated
	res.Summary = w.summary(pq, res)
}

func idNum(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "n"))
	return n
}

// node is a collected node as the result shows it.
func (w *work) node(n *wnode) Node {
	g := w.g
	out := Node{ID: n.id, Depth: n.depth, Role: n.role}
	switch n.key.kind {
	case nkDef:
		d := &g.defs[n.key.idx]
		out.Symbol, out.Kind, out.Path = g.str(d.name), d.kind.String(), g.files[d.file].path
		out.StartLine, out.EndLine = int(d.start), int(d.end)
		out.Container = strings.ReplaceAll(g.str(d.container), " > ", ".")
		out.Signature = g.str(d.signature)
	case nkFile:
		f := &g.files[n.key.idx]
		out.Symbol, out.Kind, out.Path = f.path, "file", f.path
	case nkModule:
		m := &g.modules[n.key.idx]
		out.Symbol, out.Kind, out.Path = m.path, "module", m.path
	case nkGroup:
		out.Symbol, out.Kind, out.Path = n.key.name, "folder", n.key.name
		if n.key.name == "." {
			out.Kind = "repository"
		}
	case nkPackage:
		out.Symbol, out.Kind = n.key.name, "package"
		if p, ok := w.packageByName(n.key.name); ok {
			out.Path = p.Manifest
		}
	case nkExternal:
		out.Symbol, out.Kind = n.key.name, "external"
	}
	return out
}

// chains are the paths from each node where a traversal stopped (nothing
// further, or the depth reached) back to where it started, written in the
// direction of the edges: a caller first, a callee last.
func (w *work) chains(intent string) [][]string {
	if intent == IntentOverview && w.req.Focus == FocusArchitecture {
		return [][]string{}
	}
	var leaves []*wnode
	for _, n := range w.nodes {
		if n.depth > 0 && n.kids == 0 && n.parent != nil && n.key.kind != nkExternal {
			leaves = append(leaves, n)
		}
	}
	// The longest first; then in node order.
	sort.SliceStable(leaves, func(i, j int) bool { return leaves[i].depth > leaves[j].depth })
	out := [][]string{}
	for _, leaf := range leaves {
		if len(out) == MaxChains {
			break
		}
		var path []string
		for n := leaf; n != nil; n = n.parent {
			path = append(path, n.id)
		}
		if leaf.dir == outgoing {
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
		}
		out = append(out, path)
	}
	return out
}

// summary is a short, fixed-form text of what research found.
func (w *work) summary(pq parsedQuery, res *Result) string {
	g := w.g
	var b strings.Builder
	names := map[string]string{}
	for _, n := range res.Nodes {
		names[n.ID] = n.Symbol
	}
	targets := make([]string, 0, len(res.Targets))
	for i, t := range res.Targets {
		if i == 3 {
			targets = append(targets, fmt.Sprintf("%d more", len(res.Targets)-3))
			break
		}
		where := t.Path
		if t.Line > 0 {
			where += ":" + strconv.Itoa(t.Line)
		}
		targets = append(targets, fmt.Sprintf("%s (%s, %s)", t.Symbol, t.Kind, where))
	}
	found := len(res.Nodes) - len(res.Targets)
	what := map[string]string{
		IntentCallers: "callers", IntentCallees: "callees", IntentImplementations: "implementations",
		IntentReferences: "references", IntentDependencies: "dependencies", IntentDependents: "dependents",
	}[pq.intent]
	switch {
	case pq.intent == IntentOverview && w.req.Focus == FocusArchitecture:
		fmt.Fprintf(&b, "Map of the repository to folder depth %d: %d folders", res.Depth, countKind(res.Nodes, "folder"))
		if p := countKind(res.Nodes, "package"); p > 0 {
			fmt.Fprintf(&b, ", %d packages", p)
		}
		if e := countRole(res.Nodes, "entry point"); e > 0 {
			fmt.Fprintf(&b, ", %d entry points", e)
		}
		b.WriteString(".")
		var top []string
		for _, n := range res.Nodes {
			if n.Kind == "folder" && n.Depth == 1 && len(top) < 6 {
				if n.Role != "" {
					top = append(top, n.Symbol+" ("+n.Role+")")
				} else {
					top = append(top, n.Symbol)
				}
			}
		}
		if len(top) > 0 {
			fmt.Fprintf(&b, " Largest top folders: %s.", strings.Join(top, "; "))
		}
	case pq.intent == IntentOverview:
		fmt.Fprintf(&b, "%d search results", len(res.Findings))
		if len(res.Targets) > 0 {
			how := map[string]string{FocusDependencies: "imports", FocusPatterns: "implementations and same-named definitions"}[w.req.Focus]
			if how == "" {
				how = "calls, both ways"
			}
			fmt.Fprintf(&b, "; from %s, followed %s to depth %d: %d more nodes", strings.Join(targets, ", "), how, res.Depth, found)
		}
		b.WriteString(".")
	case len(res.Targets) == 0:
		fmt.Fprintf(&b, "Nothing named %s was found.", pq.subject)
	default:
		fmt.Fprintf(&b, "%s of %s to depth %d: ", capitalize(what), strings.Join(targets, ", "), res.Depth)
		if found == 0 {
			fmt.Fprintf(&b, "none found in the index.")
		} else {
			fmt.Fprintf(&b, "%d found", found)
			if mods := moduleCounts(res.Nodes); len(mods) > 0 {
				fmt.Fprintf(&b, " in %d modules (%s)", len(mods), strings.Join(mods[:min(len(mods), 5)], ", "))
			}
			b.WriteString(".")
		}
	}
	if len(res.Chains) > 0 && !(pq.intent == IntentOverview && w.req.Focus == FocusArchitecture) {
		var cs []string
		for i, c := range res.Chains {
			if i == 3 {
				break
			}
			var parts []string
			for _, id := range c {
				parts = append(parts, names[id])
			}
			cs = append(cs, strings.Join(parts, " → "))
		}
		label := "Chains"
		if pq.intent == IntentCallers || pq.intent == IntentCallees {
			label = "Call chains"
		}
		fmt.Fprintf(&b, " %s: %s", label, strings.Join(cs, "; "))
		if len(res.Chains) > 3 {
			fmt.Fprintf(&b, "; %d more", len(res.Chains)-3)
		}
		b.WriteString(".")
	}
	if len(res.Candidates) > 0 {
		fmt.Fprintf(&b, " %d references name several definitions; each is kept (see candidates).", len(res.Candidates))
	}
	if w.external > 0 && pq.intent == IntentCallees {
		fmt.Fprintf(&b, " %d calls reach code outside the repository or unknown to the index.", w.external)
	}
	if res.Truncated {
		fmt.Fprintf(&b, " Truncated at %d nodes or %d edges.", MaxNodes, MaxEdges)
	}
	_ = g
	return b.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func countKind(nodes []Node, kind string) int {
	n := 0
	for _, x := range nodes {
		if x.Kind == kind {
			n++
		}
	}
	return n
}

func countRole(nodes []Node, role string) int {
	n := 0
	for _, x := range nodes {
		if x.Role == role {
			n++
		}
	}
	return n
}

// moduleCounts lists the folders of the non-target nodes, most nodes
// first.
func moduleCounts(nodes []Node) []string {
	counts := map[string]int{}
	for _, n := range nodes {
		if n.Depth == 0 || n.Path == "" || n.Kind == "external" || n.Kind == "package" {
			continue
		}
		dir := n.Path
		if n.Kind != "module" && n.Kind != "folder" {
			if i := strings.LastIndex(dir, "/"); i >= 0 {
				dir = dir[:i]
			} else {
				dir = "."
			}
		}
		counts[dir]++
	}
	var out []string
	for d := range counts {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if counts[out[i]] != counts[out[j]] {
			return counts[out[i]] > counts[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}
