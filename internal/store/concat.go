package store

import (
	"encoding/binary"
)

// Joining encoded parts. A build that spills holds the field lengths and
// metadata of its chunks as encoded parts, one per spill, in increasing
// id order. ConcatDocLens and ConcatChunkMeta join such parts straight
// into the encoding of the whole, entry by entry, so that a build's
// commit holds the parts and the result, never the decoded chunks: the
// bytes are exactly those of encoding the joined, decoded parts.

// ConcatDocLens returns EncodeDocLensOf(JoinDocLens(decoded parts, dead))
// and the number of chunks it holds.
func ConcatDocLens(parts [][]byte, dead IDSet) ([]byte, int, error) {
	n := 0
	size := 0
	var last int64
	// Pass 1 counts the live chunks (the count comes first), pass 2 writes.
	each := func(write func(id int64, lens []uint64)) error {
		last, n = 0, 0
		var lens [NumFields]uint64
		for _, b := range parts {
			if len(b) == 0 {
				continue
			}
			r := uvarintReader{b: b}
			count := r.next()
			if r.bad || count > uint64(len(b)) {
				return ErrCorrupt
			}
			var id int64
			for range count {
				id += int64(r.next())
				for f := range lens {
					lens[f] = r.next()
				}
				if r.bad {
					return ErrCorrupt
				}
				if dead.Has(id) || (n > 0 && id <= last) {
					continue // as JoinDocLens: a tombstone, or out of order
				}
				if write != nil {
					write(id, lens[:])
				}
				last = id
				n++
			}
		}
		return nil
	}
	for _, b := range parts {
		size += len(b)
	}
	if err := each(nil); err != nil {
		return nil, 0, err
	}
	buf := binary.AppendUvarint(make([]byte, 0, size+binary.MaxVarintLen64), uint64(n))
	var prev int64
	err := each(func(id int64, lens []uint64) {
		buf = binary.AppendUvarint(buf, uint64(id-prev))
		prev = id
		for _, l := range lens {
			buf = binary.AppendUvarint(buf, uint64(uint16(l)))
		}
	})
	return buf, n, err
}

// metaEntry is one chunk of an encoded metadata part, its symbols a
// slice of the part.
type metaEntry struct {
	id, file           int64
	start, lines, kind uint64
	sym                []byte
}

// eachMetaEntry decodes an EncodeChunkMeta part entry by entry: fn gets
// the part's kinds and each entry, its symbols a slice of b.
func eachMetaEntry(b []byte, fn func(kinds []string, e metaEntry)) error {
	if len(b) == 0 {
		return nil
	}
	r := uvarintReader{b: b}
	nk := r.next()
	if r.bad || nk > uint64(len(b)) {
		return ErrCorrupt
	}
	kinds := make([]string, nk)
	for i := range kinds {
		l := r.next()
		if r.bad || l > uint64(len(r.b)) {
			return ErrCorrupt
		}
		kinds[i], r.b = string(r.b[:l]), r.b[l:]
	}
	n := r.next()
	if r.bad || n > uint64(len(b)) {
		return ErrCorrupt
	}
	// The entries come first, then their symbols back to back: a first
	// walk finds where the symbols start, a second gives the entries.
	body := r
	for range n {
		body.next()
		_, k := binary.Varint(body.b)
		if k <= 0 {
			return ErrCorrupt
		}
		body.b = body.b[k:]
		for range 4 {
			body.next()
		}
		if body.bad {
			return ErrCorrupt
		}
	}
	return emitMeta(r, n, kinds, body.b, fn)
}

// emitMeta walks n entries from r, whose symbols are syms back to back,
// calling fn with each.
func emitMeta(r uvarintReader, n uint64, kinds []string, syms []byte, fn func(kinds []string, e metaEntry)) error {
	var id, file int64
	off := uint64(0)
	for range n {
		id += int64(r.next())
		delta, k := binary.Varint(r.b)
		if k <= 0 {
			return ErrCorrupt
		}
		r.b = r.b[k:]
		file += delta
		start, lines, kind, sl := r.next(), r.next(), r.next(), r.next()
		if r.bad || kind >= uint64(len(kinds)) || off+sl > uint64(len(syms)) {
			return ErrCorrupt
		}
		fn(kinds, metaEntry{id: id, file: file, start: start, lines: lines, kind: kind, sym: syms[off : off+sl]})
		off += sl
	}
	if off != uint64(len(syms)) {
		return ErrCorrupt
	}
	return nil
}

// ConcatChunkMeta returns EncodeChunkMeta(JoinChunkMeta(decoded parts,
// dead)): the parts' live entries, with the kinds numbered in order of
// first appearance as EncodeChunkMeta numbers them.
func ConcatChunkMeta(parts [][]byte, dead IDSet) ([]byte, error) {
	kindIndex := map[string]uint64{}
	var kinds []string
	n, size := 0, 0
	for _, b := range parts {
		size += len(b)
		err := eachMetaEntry(b, func(pk []string, e metaEntry) {
			if dead.Has(e.id) {
				return
			}
			n++
			if _, ok := kindIndex[pk[e.kind]]; !ok {
				kindIndex[pk[e.kind]] = uint64(len(kinds))
				kinds = append(kinds, pk[e.kind])
			}
		})
		if err != nil {
			return nil, err
		}
	}
	buf := binary.AppendUvarint(make([]byte, 0, size+16), uint64(len(kinds)))
	for _, k := range kinds {
		buf = binary.AppendUvarint(buf, uint64(len(k)))
		buf = append(buf, k...)
	}
	buf = binary.AppendUvarint(buf, uint64(n))
	var prevID, prevFile int64
	for _, b := range parts {
		err := eachMetaEntry(b, func(pk []string, e metaEntry) {
			if dead.Has(e.id) {
				return
			}
			buf = binary.AppendUvarint(buf, uint64(e.id-prevID))
			buf = binary.AppendVarint(buf, e.file-prevFile)
			prevID, prevFile = e.id, e.file
			buf = binary.AppendUvarint(buf, e.start)
			buf = binary.AppendUvarint(buf, e.lines)
			buf = binary.AppendUvarint(buf, kindIndex[pk[e.kind]])
			buf = binary.AppendUvarint(buf, uint64(len(e.sym)))
		})
		if err != nil {
			return nil, err
		}
	}
	for _, b := range parts {
		err := eachMetaEntry(b, func(pk []string, e metaEntry) {
			if !dead.Has(e.id) {
				buf = append(buf, e.sym...)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}
