package store

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/lore-dev/lore/internal/symbols"
)

// The storage format of a file's symbols (what it defines and refers to),
// shared by every implementation: one blob per file, written with the
// file's chunks and replaced or removed with them.
//
// Layout, all integers uvarints: a format byte, the file's distinct strings
// (count, then length and bytes of each), then the definitions, the
// references and the Go method-set facts, each a count followed by its
// records. Strings are written as indexes into the table: names, kinds and
// qualifiers repeat within a file, and decoding shares one string per
// distinct value. Lines are written relative to a neighbour so that most fit
// in one byte.

// symbolsFormat is the first byte of every encoded blob.
const symbolsFormat = 1

// maxSymbolRecords bounds the counts a blob may declare, so that a corrupt
// blob cannot make the decoder allocate without bound.
const maxSymbolRecords = 1 << 24

// FileSymbols is one file's symbols as a collection holds them.
type FileSymbols struct {
	FileID   int64
	Path     string // slash-separated, relative to the collection's root
	Language string
	Symbols  symbols.File
}

// symbolEncoder builds a blob.
type symbolEncoder struct {
	strings map[string]uint64
	table   []string
	body    []byte
}

func (e *symbolEncoder) str(s string) {
	i, ok := e.strings[s]
	if !ok {
		i = uint64(len(e.table))
		e.strings[s] = i
		e.table = append(e.table, s)
	}
	e.uint(i)
}

func (e *symbolEncoder) uint(v uint64) { e.body = binary.AppendUvarint(e.body, v) }

func (e *symbolEncoder) int(v int) { e.body = binary.AppendVarint(e.body, int64(v)) }

func (e *symbolEncoder) bool(b bool) {
	if b {
		e.uint(1)
	} else {
		e.uint(0)
	}
}

// EncodeSymbols writes a file's symbols as one blob (nil for a file that
// has none).
func EncodeSymbols(f symbols.File) []byte {
	if f.Empty() {
		return nil
	}
	e := &symbolEncoder{strings: map[string]uint64{"": 0}, table: []string{""},
		body: make([]byte, 0, 16*(len(f.Definitions)+len(f.References))+64)}
	e.uint(uint64(len(f.Definitions)))
	for _, d := range f.Definitions {
		e.str(d.Name)
		e.str(d.Kind)
		e.str(d.Container)
		e.int(d.Parent)
		e.str(d.Signature)
		e.int(d.StartLine)
		e.int(d.EndLine - d.StartLine)
		e.int(d.NameLine - d.StartLine)
		e.int(d.Chunk)
	}
	e.uint(uint64(len(f.References)))
	prevLine, prevChunk := 0, 0
	for _, r := range f.References {
		e.str(r.Name)
		e.str(r.Kind)
		e.str(r.Qualifier)
		e.str(r.Target)
		e.str(r.Alias)
		e.str(r.Source)
		e.int(r.Line - prevLine)
		e.int(r.Args)
		e.int(r.Enclosing)
		e.int(r.Chunk - prevChunk)
		prevLine, prevChunk = r.Line, r.Chunk
	}
	e.uint(uint64(len(f.GoMethods)))
	for _, m := range f.GoMethods {
		e.str(m.Receiver)
		e.bool(m.Pointer)
		e.str(m.Name)
		e.int(m.Arity)
		e.int(m.Line)
	}
	e.uint(uint64(len(f.GoInterfaces)))
	for _, i := range f.GoInterfaces {
		e.str(i.Name)
		e.bool(i.TypeSet)
		e.int(i.Line)
		e.uint(uint64(len(i.Methods)))
		for _, m := range i.Methods {
			e.str(m.Name)
			e.int(m.Arity)
		}
		e.uint(uint64(len(i.Embeds)))
		for _, name := range i.Embeds {
			e.str(name)
		}
	}
	e.uint(uint64(len(f.GoTypes)))
	for _, t := range f.GoTypes {
		e.str(t.Name)
		e.int(t.Line)
		e.uint(uint64(len(t.Embeds)))
		for _, em := range t.Embeds {
			e.str(em.Name)
			e.bool(em.Pointer)
		}
	}

	out := make([]byte, 0, len(e.body)+8*len(e.table)+8)
	out = append(out, symbolsFormat)
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.body...)
}

