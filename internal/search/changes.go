package search

import (
	"cmp"
	"slices"

	"github.com/lore-dev/lore/internal/store"
)

// applyChanges returns the snapshot of the generation the changes reach
// (store.Change, oldest first), made from s and the changes alone: the
// same snapshot as reading that generation whole, at the cost of a pass
// over the chunks in memory instead of reading the index. s is not
// modified: searches may still be reading it.
func (s *snapshot) applyChanges(changes []store.Change) *snapshot {
	files, plain := s.files, s.plain
	lensParts := []*store.DocLens{s.lens}
	metaParts := [][]store.ChunkMeta{s.meta}
	dead := store.IDSet{}
	for _, c := range changes {
		files, plain = applyFileChange(files, plain, &c)
		if c.Lens != nil {
			lensParts = append(lensParts, c.Lens)
			metaParts = append(metaParts, c.Meta)
		}
		dead.AddAll(c.RemovedChunks)
	}
	lens := store.JoinDocLens(lensParts, dead)
	meta := store.JoinChunkMeta(metaParts, dead)
	snap := newSnapshot(changes[len(changes)-1].Generation, files, plain, lens, meta)
	snap.fromChanges = true
	return snap
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
