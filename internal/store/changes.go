package store

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// Changes: how a reader that keeps a collection in memory follows a run
// without reading the collection whole again. Every run that commits
// records what it changed of what readers keep (file rows, chunk lengths
// and metadata) as a Change, tied to the generation it replaced; a reader
// holding generation G asks for the changes since G and applies them in
// order. A forced rebuild, a run too large to record, or a record since
// dropped (a store keeps only the latest few) breaks the chain, and the
// reader reads everything, as it did before changes were recorded.

// Change is what one run changed of a collection's files, chunks and
// n-gram index.
// Applying it to the state of the generation it replaced gives the state
// of Generation: files RemovedFiles names go first, then Files are added
// (an id may be both, when the store reused a removed file's id); the
// chunks RemovedChunks names go, and the chunks of Lens and Meta, whose
// ids are higher than any before them, are added. The n-gram index loses
// the files RemovedGrams names and has those of Grams written (their
// grams themselves are not recorded).
type Change struct {
	Generation    string
	RemovedFiles  []int64     // increasing
	Files         []FileRow   // by id
	RemovedChunks []int64     // increasing
	Lens          *DocLens    // the added chunks, by id (no averages)
	Meta          []ChunkMeta // aligned with Lens.IDs
	RemovedGrams  []string    // by path
	Grams         []GramFile  // by path, without their grams
	// GramsReset: the run emptied the n-gram index before writing Grams;
	// a reader of it reads it whole.
	GramsReset bool
}

// MaxChangeChunks bounds the chunks a recorded Change adds or removes: a
// larger run costs readers about as much to apply as to read whole, and
// its record would weigh on every commit, so it is not recorded.
const MaxChangeChunks = 50_000

// EncodeChange writes a Change (its Generation aside, which a store keeps
// beside it) as: removed files, removed chunks (EncodeIDs each), the file
// rows (count; per row the id delta, the path, the language, the lines),
// EncodeDocLens and EncodeChunkMeta of the added chunks, each preceded by
// its length, then the removed n-gram files (count, paths) and the
// written ones (count; per file the path, size, modification time and
// whether it is binary), and 1 when GramsReset.
func EncodeChange(c *Change) []byte {
	buf := appendBlob(nil, EncodeIDs(c.RemovedFiles))
	buf = appendBlob(buf, EncodeIDs(c.RemovedChunks))
	buf = binary.AppendUvarint(buf, uint64(len(c.Files)))
	var prev int64
	for _, f := range c.Files {
		buf = binary.AppendUvarint(buf, uint64(f.ID-prev))
		prev = f.ID
		buf = appendBlob(buf, []byte(f.Path))
		buf = appendBlob(buf, []byte(f.Language))
		buf = binary.AppendUvarint(buf, uint64(max(f.Lines, 0)))
	}
	lens := c.Lens
	if lens == nil {
		lens = &DocLens{}
	}
	buf = appendBlob(buf, EncodeDocLensOf(lens))
	buf = appendBlob(buf, EncodeChunkMeta(c.Meta))
	buf = binary.AppendUvarint(buf, uint64(len(c.RemovedGrams)))
	for _, p := range c.RemovedGrams {
		buf = appendBlob(buf, []byte(p))
	}
	buf = binary.AppendUvarint(buf, uint64(len(c.Grams)))
	for _, g := range c.Grams {
		buf = appendBlob(buf, []byte(g.Path))
		buf = binary.AppendUvarint(buf, uint64(max(g.Size, 0)))
		buf = binary.AppendVarint(buf, g.MTimeNS)
		buf = binary.AppendUvarint(buf, boolFlag(g.Binary))
	}
	return binary.AppendUvarint(buf, boolFlag(c.GramsReset))
}

func boolFlag(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// DecodeChange reads what EncodeChange wrote.
func DecodeChange(b []byte) (*Change, error) {
	r := uvarintReader{b: b}
	c := &Change{}
	var err error
	if c.RemovedFiles, err = DecodeIDs(r.blob()); err != nil {
		return nil, err
	}
	if c.RemovedChunks, err = DecodeIDs(r.blob()); err != nil {
		return nil, err
	}
	n := r.next()
	if r.bad || n > uint64(len(r.b)) {
		return nil, ErrCorrupt
	}
	c.Files = make([]FileRow, n)
	var id int64
	for i := range c.Files {
		id += int64(r.next())
		c.Files[i] = FileRow{ID: id, Path: string(r.blob()), Language: string(r.blob()), Lines: int(r.next())}
	}
	lens, meta := r.blob(), r.blob()
	n = r.next()
	if r.bad || n > uint64(len(r.b)) {
		return nil, ErrCorrupt
	}
	c.RemovedGrams = make([]string, n)
	for i := range c.RemovedGrams {
		c.RemovedGrams[i] = string(r.blob())
	}
	n = r.next()
	if r.bad || n > uint64(len(r.b)) {
		return nil, ErrCorrupt
	}
	c.Grams = make([]GramFile, n)
	for i := range c.Grams {
		g := &c.Grams[i]
		g.Path = string(r.blob())
		g.Size = int64(r.next())
		mtime, k := binary.Varint(r.b)
		if k <= 0 {
			return nil, ErrCorrupt
		}
		r.b = r.b[k:]
		g.MTimeNS = mtime
		g.Binary = r.next() == 1
	}
	c.GramsReset = r.next() == 1
	if r.bad || len(r.b) != 0 {
		return nil, ErrCorrupt
	}
	if c.Lens, err = DecodeDocLens(lens); err != nil {
		return nil, err
	}
	if c.Meta, err = DecodeChunkMeta(meta); err != nil {
		return nil, err
	}
	if len(c.Meta) != c.Lens.Len() || !slices.IsSortedFunc(c.Files, func(a, b FileRow) int { return cmp.Compare(a.ID, b.ID) }) {
		return nil, ErrCorrupt
	}
	for i, m := range c.Meta {
		if m.ID != c.Lens.IDs[i] {
			return nil, ErrCorrupt
		}
	}
	return c, nil
}

// appendBlob appends b preceded by its length.
func appendBlob(buf, b []byte) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(b))), b...)
}

// blob reads what appendBlob wrote; nil (and bad) when it does not fit.
func (r *uvarintReader) blob() []byte {
	n := r.next()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}
