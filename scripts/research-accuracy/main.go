// Command research-accuracy measures lore's code_research against a
// type-checked truth on a Go repository: depth-1 callers against the
// static calls of the SSA form of every function (golang.org/x/tools/go/ssa:
// calls whose callee is known without running the program, as
// callgraph/static counts them, closures included), and against CHA
// (golang.org/x/tools/go/callgraph/cha, which also counts calls through
// interfaces); interface implementations against go/types
// (types.Implements of T or *T).
//
// It is its own module so that lore's go.mod does not grow. It drives a
// lore binary over MCP on stdio (lore serve), the way an agent does:
//
//	go run . -lore /tmp/lore -root ~/bench/gin [-sample 300] [-json out.json]
//
// The repository must build (its dependencies are downloaded by go/packages)
// and be indexed first (lore --index FILE index ROOT; pass -index FILE).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"log"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// site is a named function or type, as both sides can name it: the file
// relative to the root and the line of its name.
type site struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Name string `json:"name"`
}

func main() {
	loreBin := flag.String("lore", "lore", "the lore binary")
	root := flag.String("root", ".", "the Go repository")
	index := flag.String("index", "", "the index file (lore --index); default lore's own")
	sample := flag.Int("sample", 300, "functions with callers to query (0: all)")
	seed := flag.Int64("seed", 1, "sampling seed")
	jsonOut := flag.String("json", "", "write the figures and every difference to this file")
	flag.Parse()
	abs, err := filepath.Abs(*root)
	if err != nil {
		log.Fatal(err)
	}
	abs, _ = filepath.EvalSymlinks(abs)

	fset, pkgs := load(abs)
	callers, callersCHA, funcs := callTruth(fset, pkgs, abs)
	impls, ifaces := implTruth(fset, pkgs, abs)
	log.Printf("truth: %d functions with static callers, %d interfaces", len(callers), len(ifaces))

	funcSet := map[site]bool{}
	for s := range funcs {
		funcSet[s] = true
	}
	funcIndex := newSiteIndex(funcSet)
	typeSet := map[site]bool{}
	for _, set := range impls {
		for s := range set {
			typeSet[s] = true
		}
	}
	typeIndex := newSiteIndex(typeSet)
	client := startLore(*loreBin, *index, abs)
	defer client.close()

	// Callers: a sample of the functions that have callers.
	keys := make([]site, 0, len(callers))
	for k := range callers {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	rand.New(rand.NewSource(*seed)).Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	if *sample > 0 && len(keys) > *sample {
		keys = keys[:*sample]
	}
	report := map[string]any{"root": abs}
	var all, definite, vsCHA counts
	var diffs []map[string]any
	missingTarget := 0
	var notFound []site
	for _, fn := range keys {
		got, gotDefinite, found := client.callers(fn, funcs[fn], funcIndex)
		if !found {
			missingTarget++
			notFound = append(notFound, fn)
			continue
		}
		all.add(got, callers[fn])
		definite.add(gotDefinite, callers[fn])
		vsCHA.add(got, callersCHA[fn])
		if fp, fn2 := difference(got, callers[fn]); len(fp)+len(fn2) > 0 {
			fpDefinite, _ := difference(gotDefinite, callers[fn])
			diffs = append(diffs, map[string]any{"function": fn, "extra": fp, "extra_unambiguous": fpDefinite, "missed": fn2})
		}
	}
	fmt.Printf("callers (depth 1) of %d functions (%d not found as a target):\n", len(keys)-missingTarget, missingTarget)
	fmt.Printf("  vs static call graph, every edge:    %s\n", all)
	fmt.Printf("  vs static call graph, unambiguous:   %s\n", definite)
	fmt.Printf("  vs CHA (calls through interfaces):   %s\n", vsCHA)
	report["callers_static"] = all.figures()
	report["callers_static_unambiguous"] = definite.figures()
	report["callers_cha"] = vsCHA.figures()
	report["callers_not_found"] = notFound

	var implCounts counts
	var implDiffs []map[string]any
	implMissing := 0
	for _, it := range ifaces {
		got, found := client.implementations(it, typeIndex)
		if !found {
			implMissing++
			continue
		}
		implCounts.add(got, impls[it])
		if fp, fn2 := difference(got, impls[it]); len(fp)+len(fn2) > 0 {
			implDiffs = append(implDiffs, map[string]any{"interface": it, "extra": fp, "missed": fn2})
		}
	}
	fmt.Printf("implementations of %d interfaces (%d not found as a target): %s\n", len(ifaces)-implMissing, implMissing, implCounts)
	report["implementations"] = implCounts.figures()
	report["implementations_not_found"] = implMissing
	report["caller_differences"] = diffs
	report["implementation_differences"] = implDiffs
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(report, "", "  ")
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func less(a, b site) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Line < b.Line
}

// counts accumulates true and false positives and negatives over queries
// (micro-averaged).
type counts struct{ tp, fp, fn int }

func (c *counts) add(got, want map[site]bool) {
	for s := range got {
		if want[s] {
			c.tp++
		} else {
			c.fp++
		}
	}
	for s := range want {
		if !got[s] {
			c.fn++
		}
	}
}

func (c counts) precision() float64 { return ratio(c.tp, c.tp+c.fp) }
func (c counts) recall() float64    { return ratio(c.tp, c.tp+c.fn) }

func (c counts) String() string {
	return fmt.Sprintf("precision %.3f recall %.3f (tp %d, fp %d, fn %d)", c.precision(), c.recall(), c.tp, c.fp, c.fn)
}

func (c counts) figures() map[string]any {
	return map[string]any{"precision": c.precision(), "recall": c.recall(), "tp": c.tp, "fp": c.fp, "fn": c.fn}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func difference(got, want map[site]bool) (extra, missed []site) {
	for s := range got {
		if !want[s] {
			extra = append(extra, s)
		}
	}
	for s := range want {
		if !got[s] {
			missed = append(missed, s)
		}
	}
	sort.Slice(extra, func(i, j int) bool { return less(extra[i], extra[j]) })
	sort.Slice(missed, func(i, j int) bool { return less(missed[i], missed[j]) })
	return extra, missed
}

// load type-checks every package of the repository, tests included.
func load(root string) (*token.FileSet, []*packages.Package) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedDeps | packages.NeedImports | packages.NeedModule,
		Dir:   root,
		Tests: true,
		Fset:  token.NewFileSet(),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		log.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		log.Printf("%d package errors; the truth covers what type-checked", n)
	}
	return cfg.Fset, pkgs
}

