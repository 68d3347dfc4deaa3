package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lore-dev/lore/internal/chunk"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/lang"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
	"github.com/lore-dev/lore/internal/trigram"
)

// binaryProbe is how much of a file is checked for NUL bytes.
const binaryProbe = 8 << 10

// outcome is what processing one walked file produced.
type outcome int

const (
	outUnchanged outcome = iota // same size and mtime, or same hash
	outChanged                  // new or modified: chunks to write
	outSkipped                  // binary or not indexable: drop it if it was indexed
	outFailed                   // could not be read
)

// fileResult is one walked file after parsing.
type fileResult struct {
	file    fsroot.File
	outcome outcome
	known   store.FileState
	isKnown bool
	record  store.File
	chunks  []store.Chunk
	err     error
	// generated files (lock files, bundles) have grams but no chunks:
	// the exact search reads them, the ranked one does not.
	generated bool
	grams     *store.GramFile // grams to write; nil when current or not kept
	dropGrams bool            // the file's recorded grams are stale: remove them
}

// gramJob says what a worker does about a file's grams.
type gramJob struct {
	want  bool // the run keeps an n-gram index
	known store.GramState
	fresh bool // the recorded grams are current
}

// RebuildReason says why the next run over a collection whose metadata
// is meta rebuilds it from scratch rather than updating it, or "" when it
// need not: the schema changed under the index, or this lore makes terms
// or chunks differently from the one that built it (an index from before
// the chunker's version was recorded counts as older), so that files
// that did not change would keep terms or chunks of the old kind.
func RebuildReason(meta map[string]string) string {
	switch {
	case meta[store.MetaRebuildRequired] == "1":
		return "the index's schema changed"
	case meta[store.MetaAnalyzerVersion] != "" && meta[store.MetaAnalyzerVersion] != tokenize.Version:
		return "this lore makes search terms differently from the one that built the index"
	case meta[store.MetaIndexedAt] != "" && meta[store.MetaChunkerVersion] != chunk.Version:
		return "this lore chunks files differently from the one that built the index"
	}
	return ""
}

