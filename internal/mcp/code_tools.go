package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/assist"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/toon"
)

// The code family: index_codebase, search_code, search_docs, code_research
// (research.go). Its error
// messages are a contract (the text content is exactly the message):
//
//	No index found for path: <path>. Run 'index_codebase' tool first.
//	Missing required argument: <name>
//	Path does not exist or is not a directory: <path>
//	Query cannot be empty

func registerCode(s *Server) error {
	if !s.opts.ReadOnly {
		s.register(s.indexCodebaseTool())
	}
	s.register(s.searchCodeTool())
	s.register(s.searchDocsTool())
	s.register(s.codeResearchTool())
	return nil
}

var (
	readOnlyAnnotations = func(title string) *sdk.ToolAnnotations {
		return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	}
)

// indexCodebaseArgs are index_codebase's arguments.
type indexCodebaseArgs struct {
	Path  string `arg:"path,required" desc:"Absolute path to the directory to index."`
	Force bool   `arg:"force" default:"false" desc:"Re-index every file even if it has not changed."`
}

func (s *Server) indexCodebaseTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "index_codebase",
			Title: "Index a codebase",
			Description: "Index a directory for search_code and search_docs: code is split into chunks with symbols, " +
				"docs into sections. Incremental: only changed files are re-indexed unless force is true. " +
				"The index lives in lore's cache, never in the directory. Supports task-augmented calls and progress notifications.",
			Annotations: &sdk.ToolAnnotations{Title: "Index a codebase", ReadOnlyHint: false, DestructiveHint: ptr(false),
				IdempotentHint: true, OpenWorldHint: ptr(false)},
			Icons:        iconIndex,
			OutputSchema: indexStatsSchema(),
		},
		taskSupport:     "optional",
		stopsOnShutdown: true,
	}, s.indexCodebase)
}

// indexStatsSchema is index_codebase's output schema: the JSON of
// index.Stats, lore's one vocabulary for index statistics (the CLI's
// lore index --format json and the REST jobs' stats are the same object).
func indexStatsSchema() map[string]any {
	fileError := sObject(map[string]any{"path": sString("relative to the root"), "message": sString("what went wrong")}, "path", "message")
	return outputSchema(map[string]any{
		"root":             sString("the indexed directory"),
		"index_path":       sString("the index file"),
		"collection":       sString("the collection of the index file the root is indexed as"),
		"files_scanned":    sInt("files the walk found (hidden, ignored, skipped and oversized files aside; binary files among them are not indexed)"),
		"files_indexed":    sInt("files (re)indexed in this run"),
		"files_unchanged":  sInt("files skipped because they did not change"),
		"files_deleted":    sInt("files removed from the index because they are gone"),
		"chunks_written":   sInt("chunks this run wrote, for the files it indexed (0 when nothing changed)"),
		"errors":           sInt("files that could not be indexed"),
		"file_errors":      sArray(fileError),
		"packages":         sInt("packages the index holds"),
		"specs":            sInt("specs the index holds"),
		"manifests":        sInt("package manifests found"),
		"manifests_read":   sInt("manifests read in this run because they are new or changed"),
		"packages_updated": sBool("whether the stored packages were resolved again and replaced"),
		"packages_ms":      sInt("the part of duration_ms spent on packages (only new or changed manifests are read)"),
		"spec_files":       sInt("spec files found"),
		"spec_files_read":  sInt("spec files read in this run because they are new or changed"),
		"specs_updated":    sBool("whether the stored specs were replaced"),
		"specs_ms":         sInt("the part of duration_ms spent on specs (only new or changed spec files are read)"),
		"warnings":         sArray(fileError),
		"duration_ms":      sInt("wall time of the run"),
	}, "root", "index_path", "files_scanned", "files_indexed", "files_unchanged", "files_deleted", "chunks_written", "errors",
		"file_errors", "duration_ms")
}

