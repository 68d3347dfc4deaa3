// Package store is lore's storage seam: the interface every index database
// implements and the plain types that cross it. It holds no SQL.
//
// A database holds named collections. A collection is one indexed root:
// its files, chunks, posting lists, field lengths, vectors, symbols,
// packages, specs and metadata. Readers see the last committed generation of a
// collection; one writer per collection replaces it atomically (a run
// commits whole or not at all). Package store/sqlite is the embedded
// implementation (one file), store/storetest the conformance suite every
// implementation passes.
package store

import (
	"context"
	"time"

	"github.com/lore-dev/lore/internal/embed"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/specs"
)

// DefaultCollection is the collection a root's own index holds unless a
// name is given.
const DefaultCollection = "default"

// Locator names a collection in a database.
type Locator struct {
	Database   string // where the database is: for SQLite, a file path
	Collection string // the collection's name; "" means DefaultCollection
}

// Name returns the collection's name, DefaultCollection when unset.
func (l Locator) Name() string {
	if l.Collection == "" {
		return DefaultCollection
	}
	return l.Collection
}

// Collection describes one collection of a database.
type Collection struct {
	Name      string
	Root      string    // the indexed folder, absolute
	CreatedAt time.Time // when it was first written
	IndexedAt time.Time // when a run last committed; zero before the first
}

// DB is an open index database.
type DB interface {
	// Location is where the database is, for messages (a file path).
	Location() string
	// Collections lists the collections, by name.
	Collections(ctx context.Context) ([]Collection, error)
	// Reader returns a read view of the named collection's committed
	// generations. A collection that does not exist, or whose first run
	// never committed, is an *errs.Error of kind NoIndex.
	Reader(ctx context.Context, collection string) (Reader, error)
	// Write starts an index run over the named collection (created with
	// root if new). It waits while another writer holds the collection,
	// unless opts say otherwise, and holds it until Commit or Rollback.
	Write(ctx context.Context, collection, root string, opts WriteOptions) (WriteTx, error)
	// RemoveCollection deletes a collection and everything indexed in it.
	RemoveCollection(ctx context.Context, collection string) error
	// Maintain merges a collection's segments as a commit would, for runs
	// made with DeferMerges, in a transaction of its own that changes
	// nothing a reader sees. It does nothing while a writer holds the
	// collection (that run's own merge or Maintain comes after it).
	Maintain(ctx context.Context, collection string) error
	// Close releases the database.
	Close() error
}

// WriteOptions say what a writer does when another one holds the
// collection, and how much memory its run may hold.
type WriteOptions struct {
	// NoWait fails at once with an *errs.Error of kind Busy (INDEX_BUSY).
	NoWait bool
	// OnWait, if set, is called once before waiting, with the holder's
	// process id (0 when unknown).
	OnWait func(holderPID int)
	// MemoryBudget bounds, in bytes, the inverted index a run holds in
	// memory: beyond it the run moves what it has gathered out of memory
	// (into a temporary part of the store) and joins the parts at commit,
	// so that a build of any size holds about this much. The result is
	// the same whatever the budget. 0 means DefaultMemoryBudget.
	MemoryBudget int64
	// DeferMerges leaves the merging of the collection's segments, which
	// a commit otherwise does, to a later Maintain: the run's change is
	// searchable before the merge's cost is paid.
	DeferMerges bool
}

// DefaultMemoryBudget is a run's MemoryBudget when none is given.
const DefaultMemoryBudget = 32 << 20

