package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/lore-dev/lore/internal/assist"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/research"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store"
)

// ResearchRequest asks how a root's code is put together: callers,
// callees, implementations, references, dependencies or an overview (see
// package research).
type ResearchRequest struct {
	Root  string // absolute
	Query string
	Depth int    // 1..5; 0 means research.DefaultDepth
	Focus string // "" or one of research.Focuses
	// Explain adds a model's explanation of the result, from Sampler (the
	// caller's own model), else the configured chat endpoint, else lore's
	// own extractive summary.
	Explain bool
	Sampler assist.Model
	// Progress, if set, is called after each hop (see research.Request).
	Progress func(hop, depth, nodes int)
}

// ResearchResult is a research's answer.
type ResearchResult struct {
	Root string
	*research.Result
	Explanation *assist.Synthesis
}

// symbolGraph is the research graph of one generation of a collection.
type symbolGraph struct {
	generation string
	graph      *research.Graph
}

// Research answers a research question over a root's index. The query,
// depth and focus are checked before the index is opened.
func (a *App) Research(ctx context.Context, req ResearchRequest) (*ResearchResult, error) {
	query := strings.TrimSpace(req.Query)
	if query == "" {
		return nil, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	if err := search.CheckQuery(query); err != nil {
		return nil, err
	}
	if err := research.CheckRequest(req.Depth, req.Focus); err != nil {
		return nil, err
	}
	g, err := a.ResearchGraph(ctx, req.Root)
	if err != nil {
		if ctx.Err() != nil {
			return nil, (&errs.Error{Kind: errs.Cancelled, Code: errs.CodeCancelled}).Wrap(ctx.Err())
		}
		return nil, err
	}
	pkgs, err := a.Packages(ctx, req.Root)
	if err != nil {
		return nil, err
	}
	find := func(ctx context.Context, q string, limit int) ([]research.Finding, error) {
		eng, _, err := a.engine(ctx, req.Root)
		if err != nil {
			return nil, err
		}
		if search.CheckQuery(q) != nil {
			return nil, nil
		}
		resp, err := a.searches.search(ctx, eng, search.Options{Query: q, Limit: limit})
		if err != nil {
			return nil, err
		}
		out := make([]research.Finding, 0, len(resp.Results))
		for _, r := range resp.Results {
			symbols := r.Symbols
			if symbols == nil {
				symbols = []string{}
			}
			out = append(out, research.Finding{Path: r.Path, StartLine: r.StartLine, EndLine: r.EndLine, Kind: r.Kind,
				Symbols: symbols, Signature: r.Signature, RelevancePercent: r.RelevancePercent})
		}
		return out, nil
	}
	res, err := research.Run(ctx, g, research.Request{Query: query, Depth: req.Depth, Focus: req.Focus,
		Progress: req.Progress, Search: find, Packages: pkgs.Graph})
	if err != nil {
		if ctx.Err() != nil {
			return nil, (&errs.Error{Kind: errs.Cancelled, Code: errs.CodeCancelled}).Wrap(ctx.Err())
		}
		return nil, err
	}
	out := &ResearchResult{Root: req.Root, Result: res}
	if req.Explain {
		helper := &assist.Assistant{Sampler: req.Sampler, Chat: a.chat}
		syn, err := helper.Synthesize(ctx, query, researchHits(res))
		if err != nil {
			return nil, err
		}
		out.Explanation = &syn
	}
	return out, nil
}

// ResearchGraph returns the research graph of a root's index, built once
// per generation from the symbols and packages the index holds. The build
// runs apart from the call: a cancelled call returns at once, and the
// build goes on to cache the graph for the next call (it is bounded by the
// index's size).
func (a *App) ResearchGraph(ctx context.Context, root string) (*research.Graph, error) {
	r, loc, err := a.reader(ctx, root)
	if err != nil {
		return nil, err
	}
	generation, err := r.Generation(ctx)
	if err != nil {
		return nil, err
	}
	if g := a.cachedGraph(loc, generation); g != nil {
		return g, nil
	}
	type built struct {
		g   *research.Graph
		err error
	}
	done := make(chan built, 1)
	go func() {
		g, err := a.buildGraph(context.WithoutCancel(ctx), r, loc, generation)
		done <- built{g, err}
	}()
	select {
	case b := <-done:
		return b.g, b.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// buildGraph builds and caches the graph of one generation of a
// collection; one build at a time, so that two calls for a new generation
// build it once.
func (a *App) buildGraph(ctx context.Context, r store.Reader, loc store.Locator, generation string) (*research.Graph, error) {
	a.graphBuild.Lock()
	defer a.graphBuild.Unlock()
	if g := a.cachedGraph(loc, generation); g != nil {
		return g, nil // built while this call waited
	}
	var files []research.File
	err := r.Symbols(ctx, func(fs store.FileSymbols) error {
		files = append(files, research.File{Path: fs.Path, Language: fs.Language, Symbols: fs.Symbols})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the symbols of %s: %w", loc.Database, err)
	}
	pkgs, err := r.Packages(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the packages of %s: %w", loc.Database, err)
	}
	g := research.NewGraph(files, pkgs)
	a.mu.Lock()
	a.graphs[loc] = &symbolGraph{generation: generation, graph: g}
	a.mu.Unlock()
	return g, nil
}

func (a *App) cachedGraph(loc store.Locator, generation string) *research.Graph {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s, ok := a.graphs[loc]; ok && s.generation == generation {
		return s.graph
	}
	return nil
}

// researchHits shows a model what research found: the summary, then the
// nodes with their signatures.
func researchHits(res *research.Result) []assist.Hit {
	hits := []assist.Hit{{Path: "research summary", Kind: res.Intent, Content: res.Summary}}
	for _, n := range res.Nodes {
		if len(hits) == 8 {
			break
		}
		hits = append(hits, assist.Hit{Path: n.Path, StartLine: n.StartLine, EndLine: n.EndLine, Kind: n.Kind,
			Symbols: []string{n.Symbol}, Signature: n.Signature,
			Content: fmt.Sprintf("%s %s at depth %d", n.Kind, n.Symbol, n.Depth)})
	}
	return hits
}