func (s *Server) indexCodebase(ctx context.Context, c *call, in *indexCodebaseArgs) (*outcome, error) {
	root, err := s.codeRoot(in.Path)
	if err != nil {
		return nil, err
	}
	c.logAs("root", root)
	progress := c.progressReporter(ctx, "files")
	// Another process (lore index in a shell) may be writing this index:
	// the run waits its turn, and says so in the log and the task status.
	onWait := func(pid int) {
		msg := fmt.Sprintf("waiting for the index of %s: it is being updated by another lore process (pid %d)", root, pid)
		s.log.Info(msg, "tool", "index_codebase")
		if id := taskIDFrom(ctx); id != "" {
			s.tasks.progress(id, msg)
		}
	}
	stats, err := s.opts.App.Index(ctx, app.IndexRequest{Root: root, Force: in.Force, SpecsDir: s.specsDirFor(root),
		Progress: func(p index.Progress) { progress(p.Done, p.Total) }, OnWait: onWait})
	if err != nil {
		return nil, err
	}
	if stats.FileErrors == nil {
		stats.FileErrors = []index.FileError{}
	}
	if stats.Warnings == nil {
		stats.Warnings = []index.FileError{}
	}
	took := (time.Duration(stats.DurationMS) * time.Millisecond).String()
	text := fmt.Sprintf("Indexed %s: %d files scanned (%d indexed, %d unchanged, %d deleted), %d chunks written, %d errors in %s.",
		stats.Root, stats.Scanned, stats.Indexed, stats.Unchanged, stats.Deleted, stats.Chunks, stats.Errors, took)
	if stats.NoChanges() {
		text = fmt.Sprintf("Indexed %s: no changes (%d files unchanged) in %s.", stats.Root, stats.Unchanged, took)
	}
	for _, fe := range stats.FileErrors {
		text += fmt.Sprintf("\nerror: %s: %s", fe.Path, fe.Message)
	}
	return &outcome{structured: stats, text: text}, nil
}

// searchCodeArgs are search_code's arguments.
type searchCodeArgs struct {
	Query          string  `arg:"query,required" desc:"Natural language search query or code pattern."`
	Path           string  `arg:"path" default:"." desc:"The indexed directory: absolute, or relative to the served root (\".\")."`
	Limit          int     `arg:"limit" default:"20" min:"1" max:"${search.MaxLimit}" desc:"Maximum number of results."`
	SemanticWeight float64 `arg:"semantic_weight" default:"0.7" min:"0" max:"1" desc:"Weight of semantic search against keyword search, 0.0 (keywords only) to 1.0 (semantic only)."`
	Extensions     string  `arg:"extensions" desc:"Only files with these extensions, comma-separated (go,py or .go,.py)."`
	PathFilter     string  `arg:"path_filter" desc:"Only paths matching this glob, relative to the indexed directory; ** crosses folders (e.g. Sources/Auth/**, docs/*.md)."`
	Format         string  `arg:"format" default:"json" enum:"json,toon,human" desc:"Text rendering of the results: json, toon (compact, for language models) or human. The structured content is the same."`
	ExpandQuery    bool    `arg:"expand_query" default:"false" desc:"Expand the query with related terms from a model (the client's through sampling, or LORE_CHAT_*) before searching; without one the query is searched as given."`
	Synthesize     bool    `arg:"synthesize" default:"false" desc:"Add a summary of the results with follow-up suggestions."`
}

// searchDocsArgs are search_docs's arguments: search_code's without the
// code-only ones, with a smaller default limit.
type searchDocsArgs struct {
	Query      string `arg:"query,required" desc:"Natural language search query."`
	Path       string `arg:"path" default:"." desc:"The indexed directory: absolute, or relative to the served root (\".\")."`
	Limit      int    `arg:"limit" default:"10" min:"1" max:"${search.MaxLimit}" desc:"Maximum number of results."`
	PathFilter string `arg:"path_filter" desc:"Only paths matching this glob, relative to the indexed directory; ** crosses folders (e.g. Sources/Auth/**, docs/*.md)."`
	Format     string `arg:"format" default:"json" enum:"json,toon,human" desc:"Text rendering of the results: json, toon (compact, for language models) or human. The structured content is the same."`
}