// Reader reads one collection. It is safe for concurrent use; each call
// sees the last committed generation at the time of the call.
type Reader interface {
	// Collection describes the collection.
	Collection(ctx context.Context) (Collection, error)
	// Generation changes with every run that commits a change.
	Generation(ctx context.Context) (string, error)
	// Meta is the collection's metadata (see the Meta* keys).
	Meta(ctx context.Context) (map[string]string, error)
	// Changes returns what the runs committed since generation since
	// changed, oldest first, the last one reaching the newest generation
	// (see Change); ok is false when the store cannot tell (a forced
	// rebuild, a large run, a record since dropped), and the caller reads
	// the collection again.
	Changes(ctx context.Context, since string) (changes []Change, ok bool, err error)
	// Files lists the indexed files by path.
	Files(ctx context.Context) ([]FileRow, error)
	// FileStates is what the collection remembers of each file (size,
	// modification time, hash), by path.
	FileStates(ctx context.Context) (map[string]FileState, error)
	// DocLens reads the field lengths of every chunk.
	DocLens(ctx context.Context) (*DocLens, error)
	// ChunkMeta reads the metadata of every chunk, aligned with lens.
	ChunkMeta(ctx context.Context, lens *DocLens) ([]ChunkMeta, error)
	// Postings reads the posting lists of terms resolved to positions in
	// lens, one per term in order (nil for a term not in the index).
	Postings(ctx context.Context, terms []string, lens *DocLens) ([][]PostingAt, error)
	// ChunkDetails loads what results show of the given chunks.
	ChunkDetails(ctx context.Context, ids []int64) (map[int64]ChunkDetail, error)
	// TermVectors reads the built-in model's vectors of terms, with their
	// IDF weights; terms without a vector are absent.
	TermVectors(ctx context.Context, terms []string) (map[string]embed.Int8Vector, map[string]float32, error)
	// ChunkVectors reads every chunk vector, by chunk id.
	ChunkVectors(ctx context.Context) (map[int64]embed.Int8Vector, error)
	// LanguageCounts counts files and chunks per language, most files first.
	LanguageCounts(ctx context.Context) ([]LanguageCount, error)
	// Chunks calls fn with every chunk of the collection, text included,
	// ordered by path then start line; an error from fn stops and is
	// returned.
	Chunks(ctx context.Context, fn func(ChunkRecord) error) error
	// Packages returns every package, sorted by name, path, kind, manifest.
	Packages(ctx context.Context) ([]packages.Package, error)
	// Specs returns every spec with its requirements and scenarios, by ID.
	Specs(ctx context.Context) ([]specs.Spec, error)
	// Symbols calls fn with the symbols of every file that has any,
	// ordered by path; an error from fn stops and is returned.
	Symbols(ctx context.Context, fn func(FileSymbols) error) error
	// GramStates is what the n-gram index holds of each file, by path.
	GramStates(ctx context.Context) (map[string]GramState, error)
	// Grams calls fn with every file of the n-gram index, ordered by path
	// (byte order); an error from fn stops and is returned.
	Grams(ctx context.Context, fn func(GramFile) error) error
}

// SymbolBlobReader is a Reader that also hands out the stored symbols
// undecoded, for readers that look at a small part of them
// (SymbolStrings): reading every file's symbols decoded costs several
// times what loading a search snapshot does.
type SymbolBlobReader interface {
	// SymbolBlobs calls fn with the encoded symbols of every file that
	// has any, in no particular order; blob is valid only during the
	// call. An error from fn stops and is returned.
	SymbolBlobs(ctx context.Context, fn func(fileID int64, blob []byte) error) error
}

