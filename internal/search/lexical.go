package search

import (
	"iter"
	"math"
	"math/bits"
	"sync"

	"github.com/lore-dev/lore/internal/store"
)

// maxWords bounds how many query words are tracked per candidate; longer
// queries still score, their extra words only count toward BM25.
const maxWords = 16

// candidate is a chunk that matched at least one query term, with the
// evidence the ranking signals read.
type candidate struct {
	pos       int             // position of the chunk in the snapshot
	bm25      float64         // BM25F over the query terms
	whole     uint16          // a bit per query word matched whole
	nameHit   uint16          // a bit per query word matched in the file name
	symbolHit uint16          // a bit per query word matched among the chunk's symbols
	anyHit    uint16          // a bit per query word matched in any field
	parts     [maxWords]uint8 // per query word: how many of its parts matched
	score     float64
}

// bm25 parameters: k1 saturates term frequency; b normalises by length,
// per field (short fields such as names are barely length-normalised).
// Variables so that TestDevSweep can vary them; nothing else writes them.
var bm25K1 = 1.2

var fieldB = [store.NumFields]float64{
	store.FieldSymbols: 0.3, store.FieldName: 0.2, store.FieldPath: 0.2,
	store.FieldSignature: 0.5, store.FieldDoc: 0.6, store.FieldBody: 0.75,
}

// slotPool holds scoreLexical's position → candidate tables, all zero, so
// that a search does not allocate one the size of the index (4 bytes a
// chunk) each time.
var slotPool sync.Pool // of *[]int32

// getSlots returns a zeroed table of n entries.
func getSlots(n int) []int32 {
	if p, ok := slotPool.Get().(*[]int32); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]int32, n)
}

// putSlots zeroes the entries at used and keeps the table for the next
// search.
func putSlots(slot []int32, used iter.Seq[int]) {
	for pos := range used {
		slot[pos] = 0
	}
	slotPool.Put(&slot)
}

// candidateSlab is how many candidates are allocated at a time.
const candidateSlab = 256

// candidates holds one search's candidates, in slabs of candidateSlab that
// later searches reuse (candidatePool): a search makes hundreds to
// thousands of candidates, ~90 KB, which it drops once it answered. The
// candidates of a search are valid until it gives them back.
type candidates struct {
	slabs [][]candidate // each of cap candidateSlab; pointers into one stay valid
	used  int           // slabs[:used] hold this search's candidates; the last may have room
	out   []*candidate  // the list scoreLexical returns, kept for its capacity
	top   []*candidate  // the list topCandidates returns, likewise
	files fileScratch   // scoreFiles' tables
	rank  rankScratch   // rerank's lists
}

// candidatePool keeps candidates between searches.
var candidatePool sync.Pool // of *candidates

// maxPooledSlabs bounds the slabs a pooled candidates keeps (a query
// matching most of a large index makes many; the next rarely needs them).
const maxPooledSlabs = 64

// maxPooledList bounds the capacity of the candidate list kept.
const maxPooledList = 1 << 16

// getCandidates returns an empty candidates.
func getCandidates() *candidates {
	if cs, ok := candidatePool.Get().(*candidates); ok {
		return cs
	}
	return &candidates{}
}

// putCandidates gives cs back; nothing of it may be used after.
func putCandidates(cs *candidates) {
	if cs == nil {
		return
	}
	if len(cs.slabs) > maxPooledSlabs {
		cs.slabs = cs.slabs[:maxPooledSlabs]
	}
	for i := range cs.slabs[:min(cs.used, len(cs.slabs))] {
		cs.slabs[i] = cs.slabs[i][:0]
	}
	if cap(cs.out) > maxPooledList {
		cs.out = nil
	}
	// The rows of the snapshot searched are not kept alive by the pool.
	clear(cs.rank.ranked[:cap(cs.rank.ranked)])
	clear(cs.rank.sorted[:cap(cs.rank.sorted)])
	cs.used, cs.out, cs.top = 0, cs.out[:0], cs.top[:0]
	candidatePool.Put(cs)
}

