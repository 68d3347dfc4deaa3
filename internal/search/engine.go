package search

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lore-dev/lore/internal/embed"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/lang"
	"github.com/lore-dev/lore/internal/querylimit"
	"github.com/lore-dev/lore/internal/store"
)

// DefaultLimit is how many results a query returns unless told otherwise.
const DefaultLimit = 20

// MaxLimit bounds a query's result count.
const MaxLimit = 1000

// DefaultSemanticWeight is the weight of the semantic side in fusion.
const DefaultSemanticWeight = 0.7

// Engine answers queries over one collection. It keeps the ranking's
// per-chunk data in memory, reloads it when a run commits a new
// generation, and is safe for concurrent use.
type Engine struct {
	st store.Reader

	snap atomic.Pointer[snapshot] // the generation searches read
	// loading is held by the one caller reading a newer generation;
	// searches meanwhile answer from snap, as if they had started a
	// moment earlier, instead of queueing behind it.
	loading sync.Mutex

	postingCache postingCache // posting lists of the current snapshot (postingcache.go)
	detailCache  detailCache  // texts of chunks of the current snapshot (detailcache.go)

	mu      sync.Mutex     // guards emb and embSpec
	emb     embed.Embedder // the index's embedder, when not the built-in one
	embSpec string
}

// snapshot is what the ranking reads of one generation of the index.
type snapshot struct {
	generation string
	files      []store.FileRow   // every indexed file, for filters
	plain      []fileFacts       // newFileFacts of each file, before the marks that look at other files
	lens       *store.DocLens    // field lengths of every chunk, by position
	meta       []store.ChunkMeta // metadata of every chunk, aligned with lens.IDs
	stats      *fileStats        // per-file lengths for file-level BM25
	facts      []*fileFacts      // per-file path facts, by file slot
	chunkFile  []int32           // the slot in files of each chunk's file, by position
	// implChunks counts the chunks of files not demoted as tests,
	// examples and the like: [0] by the plain conventions, [1] by the
	// wider ones too (fileFacts.demoted).
	implChunks [2]int
	// impl maps a type's name to the files that implement or extend it
	// (loadImplementers), read from the symbol graph on the first search
	// that needs it (implementersOf).
	impl struct {
		mu    sync.Mutex
		done  bool
		edges map[string][]int32
	}
	// inTests flags, by position, the chunks of a file's own test module
	// (markTestRegions); nil when no file has one.
	inTests []bool

	// fromChanges: made by applying the store's change log to the
	// previous snapshot rather than by reading the index.
	fromChanges bool
	// A snapshot made from changes keeps the chunks they removed in place,
	// dead (chunkFile -1), so that the positions of the others stay and
	// the chunks they added go at the end (applyChanges): live counts the
	// chunks that are not dead, lenSum sums their field lengths (lens.Avg
	// is lenSum / live), and tailTaken is set once a later snapshot has
	// appended past this one's chunks into the arrays they share.
	live      int
	lenSum    [store.NumFields]uint64
	tailTaken atomic.Bool

	embedderSpec string             // the embedder the vectors come from
	vectors      []embed.Int8Vector // chunk vectors by position; nil when the index has none
}

// New returns an engine over a collection and loads what ranking needs
// into memory.
func New(ctx context.Context, r store.Reader) (*Engine, error) {
	e := &Engine{st: r}
	if _, err := e.load(ctx, true); err != nil {
		return nil, err
	}
	return e, nil
}

// Reader is the collection the engine searches.
func (e *Engine) Reader() store.Reader { return e.st }

// Refresh reads the index again if a run committed since it was last
// read, so that the next search does not have to: what a server calls
// after its own run.
func (e *Engine) Refresh(ctx context.Context) error {
	_, err := e.load(ctx, true)
	return err
}

// load returns the current snapshot, reading it again when the index
// changed since it was read: only what changed when the store has it
// recorded (applyChanges), everything otherwise. Unless wait is set, a
// caller that finds another one reading gets the snapshot in memory.
func (e *Engine) load(ctx context.Context, wait bool) (*snapshot, error) {
	generation, err := e.st.Generation(ctx)
	if err != nil {
		return nil, err
	}
	prev := e.snap.Load()
	if prev != nil && prev.generation == generation {
		return prev, nil
	}
	if prev != nil && !wait {
		if !e.loading.TryLock() {
			return prev, nil
		}
	} else {
		e.loading.Lock()
	}
	defer e.loading.Unlock()
	if prev = e.snap.Load(); prev != nil && prev.generation == generation {
		return prev, nil // read while this call waited
	}
	snap, err := e.read(ctx, prev, generation)
	if err != nil {
		return nil, err
	}
	e.snap.Store(snap)
	return snap, nil
}