func (s *Server) searchCodeTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search_code",
			Title: "Search code",
			Description: "Ranked hybrid search (BM25 + semantic + code-aware signals) over the indexed code: natural-language " +
				"questions or identifiers. Each result is a chunk with path, start_line, end_line, relevance_percent, kind, " +
				"symbols, signature, breadcrumb, doc_comment and content. expand_query adds related terms and synthesize " +
				"adds a summary with follow-up suggestions (from the client's model via sampling, a configured endpoint, or a built-in fallback).",
			Annotations:  readOnlyAnnotations("Search code"),
			Icons:        iconSearch,
			OutputSchema: searchOutputSchema(),
		},
	}, func(ctx context.Context, c *call, in *searchCodeArgs) (*outcome, error) {
		return s.searchIndex(ctx, c, in, false)
	})
}

func (s *Server) searchDocsTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search_docs",
			Title: "Search documentation",
			Description: "Full-text search over the indexed documentation (Markdown, reStructuredText, AsciiDoc, plain text): " +
				"results are sections with path, start_line, end_line and content.",
			Annotations:  readOnlyAnnotations("Search documentation"),
			Icons:        iconDocs,
			OutputSchema: searchOutputSchema(),
		},
	}, func(ctx context.Context, c *call, in *searchDocsArgs) (*outcome, error) {
		return s.searchIndex(ctx, c, &searchCodeArgs{Query: in.Query, Path: in.Path, Limit: in.Limit,
			PathFilter: in.PathFilter, Format: in.Format}, true)
	})
}

func searchOutputSchema() map[string]any {
	hit := sObject(map[string]any{
		"path":              sString("file path relative to the indexed directory"),
		"start_line":        sInt("first line, 1-based"),
		"end_line":          sInt("last line, inclusive"),
		"relevance_percent": sInt("relevance, 0-100"),
		"kind":              sString("chunk type: function, method, class, section, …"),
		"language":          sString(""),
		"symbols":           sStringArray("symbol names the chunk defines"),
		"signature":         sString("function or type signature"),
		"breadcrumb":        sString("where the chunk sits: enclosing types, heading path"),
		"doc_comment":       sString("the chunk's documentation comment, when its content does not already show it"),
		"content":           sString("the chunk's text"),
	}, "path", "start_line", "end_line", "relevance_percent", "kind", "symbols", "content")
	return outputSchema(map[string]any{
		"query":     sString("the query as given"),
		"root":      sString("the indexed directory"),
		"results":   sArray(hit),
		"total":     sInt("number of chunks that matched, however many results the limit let through"),
		"truncated": sBool("true when results hold fewer than total"),
		"took_ms":   sNumber("search time in milliseconds"),
		"expansion": sObject(map[string]any{
			"source": sEnum("what expanded the query", "sampling", "openai", "builtin"),
			"terms":  sStringArray("terms added to the query"),
			"query":  sString("the query that was searched"),
			"note":   sString("why an earlier source was not used"),
		}, "source", "terms", "query"),
		"synthesis": sObject(map[string]any{
			"source":     sEnum("what wrote the summary", "sampling", "openai", "builtin"),
			"summary":    sString(""),
			"follow_ups": sStringArray("suggested next searches or questions"),
			"note":       sString("why an earlier source was not used"),
		}, "source", "summary", "follow_ups"),
	}, "query", "root", "results", "total", "truncated")
}

// codeHit is one search_code / search_docs result.
type codeHit struct {
	Path             string   `json:"path"`
	StartLine        int      `json:"start_line"`
	EndLine          int      `json:"end_line"`
	RelevancePercent int      `json:"relevance_percent"`
	Kind             string   `json:"kind"`
	Language         string   `json:"language,omitempty"`
	Symbols          []string `json:"symbols"`
	Signature        string   `json:"signature,omitempty"`
	Breadcrumb       string   `json:"breadcrumb,omitempty"`
	DocComment       string   `json:"doc_comment,omitempty"`
	Content          string   `json:"content"`
}