// symbolDecoder reads a blob; the first error sticks.
type symbolDecoder struct {
	b     []byte
	table []string
	err   error
}

func (d *symbolDecoder) fail() {
	if d.err == nil {
		d.err = ErrCorrupt
	}
	d.b = nil
}

func (d *symbolDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *symbolDecoder) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 || v > 1<<31 || v < -(1<<31) {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *symbolDecoder) bool() bool { return d.uint() == 1 }

func (d *symbolDecoder) str() string {
	i := d.uint()
	if i >= uint64(len(d.table)) {
		d.fail()
		return ""
	}
	return d.table[i]
}

// index reads a reference to the string table, checked: 0, with d.err
// set, when it is out of range.
func (d *symbolDecoder) index() int {
	i := d.uint()
	if i >= uint64(len(d.table)) {
		d.fail()
		return 0
	}
	return int(i)
}

// count reads a record count, which each record's first byte bounds.
func (d *symbolDecoder) count() int {
	n := d.uint()
	if n > maxSymbolRecords || n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

// openSymbols starts reading a blob written by EncodeSymbols: nil for an
// empty blob (a file without symbols), ErrCorrupt for an unknown format.
func openSymbols(b []byte) (*symbolDecoder, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] != symbolsFormat {
		return nil, fmt.Errorf("symbols format %d: %w", b[0], ErrCorrupt)
	}
	return &symbolDecoder{b: b[1:]}, nil
}

// tableString reads the next string of the string table (the slice
// aliases the blob); false, with d.err set, when the table is malformed.
func (d *symbolDecoder) tableString() ([]byte, bool) {
	l := d.uint()
	if d.err != nil || l > uint64(len(d.b)) {
		d.fail()
		return nil, false
	}
	s := d.b[:l]
	d.b = d.b[l:]
	return s, true
}

// SymbolStrings calls fn with each distinct string of a blob written by
// EncodeSymbols (names, kinds, qualifiers, import targets, signatures),
// without decoding its records: what a reader that only looks for import
// targets written as paths needs, at a fraction of DecodeSymbols' cost.
// The slices alias b. A malformed blob is ErrCorrupt.
func SymbolStrings(b []byte, fn func(s []byte)) error {
	d, err := openSymbols(b)
	if d == nil {
		return err
	}
	for range d.count() {
		s, ok := d.tableString()
		if !ok {
			break
		}
		fn(s)
	}
	if d.err != nil {
		return fmt.Errorf("symbols string table: %w", d.err)
	}
	return nil
}

// DecodeSymbols reads a blob written by EncodeSymbols; nil or empty is a
// file without symbols. A malformed blob is ErrCorrupt.
func DecodeSymbols(b []byte) (symbols.File, error) { return decodeSymbols(b, true, nil) }

// DecodeSymbolsKeeping is DecodeSymbols with only the references of the
// given kinds: the definitions and Go facts whole, the other references
// read past. It is what a reader of Go method sets and inheritance edges
// needs (the files implementing a type), at a fraction of DecodeSymbols'
// cost where a file's references are most of its blob.
func DecodeSymbolsKeeping(b []byte, kinds ...string) (symbols.File, error) {
	return decodeSymbols(b, false, kinds)
}

