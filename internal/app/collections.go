package app

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// Named collections live together in one database (Options.Collections):
// lore index --collection, lore collections, the collections tools and
// the REST API read and write them by name. A root indexed without a name
// keeps its own file, as before collections existed.

// collectionName is what a collection may be called.
var collectionName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// CheckCollectionName validates a collection name: 1 to 64 letters,
// digits, '.', '_' or '-', and not "." or "..".
func CheckCollectionName(name string) error {
	if !collectionName.MatchString(name) || strings.Trim(name, ".") == "" {
		return errs.New(errs.Invalid, errs.CodeInvalidArgument,
			"collection name %q is not valid: use 1 to 64 letters, digits, '.', '_' or '-'", name).With("collection", name)
	}
	return nil
}

// CollectionInfo describes a named collection.
type CollectionInfo struct {
	Name      string                `json:"name"`
	Root      string                `json:"root"`
	Index     string                `json:"index"`
	IndexedAt string                `json:"indexed_at"`
	GitCommit string                `json:"git_commit"`
	Files     int                   `json:"files"`
	Chunks    int                   `json:"chunks"`
	Languages []store.LanguageCount `json:"languages"`
}

// CollectionsDatabase is the database of named collections.
func (a *App) CollectionsDatabase() (string, error) {
	if a.collections != "" {
		return a.collections, nil
	}
	path, err := config.CollectionsPath("")
	if err != nil {
		return "", err
	}
	a.collections = path
	return path, nil
}

func (a *App) collectionLocator(name string) (store.Locator, error) {
	db, err := a.CollectionsDatabase()
	if err != nil {
		return store.Locator{}, err
	}
	return store.Locator{Database: db, Collection: name}, nil
}

// Collections lists the named collections that have been indexed, by
// name. No database yet is no collection.
func (a *App) Collections(ctx context.Context) ([]CollectionInfo, error) {
	names, err := a.collectionNames(ctx)
	if err != nil {
		return nil, err
	}
	out := []CollectionInfo{}
	for _, name := range names {
		if !a.serves(name) {
			continue
		}
		info, err := a.Collection(ctx, name)
		if errs.KindOf(err) == errs.NotFound {
			continue // its first run has not committed yet
		}
		if err != nil {
			return nil, err
		}
		out = append(out, *info)
	}
	return out, nil
}

// Ready reports whether the App can answer: the collections database
// opens (or does not exist yet), and every collection it serves by name
// has been indexed. A missing one is NoIndex, naming it.
func (a *App) Ready(ctx context.Context) error {
	names, err := a.collectionNames(ctx)
	if err != nil {
		return err
	}
	for _, name := range a.served {
		if !slices.Contains(names, name) {
			return errs.New(errs.NoIndex, errs.CodeNoIndex, "collection %q has no index yet (run lore index --collection %s PATH)", name, name).
				With("collection", name)
		}
	}
	return nil
}