// searchOutput is search_code's and search_docs's structured content.
type searchOutput struct {
	Query     string            `json:"query"`
	Root      string            `json:"root"`
	Results   []codeHit         `json:"results"`
	Total     int               `json:"total"`
	Truncated bool              `json:"truncated"`
	TookMS    float64           `json:"took_ms"`
	Expansion *assist.Expansion `json:"expansion,omitempty"`
	Synthesis *assist.Synthesis `json:"synthesis,omitempty"`
}

// searchIndex runs search_code (docsOnly false) or search_docs, whose
// arguments come as search_code's; docsOnly ignores the code-only ones.
func (s *Server) searchIndex(ctx context.Context, c *call, in *searchCodeArgs, docsOnly bool) (*outcome, error) {
	query := strings.TrimSpace(in.Query)
	if query == "" {
		return nil, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	if err := search.CheckQuery(query); err != nil {
		return nil, err // before the path: a bad query is the caller's first problem
	}
	root, err := s.codeRoot(in.Path)
	if err != nil {
		return nil, err
	}
	c.logAs("root", root)
	req := app.SearchRequest{Root: root,
		Options: search.Options{Query: query, Limit: in.Limit, PathGlob: in.PathFilter, DocsOnly: docsOnly}}
	if !docsOnly {
		w := in.SemanticWeight
		req.SemanticWeight = &w
		for _, ext := range strings.Split(in.Extensions, ",") {
			if ext = strings.TrimPrefix(strings.TrimSpace(ext), "."); ext != "" {
				req.Extensions = append(req.Extensions, ext)
			}
		}
		req.Expand, req.Synthesize = in.ExpandQuery, in.Synthesize
		if canSample(c.req) {
			req.Sampler = sessionSampler{c.req.Session}
		}
	}
	res, err := s.opts.App.Search(ctx, req)
	if err != nil {
		return nil, err
	}
	out := searchOutput{Query: query, Root: root, Results: make([]codeHit, 0, len(res.Results)),
		Expansion: res.Expansion, Synthesis: res.Synthesis}
	links := make([]linkHit, 0, len(res.Results))
	for _, r := range res.Results {
		symbols := r.Symbols
		if symbols == nil {
			symbols = []string{}
		}
		out.Results = append(out.Results, codeHit{
			Path: r.Path, StartLine: r.StartLine, EndLine: r.EndLine, RelevancePercent: r.RelevancePercent,
			Kind: r.Kind, Language: r.Language, Symbols: symbols, Signature: r.Signature,
			Breadcrumb: r.Breadcrumb, DocComment: r.DocComment, Content: r.Content,
		})
		links = append(links, linkHit{root: root, path: r.Path, start: r.StartLine, end: r.EndLine})
	}
	out.Total, out.Truncated, out.TookMS = res.Total, res.Truncated, res.TookMS
	text, err := renderSearch(in.Format, out)
	if err != nil {
		return nil, err
	}
	return &outcome{structured: out, text: text, content: resourceLinks(links)}, nil
}

// toonText is v as TOON, a tool's format "toon".
func toonText(v any) (string, error) {
	data, err := toon.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encoding TOON: %w", err)
	}
	return string(data), nil
}

// renderSearch is the text rendering of a search in the requested format.
func renderSearch(format string, out searchOutput) (string, error) {
	switch format {
	case "toon":
		return toonText(out)
	case "human":
		return renderHuman(out), nil
	default:
		return "", nil // JSON of the structured content
	}
}

// humanContentLines bounds how much of each chunk the human format shows.
const humanContentLines = 12

