package sqlite

import (
	"bufio"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"

	"github.com/lore-dev/lore/internal/store"
)

// A run's memory budget. A run gathers the posting lists of the chunks it
// writes in memory (postingsDelta.added); once they are estimated to
// exceed the run's budget they are spilled: handed to a goroutine that
// encodes them, term by term in term order, and appends them to a
// temporary file of the run as one part, while the writer goes on with an
// empty map (one spill at a time: the next waits for it). At commit the
// parts are read back side by side, in term order, each term's parts
// joined oldest first. Chunk ids grow through the run, so every part holds
// higher ids than the one before: joining concatenates the encoded lists
// (see joinEncoded), and a term's joined list is exactly the list a run
// without a budget writes. Only the parts' read buffers and one term's
// list are in memory at a time.
//
// The file lives in the system's temporary folder, where SQLite kept its
// own temporary tables, outside the index; on systems that allow it, it
// is unlinked as soon as it is made, so nothing outlives the run, not even
// a crash. It is never part of the index and never seen by readers.

// spillFile is the parts a run spilled, one after the other in one file.
type spillFile struct {
	f    *os.File
	ends []int64 // where each part written so far ends
	size int64
	busy chan struct{} // closed when the spill under way is written
	err  error         // the first spill that failed
	name string
	gone bool // the file was unlinked at once
}

// newSpillFile makes the temporary file of a run's parts.
func newSpillFile() (*spillFile, error) {
	f, err := os.CreateTemp("", "lore-postings-*")
	if err != nil {
		return nil, fmt.Errorf("making the run's spill file: %w", err)
	}
	s := &spillFile{f: f, name: f.Name()}
	if runtime.GOOS != "windows" && os.Remove(f.Name()) == nil {
		s.gone = true
	}
	return s, nil
}

// wait waits for the spill under way and returns the first error of any.
func (s *spillFile) wait() error {
	if s.busy != nil {
		<-s.busy
		s.busy = nil
	}
	return s.err
}

// close waits for the spill under way and removes the file.
func (s *spillFile) close() {
	s.wait()
	s.f.Close()
	if !s.gone {
		os.Remove(s.name)
	}
}

// start writes lists as the next part, in the background.
func (s *spillFile) start(lists postingLists) error {
	if err := s.wait(); err != nil {
		return err
	}
	busy := make(chan struct{})
	s.busy = busy
	go func() {
		defer close(busy)
		if err := s.write(lists); err != nil {
			s.err = fmt.Errorf("spilling postings: %w", err)
		}
	}()
	return nil
}

