// Package search answers ranked queries over an index.
package search

// Options is one query.
type Options struct {
	Query          string
	Limit          int      // results to return; 0 means 20
	SemanticWeight *float64 // 0 = lexical only, 1 = semantic only; nil = the default (0.7)
	Extensions     []string // file extensions without dots, e.g. "go", "py"
	PathGlob       string   // a glob over the relative path; ** crosses folders
	Language       string   // a language name as lang.Detect names it
	DocsOnly       bool     // only documentation files (Markdown, reStructuredText, AsciiDoc, text)
	// NoRerank keeps the retrieval order: BM25F (fused with the semantic
	// side when the index has vectors), without the code-aware signals
	// that rerank the best candidates (file evidence, names, demotions,
	// diversity).
	NoRerank bool
}

// Result is one ranked chunk.
type Result struct {
	Path             string   `json:"path"`
	StartLine        int      `json:"start_line"`
	EndLine          int      `json:"end_line"`
	Language         string   `json:"language"`
	Kind             string   `json:"kind"`
	Symbols          []string `json:"symbols"`
	Signature        string   `json:"signature"`
	Breadcrumb       string   `json:"breadcrumb"`
	DocComment       string   `json:"doc_comment"`
	Score            float64  `json:"score"`
	RelevancePercent int      `json:"relevance_percent"`
	Content          string   `json:"content"`
}

// Response is the answer to one query. Total is the number of chunks that
// matched (lexically, or semantically when the index has vectors), however
// many Results the limit let through; Truncated says that Results hold
// fewer than Total.
type Response struct {
	Query     string   `json:"query"`
	Results   []Result `json:"results"`
	Total     int      `json:"total"`
	Truncated bool     `json:"truncated"`
	TookMS    float64  `json:"took_ms"`
}
