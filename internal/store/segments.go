package store

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
)

// Segments: how an implementation keeps a re-index proportional to the
// change. A collection's inverted index, field lengths and chunk metadata
// are a base plus a short list of immutable segments, each written whole
// by one run (or by merging younger segments): the postings, lengths and
// metadata of the chunks it added, and the ids of older chunks it removed
// (tombstones). Chunk ids only grow, so the segments, oldest first, hold
// increasing ranges of ids, and a term's list is its base list followed by
// its segments' lists. A chunk that a tombstone names is left out of the
// lengths (JoinDocLens), and posting lists are resolved through the
// lengths (DecodePostingsAt), so every reader sees exactly the live chunks
// and BM25's statistics equal a full rebuild's. The helpers here are the
// storage-independent part; the SQLite store keeps segments as rows.

// EncodeIDs writes increasing chunk ids as a count and uvarint deltas.
func EncodeIDs(ids []int64) []byte {
	buf := binary.AppendUvarint(make([]byte, 0, 1+len(ids)*3), uint64(len(ids)))
	var prev int64
	for _, id := range ids {
		buf = binary.AppendUvarint(buf, uint64(id-prev))
		prev = id
	}
	return buf
}

// DecodeIDs reads what EncodeIDs wrote.
func DecodeIDs(b []byte) ([]int64, error) {
	if len(b) == 0 {
		return nil, nil
	}
	r := uvarintReader{b: b}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return nil, ErrCorrupt
	}
	out := make([]int64, n)
	var id int64
	for i := range out {
		id += int64(r.next())
		out[i] = id
	}
	if r.bad {
		return nil, ErrCorrupt
	}
	return out, nil
}

// IDSet is a set of chunk ids: the tombstones of a collection's segments.
type IDSet map[int64]struct{}

// Has reports whether id is in the set; a nil set is empty.
func (s IDSet) Has(id int64) bool {
	_, ok := s[id]
	return ok
}

// AddAll adds ids to the set.
func (s IDSet) AddAll(ids []int64) {
	for _, id := range ids {
		s[id] = struct{}{}
	}
}

// Sorted returns the ids in increasing order.
func (s IDSet) Sorted() []int64 {
	out := make([]int64, 0, len(s))
	for id := range s {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// JoinDocLens joins the field lengths of a base and its segments, oldest
// first, leaving out the chunks in dead, and computes the averages over
// what is left: the same DocLens a single table of the live chunks gives.
// Parts must hold increasing, disjoint ranges of ids, in order.
func JoinDocLens(parts []*DocLens, dead IDSet) *DocLens {
	n := 0
	for _, p := range parts {
		n += p.Len()
	}
	out := &DocLens{IDs: make([]int64, 0, n), Lens: make([][NumFields]uint16, 0, n)}
	var sum [NumFields]float64
	for _, p := range parts {
		for i, id := range p.IDs {
			if dead.Has(id) {
				continue
			}
			if k := len(out.IDs); k > 0 && out.IDs[k-1] >= id {
				continue // out of order: a damaged index; keep the first
			}
			out.IDs = append(out.IDs, id)
			out.Lens = append(out.Lens, p.Lens[i])
			for f, l := range p.Lens[i] {
				sum[f] += float64(l)
			}
		}
	}
	for f := range sum {
		if len(out.IDs) > 0 {
			out.Avg[f] = sum[f] / float64(len(out.IDs))
		}
		if out.Avg[f] == 0 {
			out.Avg[f] = 1
		}
	}
	return out
}

// JoinChunkMeta joins the chunk metadata of a base and its segments,
// oldest first, leaving out the chunks in dead; the result is sorted by id
// when each part is.
func JoinChunkMeta(parts [][]ChunkMeta, dead IDSet) []ChunkMeta {
	return joinLive(parts, dead, func(m ChunkMeta) int64 { return m.ID })
}

// JoinPostings joins a term's posting lists of a base and its segments,
// oldest first, leaving out the chunks in dead.
func JoinPostings(parts [][]Posting, dead IDSet) []Posting {
	return joinLive(parts, dead, func(p Posting) int64 { return p.ChunkID })
}

// joinLive concatenates parts, leaving out the entries whose chunk is in
// dead. A part sorted by chunk id is copied in runs between the dead
// chunks it holds, found by binary search, rather than entry by entry: a
// reader applying a run's change to a large collection removes a few
// chunks from a million.
func joinLive[T any](parts [][]T, dead IDSet, chunkID func(T) int64) []T {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]T, 0, n)
	var sortedDead []int64
	if len(dead) > 0 {
		sortedDead = dead.Sorted()
	}
	for _, p := range parts {
		if len(sortedDead) == 0 {
			out = append(out, p...)
			continue
		}
		if !slices.IsSortedFunc(p, func(a, b T) int { return cmp.Compare(chunkID(a), chunkID(b)) }) {
			for _, v := range p {
				if !dead.Has(chunkID(v)) {
					out = append(out, v)
				}
			}
			continue
		}
		for i := 0; i < len(p); {
			first := chunkID(p[i])
			j, _ := slices.BinarySearch(sortedDead, first)
			if j == len(sortedDead) {
				out = append(out, p[i:]...)
				break
			}
			d := sortedDead[j]
			end := i + sort.Search(len(p)-i, func(k int) bool { return chunkID(p[i+k]) >= d })
			out = append(out, p[i:end]...)
			for end < len(p) && chunkID(p[end]) == d {
				end++ // the dead chunk's entries (a posting list holds one)
			}
			i = end
		}
	}
	return out
}