// write appends lists as one part: for each term in order, the term, the
// last chunk id of its list and the list encoded, each behind its length.
func (s *spillFile) write(lists postingLists) error {
	w := bufio.NewWriterSize(io.NewOffsetWriter(s.f, s.size), 256<<10)
	var n int64
	var head []byte
	for _, term := range sortedTerms(lists) {
		list := *lists[term]
		if len(list) == 0 {
			continue
		}
		sortPostings(list)
		data := store.EncodePostings(list)
		head = binary.AppendUvarint(head[:0], uint64(len(term)))
		head = append(head, term...)
		head = binary.AppendUvarint(head, uint64(list[len(list)-1].ChunkID))
		head = binary.AppendUvarint(head, uint64(len(data)))
		w.Write(head)
		w.Write(data)
		n += int64(len(head) + len(data))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	s.size += n
	s.ends = append(s.ends, s.size)
	return nil
}

// spillPostings moves the run's gathered lists into a new part.
func (t *tx) spillPostings(ctx context.Context) error {
	d := t.delta
	if len(d.added) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if d.spill == nil {
		s, err := newSpillFile()
		if err != nil {
			return err
		}
		d.spill = s
	}
	if err := d.spill.start(d.added); err != nil {
		return err
	}
	d.parts++
	d.added = postingLists{}
	d.spillChunks()
	d.size = 0
	return nil
}

// encodedList is one term's list, encoded, with its length.
type encodedList struct {
	term string
	df   int
	data []byte
}

// eachList calls put with each term's list of the run, encoded, in term
// order, leaving out the chunks in own (added and removed by the run);
// terms left with no posting are skipped. The lists are read and encoded
// on a goroutine of their own while put writes them.
func (t *tx) eachList(ctx context.Context, own store.IDSet, put func(term string, df int, data []byte) error) error {
	d := t.delta
	if d.parts > 0 {
		if err := t.spillPostings(ctx); err != nil {
			return err
		}
		if err := d.spill.wait(); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lists := make(chan encodedList, 256)
	send := func(e encodedList) error {
		select {
		case lists <- e:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var produced error
	go func() {
		defer close(lists)
		if d.parts == 0 {
			produced = eachAdded(ctx, d.added, send)
		} else {
			produced = d.spill.join(own, send)
		}
	}()
	var err error
	for e := range lists {
		if err == nil {
			if err = put(e.term, e.df, e.data); err != nil {
				cancel() // the producer stops; what it sent is drained
			}
		}
	}
	if err == nil {
		err = produced
	}
	if err == nil {
		err = ctx.Err()
	}
	if d.spill != nil {
		d.spill.close()
		d.spill = nil
	}
	d.parts = 0
	return err
}

// eachAdded sends the lists gathered in memory, encoded, in term order.
func eachAdded(ctx context.Context, added postingLists, send func(encodedList) error) error {
	for _, term := range sortedTerms(added) {
		list := *added[term]
		if len(list) == 0 {
			continue
		}
		sortPostings(list)
		if err := send(encodedList{term, len(list), store.EncodePostings(list)}); err != nil {
			return err
		}
	}
	return nil
}

// partReader reads the records of one part back.
type partReader struct {
	r    *bufio.Reader
	part int
	// the current record
	term string
	last int64
	data []byte
}

// next reads the next record; io.EOF after the last.
func (p *partReader) next() error {
	n, err := binary.ReadUvarint(p.r)
	if err != nil {
		return err
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(p.r, buf); err != nil {
		return unexpected(err)
	}
	p.term = string(buf)
	last, err := binary.ReadUvarint(p.r)
	if err != nil {
		return unexpected(err)
	}
	p.last = int64(last)
	if n, err = binary.ReadUvarint(p.r); err != nil {
		return unexpected(err)
	}
	p.data = make([]byte, n)
	if _, err := io.ReadFull(p.r, p.data); err != nil {
		return unexpected(err)
	}
	return nil
}

func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// partHeap orders the parts by their current term, then by part.
type partHeap []*partReader

func (h partHeap) Len() int { return len(h) }
func (h partHeap) Less(i, j int) bool {
	if h[i].term != h[j].term {
		return h[i].term < h[j].term
	}
	return h[i].part < h[j].part
}
func (h partHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *partHeap) Push(x any)   { *h = append(*h, x.(*partReader)) }
func (h *partHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// join reads the parts side by side and sends each term's joined list,
// leaving out the chunks in own.
func (s *spillFile) join(own store.IDSet, send func(encodedList) error) error {
	h := make(partHeap, 0, len(s.ends))
	var start int64
	for i, end := range s.ends {
		p := &partReader{r: bufio.NewReaderSize(io.NewSectionReader(s.f, start, end-start), 64<<10), part: i}
		start = end
		switch err := p.next(); {
		case err == io.EOF:
			continue
		case err != nil:
			return fmt.Errorf("reading spilled postings: %w", err)
		}
		h = append(h, p)
	}
	heap.Init(&h)
	var group []*partReader // the parts holding the current term, in part order
	var list []store.Posting
	for len(h) > 0 {
		group = group[:0]
		term := h[0].term
		for len(h) > 0 && h[0].term == term {
			group = append(group, heap.Pop(&h).(*partReader))
		}
		var e encodedList
		var err error
		if len(own) == 0 {
			e, err = joinEncoded(term, group)
		} else {
			list, e, err = joinDecoded(term, group, own, list[:0])
		}
		if err != nil {
			return err
		}
		if e.df > 0 {
			if err := send(e); err != nil {
				return err
			}
		}
		for _, p := range group {
			switch err := p.next(); {
			case err == io.EOF:
			case err != nil:
				return fmt.Errorf("reading spilled postings: %w", err)
			default:
				heap.Push(&h, p)
			}
		}
	}
	return nil
}

// joinEncoded concatenates the encoded lists of one term, oldest part
// first, without decoding them: the count becomes the sum of the counts,
// and each later list's first id, stored as a gap from 0, becomes a gap
// from the list before's last id. The result is exactly what
// store.EncodePostings makes of the joined list.
func joinEncoded(term string, group []*partReader) (encodedList, error) {
	total, size := 0, 0
	for _, p := range group {
		n, k := binary.Uvarint(p.data)
		if k <= 0 {
			return encodedList{}, fmt.Errorf("spilled postings of %q: %w", term, store.ErrCorrupt)
		}
		total += int(n)
		size += len(p.data)
	}
	out := make([]byte, 0, size+binary.MaxVarintLen64)
	out = binary.AppendUvarint(out, uint64(total))
	var prev int64
	for i, p := range group {
		n, k := binary.Uvarint(p.data)
		body := p.data[k:]
		if n == 0 {
			continue
		}
		if i > 0 {
			first, k := binary.Uvarint(body)
			if k <= 0 || int64(first) <= prev {
				return encodedList{}, fmt.Errorf("spilled postings of %q: %w", term, store.ErrCorrupt)
			}
			out = binary.AppendUvarint(out, first-uint64(prev))
			body = body[k:]
		}
		out = append(out, body...)
		prev = p.last
	}
	return encodedList{term, total, out}, nil
}

// joinDecoded joins the lists of one term through their postings, leaving
// out the chunks in own; it returns buf grown, for the next term.
func joinDecoded(term string, group []*partReader, own store.IDSet, buf []store.Posting) ([]store.Posting, encodedList, error) {
	var err error
	for _, p := range group {
		n := len(buf)
		if buf, err = store.AppendPostings(buf, p.data); err != nil {
			return buf, encodedList{}, fmt.Errorf("spilled postings of %q: %w", term, err)
		}
		buf = append(buf[:n], dropChunks(buf[n:], own)...)
	}
	if len(buf) == 0 {
		return buf, encodedList{term: term}, nil
	}
	return buf, encodedList{term, len(buf), store.EncodePostings(buf)}, nil
}

// dropChunks filters list in place, keeping the postings whose chunk is
// not in dead.
func dropChunks(list []store.Posting, dead store.IDSet) []store.Posting {
	out := list[:0]
	for _, p := range list {
		if !dead.Has(p.ChunkID) {
			out = append(out, p)
		}
	}
	return out
}

// dropSpill removes the spill file of a run that ends without writing
// its lists.
func (t *tx) dropSpill() {
	if t.delta.spill != nil {
		t.delta.spill.close()
		t.delta.spill = nil
	}
}

// sortedTerms returns the terms of lists in order.
func sortedTerms(lists postingLists) []string {
	terms := make([]string, 0, len(lists))
	for term := range lists {
		terms = append(terms, term)
	}
	sort.Strings(terms)
	return terms
}