// read makes the snapshot of generation, from prev and the store's
// change log when it can.
func (e *Engine) read(ctx context.Context, prev *snapshot, generation string) (*snapshot, error) {
	collMeta, err := e.st.Meta(ctx)
	if err != nil {
		return nil, err
	}
	spec := collMeta[store.MetaEmbedderSpec]
	vectors := spec != "" && spec != "none"
	if prev != nil && !vectors && prev.vectors == nil {
		// Chunk vectors are not in the change log: an index with them is
		// read whole.
		changes, ok, err := e.st.Changes(ctx, prev.generation)
		if err != nil {
			return nil, err
		}
		if ok && len(changes) > 0 {
			snap := prev.applyChanges(changes)
			if err := snap.markImportedByCode(ctx, e.st); err != nil {
				return nil, err
			}
			return snap, nil
		}
	}
	files, err := e.st.Files(ctx)
	if err != nil {
		return nil, err
	}
	lens, err := e.st.DocLens(ctx)
	if err != nil {
		return nil, err
	}
	meta, err := e.st.ChunkMeta(ctx, lens)
	if err != nil {
		return nil, err
	}
	plain := make([]fileFacts, len(files))
	for i, f := range files {
		plain[i] = *newFileFacts(f.Path, f.Language)
	}
	snap := newSnapshot(generation, files, plain, lens, meta)
	if err := snap.markImportedByCode(ctx, e.st); err != nil {
		return nil, err
	}
	if vectors {
		vecs, err := e.st.ChunkVectors(ctx)
		if err != nil {
			return nil, err
		}
		if len(vecs) > 0 {
			snap.embedderSpec = spec
			snap.vectors = make([]embed.Int8Vector, lens.Len())
			for id, v := range vecs {
				if pos, ok := lens.Pos(id); ok {
					snap.vectors[pos] = v
				}
			}
		}
	}
	return snap, nil
}

// newSnapshot makes the snapshot of a generation from its files, their
// facts as newFileFacts makes them (plain, aligned with files) and its
// chunks.
func newSnapshot(generation string, files []store.FileRow, plain []fileFacts, lens *store.DocLens, meta []store.ChunkMeta) *snapshot {
	snap := &snapshot{generation: generation, files: files, plain: plain, lens: lens, meta: meta, live: len(meta)}
	// Its arrays are the store's or sized exactly: a snapshot applying
	// changes to it copies them (applyChanges).
	snap.tailTaken.Store(true)
	snap.markFiles()
	slots := make(map[int64]int32, len(files))
	for i, f := range files {
		slots[f.ID] = int32(i)
	}
	snap.chunkFile = make([]int32, len(meta))
	for pos, m := range meta {
		snap.chunkFile[pos] = slots[m.FileID]
	}
	for _, l := range lens.Lens {
		for f, v := range l {
			snap.lenSum[f] += uint64(v)
		}
	}
	snap.markChunks()
	return snap
}

// markFiles sets the facts of the snapshot's files: their plain facts
// and the marks that look at other files.
func (snap *snapshot) markFiles() {
	snap.facts = make([]*fileFacts, len(snap.files))
	facts := slices.Clone(snap.plain) // marked below; plain stays as made
	for i := range snap.files {
		snap.facts[i] = &facts[i]
	}
	markSuperseded(snap.files, snap.facts)
	markHeadersBesideSources(snap.files, snap.facts)
	markPrivateTwins(snap.facts)
}

