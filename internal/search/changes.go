package search

import (
	"cmp"
	"slices"

	"github.com/lore-dev/lore/internal/store"
)

// Dead chunks an applied snapshot may carry before the next application
// compacts them away: more than compactMinDead, and more than a
// compactDeadShare of the live ones. Variables for tests.
var (
	compactMinDead   = 1 << 14
	compactDeadShare = 0.25
)

// applyChanges returns the snapshot of the generation the changes reach
// (store.Change, oldest first), made from s and the changes alone: it
// answers every search as reading that generation whole would. s is not
// modified: searches may still be reading it.
//
// The cost follows the change, not the index, where it can: the chunks
// the changes remove stay in place, dead, and the ones they add are
// appended past the others, into the arrays s shares with its
// predecessors when no other snapshot took that space (snapshot.tailTaken).
// What remains per application is a pass over the files (their facts look
// at each other) and cheap passes over the chunks' file slots. Once the
// dead chunks are many they are dropped, as reading whole would.
func (s *snapshot) applyChanges(changes []store.Change) *snapshot {
	gen := changes[len(changes)-1].Generation
	// A run over saved files writes their rows again, under new ids: the
	// files are the same paths in the same order, so their facts stay.
	files, sameFiles := replaceFiles(s.files, changes)
	if sameFiles {
		if snap := s.appendChanges(gen, files, s.plain, nil, changes); snap != nil {
			return snap
		}
	}
	files, plain := s.files, s.plain
	removedFiles := map[int64]bool{}
	for _, c := range changes {
		files, plain = applyFileChange(files, plain, &c)
		for _, id := range c.RemovedFiles {
			removedFiles[id] = true
		}
	}
	if snap := s.appendChanges(gen, files, plain, removedFiles, changes); snap != nil {
		return snap
	}
	return s.joinChanges(gen, files, plain, changes)
}

// replaceFiles returns files with the rows the changes wrote in place of
// the ones they removed, when each change only writes files again under
// the same path and language (a new slice); false otherwise.
func replaceFiles(files []store.FileRow, changes []store.Change) ([]store.FileRow, bool) {
	out, cloned := files, false
	for _, c := range changes {
		if len(c.Files) != len(c.RemovedFiles) {
			return nil, false
		}
		removed := make(map[int64]bool, len(c.RemovedFiles))
		for _, id := range c.RemovedFiles {
			removed[id] = true
		}
		for _, f := range c.Files {
			slot, found := slices.BinarySearchFunc(out, f.Path, func(r store.FileRow, p string) int { return cmp.Compare(r.Path, p) })
			if !found || !removed[out[slot].ID] || out[slot].Language != f.Language {
				return nil, false
			}
			delete(removed, out[slot].ID) // each removed row replaced once
			if !cloned {
				out, cloned = slices.Clone(files), true
			}
			out[slot] = f
		}
	}
	return out, true
}

// joinChanges makes the snapshot without dead chunks: s's live chunks and
// the changes' added ones joined into new arrays.
func (s *snapshot) joinChanges(gen string, files []store.FileRow, plain []fileFacts, changes []store.Change) *snapshot {
	lensParts := []*store.DocLens{s.lens}
	metaParts := [][]store.ChunkMeta{s.meta}
	dead := store.IDSet{}
	for pos, slot := range s.chunkFile {
		if slot < 0 {
			dead[s.lens.IDs[pos]] = struct{}{}
		}
	}
	for _, c := range changes {
		if c.Lens != nil {
			lensParts = append(lensParts, c.Lens)
			metaParts = append(metaParts, c.Meta)
		}
		dead.AddAll(c.RemovedChunks)
	}
	lens := store.JoinDocLens(lensParts, dead)
	meta := store.JoinChunkMeta(metaParts, dead)
	snap := newSnapshot(gen, files, plain, lens, meta)
	snap.fromChanges = true
	return snap
}

