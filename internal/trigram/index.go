package trigram

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// Index maps trigram keys to the files holding them. Files are numbered
// 0..Len()-1 in the order they were given to Build. It is immutable and
// safe for concurrent use.
type Index struct {
	n    int
	keys []uint32 // the keys present, sorted
	offs []uint32 // len(keys)+1 offsets into data
	// data holds each key's posting list: the file numbers as uvarint
	// deltas from the previous one (from -1 for the first).
	data []byte
}

// Build inverts the encoded grams of files 0..len(grams)-1 (see
// EncodeKeys); a nil entry is a file with no grams, never a candidate.
func Build(grams [][]byte) (*Index, error) {
	last := make([]int32, NumKeys)
	for i := range last {
		last[i] = -1
	}
	size := make([]uint32, NumKeys)
	var err error
	for i, g := range grams {
		if g == nil {
			continue
		}
		if derr := DecodeKeys(g, func(k uint32) {
			size[k] += uint32(uvarintLen(uint64(int32(i) - last[k])))
			last[k] = int32(i)
		}); derr != nil && err == nil {
			err = fmt.Errorf("grams of file %d: %w", i, derr)
		}
	}
	if err != nil {
		return nil, err
	}
	ix := &Index{n: len(grams)}
	total := uint32(0)
	for k, s := range size {
		if s == 0 {
			continue
		}
		ix.keys = append(ix.keys, uint32(k))
		ix.offs = append(ix.offs, total)
		size[k] = total // from here on, the write cursor of k
		total += s
		last[k] = -1
	}
	ix.offs = append(ix.offs, total)
	ix.data = make([]byte, total)
	for i, g := range grams {
		if g == nil {
			continue
		}
		_ = DecodeKeys(g, func(k uint32) {
			size[k] += uint32(binary.PutUvarint(ix.data[size[k]:], uint64(int32(i)-last[k])))
			last[k] = int32(i)
		})
	}
	return ix, nil
}

func uvarintLen(v uint64) int {
	return (bits.Len64(v|1) + 6) / 7
}

// Len is the number of files.
func (ix *Index) Len() int { return ix.n }

// Size is the memory the posting lists take, in bytes.
func (ix *Index) Size() int { return len(ix.data) + 8*len(ix.keys) }

// list returns the posting list of key, nil when no file has it.
func (ix *Index) list(key uint32) []byte {
	i, ok := slices.BinarySearch(ix.keys, key)
	if !ok {
		return nil
	}
	return ix.data[ix.offs[i]:ix.offs[i+1]]
}

// Set is a set of file numbers.
type Set []uint64

// Has reports whether file i is in the set.
func (s Set) Has(i int) bool { return s[i>>6]&(1<<(uint(i)&63)) != 0 }

// Count is the number of files in the set.
func (s Set) Count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

func (ix *Index) newSet(full bool) Set {
	s := make(Set, (ix.n+63)/64)
	if full {
		for i := range s {
			s[i] = ^uint64(0)
		}
		if r := ix.n & 63; r != 0 {
			s[len(s)-1] = 1<<r - 1
		}
	}
	return s
}

// Candidates returns the files that may hold a match of q: every file
// that does is in the set.
func (ix *Index) Candidates(q *Query) Set {
	switch q.Op {
	case OpAll:
		return ix.newSet(true)
	case OpNone:
		return ix.newSet(false)
	case OpAnd:
		// Rarest lists first: the set empties soonest.
		keys := slices.Clone(q.Keys)
		slices.SortFunc(keys, func(a, b uint32) int { return len(ix.list(a)) - len(ix.list(b)) })
		s := ix.newSet(true)
		scratch := ix.newSet(false)
		for _, k := range keys {
			clear(scratch)
			ix.addList(scratch, k)
			empty := true
			for i := range s {
				s[i] &= scratch[i]
				empty = empty && s[i] == 0
			}
			if empty {
				return s
			}
		}
		for _, sub := range q.Sub {
			t := ix.Candidates(sub)
			for i := range s {
				s[i] &= t[i]
			}
		}
		return s
	default: // OpOr
		s := ix.newSet(false)
		for _, k := range q.Keys {
			ix.addList(s, k)
		}
		for _, sub := range q.Sub {
			t := ix.Candidates(sub)
			for i := range s {
				s[i] |= t[i]
			}
		}
		return s
	}
}

// addList adds the files of key's posting list to s.
func (ix *Index) addList(s Set, key uint32) {
	b := ix.list(key)
	f := int64(-1)
	for len(b) > 0 {
		d, w := binary.Uvarint(b)
		if w <= 0 {
			return // Build wrote it: cannot happen
		}
		b = b[w:]
		f += int64(d)
		s[f>>6] |= 1 << (uint64(f) & 63)
	}
}
