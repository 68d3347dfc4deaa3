package search

import (
	"math"
	"math/bits"

	"github.com/lore-dev/lore/internal/store"
)

// fileStats are per-file totals computed once per index snapshot: what
// file-level BM25 normalises by.
type fileStats struct {
	length map[int64]float64 // weighted term count of the whole file
	avg    float64
}

func newFileStats(lens *store.DocLens, meta []store.ChunkRow) *fileStats {
	fs := &fileStats{length: map[int64]float64{}}
	for pos, l := range lens.Lens {
		fs.length[meta[pos].FileID] += float64(l[store.FieldBody])
	}
	total := 0.0
	for _, v := range fs.length {
		total += v
	}
	if len(fs.length) > 0 {
		fs.avg = total / float64(len(fs.length))
	}
	if fs.avg == 0 {
		fs.avg = 1
	}
	return fs
}

// fileScore is the file-level evidence for one file: BM25 over the whole
// file (the sum of its chunks' weighted term frequencies) and the query
// words found anywhere in it.
type fileScore struct {
	tfw   []float64 // per query term
	words uint16    // a bit per query word found in the file
	score float64
}

// scoreFiles ranks the files of the top candidates as whole documents: a
// file about the query mentions its words across several chunks, while a
// chunk that mentions them once in passing stands alone. all are every
// candidate (for the words each file matches anywhere), top the ones whose
// files are scored.
func scoreFiles(q Query, terms []queryTerm, postings map[string][]store.Posting, snap *snapshot, all, top []*candidate) map[int64]*fileScore {
	words := make([]uint16, len(snap.files))
	for _, c := range all {
		slot := snap.chunkFile[c.pos]
		for f := 0; f < store.NumFields; f++ {
			words[slot] |= c.fieldHit[f]
		}
	}
	scored := make([]*fileScore, len(snap.files)) // by file slot; nil for files not scored
	files := map[int64]*fileScore{}
	for _, c := range top {
		slot := snap.chunkFile[c.pos]
		if scored[slot] == nil {
			scored[slot] = &fileScore{tfw: make([]float64, len(terms)), words: words[slot]}
			files[snap.meta[c.pos].FileID] = scored[slot]
		}
	}
	nFiles := float64(len(snap.files))
	seen := make([]int32, len(snap.files)) // the last term (index+1) that counted the file
	for ti, qt := range terms {
		df := 0.0
		snap.lens.Each(postings[qt.term], func(pos int, p store.Posting) {
			slot := snap.chunkFile[pos]
			if seen[slot] != int32(ti+1) {
				seen[slot] = int32(ti + 1)
				df++
			}
			fsc := scored[slot]
			if fsc == nil {
				return
			}
			for f := 0; f < store.NumFields; f++ {
				if f == store.FieldName || f == store.FieldPath {
					continue // the same in every chunk: scored per chunk instead
				}
				fsc.tfw[ti] += weights.fields[f] * float64(p.Freqs[f])
			}
		})
		idf := math.Log(1 + (nFiles-df+0.5)/(df+0.5))
		for id, fsc := range files {
			tf := fsc.tfw[ti]
			if tf == 0 {
				continue
			}
			norm := bm25K1 * (1 - fileB + fileB*snap.stats.length[id]/snap.stats.avg)
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
	return files
}

// fileB is BM25's length normalisation for whole files.
const fileB = 0.5
