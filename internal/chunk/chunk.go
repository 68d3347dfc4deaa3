// Package chunk splits a source file into syntax-aware, screen-sized chunks.
//
// Every line of a file belongs to exactly one chunk. Code in a language with a
// tree-sitter grammar is split at definitions (functions, methods, types, …);
// documentation is split at headings; anything else falls back to
// blank-line-separated blocks with size bounds.
package chunk

// Chunk is one contiguous, 1-based inclusive line span of a file together
// with what it defines.
type Chunk struct {
	StartLine  int      // first line, 1-based
	EndLine    int      // last line, inclusive
	Kind       string   // function, method, class, struct, interface, enum, type, module, impl, section, block, preamble, …
	Symbols    []string // names this chunk defines, most specific first
	Signature  string   // the declaration line(s) without the body, when there is one
	Breadcrumb string   // container path such as "Router > Handle"; empty at top level
	DocComment string   // the doc comment attached to the definition, comment markers stripped
	Content    string   // the exact text of lines StartLine..EndLine, newline-joined
}