// WriteTx is one index run over a collection: everything it writes
// becomes visible at Commit, or not at all. It is not safe for concurrent
// use.
type WriteTx interface {
	// Meta is the collection's metadata as the previous run left it.
	Meta(ctx context.Context) (map[string]string, error)
	// FileStates is what the collection remembers of each file, by path.
	FileStates(ctx context.Context) (map[string]FileState, error)
	// FileStatesOf is FileStates limited to the given paths and, taking
	// each as a folder, the files under it: what a run that knows which
	// paths changed reads instead of every file's state.
	FileStatesOf(ctx context.Context, paths []string) (map[string]FileState, error)
	// DeleteAll removes every file, chunk and parsed file (a forced
	// rebuild).
	DeleteAll(ctx context.Context) error
	// DeleteFile removes a file with its chunks and symbols.
	DeleteFile(ctx context.Context, id int64) error
	// TouchFile records a new modification time of an unchanged file.
	TouchFile(ctx context.Context, id int64, mtimeNS int64) error
	// PutFile inserts a file with its chunks and symbols.
	PutFile(ctx context.Context, f File, chunks []Chunk) error
	// SavePackages replaces the collection's packages.
	SavePackages(ctx context.Context, pkgs []packages.Package) error
	// SaveSpecs replaces the collection's specs.
	SaveSpecs(ctx context.Context, all []specs.Spec) error
	// ParsedFiles returns the parsed files of one kind kept by earlier
	// runs, by path; SaveParsedFiles replaces them (DeleteAll clears them
	// too).
	ParsedFiles(ctx context.Context, kind string) (map[string]ParsedFile, error)
	SaveParsedFiles(ctx context.Context, kind string, files []ParsedFile) error

	// GramStates is what the n-gram index holds of each file, by path;
	// GramStatesOf the same limited like FileStatesOf.
	GramStates(ctx context.Context) (map[string]GramState, error)
	GramStatesOf(ctx context.Context, paths []string) (map[string]GramState, error)
	// PutGrams records (or replaces) a file of the n-gram index.
	PutGrams(ctx context.Context, f GramFile) error
	// DeleteGrams removes a file from the n-gram index; DeleteAllGrams
	// empties it.
	DeleteGrams(ctx context.Context, path string) error
	DeleteAllGrams(ctx context.Context) error

	// AddedChunks are the ids of the chunks this run inserted, sorted.
	AddedChunks() []int64
	// ChangedChunks is how many chunks this run added or removed.
	ChangedChunks() int
	// AllChunkIDs lists every chunk of the collection in this run's view.
	AllChunkIDs(ctx context.Context) ([]int64, error)
	// ChunkTermFreqs returns the given chunks' (nil: all) stemmed terms
	// with their total frequency, as written so far in this run.
	ChunkTermFreqs(ctx context.Context, only map[int64]bool) (map[int64]map[string]float32, error)
	// ChunkTexts returns each chunk's path and text ("path\ntext"), for
	// embedders that read text.
	ChunkTexts(ctx context.Context, ids []int64) (map[int64]string, error)
	// TermVectors reads every vector of the built-in model.
	TermVectors(ctx context.Context) (map[string][]float32, map[string]float32, error)
	// ReplaceTermVectors stores a fitted built-in model.
	ReplaceTermVectors(ctx context.Context, terms []string, vec func(string) []float32, idf func(string) float32) error
	// ClearChunkVectors removes every chunk vector (the embedder changed).
	ClearChunkVectors(ctx context.Context) error
	// PutChunkVectors stores chunk vectors.
	PutChunkVectors(ctx context.Context, vecs map[int64][]float32) error

	// Counts returns how many files and chunks the collection holds in
	// this run's view.
	Counts(ctx context.Context) (files, chunks int, err error)
	// SetMeta records key = value; DeleteMeta removes key.
	SetMeta(ctx context.Context, key, value string) error
	DeleteMeta(ctx context.Context, key string) error

	// Commit makes the run visible, with a new generation, and releases
	// the collection; Rollback abandons the run and releases it.
	Commit(ctx context.Context, at time.Time) error
	Rollback() error
}

// GramWalkDefault is MetaGramWalk's value for a default walk.
const GramWalkDefault = "default"

// Metadata keys an index run records in its collection's metadata.
const (
	MetaRoot            = "root"
	MetaIndexedAt       = "indexed_at"
	MetaGitCommit       = "git_commit"
	MetaFileCount       = "file_count"
	MetaChunkCount      = "chunk_count"
	MetaGeneration      = "generation"
	MetaPackageCount    = "package_count"
	MetaSpecCount       = "spec_count"
	MetaAnalyzerVersion = "analyzer_version"
	MetaChunkerVersion  = "chunker_version" // chunk.Version of the run that wrote the chunks
	MetaSpecsDir        = "specs_dir"
	MetaSkipDirs        = "skip_dirs"        // the run's extra folders to skip, comma-separated
	MetaMaxFileSize     = "max_file_size"    // the run's size limit in bytes; absent: the walker's default
	MetaEmbedderSpec    = "embedder_spec"    // the spec the user gave (builtin, model2vec:<dir>, …)
	MetaEmbedder        = "embedder"         // the embedder's identity, to never mix vectors
	MetaSchemaVersion   = "schema_version"   // the database's, reported with the collection's
	MetaRebuildRequired = "rebuild_required" // "1" when the next run must rebuild
	// MetaGramWalk says how the files of the n-gram index were walked:
	// GramWalkDefault when as the exact search walks (no skipped folders,
	// the default size limit), so that the index lists exactly the files a
	// search would; anything else, or absent, means it does not.
	MetaGramWalk = "gram_walk"
)