// position returns where an object or function is declared, relative to
// the root; ok is false outside the root.
func position(fset *token.FileSet, root string, pos token.Pos) (string, int, bool) {
	if !pos.IsValid() {
		return "", 0, false
	}
	p := fset.Position(pos)
	rel, err := filepath.Rel(root, p.Filename)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", 0, false
	}
	return filepath.ToSlash(rel), p.Line, true
}

// named returns the declared function a function belongs to: itself, or
// for a closure the function around it.
func named(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// funcSite is a declared function's site: a wrapper ((*T).M for M
// declared on T) or an instance of a generic function stands for the
// declared one. ok is false for functions without a declaration (package
// initialisers) and those outside the root.
func funcSite(fset *token.FileSet, root string, fn *ssa.Function) (site, bool) {
	fn = named(fn)
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Object() == nil {
		return site{}, false
	}
	path, line, ok := position(fset, root, fn.Object().Pos())
	if !ok {
		return site{}, false
	}
	return site{Path: path, Line: line, Name: fn.Object().Name()}, true // "init", not SSA's "init#2"
}

// target is how to ask lore about a function: its name and receiver type.
type target struct {
	name, recv string
}

// callTruth returns, for each declared function, the declared functions
// that call it: by their static calls (every function, closures
// included, every call whose callee is known statically: functions and
// methods of concrete types), and by CHA (calls through interfaces reach
// every implementation).
func callTruth(fset *token.FileSet, pkgs []*packages.Package, root string) (static_, chaG map[site]map[site]bool, funcs map[site]target) {
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	funcs = map[site]target{}
	// static.CallGraph only follows static calls from package-level
	// functions, so it misses the calls made inside a closure that is
	// passed as a value; every function is visited here instead.
	staticGraph := callgraph.New(nil)
	for fn := range ssautil.AllFunctions(prog) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if g := call.Common().StaticCallee(); g != nil {
						callgraph.AddEdge(staticGraph.CreateNode(fn), call, staticGraph.CreateNode(g))
					}
				}
			}
		}
	}
	collect := func(cg *callgraph.Graph) map[site]map[site]bool {
		out := map[site]map[site]bool{}
		for fn, node := range cg.Nodes {
			if fn == nil || fn.Parent() != nil {
				continue // closures are counted in their function
			}
			callee, ok := funcSite(fset, root, fn)
			if !ok {
				continue
			}
			decl := fn
			if o := fn.Origin(); o != nil {
				decl = o
			}
			// The declared function's receiver, not a wrapper's ((*Engine).PUT
			// promoted from RouterGroup).
			obj := decl.Object().(*types.Func)
			t := target{name: obj.Name()}
			if recv := obj.Signature().Recv(); recv != nil {
				t.recv = typeName(recv.Type())
			}
			funcs[callee] = t
			for _, e := range node.In {
				caller, ok := funcSite(fset, root, e.Caller.Func)
				if !ok || caller == callee {
					continue
				}
				if out[callee] == nil {
					out[callee] = map[site]bool{}
				}
				out[callee][caller] = true
			}
		}
		return out
	}
	static_ = collect(staticGraph)
	chaG = collect(cha.CallGraph(prog))
	return static_, chaG, funcs
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		return n.Obj().Name()
	}
	return ""
}