// add returns a new candidate at pos.
func (cs *candidates) add(pos int) *candidate {
	if cs.used == 0 || len(cs.slabs[cs.used-1]) == candidateSlab {
		if cs.used == len(cs.slabs) {
			cs.slabs = append(cs.slabs, make([]candidate, 0, candidateSlab))
		}
		cs.used++
	}
	slab := &cs.slabs[cs.used-1]
	*slab = append(*slab, candidate{pos: pos})
	return &(*slab)[len(*slab)-1]
}

// list returns an empty list of candidates of capacity n.
func (cs *candidates) list(n int) []*candidate {
	if cap(cs.out) < n {
		cs.out = make([]*candidate, 0, n)
	}
	return cs.out[:0]
}

// scoreLexical computes BM25F for every chunk in the posting lists of the
// query's terms (hits, one list per term), and which query words each
// chunk matches in which field. onlyFiles, when non-nil, restricts the
// chunks considered to those files. The candidates are cs's.
func scoreLexical(cs *candidates, q Query, terms []queryTerm, hits [][]store.PostingAt, snap *snapshot, onlyFiles map[int64]bool) (out []*candidate) {
	lens := snap.lens
	n := float64(snap.live)      // the dead chunks of an applied change are not documents
	slot := getSlots(lens.Len()) // position → index in out, plus one
	defer putSlots(slot, func(yield func(int) bool) {
		for _, c := range out {
			if !yield(c.pos) {
				return
			}
		}
	})
	total := 0
	for _, list := range hits {
		total += len(list)
	}
	// At most one candidate per chunk: sized once, out never grows by copying.
	out = cs.list(min(total, lens.Len()))
	for ti, qt := range terms {
		list := hits[ti]
		if len(list) == 0 {
			continue
		}
		df := float64(len(list))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		word := qt.word
		isWhole := q.Words[word].Stem == qt.term
		hasParts := len(q.Words[word].Parts) > 0
		for _, h := range list {
			pos := int(h.Pos)
			if onlyFiles != nil && !onlyFiles[snap.meta[pos].FileID] {
				continue
			}
			var c *candidate
			if k := slot[pos]; k > 0 {
				c = out[k-1]
			} else {
				c = cs.add(pos)
				out = append(out, c)
				slot[pos] = int32(len(out))
			}
			dl := lens.Lens[pos]
			var tfw float64
			for f := 0; f < store.NumFields; f++ {
				if h.Freqs[f] == 0 {
					continue
				}
				norm := 1 - fieldB[f] + fieldB[f]*float64(dl[f])/lens.Avg[f]
				tfw += weights.fields[f] * float64(h.Freqs[f]) / norm
			}
			if word < maxWords {
				bit := uint16(1) << word
				c.anyHit |= bit
				if h.Freqs[store.FieldName] != 0 {
					c.nameHit |= bit
				}
				if h.Freqs[store.FieldSymbols] != 0 {
					c.symbolHit |= bit
				}
			}
			c.bm25 += qt.weight * idf * tfw / (bm25K1 + tfw)
			if word < maxWords {
				switch {
				case isWhole:
					c.whole |= 1 << word
				case hasParts && c.parts[word] < 255:
					c.parts[word]++
				}
			}
		}
	}
	return out
}

// wordCoverage is the share of query words a candidate matches (parts of
// a compound word count fractionally).
func wordCoverage(q Query, c *candidate) float64 {
	nw := len(q.Words)
	if nw > maxWords {
		nw = maxWords
	}
	if nw == 0 {
		return 0
	}
	var sum float64
	for i := 0; i < nw; i++ {
		switch parts := len(q.Words[i].Parts); {
		case c.whole&(1<<i) != 0:
			sum++
		case parts > 0:
			sum += min(1, float64(c.parts[i])/float64(parts))
		}
	}
	return sum / float64(nw)
}

// wordShare is the share of query words whose bits are set in hits
// (a candidate's nameHit or symbolHit).
func wordShare(q Query, hits uint16) float64 {
	nw := len(q.Words)
	if nw > maxWords {
		nw = maxWords
	}
	if nw == 0 {
		return 0
	}
	mask := uint16(1<<nw - 1)
	return float64(bits.OnesCount16(hits&mask)) / float64(nw)
}