// appendChanges makes the snapshot with the changes' removed chunks dead
// and their added ones appended; nil when it cannot: the dead would be
// too many, or an added chunk's id is not past every id s has (ids the
// store reuses). removedFiles nil says that files holds s's files in the
// same slots, some written again under new ids (replaceFiles): what the
// snapshot derives from its files and chunks is then updated by the
// chunks that died and were added, instead of made again.
func (s *snapshot) appendChanges(gen string, files []store.FileRow, plain []fileFacts, removedFiles map[int64]bool, changes []store.Change) *snapshot {
	added := 0
	for _, c := range changes {
		if c.Lens != nil {
			added += c.Lens.Len()
			if len(c.Meta) != c.Lens.Len() {
				return nil
			}
		}
	}
	slotOf := fileSlots(files, changes) // file id → slot, of the files the changes wrote
	sameSlots := removedFiles == nil
	var remap []int32 // nil: the files keep their slots
	if !sameSlots {
		var ok bool
		if remap, ok = fileSlotRemap(s.files, files, removedFiles, slotOf); !ok {
			return nil
		}
	}
	snap := &snapshot{generation: gen, files: files, plain: plain, fromChanges: true, live: s.live, lenSum: s.lenSum}
	var written []bool // by slot: a file the changes wrote (sameSlots)
	if sameSlots {
		snap.facts, snap.implChunks = s.facts, s.implChunks
		snap.stats = &fileStats{length: slices.Clone(s.stats.length), chunks: slices.Clone(s.stats.chunks), decls: slices.Clone(s.stats.decls), code: slices.Clone(s.stats.code)}
		written = make([]bool, len(files))
		for _, slot := range slotOf {
			written[slot] = true
		}
	}
	// The arrays' room past s's chunks is this snapshot's if no other
	// snapshot took it; else, or when it is too small, they are copied
	// with room for the next changes.
	n := len(s.meta)
	ids, lensOf, meta := s.lens.IDs[:n], s.lens.Lens[:n], s.meta[:n]
	if !s.tailTaken.CompareAndSwap(false, true) || cap(ids)-n < added || cap(lensOf)-n < added || cap(meta)-n < added {
		room := added + n/8
		ids, lensOf, meta = withRoom(ids, room), withRoom(lensOf, room), withRoom(meta, room)
	}
	// kill and admit take a chunk of the file at slot out of the live
	// totals and into them; with the files in new slots, what derives
	// from them is made again below.
	kill := func(l [store.NumFields]uint16, kind string, slot int32) {
		if sameSlots {
			snap.count(slot, l, kind, -1)
			return
		}
		snap.live--
		snap.subtractLens(l)
	}
	admit := func(l [store.NumFields]uint16, kind string, slot int32) {
		if sameSlots {
			snap.count(slot, l, kind, 1)
			return
		}
		snap.live++
		snap.addLens(l)
	}
	chunkFile := make([]int32, n, n+added)
	// survivors counts the chunks of files written again under the same
	// id (SQLite gives a row the highest id again) that no change has
	// removed yet: each must be, for the files' chunks to be all new.
	survivors := 0
	if sameSlots {
		copy(chunkFile, s.chunkFile)
		for pos, slot := range chunkFile {
			if slot < 0 || !written[slot] {
				continue
			}
			if files[slot].ID == meta[pos].FileID {
				survivors++
				continue
			}
			chunkFile[pos] = -1 // its file's row was written again without it
			kill(lensOf[pos], meta[pos].Kind, slot)
		}
	} else {
		for pos, slot := range s.chunkFile {
			if slot >= 0 {
				slot = remap[slot]
				if slot >= 0 && files[slot].ID != meta[pos].FileID {
					slot = -1 // its file's row was written again without it
				}
				if slot < 0 { // its file is gone: so is it
					kill(lensOf[pos], meta[pos].Kind, slot)
				}
			}
			chunkFile[pos] = slot
		}
	}
	for _, c := range changes {
		for _, id := range c.RemovedChunks {
			pos, found := slices.BinarySearch(ids, id)
			if found && chunkFile[pos] >= 0 {
				slot := chunkFile[pos]
				if sameSlots && pos < n && written[slot] && files[slot].ID == meta[pos].FileID {
					survivors--
				}
				kill(lensOf[pos], meta[pos].Kind, slot)
				chunkFile[pos] = -1
			}
		}
		if c.Lens == nil {
			continue
		}
		for i, id := range c.Lens.IDs {
			if len(ids) > 0 && id <= ids[len(ids)-1] {
				return nil
			}
			m := c.Meta[i]
			slot, ok := slotOf[m.FileID]
			if !ok || m.ID != id {
				return nil // a chunk of a file not in the snapshot: read whole
			}
			ids, lensOf, meta = append(ids, id), append(lensOf, c.Lens.Lens[i]), append(meta, m)
			chunkFile = append(chunkFile, slot)
			admit(c.Lens.Lens[i], m.Kind, slot)
		}
	}
	if survivors != 0 {
		return nil // a file written again kept some of its chunks: derive again
	}
	if dead := len(ids) - snap.live; dead > compactMinDead && float64(dead) > compactDeadShare*float64(snap.live) {
		return nil
	}
	snap.lens = &store.DocLens{IDs: ids, Lens: lensOf}
	for f, sum := range snap.lenSum {
		// As store.JoinDocLens averages (a sum of integers is exact).
		if snap.live > 0 {
			snap.lens.Avg[f] = float64(sum) / float64(snap.live)
		}
		if snap.lens.Avg[f] == 0 {
			snap.lens.Avg[f] = 1
		}
	}
	snap.meta, snap.chunkFile = meta, chunkFile
	if !sameSlots {
		snap.markFiles()
		snap.markChunks()
		return snap
	}
	snap.stats.average()
	// Test regions lie within a file, and a file written again has only
	// new chunks: the old ones' marks stand, the new ones' are made.
	inTests := make([]bool, len(meta))
	copy(inTests, s.inTests)
	if tail := markTestRegions(meta[n:], chunkFile[n:], len(files)); tail != nil {
		copy(inTests[n:], tail)
	}
	for pos, slot := range chunkFile[:n] {
		if slot < 0 {
			inTests[pos] = false
		}
	}
	if slices.Contains(inTests, true) {
		snap.inTests = inTests
	}
	return snap
}