// implTruth returns, for each interface declared in the repository with at
// least one method, the named non-interface types of the repository that
// implement it (as T or *T).
func implTruth(fset *token.FileSet, pkgs []*packages.Package, root string) (map[site]map[site]bool, []site) {
	type named struct {
		obj  *types.TypeName
		site site
	}
	var ifaces, concretes []named
	seen := map[site]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil {
			return
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			path, line, ok := position(fset, root, tn.Pos())
			if !ok {
				continue
			}
			s := site{Path: path, Line: line, Name: name}
			if seen[s] {
				continue
			}
			seen[s] = true
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				if it.NumMethods() > 0 && !it.IsComparable() && it.IsMethodSet() {
					ifaces = append(ifaces, named{tn, s})
				}
				continue
			}
			if _, generic := tn.Type().(*types.Named); generic && tn.Type().(*types.Named).TypeParams().Len() > 0 {
				continue
			}
			concretes = append(concretes, named{tn, s})
		}
	})
	out := map[site]map[site]bool{}
	var list []site
	for _, i := range ifaces {
		it := i.obj.Type().Underlying().(*types.Interface)
		list = append(list, i.site)
		out[i.site] = map[site]bool{}
		for _, c := range concretes {
			t := c.obj.Type()
			if types.Implements(t, it) || types.Implements(types.NewPointer(t), it) {
				out[i.site][c.site] = true
			}
		}
	}
	sort.Slice(list, func(i, j int) bool { return less(list[i], list[j]) })
	return out, list
}

// loreClient speaks MCP to lore serve over stdio.
type loreClient struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	root string
	id   int
}

func startLore(bin, index, root string) *loreClient {
	args := []string{}
	if index != "" {
		args = append(args, "--index", index)
	}
	args = append(args, "serve", "--root", root, "--read-only", "--toolsets", "code")
	cmd := exec.Command(bin, args...)
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	c := &loreClient{cmd: cmd, in: in, out: bufio.NewReaderSize(outPipe, 1<<20), root: root}
	c.call("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "research-accuracy", "version": "0"}})
	fmt.Fprintln(c.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *loreClient) close() {
	c.in.Close()
	c.cmd.Wait()
}

func (c *loreClient) call(method string, params any) json.RawMessage {
	c.id++
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if _, err := fmt.Fprintf(c.in, "%s\n", msg); err != nil {
		log.Fatal(err)
	}
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			log.Fatalf("reading lore's answer: %v", err)
		}
		var resp struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &resp) != nil || resp.ID == nil || *resp.ID != c.id {
			continue // a notification
		}
		if resp.Error != nil {
			log.Fatalf("%s: %s", method, resp.Error)
		}
		return resp.Result
	}
}

