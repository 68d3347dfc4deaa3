package store

import (
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/symbols"
)

// FileState is what the index remembers of a file, to decide whether it
// changed.
type FileState struct {
	ID      int64
	Hash    string
	Size    int64
	MTimeNS int64
}

// ParsedFile is what a parser made of one file the indexer reads for its
// project facts (a package manifest, a spec), kept so that the next run
// need not read and parse the file again while it is unchanged. Kind
// separates the parsers; Data is the parser's own encoding.
type ParsedFile struct {
	Kind    string
	Path    string // slash-separated, relative to the collection's root
	Size    int64
	MTimeNS int64
	Hash    string // of the content, to recognise a file touched but not changed
	Data    []byte
}

// Kinds of ParsedFile.
const (
	ParsedManifest = "manifest"
	ParsedSpec     = "spec"
)

// File is a file to write.
type File struct {
	Path     string // slash-separated, relative to the collection's root
	Language string
	Size     int64
	Hash     string
	MTimeNS  int64
	Lines    int
	// Symbols is what the file defines and refers to, its chunk indexes
	// pointing into the chunks written with it; empty for a file without
	// a grammar.
	Symbols symbols.File
}

// Chunk is a chunk to write, with its terms for the inverted index.
type Chunk struct {
	StartLine, EndLine int
	Kind               string
	Symbols            []string
	Signature          string
	Breadcrumb         string
	DocComment         string
	Content            string
	Stats              TermStats
}

// GramFile is what the exact search's n-gram index holds of one file of
// the root: every file an index run walks, the text files with their
// trigrams (see package trigram), the binary ones marked as such, so that
// a search knows which files it can skip without reading them.
type GramFile struct {
	Path    string // slash-separated, relative to the collection's root
	Size    int64
	MTimeNS int64
	Binary  bool   // not text: the exact search never matches it
	Grams   []byte // trigram.EncodeKeys of the file's trigrams; nil when Binary
}

// GramState is what the n-gram index remembers of a file, to decide
// whether its grams are current.
type GramState struct {
	Size    int64
	MTimeNS int64
}

// FileRow is an indexed file.
type FileRow struct {
	ID       int64
	Path     string
	Language string
	Lines    int
}

// LanguageCount is how many files and chunks of one language a collection
// holds.
type LanguageCount struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
	Chunks   int    `json:"chunks"`
}

// ChunkRecord is a chunk with everything known of it: what a scan over a
// collection (full-text, metadata filters) reads.
type ChunkRecord struct {
	ID                 int64
	Path, Language     string
	StartLine, EndLine int
	Kind               string
	Symbols            []string
	Signature          string
	Breadcrumb         string
	DocComment         string
	Content            string
}

// ChunkDetail is what a result shows beyond the ranking's metadata.
type ChunkDetail struct {
	Signature, Breadcrumb, DocComment, Content string
}

// NumFields is the number of searchable fields of a chunk.
const NumFields = 6

// The searchable fields, in the order of their frequencies and lengths.
const (
	FieldSymbols   = iota // the names the chunk defines
	FieldName             // the file's base name without extension
	FieldPath             // the folders of the file's path
	FieldSignature        // the declaration line
	FieldDoc              // the doc comment
	FieldBody             // the whole text
)

// TermStats are a chunk's terms for lore's inverted index: how often each
// (stemmed) term occurs in each field, and each field's length. The
// counts are in Freqs, or in Sorted, in term order: the form an index
// build's workers make, since the writer stores a chunk's terms in that
// order and then needs no map of them (when Sorted is set, Freqs is not
// read).
type TermStats struct {
	Freqs  map[string][NumFields]uint16
	Sorted []TermFreq
	Lens   [NumFields]uint16
}

// TermFreq is one term of a chunk and how often it occurs in each field.
type TermFreq struct {
	Term  string
	Freqs [NumFields]uint16
}

// InOrder returns the chunk's terms and their counts in term order (byte
// order, each term once): Sorted when it is set, else Freqs sorted.
func (ts TermStats) InOrder() []TermFreq {
	if ts.Sorted != nil || len(ts.Freqs) == 0 {
		return ts.Sorted
	}
	out := make([]TermFreq, 0, len(ts.Freqs))
	for term, f := range ts.Freqs {
		out = append(out, TermFreq{Term: term, Freqs: f})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Term < out[j].Term })
	return out
}

// Posting is one chunk in a term's posting list.
type Posting struct {
	ChunkID int64
	Freqs   [NumFields]uint16
}

// PostingAt is a posting resolved to its chunk's position in a DocLens:
// what ranking iterates over.
type PostingAt struct {
	Pos   int32
	Freqs [NumFields]uint16
}

// DocLens are the field lengths of every chunk, sorted by chunk id, and
// their averages: what BM25 needs to normalise by length.
type DocLens struct {
	IDs  []int64
	Lens [][NumFields]uint16
	Avg  [NumFields]float64
}

// Len is the number of chunks.
func (d *DocLens) Len() int { return len(d.IDs) }

// Pos returns the position of a chunk in IDs.
func (d *DocLens) Pos(id int64) (int, bool) {
	i := sort.Search(len(d.IDs), func(i int) bool { return d.IDs[i] >= id })
	return i, i < len(d.IDs) && d.IDs[i] == id
}

// Resolver returns a resolver for a list of listLen increasing chunk ids.
func (d *DocLens) Resolver(listLen int) Resolver {
	return Resolver{ids: d.IDs, gallop: listLen*16 < len(d.IDs)}
}

// Resolver finds increasing chunk ids in a DocLens. Both posting lists
// and DocLens are sorted by chunk id, so resolving a list is one merge; a
// list much shorter than the DocLens gallops (binary search over the rest)
// instead of stepping through every chunk, so a rare term costs its own
// length.
type Resolver struct {
	ids    []int64
	pos    int
	gallop bool
}

// Find returns the position of id, which must not be below the previous
// id asked for.
func (r *Resolver) Find(id int64) (int32, bool) {
	if r.gallop {
		rest := r.ids[r.pos:]
		r.pos += sort.Search(len(rest), func(i int) bool { return rest[i] >= id })
	} else {
		for r.pos < len(r.ids) && r.ids[r.pos] < id {
			r.pos++
		}
	}
	if r.pos < len(r.ids) && r.ids[r.pos] == id {
		return int32(r.pos), true
	}
	return 0, false
}

// ChunkMeta is what ranking keeps in memory of every chunk: small, since
// a snapshot holds one per chunk and a one-shot search loads them all.
type ChunkMeta struct {
	ID, FileID         int64
	StartLine, EndLine int32
	Kind               string // function, class, block, …: shared strings
	Symbols            string // the names the chunk defines, one per line
}

// SymbolList returns the chunk's symbols as a list.
func (m *ChunkMeta) SymbolList() []string {
	if m.Symbols == "" {
		return []string{}
	}
	return strings.Split(m.Symbols, "\n")
}

// AlignChunkMeta places metadata sorted by id at the positions of lens;
// chunks not in lens (none, in a consistent index) are dropped.
func AlignChunkMeta(all []ChunkMeta, lens *DocLens) []ChunkMeta {
	if len(all) == lens.Len() {
		aligned := true
		for i := range all {
			if all[i].ID != lens.IDs[i] {
				aligned = false
				break
			}
		}
		if aligned {
			return all
		}
	}
	out := make([]ChunkMeta, lens.Len())
	r := lens.Resolver(len(all))
	for _, m := range all {
		if pos, ok := r.Find(m.ID); ok {
			out[pos] = m
		}
	}
	return out
}