func run(ctx context.Context, db store.DB, opts Options) (*Stats, error) {
	start := time.Now()
	root, err := fsroot.Open(opts.Root)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	collection := opts.Collection
	if collection == "" {
		collection = store.DefaultCollection
	}
	// One writer per collection: a second run, from this process or
	// another, waits here (or, with NoWait, fails) until the first is done.
	tx, err := db.Write(ctx, collection, root.Path(), store.WriteOptions{NoWait: opts.NoWait, OnWait: opts.OnWait,
		MemoryBudget: opts.MemoryBudget, DeferMerges: opts.DeferMerges})
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			tx.Rollback()
		}
	}()
	prevMeta, err := tx.Meta(ctx)
	if err != nil {
		return nil, err
	}
	if RebuildReason(prevMeta) != "" {
		opts.Force = true
	}
	if opts.SpecsDir == "" {
		opts.SpecsDir = prevMeta[store.MetaSpecsDir] // keep the folder the root was indexed with
	}
	walkOpts := recordedWalkOptions(prevMeta)
	if opts.SkipDirs != nil {
		walkOpts.SkipDirs = opts.SkipDirs
	}
	if opts.MaxFileSize != 0 {
		walkOpts.MaxFileSize = opts.MaxFileSize
	}
	// The n-gram index lists every file the exact search would walk, so
	// it is kept only when this run walks the same way.
	keepGrams := len(walkOpts.SkipDirs) == 0 && (walkOpts.MaxFileSize == 0 || walkOpts.MaxFileSize == fsroot.DefaultMaxFileSize)
	var lim *limitedRun
	if canLimit(opts, prevMeta, keepGrams) && prevMeta[store.MetaRebuildRequired] != "1" {
		if lim, err = limit(ctx, tx, root, db.Location(), opts.Paths, walkOpts); err != nil {
			return nil, err
		}
	}
	var known map[string]store.FileState
	var gramKnown map[string]store.GramState
	var files []fsroot.File
	if lim != nil {
		known, gramKnown, files = lim.known, lim.gramKnown, lim.files
	} else {
		if known, err = tx.FileStates(ctx); err != nil {
			return nil, err
		}
		if gramKnown, err = tx.GramStates(ctx); err != nil {
			return nil, err
		}
	}
	if opts.Force || !keepGrams || prevMeta[store.MetaGramWalk] != store.GramWalkDefault {
		gramKnown = map[string]store.GramState{}
		if err := tx.DeleteAllGrams(ctx); err != nil {
			return nil, err
		}
	}
	if opts.Force {
		known = map[string]store.FileState{}
		if err := tx.DeleteAll(ctx); err != nil {
			return nil, err
		}
	}

	// The walk runs alongside the workers: they start on the first files
	// found (see streamWalk).
	var stream *fileStream
	if lim == nil {
		walkCtx, stopWalk := context.WithCancel(ctx)
		defer stopWalk()
		stream = streamWalk(walkCtx, root, db.Location(), walkOpts)
	} else {
		stream = listStream(files)
	}
	stats := &Stats{Root: root.Path(), IndexPath: db.Location(), Collection: collection,
		FileErrors: []FileError{}, Warnings: []FileError{}}

	// seen is needed only to find what the index holds and the walk no
	// longer found: a forced build (or a first run) knows nothing, and
	// spares the map, one entry per file.
	var seen map[string]bool
	if len(known) > 0 || len(gramKnown) > 0 {
		seen = make(map[string]bool, len(known))
	}
	// The packages and specs are read and resolved alongside the parse,
	// once the walk has listed the files.
	factsCtx, stopFacts := context.WithCancel(ctx)
	defer stopFacts()
	facts, err := startProjectFacts(factsCtx, tx,
		factsInput{root: root, walkOpts: walkOpts, specsDir: opts.SpecsDir, prevMeta: prevMeta, keepPackages: lim != nil},
		func() ([]fsroot.File, error) { return stream.wait(factsCtx) })
	if err != nil {
		return nil, err
	}
	results := process(ctx, stream.files, known, gramKnown, keepGrams, opts.Workers)
	defer results.stop()
	done := 0
	for {
		r, err := results.next(ctx)
		if err != nil {
			return nil, cancelled(err)
		}
		if r == nil {
			break
		}
		if seen != nil {
			seen[r.file.Rel] = true
		}
		if err := apply(ctx, tx, r, stats); err != nil {
			return nil, err
		}
		if opts.Progress != nil && !r.generated {
			done++
			// While the walk goes on, the total is what it found so far.
			opts.Progress(Progress{Done: done, Total: int(stream.scanned.Load()), Path: r.file.Rel})
		}
	}
	if _, err := stream.wait(ctx); err != nil {
		return nil, err
	}
	stats.Scanned = int(stream.scanned.Load())
	for p, k := range known {
		if !seen[p] || generatedName(p) {
			if err := tx.DeleteFile(ctx, k.ID); err != nil {
				return nil, err
			}
			stats.Deleted++
		}
	}
	for p := range gramKnown {
		if !seen[p] {
			if err := tx.DeleteGrams(ctx, p); err != nil {
				return nil, err
			}
		}
	}
	gramWalk := store.GramWalkDefault
	if !keepGrams {
		gramWalk = "custom"
	}
	if err := tx.SetMeta(ctx, store.MetaGramWalk, gramWalk); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	if err := facts.finish(ctx, tx, stats); err != nil {
		return nil, err
	}
	if err := updateVectors(ctx, tx, opts.Embedder, prevMeta, stats); err != nil {
		if ctx.Err() != nil {
			return nil, cancelled(ctx.Err())
		}
		return nil, err
	}
	if err := tx.SetMeta(ctx, store.MetaSpecsDir, opts.SpecsDir); err != nil {
		return nil, err
	}
	if err := recordWalkOptions(ctx, tx, walkOpts); err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	if err := writeMeta(ctx, tx, root.Path(), now, stats); err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx, now); err != nil {
		return nil, err
	}
	committed = true
	stats.Duration = time.Since(start)
	stats.DurationMS = stats.Duration.Milliseconds()
	return stats, nil
}

func cancelled(err error) error {
	return (&errs.Error{Kind: errs.Cancelled, Code: errs.CodeCancelled, Message: "indexing cancelled; the previous index is unchanged"}).Wrap(err)
}

// walk lists the files to index, leaving out the index itself when it lives
// inside the root (location is the database's file, when it is one).
// Generated files (see generatedName) are listed: they get grams, not
// chunks.
func walk(ctx context.Context, root *fsroot.Root, location string, opts fsroot.WalkOptions) ([]fsroot.File, error) {
	s := streamWalk(ctx, root, location, opts)
	for range s.files {
	}
	return s.wait(ctx)
}