// countImplChunks counts the chunks of files not demoted as tests
// (implChunks), leaving the dead chunks out.
func (snap *snapshot) countImplChunks() {
	snap.implChunks = [2]int{}
	for _, slot := range snap.chunkFile {
		if slot >= 0 {
			plain, wider := snap.facts[slot].implementation()
			snap.implChunks[0] += b2i(plain)
			snap.implChunks[1] += b2i(wider)
		}
	}
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// markChunks sets what the snapshot derives from its chunks and their
// files' facts, leaving the dead chunks out.
func (snap *snapshot) markChunks() {
	snap.countImplChunks()
	snap.inTests = markTestRegions(snap.meta, snap.chunkFile, len(snap.files))
	snap.stats = newFileStats(snap.lens, snap.meta, snap.chunkFile, len(snap.files))
}

// Search runs one query. A query over querylimit.MaxBytes or with more
// than querylimit.MaxTerms distinct words is refused with QUERY_TOO_LONG
// (see CheckQuery) before any posting list is read; within the limits a
// query's cost grows linearly with its length.
func (e *Engine) Search(ctx context.Context, opts Options) (*Response, error) {
	start := time.Now()
	if err := querylimit.CheckBytes("query", opts.Query); err != nil {
		return nil, err
	}
	if strings.TrimSpace(opts.Query) == "" {
		return nil, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	limit := opts.Limit
	switch {
	case limit == 0:
		limit = DefaultLimit
	case limit < 0:
		return nil, errs.New(errs.Invalid, errs.CodeLimitInvalid, "limit must be positive, got %d", limit)
	case limit > MaxLimit:
		limit = MaxLimit
	}
	if w := opts.SemanticWeight; w != nil && (*w < 0 || *w > 1) {
		return nil, errs.New(errs.Invalid, errs.CodeInvalidArgument, "semantic_weight must be between 0 and 1, got %g", *w)
	}
	snap, err := e.load(ctx, false)
	if err != nil {
		return nil, err
	}
	only, err := filterFiles(snap.files, opts)
	if err != nil {
		return nil, err
	}
	q := Analyze(opts.Query)
	if err := querylimit.CheckTerms("query", len(q.Words)); err != nil {
		return nil, err
	}
	q.docsOnly = opts.DocsOnly
	resp := &Response{Query: opts.Query, Results: []Result{}}
	if len(q.Words) == 0 || (only != nil && len(only) == 0) {
		resp.TookMS = msSince(start)
		return resp, nil
	}
	terms := q.lookupTerms()
	names := make([]string, len(terms))
	for i, t := range terms {
		names[i] = t.term
	}
	hits, err := e.postings(ctx, snap, names) // without snap's dead chunks
	if err != nil {
		return nil, err
	}
	weighAbbreviations(q, terms, hits)
	// The first term read is the first word's stem (lookupTerms).
	q.subjectShare = float64(len(hits[0])) / float64(max(snap.live, 1))
	q.wantsTests = asksForTests(q, terms, hits, snap)
	cs := getCandidates()
	defer putCandidates(cs) // the answer holds no candidate
	cands := scoreLexical(cs, q, terms, hits, snap, only)
	preScore(q, cands)
	w := DefaultSemanticWeight
	if opts.SemanticWeight != nil {
		w = *opts.SemanticWeight
	}
	if alpha := fusionAlpha(w); alpha > 0 {
		qv, ok, err := e.queryVector(ctx, snap, q, terms)
		if err != nil {
			return nil, err
		}
		if ok {
			var allowed func(int) bool
			if only != nil {
				allowed = func(pos int) bool { return only[snap.meta[pos].FileID] }
			}
			cands = fuse(cands, semanticScores(snap, qv, allowed), alpha)
		}
	}
	resp.Total = len(cands)
	var ranked []scored
	if opts.NoRerank {
		ranked = retrievalOrder(cands, snap)
	} else {
		top := topCandidates(cands, weights.rerankDepth, cs.top)
		cs.top = top[:0]
		fileScores := cs.files.scoreFiles(q, terms, hits, snap, cands, top)
		var implementing map[int32]bool
		if namesInterface(q, top, snap) {
			impl, err := snap.implementersOf(ctx, e.st)
			if err != nil {
				return nil, err
			}
			implementing = implementerFiles(q, impl)
		}
		ranked = cs.rank.rerank(q, top, snap, fileScores, implementing)
	}
	// The page's texts are read for it; joined word pairs read the best
	// pairDepth chunks' texts too, so at least that many are read.
	joined := !opts.NoRerank && joinsPairs(q)
	n := limit
	if joined {
		n = max(limit, weights.pairDepth)
	}
	ranked = topK(ranked, n, func(a, b scored) bool { return snap.compareScored(a, b) < 0 })
	details, err := e.details(ctx, snap, ranked)
	if err != nil {
		return nil, err
	}
	if joined {
		ranked = liftJoinedPairs(q, snap, ranked, details)[:min(limit, len(ranked))]
	}
	resp.Results = present(ranked, snap, details)
	resp.Truncated = len(resp.Results) < resp.Total
	resp.TookMS = msSince(start)
	return resp, nil
}

// retrievalOrder scores candidates by what retrieval found alone.
func retrievalOrder(cands []*candidate, snap *snapshot) []scored {
	out := make([]scored, len(cands))
	for i, c := range cands {
		out[i] = scored{row: &snap.meta[c.pos], slot: snap.chunkFile[c.pos], score: c.score}
	}
	return out
}

// CheckQuery reports whether Search would refuse query for its size: a
// QUERY_TOO_LONG *errs.Error when it is over querylimit.MaxBytes or has
// more than querylimit.MaxTerms distinct words, else nil. A front end
// that does costly work with a query before searching (sending it to a
// model to expand it) should call it first.
func CheckQuery(query string) error {
	if err := querylimit.CheckBytes("query", query); err != nil {
		return err
	}
	return querylimit.CheckTerms("query", len(Analyze(query).Words))
}

func msSince(t time.Time) float64 {
	return float64(time.Since(t).Microseconds()) / 1000
}

// filterFiles returns the ids of files the filters allow, or nil when there
// are no filters.
func filterFiles(files []store.FileRow, opts Options) (map[int64]bool, error) {
	if len(opts.Extensions) == 0 && opts.PathGlob == "" && opts.Language == "" && !opts.DocsOnly {
		return nil, nil
	}
	exts := map[string]bool{}
	for _, x := range opts.Extensions {
		x = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(x), "."))
		if x != "" {
			exts[x] = true
		}
	}
	var glob *pathMatcher
	if opts.PathGlob != "" {
		var err error
		if glob, err = compileGlob(opts.PathGlob); err != nil {
			return nil, errs.New(errs.Invalid, errs.CodeInvalidArgument, "invalid path filter: %v", err)
		}
	}
	language := strings.ToLower(strings.TrimSpace(opts.Language))
	only := map[int64]bool{}
	for _, f := range files {
		if len(exts) > 0 && !exts[strings.ToLower(strings.TrimPrefix(path.Ext(f.Path), "."))] {
			continue
		}
		if glob != nil && !glob.match(f.Path) {
			continue
		}
		if language != "" && f.Language != language {
			continue
		}
		if opts.DocsOnly && !lang.IsDoc(f.Language) {
			continue
		}
		only[f.ID] = true
	}
	return only, nil
}

