package app

import (
	"context"
	"strings"

	"github.com/lore-dev/lore/internal/assist"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store"
)

// SearchRequest asks for a ranked search of a root's index.
type SearchRequest struct {
	Root string // absolute
	search.Options
	// Embedder, when set, is the embedder the caller expects the index to
	// have been built with: vectors of two embedders are never compared.
	Embedder string
	// Expand adds related terms to the query first; Synthesize adds a
	// summary of the results. Both ask Sampler (the caller's own model,
	// when it offers one), then the configured chat endpoint, then the
	// index's own vocabulary.
	Expand, Synthesize bool
	Sampler            assist.Model
}

// SearchResult is a search's answer.
type SearchResult struct {
	Root string
	*search.Response
	Expansion *assist.Expansion
	Synthesis *assist.Synthesis
}

// Warm loads what searching a root's index needs, so that the next Search
// only searches: a server can warm its roots at start, and a one-shot
// search can tune the runtime between the load and the query.
func (a *App) Warm(ctx context.Context, root string) error {
	_, _, err := a.engine(ctx, root)
	return err
}

// Search runs a ranked search of a root's index.
func (a *App) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	query := strings.TrimSpace(req.Query)
	if query == "" {
		return nil, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	// Before anything else: an over-long query must not reach the index,
	// nor a model through Expand.
	if err := search.CheckQuery(query); err != nil {
		return nil, err
	}
	eng, _, err := a.engine(ctx, req.Root)
	if err != nil {
		return nil, err
	}
	if req.Embedder != "" {
		if err := sameEmbedder(ctx, eng.Reader(), req.Root, req.Embedder); err != nil {
			return nil, err
		}
	}
	out := &SearchResult{Root: req.Root}
	opts := req.Options
	opts.Query = query
	var helper *assist.Assistant
	if req.Expand || req.Synthesize {
		helper = &assist.Assistant{Sampler: req.Sampler, Chat: a.chat}
	}
	if req.Expand {
		exp, err := helper.Expand(ctx, query)
		if err != nil {
			return nil, err
		}
		if search.CheckQuery(exp.Query) != nil { // the added terms pushed it over the limits
			exp = assist.Expansion{Source: exp.Source, Terms: []string{}, Query: query,
				Note: "the expanded query is over the query limits; the query was searched as given"}
		}
		out.Expansion = &exp
		opts.Query = exp.Query
	}
	resp, err := a.searches.search(ctx, eng, opts)
	if err != nil {
		return nil, err
	}
	out.Response = resp
	if req.Synthesize {
		syn, err := helper.Synthesize(ctx, query, assistHits(resp.Results))
		if err != nil {
			return nil, err
		}
		out.Synthesis = &syn
	}
	dropShownDocs(resp.Results)
	return out, nil
}

// dropShownDocs empties the doc comment of each result whose content
// already shows it, as nearly every chunk's does (its comment lines or
// docstring are among its lines): sent twice, the comments were a fifth
// of a search answer's bytes on tokio, tokens an agent pays for. A doc
// comment that lies outside the chunk's lines is kept.
func dropShownDocs(results []search.Result) {
	for i := range results {
		r := &results[i]
		if r.DocComment != "" && strings.Contains(r.Content, firstLine(r.DocComment)) {
			r.DocComment = ""
		}
	}
}

// firstLine is s's first line with text, trimmed.
func firstLine(s string) string {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

// sameEmbedder refuses a query made with another embedder than the one
// the index was built with: vectors are never mixed.
func sameEmbedder(ctx context.Context, r store.Reader, root, want string) error {
	meta, err := r.Meta(ctx)
	if err != nil {
		return err
	}
	if recorded := meta[store.MetaEmbedderSpec]; recorded != want {
		return errs.New(errs.Invalid, errs.CodeEmbedderMismatch,
			"the index of %s was built with embedder %q, not %q; run \"lore index --embedder %s %s\" to re-embed",
			root, recorded, want, want, root)
	}
	return nil
}

func assistHits(results []search.Result) []assist.Hit {
	hits := make([]assist.Hit, len(results))
	for i, r := range results {
		hits[i] = assist.Hit{Path: r.Path, StartLine: r.StartLine, EndLine: r.EndLine, Kind: r.Kind, Symbols: r.Symbols,
			Signature: r.Signature, DocComment: r.DocComment, Content: r.Content}
	}
	return hits
}
