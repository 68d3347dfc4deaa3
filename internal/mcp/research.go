package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/assist"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/research"
	"github.com/lore-dev/lore/internal/search"
)

// codeResearchArgs are code_research's arguments.
type codeResearchArgs struct {
	Query   string `arg:"query,required" desc:"Research question about the codebase: \"what calls authenticate()\", \"all implementations of Authenticatable\", \"where is Config used\", \"what does package web depend on\", or any question (an overview from ranked search)."`
	Path    string `arg:"path" default:"." desc:"The indexed directory: absolute, or relative to the served root (\".\")."`
	Depth   int    `arg:"depth" default:"${research.DefaultDepth}" min:"${research.MinDepth}" max:"${research.MaxDepth}" desc:"Hops to follow from what the query names (callers of callers, …); for focus architecture, the folder levels mapped."`
	Focus   string `arg:"focus" enum:"${research.Focuses}" desc:"What to emphasise: architecture (folders, their roles, entry points, import and package graphs), dependencies (import and package edges), patterns (implementations and same-named definitions), flow (calls)."`
	Format  string `arg:"format" default:"json" enum:"json,toon,human" desc:"Text rendering of the result: json, toon (compact, for language models) or human. The structured content is the same."`
	Explain bool   `arg:"explain" default:"false" desc:"Add an explanation of the result written by a model (the client's through sampling, or a configured endpoint; lore's own summary otherwise)."`
}

func (s *Server) codeResearchTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "code_research",
			Title: "Research code",
			Description: "Deep analysis with multi-hop search over the index's symbol graph (definitions and references of every " +
				"parsed language): callers and their callers with call chains, callees, implementations (declared, Swift " +
				"extensions, Rust impls; Go structurally), references, module dependencies, or an overview from ranked search " +
				"expanded along the graph. Follows edges breadth-first up to depth hops; ambiguous references are kept and listed " +
				"as candidates. Sends one progress notification per hop.",
			Annotations:  readOnlyAnnotations("Research code"),
			Icons:        iconResearch,
			OutputSchema: researchOutputSchema(),
		},
	}, s.codeResearch)
}

func researchOutputSchema() map[string]any {
	node := sObject(map[string]any{
		"id":         sString("the node's id in edges and chains"),
		"symbol":     sString("the definition's name, or a file, folder, module or package"),
		"kind":       sString("function, method, class, interface, …; file, module, folder, repository, package, external"),
		"path":       sString("file or folder relative to the indexed directory"),
		"start_line": sInt("first line, 1-based (0 for folders and packages)"),
		"end_line":   sInt("last line, inclusive"),
		"depth":      sInt("hops from the targets (0: a target)"),
		"container":  sString("the type or module holding the definition"),
		"signature":  sString("the declaration without its body"),
		"role":       sString("a folder's role (entry point, HTTP, command line, tests, interfaces, types, functions)"),
	}, "id", "symbol", "kind", "path", "start_line", "end_line", "depth")
	loc := map[string]any{
		"symbol": sString(""), "kind": sString(""), "path": sString(""), "line": sInt(""),
	}
	target := sObject(map[string]any{"node": sString("the target's node id"), "symbol": sString(""), "kind": sString(""),
		"path": sString(""), "line": sInt("")}, "node", "symbol", "kind", "path", "line")
	candDef := map[string]any{"node": sString("its node id, when research reached it")}
	for k, v := range loc {
		candDef[k] = v
	}
	return outputSchema(map[string]any{
		"query":   sString("the question as given"),
		"root":    sString("the indexed directory"),
		"intent":  sEnum("what the question asks", research.Intents...),
		"focus":   sString("the focus asked for, \"\" when none"),
		"depth":   sInt("hops followed"),
		"targets": sArray(target),
		"candidates": sArray(sObject(map[string]any{
			"symbol": sString("the name referred to"), "path": sString(""), "line": sInt(""),
			"from":        sString("the node holding the reference"),
			"definitions": sArray(sObject(candDef, "symbol", "kind", "path", "line")),
		}, "symbol", "path", "line", "from", "definitions")),
		"nodes": sArray(node),
		"edges": sArray(sObject(map[string]any{
			"from": sString(""), "to": sString(""),
			"kind":      sString("call, type, reference, extends, implements, import, depends, contains, defines, similar"),
			"path":      sString("where the source says so"),
			"line":      sInt(""),
			"ambiguous": sBool("the reference names several definitions (see candidates)"),
		}, "from", "to", "kind", "path", "line")),
		"chains":    sArray(sStringArray("node ids in the direction of the edges: a caller first")),
		"findings":  sArray(sObject(map[string]any{"path": sString(""), "start_line": sInt(""), "end_line": sInt(""), "kind": sString(""), "symbols": sStringArray(""), "signature": sString(""), "relevance_percent": sInt("")}, "path", "start_line", "end_line", "kind", "symbols", "relevance_percent")),
		"summary":   sString("a short text of what was found: counts, the main chains, the modules involved"),
		"truncated": sBool("a cap on nodes or edges was reached"),
		"explanation": sObject(map[string]any{
			"source":     sEnum("what wrote the explanation", "sampling", "openai", "builtin"),
			"summary":    sString(""),
			"follow_ups": sStringArray("suggested next questions"),
			"note":       sString("why an earlier source was not used"),
		}, "source", "summary", "follow_ups"),
	}, "query", "root", "intent", "focus", "depth", "targets", "candidates", "nodes", "edges", "chains", "findings", "summary", "truncated")
}