// collectionNames lists every collection of the database, committed or
// not.
func (a *App) collectionNames(ctx context.Context) ([]string, error) {
	path, err := a.CollectionsDatabase()
	if err != nil {
		return nil, err
	}
	db, err := sqlite.OpenReadOnly(ctx, path)
	if errs.KindOf(err) == errs.NoIndex {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer db.Close()
	colls, err := db.Collections(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(colls))
	for i, c := range colls {
		names[i] = c.Name
	}
	return names, nil
}

// Collection describes one named collection; an unknown name is an
// *errs.Error of kind NotFound (COLLECTION_NOT_FOUND) listing the known
// ones.
func (a *App) Collection(ctx context.Context, name string) (*CollectionInfo, error) {
	r, loc, err := a.collectionReader(ctx, name)
	if err != nil {
		return nil, err
	}
	c, err := r.Collection(ctx)
	if err != nil {
		return nil, err
	}
	meta, err := r.Meta(ctx)
	if err != nil {
		return nil, err
	}
	langs, err := r.LanguageCounts(ctx)
	if err != nil {
		return nil, err
	}
	files, _ := strconv.Atoi(meta[store.MetaFileCount])
	chunks, _ := strconv.Atoi(meta[store.MetaChunkCount])
	return &CollectionInfo{Name: name, Root: c.Root, Index: loc.Database, IndexedAt: meta[store.MetaIndexedAt],
		GitCommit: meta[store.MetaGitCommit], Files: files, Chunks: chunks, Languages: langs}, nil
}

// serves reports whether the App serves the named collection.
func (a *App) serves(name string) bool {
	return len(a.served) == 0 || slices.Contains(a.served, name)
}

// checkServed validates a collection name and refuses one this App does
// not serve, as if it did not exist.
func (a *App) checkServed(ctx context.Context, name string) error {
	if err := CheckCollectionName(name); err != nil {
		return err
	}
	if !a.serves(name) {
		return a.collectionNotFound(ctx, name)
	}
	return nil
}

// collectionReader opens a named collection for reading.
func (a *App) collectionReader(ctx context.Context, name string) (store.Reader, store.Locator, error) {
	if err := a.checkServed(ctx, name); err != nil {
		return nil, store.Locator{}, err
	}
	loc, err := a.collectionLocator(name)
	if err != nil {
		return nil, loc, err
	}
	r, err := a.readerAt(ctx, loc)
	if errs.KindOf(err) == errs.NoIndex {
		return nil, loc, a.collectionNotFound(ctx, name)
	}
	return r, loc, err
}

// collectionNotFound is the error of an unknown collection, naming the
// known ones.
func (a *App) collectionNotFound(ctx context.Context, name string) error {
	all, err := a.collectionNames(ctx)
	if err != nil {
		all = nil
	}
	known := []string{}
	for _, n := range all {
		if a.serves(n) {
			known = append(known, n)
		}
	}
	list := "none yet"
	if len(known) > 0 {
		list = strings.Join(known, ", ")
	}
	return errs.New(errs.NotFound, errs.CodeCollectionNotFound, "collection %q not found (known collections: %s)", name, list).
		With("collection", name).With("known", known)
}

// IndexCollection indexes req.Root as the named collection: name "" means
// the collection that already holds this root, else the root folder's
// name, made unique. It returns the name used.
func (a *App) IndexCollection(ctx context.Context, name string, req IndexRequest) (string, *index.Stats, error) {
	root, err := fsroot.Open(req.Root)
	if err != nil {
		return "", nil, err
	}
	if name == "" {
		if name, err = a.defaultCollectionName(ctx, root.Path()); err != nil {
			return "", nil, err
		}
	}
	if err := CheckCollectionName(name); err != nil {
		return "", nil, err
	}
	if !a.serves(name) {
		return "", nil, errs.New(errs.NotFound, errs.CodeCollectionNotFound, "collection %q is not served here (served: %s)",
			name, strings.Join(a.served, ", ")).With("collection", name)
	}
	path, err := a.CollectionsDatabase()
	if err != nil {
		return "", nil, err
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	stats, err := index.Run(ctx, db, index.Options{
		Root: root.Path(), Collection: name, Force: req.Force, Embedder: req.Embedder,
		SpecsDir: req.SpecsDir, MaxFileSize: req.MaxFileSize, SkipDirs: req.SkipDirs, Workers: req.Workers,
		MemoryBudget: cmp.Or(req.MemoryBudget, a.indexMemory), NoWait: req.NoWait, OnWait: req.OnWait, Progress: req.Progress, Paths: req.Paths,
		DeferMerges: req.DeferMerges,
	})
	if err == nil {
		a.keepFresh(root.Path(), name, store.Locator{Database: path, Collection: name})
	}
	return name, stats, err
}

// defaultCollectionName is the name of the collection that already holds
// root, else root's folder name, with -2, -3, … when another root has it.
func (a *App) defaultCollectionName(ctx context.Context, root string) (string, error) {
	path, err := a.CollectionsDatabase()
	if err != nil {
		return "", err
	}
	taken := map[string]bool{}
	if db, err := sqlite.OpenReadOnly(ctx, path); err == nil {
		colls, err := db.Collections(ctx)
		db.Close()
		if err != nil {
			return "", err
		}
		for _, c := range colls {
			if c.Root == root {
				return c.Name, nil
			}
			taken[c.Name] = true
		}
	}
	base := strings.Trim(regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(filepath.Base(root), "-"), ".-")
	if base == "" {
		base = "root"
	}
	if len(base) > 60 {
		base = base[:60]
	}
	name := base
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	return name, nil
}

// RemoveCollection deletes a named collection's index (never its files).
func (a *App) RemoveCollection(ctx context.Context, name string) error {
	if err := a.checkServed(ctx, name); err != nil {
		return err
	}
	path, err := a.CollectionsDatabase()
	if err != nil {
		return err
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.RemoveCollection(ctx, name); err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return a.collectionNotFound(ctx, name)
		}
		return err
	}
	loc := store.Locator{Database: path, Collection: name}
	a.mu.Lock()
	delete(a.engines, loc)
	delete(a.scans, loc)
	delete(a.packages, loc)
	delete(a.specs, loc)
	a.mu.Unlock()
	return nil
}

// Default and maximum top_k of the collections searches.
const (
	DefaultTopK = 10
	MaxTopK     = 1000
)

// CheckTopK validates top_k: 1..MaxTopK.
func CheckTopK(topK int) error {
	if topK < 1 || topK > MaxTopK {
		return errs.New(errs.Invalid, errs.CodeInvalidArgument, "top_k must be between 1 and %d, got %d", MaxTopK, topK).With("top_k", topK)
	}
	return nil
}

// SemanticRequest is a search of a named collection by meaning.
type SemanticRequest struct {
	Collection string
	Query      string
	// Prompt is context that refines the ranking without being required
	// to match: the query finds the candidates, the prompt reorders them.
	Prompt string
	TopK   int
	// NoRerank keeps the retrieval order (see search.Options.NoRerank).
	NoRerank bool
}

// promptWeight is how much the prompt's own relevance adds to a
// candidate's, both normalised to the best result.
const promptWeight = 0.3

// SearchSemantic ranks a named collection's chunks for meaning: lore's
// ranking (with the collection's embedder when it has one), refined by
// the prompt.
func (a *App) SearchSemantic(ctx context.Context, req SemanticRequest) ([]search.Hit, float64, error) {
	if err := CheckTopK(req.TopK); err != nil {
		return nil, 0, err
	}
	query := strings.TrimSpace(req.Query)
	if query == "" {
		return nil, 0, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	if err := search.CheckQuery(query); err != nil {
		return nil, 0, err
	}
	if req.Prompt != "" {
		if err := search.CheckQuery(req.Prompt); err != nil {
			return nil, 0, err
		}
	}
	_, loc, err := a.collectionReader(ctx, req.Collection)
	if err != nil {
		return nil, 0, err
	}
	eng, err := a.engineAt(ctx, loc)
	if err != nil {
		return nil, 0, err
	}
	depth := req.TopK
	if req.Prompt != "" {
		depth = max(req.TopK*5, 50) // the prompt reorders a wider set
	}
	resp, err := a.searches.search(ctx, eng, search.Options{Query: query, Limit: min(depth, search.MaxLimit), NoRerank: req.NoRerank})
	if err != nil {
		return nil, 0, err
	}
	results, took := resp.Results, resp.TookMS
	if req.Prompt != "" && len(results) > 0 {
		refined, err := a.searches.search(ctx, eng, search.Options{Query: req.Prompt, Limit: search.MaxLimit, NoRerank: req.NoRerank})
		if err != nil {
			return nil, 0, err
		}
		results = refine(results, refined.Results)
		took += refined.TookMS
	}
	if len(results) > req.TopK {
		results = results[:req.TopK]
	}
	hits := make([]search.Hit, len(results))
	for i, r := range results {
		rec := store.ChunkRecord{Path: r.Path, Language: r.Language, StartLine: r.StartLine, EndLine: r.EndLine, Kind: r.Kind,
			Symbols: r.Symbols, Signature: r.Signature, Breadcrumb: r.Breadcrumb, Content: r.Content}
		hits[i] = search.Hit{Score: r.Score, Payload: search.NewPayload(req.Collection, &rec)}
	}
	return hits, took, nil
}

// refine reorders results by their own relevance plus promptWeight times
// their relevance to the prompt (each relative to its best); the order is
// deterministic: score, then path, then line.
func refine(results, prompt []search.Result) []search.Result {
	type key struct {
		path string
		line int
	}
	rel := map[key]float64{}
	for _, p := range prompt {
		rel[key{p.Path, p.StartLine}] = float64(p.RelevancePercent) / 100
	}
	out := make([]search.Result, len(results))
	copy(out, results)
	scores := make(map[key]float64, len(out))
	for _, r := range out {
		k := key{r.Path, r.StartLine}
		s := float64(r.RelevancePercent)/100 + promptWeight*rel[k]
		scores[k] = float64(int64(s*1e6+0.5)) / 1e6
	}
	sortResults(out, func(r search.Result) float64 { return scores[key{r.Path, r.StartLine}] })
	for i := range out {
		out[i].Score = scores[key{out[i].Path, out[i].StartLine}]
	}
	return out
}

// sortResults orders results by score (higher first), then path, then
// start line.
func sortResults(results []search.Result, score func(search.Result) float64) {
	sort.SliceStable(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if sa, sb := score(a), score(b); sa != sb {
			return sa > sb
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.StartLine < b.StartLine
	})
}

// FulltextRequest is an exact or partial text search of a named
// collection.
type FulltextRequest struct {
	Collection string
	Text       string
	Payload    map[string]any // a payload filter; nil for none
	TopK       int
}

// SearchFulltext finds the chunks of a named collection containing the
// text (ignoring case), best first, narrowed by the payload filter.
func (a *App) SearchFulltext(ctx context.Context, req FulltextRequest) ([]search.Hit, error) {
	if err := CheckTopK(req.TopK); err != nil {
		return nil, err
	}
	filter, err := search.ParseFilter(req.Payload)
	if err != nil {
		return nil, err
	}
	scan, err := a.scan(ctx, req.Collection)
	if err != nil {
		return nil, err
	}
	return scan.Fulltext(req.Text, filter, req.TopK)
}

// SearchPayload returns the chunks of a named collection whose metadata
// passes the payload filter, by path then line.
func (a *App) SearchPayload(ctx context.Context, collection string, payload map[string]any, topK int) ([]search.Hit, error) {
	if err := CheckTopK(topK); err != nil {
		return nil, err
	}
	if len(payload) == 0 {
		return nil, errs.New(errs.Invalid, errs.CodeInvalidArgument, "payload must name at least one key (allowed: %s)",
			strings.Join(search.PayloadKeys, ", "))
	}
	filter, err := search.ParseFilter(payload)
	if err != nil {
		return nil, err
	}
	scan, err := a.scan(ctx, collection)
	if err != nil {
		return nil, err
	}
	return scan.ByPayload(filter, topK), nil
}

// scanIndex is the chunks of one generation of a collection, held for
// scans.
type scanIndex struct {
	generation string
	scan       *search.Scan
}

// scan returns the chunks of a named collection's current generation,
// loaded once per generation.
func (a *App) scan(ctx context.Context, name string) (*search.Scan, error) {
	r, loc, err := a.collectionReader(ctx, name)
	if err != nil {
		return nil, err
	}
	generation, err := r.Generation(ctx)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	s, ok := a.scans[loc]
	a.mu.Unlock()
	if ok && s.generation == generation {
		return s.scan, nil
	}
	var chunks []store.ChunkRecord
	if err := r.Chunks(ctx, func(c store.ChunkRecord) error {
		chunks = append(chunks, c)
		return nil
	}); err != nil {
		return nil, err
	}
	s = &scanIndex{generation: generation, scan: search.NewScan(name, chunks)}
	a.mu.Lock()
	a.scans[loc] = s
	a.mu.Unlock()
	return s.scan, nil
}
