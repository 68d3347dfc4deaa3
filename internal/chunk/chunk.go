// Package chunk splits a source file into syntax-aware, screen-sized chunks.
//
// Every line of a file belongs to exactly one chunk. Code in a language with a
// tree-sitter grammar is split at definitions (functions, methods, types, …);
// documentation is split at headings; anything else falls back to
// blank-line-separated blocks with size bounds.
//
// Chunk kinds form a small, stable vocabulary (see the Kind constants): a
// chunk holding one definition takes that definition's kind, a merged run of
// small definitions of different kinds is KindMixed.
//
// Analyze also extracts, from the same parse, what a file defines and
// refers to (package symbols), with tree-sitter queries in the tags
// convention kept under tags/ (see tags.go).
package chunk

import (
	"github.com/lore-dev/lore/internal/lang"
	"github.com/lore-dev/lore/internal/symbols"
)

// Version identifies what Analyze makes of a file: its chunks and what it
// defines and refers to. An index records it; when it changes, the next
// index run rebuilds, so that an index made by an older lore does not keep
// old chunks for files that have not changed since. TestExtractionVersion
// fails when the output on testdata changes while Version stays the same.
const Version = "9"

// Chunk is one contiguous, 1-based inclusive line span of a file together
// with what it defines.
type Chunk struct {
	StartLine  int      // first line, 1-based
	EndLine    int      // last line, inclusive
	Kind       string   // function, method, class, struct, interface, enum, type, module, impl, section, block, preamble, …
	Symbols    []string // names this chunk defines, in definition order (a container before its members)
	Signature  string   // the declaration line(s) without the body, when there is one
	Breadcrumb string   // container path such as "Router > Handle"; empty at top level
	DocComment string   // the doc comment attached to the definition, comment markers stripped
	Content    string   // the exact text of lines StartLine..EndLine, newline-joined
}

// The chunk kinds. Definitions keep the kind of what they define; the rest
// describe what kind of text a chunk holds.
const (
	KindFunction  = "function"  // a free function (or a piece of a long one)
	KindMethod    = "method"    // a function that belongs to a type
	KindClass     = "class"     // a class, object or record
	KindStruct    = "struct"    // a struct or union
	KindInterface = "interface" // an interface or protocol
	KindTrait     = "trait"     // a trait or mixin
	KindEnum      = "enum"      // an enumeration
	KindImpl      = "impl"      // an implementation block or extension
	KindModule    = "module"    // a module or namespace
	KindType      = "type"      // a type alias or other type declaration
	KindConstant  = "constant"  // constants
	KindVariable  = "variable"  // variables and properties
	KindPreamble  = "preamble"  // package clause, imports, includes
	KindSection   = "section"   // a documentation section under a heading
	KindBlock     = "block"     // text without recognised structure
	KindMixed     = "mixed"     // a merged run of small items of different kinds
)

// Size bounds. A definition larger than maxChunkLines or maxChunkBytes is
// split at its inner boundaries; small neighbours are merged while the run
// stays within mergeMaxLines and mergeMaxBytes, so that a chunk is about a
// screenful of text.
const (
	maxChunkLines     = 80
	maxChunkBytes     = 3200
	mergeMaxLines     = 40
	mergeMaxBytes     = 1600
	smallDefLines     = 5       // definitions shorter than this may merge with neighbours
	smallSectionLines = 8       // documentation sections shorter than this may merge
	maxSignature      = 200     // bytes
	maxParseBytes     = 1 << 20 // larger files are split into blocks without parsing
	// parseTimeoutUS is a last guard against a grammar that never ends: a
	// parse taking longer falls back to blocks. tree-sitter measures it in
	// wall time, so it sits far above any real parse of a file under
	// maxParseBytes even on a machine loaded tenfold; a tighter limit made
	// the chunks of a big file depend on the machine's load.
	parseTimeoutUS = 60_000_000
)

// Split cuts src, the content of the file at path in the given language (as
// lang.Detect names it), into chunks that cover every line exactly once, in
// order. An empty file has no chunks. Split never fails: when a file cannot
// be parsed it is split into blocks. It is safe for concurrent use.
//
// path is accepted for rules that depend on the file name; none do yet.
func Split(path, language string, src []byte) []Chunk {
	chunks, _ := analyze(path, language, src, false)
	return chunks
}

// Analyze is Split that also says what the file defines and refers to,
// from the same parse: the chunks are exactly those Split returns, and
// every definition and reference carries the index of the chunk holding
// it. Files without a grammar, too big to parse or whose parse fails have
// chunks but no symbols; a file with syntax errors gives what the parts
// that parse say. It is safe for concurrent use.
func Analyze(path, language string, src []byte) ([]Chunk, symbols.File) {
	return analyze(path, language, src, true)
}

func analyze(_, language string, src []byte, withSymbols bool) ([]Chunk, symbols.File) {
	doc := newText(src)
	if doc.lineCount() == 0 {
		return nil, symbols.File{}
	}
	var spans []span
	var file symbols.File
	switch {
	case language == lang.Markdown:
		spans = splitMarkdown(doc)
	case language == lang.RST:
		spans = splitRST(doc)
	case language == lang.AsciiDoc:
		spans = splitAsciiDoc(doc)
	case lang.HasGrammar(language) && len(src) <= maxParseBytes:
		var ok bool
		spans, file, ok = splitSyntax(language, doc, withSymbols)
		if !ok {
			spans = splitBlocks(doc)
		}
	case lang.IsComponent(language) && len(src) <= maxParseBytes:
		var ok bool
		if grammar, masked := componentScript(language, src); grammar != "" {
			spans, file, ok = splitSyntaxOf(grammar, doc, masked, withSymbols)
		}
		if !ok {
			spans = splitBlocks(doc)
		}
	default:
		spans = splitBlocks(doc)
	}
	chunks := doc.chunks(spans)
	if language == "lua" {
		addLuaTypes(src, chunks, &file)
	}
	setChunks(&file, chunks)
	return chunks, file
}
