package search

import (
	"math"
	"math/bits"

	"github.com/lore-dev/lore/internal/store"
)

// fileStats are per-file totals computed once per index snapshot: what
// file-level BM25 normalises by.
type fileStats struct {
	length []float64 // weighted term count of the whole file, by file slot
	chunks []int32   // the file's chunks, by file slot
	// decls and code count the file's chunks that declare types
	// (declarationKind) and that hold code or values (codeKind).
	decls, code []int32
	avg         float64
}

func newFileStats(lens *store.DocLens, meta []store.ChunkMeta, chunkFile []int32, nFiles int) *fileStats {
	fs := &fileStats{length: make([]float64, nFiles), chunks: make([]int32, nFiles), decls: make([]int32, nFiles), code: make([]int32, nFiles)}
	for pos, l := range lens.Lens {
		slot := chunkFile[pos]
		if slot < 0 {
			continue // dead
		}
		fs.length[slot] += float64(l[store.FieldBody])
		fs.chunks[slot]++
		fs.countKind(slot, meta[pos].Kind, 1)
	}
	fs.average()
	return fs
}

// countKind adds (by 1) or takes away (by -1) a chunk of kind from the
// file's declaration and code counts.
func (fs *fileStats) countKind(slot int32, kind string, by int32) {
	switch {
	case declarationKind(kind):
		fs.decls[slot] += by
	case codeKind(kind):
		fs.code[slot] += by
	}
}

// declarationsOnly reports a file that declares types and holds no code:
// a TypeScript types/ module, a file of interfaces.
func (fs *fileStats) declarationsOnly(slot int32) bool {
	return fs.decls[slot] > 0 && fs.code[slot] == 0
}

// declarationKind reports the chunk kinds that only declare a type.
func declarationKind(kind string) bool {
	return kind == "type" || kind == "interface"
}

// codeKind reports the chunk kinds that hold code or values.
func codeKind(kind string) bool {
	switch kind {
	case "function", "method", "class", "struct", "trait", "impl", "module", "constant", "variable", "macro", "enum":
		return true
	}
	return false
}

// average sets avg, the mean length of the files that have chunks. (The
// lengths are sums of integers, exact in a float64, so totals kept by
// adding and taking away chunks average as these do.)
func (fs *fileStats) average() {
	total, n := 0.0, 0
	for slot, v := range fs.length {
		if fs.chunks[slot] > 0 {
			total += v
			n++
		}
	}
	fs.avg = 0
	if n > 0 {
		fs.avg = total / float64(n)
	}
	if fs.avg == 0 {
		fs.avg = 1
	}
}

// fileScore is the file-level evidence for one file: BM25 over the whole
// file (the sum of its chunks' weighted term frequencies) and the query
// words found anywhere in it.
type fileScore struct {
	slot  int32     // the file's slot in the snapshot
	tfw   []float64 // per query term
	words uint16    // a bit per query word found in the file
	score float64
}

// scoreFiles ranks the files of the top candidates as whole documents: a
// file about the query mentions its words across several chunks, while a
// chunk that mentions them once in passing stands alone. all are every
// candidate (for the words each file matches anywhere), top the ones whose
// files are scored. The result is indexed by file slot; files not scored
// are nil.
func scoreFiles(q Query, terms []queryTerm, hits [][]store.PostingAt, snap *snapshot, all, top []*candidate) []*fileScore {
	return new(fileScratch).scoreFiles(q, terms, hits, snap, all, top)
}

// fileScratch holds what scoreFiles works in, kept between searches with
// their candidates (candidates.files) so that a search does not allocate
// three tables the size of the index's file list and a score per file.
// What scoreFiles returns is valid until the next call.
type fileScratch struct {
	words  []uint16
	bySlot []*fileScore
	seen   []int32
	scores []fileScore
	files  []*fileScore
	tfws   []float64
}

// scoreFiles is scoreFiles in sc's storage.
func (sc *fileScratch) scoreFiles(q Query, terms []queryTerm, hits [][]store.PostingAt, snap *snapshot, all, top []*candidate) []*fileScore {
	n := len(snap.files)
	words := zeroed(&sc.words, n)
	for _, c := range all {
		words[snap.chunkFile[c.pos]] |= c.anyHit
	}
	bySlot := zeroed(&sc.bySlot, n)
	files := sc.files[:0]
	if cap(sc.scores) < len(top) {
		sc.scores = make([]fileScore, 0, len(top)) // never grows below: pointers into it stay valid
	}
	scores := sc.scores[:0]
	if cap(sc.tfws) < len(top)*len(terms) {
		sc.tfws = make([]float64, len(top)*len(terms))
	}
	tfws := sc.tfws[:0] // every file's tfw, in one array
	for _, c := range top {
		slot := snap.chunkFile[c.pos]
		if bySlot[slot] == nil {
			tfws = tfws[:len(tfws)+len(terms)]
			tfw := tfws[len(tfws)-len(terms):]
			clear(tfw)
			scores = append(scores, fileScore{slot: slot, tfw: tfw, words: words[slot]})
			bySlot[slot] = &scores[len(scores)-1]
			files = append(files, bySlot[slot])
		}
	}
	sc.files = files
	nFiles := float64(len(snap.files))
	seen := zeroed(&sc.seen, n) // the last term (index+1) that counted the file
	for ti, qt := range terms {
		if qt.weight == 0 {
			// It adds 0 to every file's score (a compound word's parts):
			// its list is not walked.
			continue
		}
		df := 0.0
		for _, h := range hits[ti] {
			slot := snap.chunkFile[h.Pos]
			if seen[slot] != int32(ti+1) {
				seen[slot] = int32(ti + 1)
				df++
			}
			fsc := bySlot[slot]
			if fsc == nil {
				continue
			}
			for f := 0; f < store.NumFields; f++ {
				if f == store.FieldName || f == store.FieldPath {
					continue // the same in every chunk: scored per chunk instead
				}
				fsc.tfw[ti] += weights.fields[f] * float64(h.Freqs[f])
			}
		}
		idf := math.Log(1 + (nFiles-df+0.5)/(df+0.5))
		for _, fsc := range files {
			tf := fsc.tfw[ti]
			if tf == 0 {
				continue
			}
			norm := bm25K1 * (1 - fileB + fileB*snap.stats.length[fsc.slot]/snap.stats.avg)
			fsc.score += qt.weight * idf * tf / (norm + tf)
		}
	}
	best := 0.0
	for _, fsc := range files {
		best = math.Max(best, fsc.score)
	}
	nw := min(len(q.Words), maxWords)
	for _, fsc := range files {
		norm := 0.0
		if best > 0 {
			norm = fsc.score / best
		}
		cov := 0.0
		if nw > 0 {
			cov = float64(bits.OnesCount16(fsc.words&uint16(1<<nw-1))) / float64(nw)
		}
		fsc.score = norm + weights.fileCoverage*cov
	}
	return bySlot
}

// fileB is BM25's length normalisation for whole files.
var fileB = 0.5

// zeroed returns (*buf)[:n], all zero, growing *buf when it is shorter.
func zeroed[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
		return *buf
	}
	*buf = (*buf)[:n]
	clear(*buf)
	return *buf
}