func renderHuman(out searchOutput) string {
	var b strings.Builder
	if out.Expansion != nil && len(out.Expansion.Terms) > 0 {
		fmt.Fprintf(&b, "Expanded query (%s): %s\n\n", out.Expansion.Source, out.Expansion.Query)
	}
	if len(out.Results) == 0 {
		fmt.Fprintf(&b, "No results for %q in %s.\n", out.Query, out.Root)
	} else {
		fmt.Fprintf(&b, "%d of %d result(s) for %q in %s (%.0f ms)\n", len(out.Results), out.Total, out.Query, out.Root, out.TookMS)
	}
	for i, r := range out.Results {
		fmt.Fprintf(&b, "\n%d. %s:%d-%d  %s", i+1, r.Path, r.StartLine, r.EndLine, r.Kind)
		if len(r.Symbols) > 0 {
			fmt.Fprintf(&b, " %s", strings.Join(r.Symbols, ", "))
		}
		fmt.Fprintf(&b, "  (%d%%)\n", r.RelevancePercent)
		if r.Breadcrumb != "" {
			fmt.Fprintf(&b, "   in %s\n", r.Breadcrumb)
		}
		if r.Signature != "" {
			fmt.Fprintf(&b, "   %s\n", r.Signature)
		}
		lines := strings.Split(strings.TrimRight(r.Content, "\n"), "\n")
		for j, line := range lines {
			if j == humanContentLines {
				fmt.Fprintf(&b, "   │ … %d more lines\n", len(lines)-humanContentLines)
				break
			}
			fmt.Fprintf(&b, "   │ %s\n", line)
		}
	}
	if out.Synthesis != nil {
		fmt.Fprintf(&b, "\nSummary (%s): %s\n", out.Synthesis.Source, out.Synthesis.Summary)
		for _, f := range out.Synthesis.FollowUps {
			fmt.Fprintf(&b, "  - %s\n", f)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// codeRoot resolves a code tool's path argument: "" and "." are the served
// root, a relative path is relative to it. It must lead (after every
// symlink) into one of the allowed roots, to a folder that is not hidden or
// ignored there; an agent fed a hostile prompt must not get ~/.ssh indexed.
// The result has symlinks resolved, as lore index names roots.
func (s *Server) codeRoot(p string) (string, error) {
	dir, err := s.allowed.Dir(p)
	if err == nil {
		return dir, nil
	}
	e, ok := errs.As(err)
	switch {
	case ok && e.Kind == errs.OutOfRoot:
		return "", errs.New(errs.OutOfRoot, errs.CodeOutsideRoot, "Path is outside the allowed roots: %s", p).With("path", p)
	case ok && (e.Kind == errs.NotFound || e.Code == errs.CodeNotADirectory):
		shown := p
		if strings.TrimSpace(p) == "" || p == "." {
			shown = s.opts.Root
		} else if !filepath.IsAbs(p) {
			shown = filepath.Join(s.opts.Root, p)
		}
		code := errs.CodeNotADirectory
		if e.Kind == errs.NotFound {
			code = errs.CodeNotFound
		}
		return "", errs.New(e.Kind, code, "Path does not exist or is not a directory: %s", shown).With("path", p)
	}
	return "", err
}

// canSample reports whether the client offered sampling and the request's
// protocol still allows server-initiated requests (2026-07-28 forbids them).
func canSample(req *sdk.CallToolRequest) bool {
	if req.Session == nil || protocolVersion(req) >= "2026-07-28" {
		return false
	}
	caps := req.Session.InitializeParams()
	return caps != nil && caps.Capabilities != nil && caps.Capabilities.Sampling != nil
}

// sessionSampler asks the client's model through MCP sampling.
type sessionSampler struct{ ss *sdk.ServerSession }

func (p sessionSampler) Complete(ctx context.Context, system, prompt string, maxTokens int) (string, error) {
	res, err := p.ss.CreateMessage(ctx, &sdk.CreateMessageParams{
		SystemPrompt: system,
		Messages:     []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: prompt}}},
		MaxTokens:    int64(maxTokens),
	})
	if err != nil {
		return "", err
	}
	tc, ok := res.Content.(*sdk.TextContent)
	if !ok {
		return "", fmt.Errorf("the client's model answered with %T, not text", res.Content)
	}
	return tc.Text, nil
}