// count adds (by 1) or takes away (by -1) a chunk of the file at slot
// of kind from the live totals, the file's and the implementation chunks.
func (s *snapshot) count(slot int32, l [store.NumFields]uint16, kind string, by int) {
	if by > 0 {
		s.live++
		s.addLens(l)
	} else {
		s.live--
		s.subtractLens(l)
	}
	s.stats.length[slot] += float64(by) * float64(l[store.FieldBody])
	s.stats.chunks[slot] += int32(by)
	s.stats.countKind(slot, kind, int32(by))
	plain, wider := s.facts[slot].implementation()
	s.implChunks[0] += by * b2i(plain)
	s.implChunks[1] += by * b2i(wider)
}

func (s *snapshot) addLens(l [store.NumFields]uint16) {
	for f, v := range l {
		s.lenSum[f] += uint64(v)
	}
}

func (s *snapshot) subtractLens(l [store.NumFields]uint16) {
	for f, v := range l {
		s.lenSum[f] -= uint64(v)
	}
}

// withRoom copies s into a new array with room for more.
func withRoom[T any](s []T, room int) []T {
	out := make([]T, len(s), len(s)+room)
	copy(out, s)
	return out
}

// dropDead leaves the snapshot's dead chunks out of posting lists: the
// store's lists still hold the chunks its segments deleted, which it
// leaves for the DocLens to drop, and a snapshot made from changes keeps
// them in its DocLens.
func (s *snapshot) dropDead(hits [][]store.PostingAt) {
	if s.live == len(s.chunkFile) {
		return
	}
	for i, list := range hits {
		hits[i] = slices.DeleteFunc(list, func(h store.PostingAt) bool { return s.chunkFile[h.Pos] < 0 })
	}
}

// fileSlotRemap maps each slot of from to the slot of the same file in
// to, or -1 for the files removed. Both are sorted by path and to is from
// without the removed files and with others added, so one pass pairs
// them; a file removed and written again under its id is found in
// written (id → slot in to). False when they do not pair so.
func fileSlotRemap(from, to []store.FileRow, removed map[int64]bool, written map[int64]int32) ([]int32, bool) {
	remap := make([]int32, len(from))
	j := 0
	for i, f := range from {
		if removed[f.ID] {
			remap[i] = -1
			if slot, ok := written[f.ID]; ok {
				remap[i] = slot
			}
			continue
		}
		for j < len(to) && to[j].ID != f.ID {
			j++ // a file added
		}
		if j == len(to) {
			return nil, false
		}
		remap[i] = int32(j)
		j++
	}
	return remap, true
}

// fileSlots maps the ids of the files the changes wrote to their slots
// in files (the last change's files), leaving out those a later change
// removed.
func fileSlots(files []store.FileRow, changes []store.Change) map[int64]int32 {
	want := map[int64]bool{}
	for _, c := range changes {
		for _, f := range c.Files {
			want[f.ID] = true
		}
	}
	out := make(map[int64]int32, len(want))
	for slot, f := range files {
		if want[f.ID] {
			out[f.ID] = int32(slot)
		}
	}
	return out
}

// applyFileChange returns files (sorted by path) and their plain facts
// without the files c removed and with the files it added, in new slices.
func applyFileChange(files []store.FileRow, plain []fileFacts, c *store.Change) ([]store.FileRow, []fileFacts) {
	removed := make(map[int64]bool, len(c.RemovedFiles))
	for _, id := range c.RemovedFiles {
		removed[id] = true
	}
	added := slices.Clone(c.Files)
	slices.SortStableFunc(added, func(a, b store.FileRow) int { return cmp.Compare(a.Path, b.Path) })
	outFiles := make([]store.FileRow, 0, len(files)+len(added))
	outPlain := make([]fileFacts, 0, len(files)+len(added))
	i := 0
	for _, f := range added {
		for ; i < len(files) && files[i].Path <= f.Path; i++ {
			if !removed[files[i].ID] {
				outFiles, outPlain = append(outFiles, files[i]), append(outPlain, plain[i])
			}
		}
		outFiles, outPlain = append(outFiles, f), append(outPlain, *newFileFacts(f.Path, f.Language))
	}
	for ; i < len(files); i++ {
		if !removed[files[i].ID] {
			outFiles, outPlain = append(outFiles, files[i]), append(outPlain, plain[i])
		}
	}
	return outFiles, outPlain
}