// present turns ranked chunks and their loaded text into results, with
// relevance percentages relative to the best result.
func present(ranked []scored, snap *snapshot, details map[int64]store.ChunkDetail) []Result {
	out := make([]Result, len(ranked))
	top := 0.0
	if len(ranked) > 0 {
		top = ranked[0].score
	}
	for i, s := range ranked {
		pct := 0
		if top > 0 {
			pct = int(s.score/top*100 + 0.5)
		}
		row, file, d := s.row, &snap.files[s.slot], details[s.row.ID]
		out[i] = Result{
			Path: file.Path, StartLine: int(row.StartLine), EndLine: int(row.EndLine),
			Language: file.Language, Kind: row.Kind, Symbols: row.SymbolList(),
			Signature: d.Signature, Breadcrumb: d.Breadcrumb, DocComment: d.DocComment,
			Score: roundScore(s.score), RelevancePercent: pct, Content: d.Content,
		}
	}
	return out
}

func roundScore(x float64) float64 {
	return float64(int64(x*1e6+0.5)) / 1e6
}

// compareScored orders by score, then path, then start line: the
// documented, deterministic order (chunk ids settle the rest, so the
// order is total).
func (snap *snapshot) compareScored(a, b scored) int {
	if a.score == b.score && a.slot != b.slot {
		if c := strings.Compare(snap.files[a.slot].Path, snap.files[b.slot].Path); c != 0 {
			return c
		}
	}
	return compareInFile(a, b)
}

// compareInFile is compareScored for chunks of one file: score, then
// start line, then chunk id.
func compareInFile(a, b scored) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	if a.row.StartLine != b.row.StartLine {
		return cmp.Compare(a.row.StartLine, b.row.StartLine)
	}
	return cmp.Compare(a.row.ID, b.row.ID)
}