// researchOutput is code_research's structured content.
type researchOutput struct {
	Query       string               `json:"query"`
	Root        string               `json:"root"`
	Intent      string               `json:"intent"`
	Focus       string               `json:"focus"`
	Depth       int                  `json:"depth"`
	Targets     []research.Target    `json:"targets"`
	Candidates  []research.Candidate `json:"candidates"`
	Nodes       []research.Node      `json:"nodes"`
	Edges       []research.Edge      `json:"edges"`
	Chains      [][]string           `json:"chains"`
	Findings    []research.Finding   `json:"findings"`
	Summary     string               `json:"summary"`
	Truncated   bool                 `json:"truncated"`
	Explanation *assist.Synthesis    `json:"explanation,omitempty"`
}

func (s *Server) codeResearch(ctx context.Context, c *call, in *codeResearchArgs) (*outcome, error) {
	query := strings.TrimSpace(in.Query)
	if query == "" {
		return nil, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	if err := search.CheckQuery(query); err != nil {
		return nil, err
	}
	root, err := s.codeRoot(in.Path)
	if err != nil {
		return nil, err
	}
	c.logAs("root", root)
	progress := c.stepReporter(ctx)
	req := app.ResearchRequest{Root: root, Query: query, Depth: in.Depth, Focus: in.Focus, Explain: in.Explain,
		Progress: func(hop, depth, nodes int) {
			progress(hop, depth, fmt.Sprintf("hop %d of %d, %d nodes", hop, depth, nodes))
		}}
	if in.Explain && canSample(c.req) {
		req.Sampler = sessionSampler{c.req.Session}
	}
	res, err := s.opts.App.Research(ctx, req)
	if err != nil {
		return nil, err
	}
	out := researchOutput{Query: query, Root: root, Intent: res.Intent, Focus: res.Focus, Depth: res.Depth,
		Targets: res.Targets, Candidates: res.Candidates, Nodes: res.Nodes, Edges: res.Edges, Chains: res.Chains,
		Findings: res.Findings, Summary: res.Summary, Truncated: res.Truncated, Explanation: res.Explanation}
	text, err := renderResearch(in.Format, out)
	if err != nil {
		return nil, err
	}
	return &outcome{structured: out, text: text}, nil
}

// renderResearch is the text rendering of a research in the requested
// format ("" for JSON: the structured content's).
func renderResearch(format string, out researchOutput) (string, error) {
	switch format {
	case "toon":
		return toonText(out)
	case "human":
		res := research.Result{Summary: out.Summary, Nodes: out.Nodes, Edges: out.Edges, Chains: out.Chains,
			Candidates: out.Candidates, Findings: out.Findings}
		text := res.Text()
		if e := out.Explanation; e != nil {
			text += fmt.Sprintf("\n\nExplanation (%s): %s", e.Source, e.Summary)
			for _, f := range e.FollowUps {
				text += "\n  - " + f
			}
		}
		return text, nil
	}
	return "", nil
}