// dedupeLinked drops files reached a second time through a symlink inside
// the root (serde's serde/src/core → serde_core/src, say): each file is
// indexed once, under its own path when the walk saw it there, else under
// the first path that reached it.
func dedupeLinked(root string, files []fsroot.File) []fsroot.File {
	byReal := make(map[string]int, len(files)) // real path → index in out
	out := files[:0:0]
	for _, f := range files {
		real := f.Abs // the root's path is real: only a linked file's is not
		if f.Linked {
			if r, err := filepath.EvalSymlinks(f.Abs); err == nil {
				real = r
			}
		}
		i, dup := byReal[real]
		if !dup {
			byReal[real] = len(out)
			out = append(out, f)
			continue
		}
		if rel, err := filepath.Rel(root, real); err == nil && filepath.ToSlash(rel) == f.Rel {
			out[i] = f // the file's own path wins over a link to it
		}
	}
	return out
}

// generatedName reports files that are machine-written even though they are
// not ignored: lock files and minified bundles are noise to a code search.
func generatedName(rel string) bool {
	base := path.Base(rel)
	switch base {
	case "go.sum", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "Gemfile.lock",
		"poetry.lock", "composer.lock", "Pipfile.lock", "mix.lock", "pubspec.lock", "Package.resolved", "uv.lock", "bun.lockb":
		return true
	}
	return strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".min.css") || strings.HasSuffix(base, ".map")
}

// resultsAhead is how many files per worker may be parsed ahead of the
// writer, and aheadBytes how many bytes of source: the files handed out
// and not yet taken by the writer stop at either bound. The count is
// deep enough that a large file, which the writer waits for in walk
// order, does not leave the other workers idle once they are a few small
// files ahead (with 4 files a worker, the hand-out waited for the writer
// about a fifth of a tokio build); the bytes keep the parsed results
// waiting for the writer (each a file's chunks, text and term counts) a
// small, fixed amount of memory however large the root and its files:
// at most aheadBytes plus one file, as many bytes as the 8 files of the
// earliest bound at the default size limit of 1 MiB.
const (
	resultsAhead = 32
	aheadBytes   = 8 << 20
)

// results delivers the parsed files in walk order (see process).
type results struct {
	ended chan struct{}      // closed once the source is exhausted, total set
	total int                // how many files the source held
	ring  []chan *fileResult // result i arrives on ring[i%len(ring)]
	slots chan struct{}      // one per file handed out and not yet taken
	quit  chan struct{}      // closed by stop: the workers end
	read  int                // results taken so far
	// bytes is the size of the files handed out and not yet taken; freed
	// wakes a hand-out waiting for it to fall under aheadBytes.
	bytes atomic.Int64
	freed chan struct{}
	once  sync.Once
	// handed counts the files handed out to the workers; at most
	// len(ring) more than read.
	handed atomic.Int64
}

