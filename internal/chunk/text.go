package chunk

import (
	"bytes"
	"sort"
)

// text is a file's content indexed by line. Lines are numbered from 0 here
// and converted to 1-based numbers only when chunks are built.
type text struct {
	src []byte
	// starts[i] is the byte offset of line i; starts[lineCount()] is the end
	// of the last line including its newline.
	starts []int
}

func newText(src []byte) *text {
	d := &text{src: src}
	if len(src) == 0 {
		return d
	}
	d.starts = make([]int, 0, bytes.Count(src, []byte{'\n'})+2)
	d.starts = append(d.starts, 0)
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			d.starts = append(d.starts, i+1)
		}
	}
	d.starts = append(d.starts, len(src))
	return d
}

func (d *text) lineCount() int {
	if len(d.starts) == 0 {
		return 0
	}
	return len(d.starts) - 1
}

// line returns line i without its newline.
func (d *text) line(i int) []byte {
	l := d.src[d.starts[i]:d.starts[i+1]]
	return bytes.TrimSuffix(l, []byte{'\n'})
}

// content returns lines start..end (inclusive) joined with "\n", without a
// trailing newline.
func (d *text) content(start, end int) string {
	return string(bytes.TrimSuffix(d.src[d.starts[start]:d.starts[end+1]], []byte{'\n'}))
}

// size is the number of bytes of lines start..end, newlines included.
func (d *text) size(start, end int) int {
	return d.starts[end+1] - d.starts[start]
}

func (d *text) blank(i int) bool {
	return len(bytes.TrimSpace(d.line(i))) == 0
}

// fits reports whether lines start..end stay within the given bounds.
func (d *text) fits(start, end, maxLines, maxBytes int) bool {
	return end-start+1 <= maxLines && d.size(start, end) <= maxBytes
}

// span is a chunk in the making: a 0-based inclusive line range with what
// it defines.
type span struct {
	start, end int
	kind       string
	symbols    []string
	signature  string
	crumb      string
	doc        string

	def     bool // a definition: merged with neighbours only when small
	neutral bool // only comments: takes no part in deciding a merged kind
	fixed   bool // a piece of a split definition: never merged
	small   bool // may merge with small neighbours (set by tidy)
}

func (s span) lines() int { return s.end - s.start + 1 }

// chunks turns spans into chunks that cover every line exactly once: spans
// are ordered, overlaps are clipped (the earlier span keeps the shared
// lines) and uncovered lines join the span before them (or, at the top of
// the file, the first span).
func (d *text) chunks(spans []span) []Chunk {
	n := d.lineCount()
	if n == 0 {
		return nil
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	kept := spans[:0]
	for _, s := range spans {
		if s.start < 0 {
			s.start = 0
		}
		if s.end >= n {
			s.end = n - 1
		}
		if len(kept) > 0 {
			prev := &kept[len(kept)-1]
			if s.start <= prev.end {
				if s.end <= prev.end {
					// Wholly inside the previous span: keep its names there.
					prev.symbols = appendNew(prev.symbols, s.symbols...)
					continue
				}
				s.start = prev.end + 1
			}
		}
		if s.start > s.end {
			continue
		}
		kept = append(kept, s)
	}
	if len(kept) == 0 {
		kept = append(kept, span{start: 0, end: n - 1, kind: KindBlock})
	}
	kept[0].start = 0
	for i := range kept {
		if i+1 < len(kept) {
			kept[i].end = kept[i+1].start - 1
		} else {
			kept[i].end = n - 1
		}
	}
	out := make([]Chunk, len(kept))
	for i, s := range kept {
		kind := s.kind
		if kind == "" {
			kind = KindBlock
		}
		symbols := s.symbols
		if symbols == nil {
			symbols = []string{}
		}
		out[i] = Chunk{
			StartLine:  s.start + 1,
			EndLine:    s.end + 1,
			Kind:       kind,
			Symbols:    symbols,
			Signature:  s.signature,
			Breadcrumb: s.crumb,
			DocComment: s.doc,
			Content:    d.content(s.start, s.end),
		}
	}
	return out
}

// appendNew appends the names not already in list.
func appendNew(list []string, names ...string) []string {
	for _, name := range names {
		if name == "" {
			continue
		}
		seen := false
		for _, have := range list {
			if have == name {
				seen = true
				break
			}
		}
		if !seen {
			list = append(list, name)
		}
	}
	return list
}

// paragraphs cuts lines start..end into runs of non-blank lines, each with
// the blank lines that follow it (leading blank lines join the first run).
func (d *text) paragraphs(start, end int) [][2]int {
	var out [][2]int
	i := start
	for i <= end {
		j := i
		for j <= end && d.blank(j) { // leading blank lines
			j++
		}
		for j <= end && !d.blank(j) {
			j++
		}
		for j <= end && d.blank(j) {
			j++
		}
		out = append(out, [2]int{i, j - 1})
		i = j
	}
	return out
}

// pack groups consecutive segments (0-based inclusive line ranges that
// together cover a range) into pieces within the bounds. A segment that is
// too big on its own is cut at blank lines, and a paragraph still too big
// is cut into slices of whole lines.
func (d *text) pack(segs [][2]int, maxLines, maxBytes int) [][2]int {
	var out [][2]int
	for _, seg := range segs {
		if !d.fits(seg[0], seg[1], maxLines, maxBytes) {
			paras := d.paragraphs(seg[0], seg[1])
			if len(paras) > 1 {
				for _, p := range d.pack(paras, maxLines, maxBytes) {
					out = appendPiece(d, out, p, maxLines, maxBytes)
				}
				continue
			}
			for _, p := range d.slice(seg[0], seg[1], maxLines, maxBytes) {
				out = appendPiece(d, out, p, maxLines, maxBytes)
			}
			continue
		}
		out = appendPiece(d, out, seg, maxLines, maxBytes)
	}
	return out
}

// appendPiece adds p to out, joining it to the last piece when both fit.
func appendPiece(d *text, out [][2]int, p [2]int, maxLines, maxBytes int) [][2]int {
	if len(out) > 0 {
		last := &out[len(out)-1]
		if last[1]+1 == p[0] && d.fits(last[0], p[1], maxLines, maxBytes) {
			last[1] = p[1]
			return out
		}
	}
	return append(out, p)
}

// slice cuts lines start..end into consecutive pieces of whole lines within
// the bounds (a single line longer than maxBytes is a piece of its own).
func (d *text) slice(start, end, maxLines, maxBytes int) [][2]int {
	var out [][2]int
	i := start
	for i <= end {
		j := i
		for j+1 <= end && d.fits(i, j+1, maxLines, maxBytes) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j + 1
	}
	return out
}

// splitBlocks is the fallback chunking: blank-line-separated blocks, merged
// while small and cut when too long.
func splitBlocks(d *text) []span {
	n := d.lineCount()
	pieces := d.pack(d.paragraphs(0, n-1), mergeMaxLines, mergeMaxBytes)
	out := make([]span, len(pieces))
	for i, p := range pieces {
		out[i] = span{start: p[0], end: p[1], kind: KindBlock}
	}
	return out
}