// result is what code_research answers, as far as this program reads it.
type result struct {
	Targets []struct {
		Node string `json:"node"`
		Path string `json:"path"`
		Line int    `json:"line"`
	} `json:"targets"`
	Nodes []struct {
		ID        string `json:"id"`
		Symbol    string `json:"symbol"`
		Kind      string `json:"kind"`
		Path      string `json:"path"`
		StartLine int    `json:"start_line"`
		EndLine   int    `json:"end_line"`
	} `json:"nodes"`
	Edges []struct {
		From, To, Kind string
		Ambiguous      bool
	} `json:"edges"`
}

func (c *loreClient) research(query string) (*result, bool) {
	raw := c.call("tools/call", map[string]any{"name": "code_research",
		"arguments": map[string]any{"query": query, "depth": 1}})
	var res struct {
		IsError           bool    `json:"isError"`
		StructuredContent *result `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		log.Fatal(err)
	}
	if res.IsError || res.StructuredContent == nil {
		return nil, false
	}
	return res.StructuredContent, true
}

// siteIndex finds the truth's site of a lore node: the same file and
// name, the truth's line (its name's) within the node's lines.
type siteIndex map[[2]string][]int

func newSiteIndex(sites ...map[site]bool) siteIndex {
	x := siteIndex{}
	for _, set := range sites {
		for s := range set {
			k := [2]string{s.Path, s.Name}
			x[k] = append(x[k], s.Line)
		}
	}
	return x
}

func (x siteIndex) lookup(path, name string, start, end int) site {
	for _, l := range x[[2]string{path, name}] {
		if l >= start && l <= end {
			return site{Path: path, Line: l, Name: name}
		}
	}
	return site{Path: path, Line: start, Name: name}
}

// neighbours returns the sites of the nodes with an edge of kind to the
// target at want, and those of the unambiguous edges.
func (r *result) neighbours(want site, kind string, x siteIndex) (all, definite map[site]bool, found bool) {
	target := ""
	for _, t := range r.Targets {
		if t.Path == want.Path && t.Line == want.Line {
			target = t.Node
		}
	}
	if target == "" {
		return nil, nil, false
	}
	byID := map[string]int{}
	for i, n := range r.Nodes {
		byID[n.ID] = i
	}
	all, definite = map[site]bool{}, map[site]bool{}
	for _, e := range r.Edges {
		if e.To != target || kind != "" && e.Kind != kind {
			continue
		}
		n := r.Nodes[byID[e.From]]
		if n.Kind == "file" {
			continue // top-level code: the truth's package initialiser
		}
		if kind == "" && n.Kind == "interface" {
			continue // an interface embedding another: the truth lists types only
		}
		s := x.lookup(n.Path, n.Symbol, n.StartLine, n.EndLine)
		all[s] = true
		if !e.Ambiguous {
			definite[s] = true
		}
	}
	return all, definite, true
}

// callers asks lore for the depth-1 callers of a function.
func (c *loreClient) callers(fn site, t target, x siteIndex) (all, definite map[site]bool, found bool) {
	name := t.name
	if t.recv != "" {
		name = t.recv + "." + name
	}
	r, ok := c.research("what calls " + name)
	if !ok {
		return nil, nil, false
	}
	// Targets are reported at their name line, as the truth is.
	all, definite, found = r.neighbours(fn, "call", x)
	return all, definite, found
}

// implementations asks lore for the depth-1 implementations of an
// interface.
func (c *loreClient) implementations(it site, x siteIndex) (map[site]bool, bool) {
	r, ok := c.research("all implementations of " + it.Name)
	if !ok {
		return nil, false
	}
	got, _, found := r.neighbours(it, "", x)
	return got, found
}