// next waits for the next file's result in walk order; nil after the
// last.
func (r *results) next(ctx context.Context) (*fileResult, error) {
	ended := r.ended
	for {
		select {
		case res := <-r.ring[r.read%len(r.ring)]:
			r.read++
			<-r.slots // the file's slot is free: one more may be handed out
			r.bytes.Add(-res.file.Size)
			select {
			case r.freed <- struct{}{}:
			default: // a wake-up is pending already
			}
			return res, nil
		case <-ended:
			if r.read == r.total {
				return nil, nil
			}
			ended = nil // more results are on their way
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// stop ends the workers of a run that gives up before taking every
// result.
func (r *results) stop() { r.once.Do(func() { close(r.quit) }) }

// process parses the files of src on a pool of workers and delivers the
// results in src's order, so the writer consumes them in that order and
// the index is the same whatever the scheduling. At most resultsAhead
// files per worker are handed out and not yet taken by the writer: workers
// never run unboundedly ahead of it, so memory stays flat in the size of
// the root.
func process(ctx context.Context, src <-chan fsroot.File, known map[string]store.FileState, gramKnown map[string]store.GramState, keepGrams bool, workers int) *results {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	window := workers * resultsAhead
	r := &results{ring: make([]chan *fileResult, window), slots: make(chan struct{}, window), quit: make(chan struct{}),
		ended: make(chan struct{}), freed: make(chan struct{}, 1)}
	for i := range r.ring {
		// File i is handed out only once file i-window was taken, so its
		// channel is empty then: a buffer of one never blocks a worker.
		r.ring[i] = make(chan *fileResult, 1)
	}
	type job struct {
		i int
		f fsroot.File
	}
	next := make(chan job)
	for w := 0; w < workers; w++ {
		go func() {
			w := newWorker()
			for j := range next {
				f := j.f
				k, ok := known[f.Rel]
				gk, gok := gramKnown[f.Rel]
				g := gramJob{want: keepGrams, known: gk,
					fresh: gok && gk.Size == f.Size && gk.MTimeNS == f.ModTime.UnixNano()}
				r.ring[j.i%window] <- w.processFile(f, k, ok, g)
			}
		}()
	}
	go func() {
		defer close(next)
		for i := 0; ; i++ {
			select {
			case r.slots <- struct{}{}:
			case <-ctx.Done():
				return
			case <-r.quit:
				return
			}
			for r.bytes.Load() >= aheadBytes {
				select {
				case <-r.freed:
				case <-ctx.Done():
					return
				case <-r.quit:
					return
				}
			}
			var f fsroot.File
			var ok bool
			select {
			case f, ok = <-src:
			case <-ctx.Done():
				return
			case <-r.quit:
				return
			}
			if !ok {
				r.total = i
				close(r.ended)
				return
			}
			r.handed.Add(1)
			r.bytes.Add(f.Size)
			select {
			case next <- job{i, f}:
			case <-ctx.Done():
				return
			case <-r.quit:
				return
			}
		}
	}()
	return r
}

// worker is the working memory one parse worker reuses from file to file.
// Not safe for concurrent use.
type worker struct {
	counter termCounter
	// terms holds a chunk's terms, field by field, until termStats has
	// counted them; used is the most of each the current file filled.
	terms [store.NumFields][]string
	used  [store.NumFields]int
}

func newWorker() *worker { return &worker{} }

func (w *worker) processFile(f fsroot.File, known store.FileState, isKnown bool, g gramJob) *fileResult {
	r := &fileResult{file: f, known: known, isKnown: isKnown, generated: generatedName(f.Rel)}
	mtime := f.ModTime.UnixNano()
	chunksFresh := r.generated || (isKnown && known.Size == f.Size && known.MTimeNS == mtime)
	gramsFresh := !g.want || g.fresh
	if chunksFresh && gramsFresh {
		r.outcome = outUnchanged
		return r
	}
	src, err := os.ReadFile(f.Abs)
	if err != nil {
		r.outcome, r.err = outFailed, err
		r.dropGrams = g.want
		return r
	}
	head := src
	if len(head) > binaryProbe {
		head = head[:binaryProbe]
	}
	binary := fsroot.IsBinary(head)
	if !gramsFresh {
		// The file as read: its size, not the walk's, so that a search
		// comparing sizes and times sees a file that changed since.
		r.grams = &store.GramFile{Path: f.Rel, Size: int64(len(src)), MTimeNS: mtime, Binary: binary}
		if !binary {
			r.grams.Grams = trigram.EncodeKeys(trigram.Extract(src, nil))
		}
	}
	if chunksFresh {
		r.outcome = outUnchanged
		return r
	}
	if binary {
		r.outcome = outSkipped
		return r
	}
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:16])
	if isKnown && known.Hash == hash {
		r.outcome = outUnchanged
		r.record.MTimeNS = mtime
		return r
	}
	language := lang.Detect(f.Rel, head)
	if language == "" {
		language = "text"
	}
	// One parse gives the chunks and what the file defines and refers to.
	chunks, syms := chunk.Analyze(f.Rel, language, src)
	r.outcome = outChanged
	r.record = store.File{Path: f.Rel, Language: language, Size: f.Size, Hash: hash, MTimeNS: mtime, Lines: countLines(src),
		Symbols: syms}
	r.chunks = make([]store.Chunk, len(chunks))
	nameTerms := tokenize.Terms(strings.TrimSuffix(path.Base(f.Rel), path.Ext(f.Rel)))
	dirTerms := tokenize.Terms(path.Dir(f.Rel))
	for i, c := range chunks {
		terms := &w.terms
		// The symbols are terms one after the other, as if joined by
		// spaces: no identifier runs across two.
		terms[store.FieldSymbols] = terms[store.FieldSymbols][:0]
		for _, s := range c.Symbols {
			terms[store.FieldSymbols] = tokenize.AppendTerms(terms[store.FieldSymbols], s)
		}
		terms[store.FieldName] = nameTerms
		terms[store.FieldPath] = dirTerms
		terms[store.FieldSignature] = tokenize.AppendTerms(terms[store.FieldSignature][:0], c.Signature)
		terms[store.FieldDoc] = tokenize.AppendTerms(terms[store.FieldDoc][:0], c.DocComment)
		terms[store.FieldBody] = tokenize.AppendTerms(terms[store.FieldBody][:0], c.Content)
		r.chunks[i] = store.Chunk{
			StartLine: c.StartLine, EndLine: c.EndLine, Kind: c.Kind, Symbols: c.Symbols,
			Signature: c.Signature, Breadcrumb: c.Breadcrumb, DocComment: c.DocComment, Content: c.Content,
			Stats: w.counter.termStats(*terms),
		}
		for f := range terms {
			w.used[f] = max(w.used[f], len(terms[f]))
		}
	}
	w.release()
	return r
}

// release drops what the worker's buffers point into (the last file's
// text) and any buffer a huge file grew, so an idle worker holds little.
func (w *worker) release() {
	for f := range w.terms {
		if cap(w.terms[f]) > maxKeptTerms {
			w.terms[f] = nil
		} else {
			clear(w.terms[f][:w.used[f]])
		}
		w.used[f] = 0
	}
}

// maxKeptTerms is the most terms a worker's buffer keeps between files.
const maxKeptTerms = 1 << 14

func countLines(src []byte) int {
	if len(src) == 0 {
		return 0
	}
	n := bytes.Count(src, []byte{'\n'})
	if src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// apply writes one file's result into the transaction and counts it.
func apply(ctx context.Context, tx store.WriteTx, r *fileResult, stats *Stats) error {
	switch {
	case r.grams != nil:
		if err := tx.PutGrams(ctx, *r.grams); err != nil {
			return err
		}
	case r.dropGrams:
		if err := tx.DeleteGrams(ctx, r.file.Rel); err != nil {
			return err
		}
	}
	if r.generated {
		return nil // not in the ranked index
	}
	switch r.outcome {
	case outUnchanged:
		stats.Unchanged++
		if r.record.MTimeNS != 0 {
			return tx.TouchFile(ctx, r.known.ID, r.record.MTimeNS)
		}
		return nil
	case outSkipped:
		if r.isKnown {
			stats.Deleted++
			return tx.DeleteFile(ctx, r.known.ID)
		}
		return nil
	case outFailed:
		stats.Errors++
		stats.FileErrors = append(stats.FileErrors, FileError{Path: r.file.Rel, Message: r.err.Error()})
		return nil // keep whatever was indexed before for this file
	}
	if r.isKnown {
		if err := tx.DeleteFile(ctx, r.known.ID); err != nil {
			return err
		}
	}
	if err := tx.PutFile(ctx, r.record, r.chunks); err != nil {
		return err
	}
	stats.Indexed++
	stats.Chunks += len(r.chunks)
	return nil
}

// writeMeta records what status reports: when, from which commit, counts.
func writeMeta(ctx context.Context, tx store.WriteTx, root string, now time.Time, stats *Stats) error {
	files, chunks, err := tx.Counts(ctx)
	if err != nil {
		return err
	}
	meta := []struct{ key, value string }{
		{store.MetaRoot, root},
		{store.MetaIndexedAt, now.Format(time.RFC3339)},
		{store.MetaGitCommit, gitCommit(root)},
		{store.MetaFileCount, strconv.Itoa(files)},
		{store.MetaChunkCount, strconv.Itoa(chunks)},
		{store.MetaPackageCount, strconv.Itoa(stats.Packages)},
		{store.MetaSpecCount, strconv.Itoa(stats.Specs)},
		{store.MetaAnalyzerVersion, tokenize.Version},
		{store.MetaChunkerVersion, chunk.Version},
	}
	for _, m := range meta {
		if err := tx.SetMeta(ctx, m.key, m.value); err != nil {
			return err
		}
	}
	return tx.DeleteMeta(ctx, store.MetaRebuildRequired)
}

// recordedWalkOptions are the walk options a collection was last indexed
// with, as recordWalkOptions kept them in its meta.
func recordedWalkOptions(meta map[string]string) fsroot.WalkOptions {
	var o fsroot.WalkOptions
	if v := meta[store.MetaSkipDirs]; v != "" {
		o.SkipDirs = strings.Split(v, ",")
	}
	o.MaxFileSize, _ = strconv.ParseInt(meta[store.MetaMaxFileSize], 10, 64)
	return o
}

// recordWalkOptions keeps a run's walk options in the collection's meta,
// for the runs that do not name theirs (a watching server's) and for
// Pending.
func recordWalkOptions(ctx context.Context, tx store.WriteTx, o fsroot.WalkOptions) error {
	if err := tx.SetMeta(ctx, store.MetaSkipDirs, strings.Join(o.SkipDirs, ",")); err != nil {
		return err
	}
	if o.MaxFileSize == 0 {
		return tx.DeleteMeta(ctx, store.MetaMaxFileSize)
	}
	return tx.SetMeta(ctx, store.MetaMaxFileSize, strconv.FormatInt(o.MaxFileSize, 10))
}
