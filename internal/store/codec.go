package store

import (
	"encoding/binary"
	"errors"
	"slices"
	"sort"
)

// The storage formats of lore's inverted index, shared by every
// implementation: posting lists, the field lengths of every chunk and the
// metadata of every chunk, each as one compact blob of uvarints.

// EncodePostings writes a sorted list as: count, then per posting the id
// delta, a bit mask of the fields the term occurs in, and the frequency of
// each of those fields, all as uvarints. Most terms occur in one or two
// fields, so this is about half the size of writing every field, and a
// query reads and decodes half as much.
func EncodePostings(list []Posting) []byte {
	buf := make([]byte, 0, len(list)*4)
	buf = binary.AppendUvarint(buf, uint64(len(list)))
	var prev int64
	for _, p := range list {
		buf = binary.AppendUvarint(buf, uint64(p.ChunkID-prev))
		prev = p.ChunkID
		var mask uint64
		for f, n := range p.Freqs {
			if n != 0 {
				mask |= 1 << f
			}
		}
		buf = binary.AppendUvarint(buf, mask)
		for _, n := range p.Freqs {
			if n != 0 {
				buf = binary.AppendUvarint(buf, uint64(n))
			}
		}
	}
	return buf
}

var ErrCorrupt = errors.New("corrupt index data; rebuild with lore index --force")

func DecodePostings(b []byte) ([]Posting, error) {
	var list []Posting
	err := eachEncodedPosting(b, func(n int) { list = make([]Posting, 0, n) }, func(p Posting) {
		list = append(list, p)
	})
	return list, err
}

// AppendPostings decodes an encoded list onto the end of dst.
func AppendPostings(dst []Posting, b []byte) ([]Posting, error) {
	err := eachEncodedPosting(b, func(n int) { dst = slices.Grow(dst, n) }, func(p Posting) {
		dst = append(dst, p)
	})
	return dst, err
}

// DecodePostingsAt decodes a posting list resolved to positions in lens.
func DecodePostingsAt(b []byte, lens *DocLens) ([]PostingAt, error) {
	var list []PostingAt
	var r Resolver
	err := eachEncodedPosting(b, func(n int) {
		list = make([]PostingAt, 0, n)
		r = lens.Resolver(n)
	}, func(p Posting) {
		if pos, ok := r.Find(p.ChunkID); ok {
			list = append(list, PostingAt{Pos: pos, Freqs: p.Freqs})
		}
	})
	return list, err
}

// eachEncodedPosting decodes an encoded list: it calls start with the
// number of postings, then each with every posting in order.
func eachEncodedPosting(b []byte, start func(n int), each func(Posting)) error {
	if len(b) == 0 {
		return nil
	}
	r := uvarintReader{b: b}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return ErrCorrupt
	}
	start(int(n))
	var id int64
	for i := uint64(0); i < n; i++ {
		var p Posting
		id += int64(r.next())
		p.ChunkID = id
		mask := r.next()
		if mask >= 1<<NumFields {
			return ErrCorrupt
		}
		for f := 0; mask != 0; f, mask = f+1, mask>>1 {
			if mask&1 != 0 {
				p.Freqs[f] = uint16(r.next())
			}
		}
		if r.bad {
			return ErrCorrupt
		}
		each(p)
	}
	return nil
}

func EncodeDocLens(all map[int64][NumFields]uint16) []byte {
	ids := make([]int64, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	buf := binary.AppendUvarint(make([]byte, 0, len(ids)*7), uint64(len(ids)))
	var prev int64
	for _, id := range ids {
		buf = binary.AppendUvarint(buf, uint64(id-prev))
		prev = id
		for _, l := range all[id] {
			buf = binary.AppendUvarint(buf, uint64(l))
		}
	}
	return buf
}

// EncodeDocLensOf writes the lengths of d, whose ids increase, exactly as
// EncodeDocLens writes them from a map.
func EncodeDocLensOf(d *DocLens) []byte {
	buf := binary.AppendUvarint(make([]byte, 0, 1+d.Len()*7), uint64(d.Len()))
	var prev int64
	for i, id := range d.IDs {
		buf = binary.AppendUvarint(buf, uint64(id-prev))
		prev = id
		for _, l := range d.Lens[i] {
			buf = binary.AppendUvarint(buf, uint64(l))
		}
	}
	return buf
}

func DecodeDocLens(b []byte) (*DocLens, error) {
	d := &DocLens{}
	if len(b) == 0 {
		return d, nil
	}
	r := uvarintReader{b: b}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return nil, ErrCorrupt
	}
	d.IDs = make([]int64, n)
	d.Lens = make([][NumFields]uint16, n)
	var id int64
	var sum [NumFields]float64
	for i := range d.IDs {
		id += int64(r.next())
		d.IDs[i] = id
		for f := 0; f < NumFields; f++ {
			d.Lens[i][f] = uint16(r.next())
			sum[f] += float64(d.Lens[i][f])
		}
	}
	if r.bad {
		return nil, ErrCorrupt
	}
	for f := range sum {
		if n > 0 {
			d.Avg[f] = sum[f] / float64(n)
		}
		if d.Avg[f] == 0 {
			d.Avg[f] = 1
		}
	}
	return d, nil
}