// decodeSymbols reads a blob with every reference (all) or those of kinds.
func decodeSymbols(b []byte, all bool, kinds []string) (symbols.File, error) {
	var f symbols.File
	d, err := openSymbols(b)
	if d == nil {
		return f, err
	}
	n := d.count()
	d.table = make([]string, 0, n)
	for range n {
		s, ok := d.tableString()
		if !ok {
			break
		}
		d.table = append(d.table, string(s))
	}
	if n := d.count(); n > 0 {
		f.Definitions = make([]symbols.Definition, n)
		for i := range f.Definitions {
			def := &f.Definitions[i]
			def.Name, def.Kind, def.Container = d.str(), d.str(), d.str()
			def.Parent = d.int()
			def.Signature = d.str()
			def.StartLine = d.int()
			def.EndLine = def.StartLine + d.int()
			def.NameLine = def.StartLine + d.int()
			def.Chunk = d.int()
		}
	}
	if n := d.count(); n > 0 {
		if all {
			f.References = make([]symbols.Reference, 0, n)
		}
		line, chunk := 0, 0
		for range n {
			name, kind, qual, target, alias, source := d.index(), d.index(), d.index(), d.index(), d.index(), d.index()
			line += d.int()
			args, enclosing := d.int(), d.int()
			chunk += d.int()
			if d.err != nil {
				break
			}
			t := d.table // the indexes are in range: d.err is nil
			if all || slices.Contains(kinds, t[kind]) {
				f.References = append(f.References, symbols.Reference{Name: t[name], Kind: t[kind], Qualifier: t[qual],
					Target: t[target], Alias: t[alias], Source: t[source],
					Line: line, Args: args, Enclosing: enclosing, Chunk: chunk})
			}
		}
	}
	if n := d.count(); n > 0 {
		f.GoMethods = make([]symbols.GoMethod, n)
		for i := range f.GoMethods {
			m := &f.GoMethods[i]
			m.Receiver = d.str()
			m.Pointer = d.bool()
			m.Name = d.str()
			m.Arity = d.int()
			m.Line = d.int()
		}
	}
	if n := d.count(); n > 0 {
		f.GoInterfaces = make([]symbols.GoInterface, n)
		for i := range f.GoInterfaces {
			it := &f.GoInterfaces[i]
			it.Name = d.str()
			it.TypeSet = d.bool()
			it.Line = d.int()
			if k := d.count(); k > 0 {
				it.Methods = make([]symbols.GoMethodSpec, k)
				for j := range it.Methods {
					it.Methods[j] = symbols.GoMethodSpec{Name: d.str(), Arity: d.int()}
				}
			}
			if k := d.count(); k > 0 {
				it.Embeds = make([]string, k)
				for j := range it.Embeds {
					it.Embeds[j] = d.str()
				}
			}
		}
	}
	if n := d.count(); n > 0 {
		f.GoTypes = make([]symbols.GoType, n)
		for i := range f.GoTypes {
			t := &f.GoTypes[i]
			t.Name = d.str()
			t.Line = d.int()
			if k := d.count(); k > 0 {
				t.Embeds = make([]symbols.GoEmbed, k)
				for j := range t.Embeds {
					t.Embeds[j] = symbols.GoEmbed{Name: d.str(), Pointer: d.bool()}
				}
			}
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail() // trailing bytes
	}
	if d.err != nil {
		return symbols.File{}, d.err
	}
	return f, nil
}

// ScanReferences calls fn with each reference of a blob written by
// EncodeSymbols whose kind keep accepts, decoding nothing else: the
// definitions are skipped and only the kept references' strings are
// made. It is what a reader after one kind of edge needs (the files
// implementing a type), at a fraction of DecodeSymbols' cost. Line and
// Chunk are as DecodeSymbols reads them. A blob malformed in what it reads
// (the Go facts after the references are not read) is ErrCorrupt.
func ScanReferences(b []byte, keep func(kind []byte) bool, fn func(symbols.Reference)) error {
	d, err := openSymbols(b)
	if d == nil {
		return err
	}
	n := d.count()
	table := make([][]byte, 0, n)
	for range n {
		s, ok := d.tableString()
		if !ok {
			break
		}
		table = append(table, s)
	}
	raw := func() []byte {
		i := d.uint()
		if i >= uint64(len(table)) {
			d.fail()
			return nil
		}
		return table[i]
	}
	for range d.count() {
		// Name, Kind, Container, Parent, Signature, StartLine, the end's,
		// the name's and the chunk's offsets: nine integers.
		for range 9 {
			if _, n := binary.Varint(d.b); n > 0 {
				d.b = d.b[n:]
			} else {
				d.fail()
			}
		}
	}
	line, chunk := 0, 0
	for range d.count() {
		name, kind, qual, target, alias, source := raw(), raw(), raw(), raw(), raw(), raw()
		line += d.int()
		args, enclosing := d.int(), d.int()
		chunk += d.int()
		if d.err != nil {
			break
		}
		if keep(kind) {
			fn(symbols.Reference{Name: string(name), Kind: string(kind), Qualifier: string(qual),
				Target: string(target), Alias: string(alias), Source: string(source),
				Line: line, Args: args, Enclosing: enclosing, Chunk: chunk})
		}
	}
	return d.err
}