type uvarintReader struct {
	b   []byte
	bad bool
}

func (r *uvarintReader) next() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// EncodeChunkMeta writes metadata sorted by id as: the number of kinds and
// each kind (length, bytes); the number of chunks; per chunk the id delta,
// the file id as a zigzag delta from the previous chunk's, the start line,
// the line count, the kind's index and the length of its symbols; then all
// symbols back to back, so decoding makes one string of them.
func EncodeChunkMeta(all []ChunkMeta) []byte {
	kindIndex := map[string]int{}
	var kinds []string
	for _, m := range all {
		if _, ok := kindIndex[m.Kind]; !ok {
			kindIndex[m.Kind] = len(kinds)
			kinds = append(kinds, m.Kind)
		}
	}
	buf := binary.AppendUvarint(make([]byte, 0, 16+len(all)*8), uint64(len(kinds)))
	for _, k := range kinds {
		buf = binary.AppendUvarint(buf, uint64(len(k)))
		buf = append(buf, k...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(all)))
	var prevID, prevFile int64
	for _, m := range all {
		buf = binary.AppendUvarint(buf, uint64(m.ID-prevID))
		buf = binary.AppendVarint(buf, m.FileID-prevFile)
		prevID, prevFile = m.ID, m.FileID
		buf = binary.AppendUvarint(buf, uint64(max(m.StartLine, 0)))
		buf = binary.AppendUvarint(buf, uint64(max(m.EndLine-m.StartLine, 0)))
		buf = binary.AppendUvarint(buf, uint64(kindIndex[m.Kind]))
		buf = binary.AppendUvarint(buf, uint64(len(m.Symbols)))
	}
	for _, m := range all {
		buf = append(buf, m.Symbols...)
	}
	return buf
}

func DecodeChunkMeta(b []byte) ([]ChunkMeta, error) {
	if len(b) == 0 {
		return nil, nil
	}
	r := uvarintReader{b: b}
	nk := r.next()
	if r.bad || nk > uint64(len(b)) {
		return nil, ErrCorrupt
	}
	kinds := make([]string, nk)
	for i := range kinds {
		l := r.next()
		if r.bad || l > uint64(len(r.b)) {
			return nil, ErrCorrupt
		}
		kinds[i], r.b = string(r.b[:l]), r.b[l:]
	}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return nil, ErrCorrupt
	}
	out := make([]ChunkMeta, n)
	symLens := make([]uint64, n)
	var id, file int64
	for i := range out {
		id += int64(r.next())
		delta, k := binary.Varint(r.b)
		if k <= 0 {
			return nil, ErrCorrupt
		}
		r.b = r.b[k:]
		file += delta
		start := r.next()
		lines := r.next()
		kind := r.next()
		symLens[i] = r.next()
		if r.bad || kind >= nk {
			return nil, ErrCorrupt
		}
		out[i] = ChunkMeta{ID: id, FileID: file, StartLine: int32(start), EndLine: int32(start + lines), Kind: kinds[kind]}
	}
	symbols := string(r.b) // one allocation for every chunk's symbols
	off := uint64(0)
	for i, l := range symLens {
		if off+l > uint64(len(symbols)) {
			return nil, ErrCorrupt
		}
		out[i].Symbols = symbols[off : off+l]
		off += l
	}
	if off != uint64(len(symbols)) {
		return nil, ErrCorrupt
	}
	return out, nil
}
