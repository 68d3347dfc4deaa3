package files

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/trigram"
)

// FileIndex is what an index run recorded of a root's files for the exact
// search: every file its walk found, by path in walk order, with the
// trigrams of the text ones. A search reads only the files whose trigrams
// can hold a match, and reads every file the index lacks or that changed
// since the run.
type FileIndex struct {
	Files []IndexedFile  // sorted by path, byte order (the walk's order)
	Grams *trigram.Index // files numbered as in Files
	// Complete vouches that Files is what a walk of the root finds now,
	// sizes and modification times included (a watcher saw no change
	// since the run): the search then lists files from the index instead
	// of walking. Otherwise it walks and compares each file with Files.
	Complete bool
	// unindexed counts the files WithChanges listed without grams.
	unindexed int
}

// IndexedFile is one file of a FileIndex.
type IndexedFile struct {
	Path     string
	Size     int64
	MTimeNS  int64
	Binary   bool // never matches
	HasGrams bool // its trigrams are in Grams, as file Slot; false: read it
	Slot     int
}

// IndexFunc returns the FileIndex of the root at the absolute path root,
// or nil when there is none usable.
type IndexFunc func(ctx context.Context, root string) *FileIndex

// WithIndex returns a Service like s that narrows its searches with the
// indexes index returns.
func (s *Service) WithIndex(index IndexFunc) *Service {
	c := *s
	c.index = index
	return &c
}

// find returns the position of path in ix.Files.
func (ix *FileIndex) find(path string) (int, bool) {
	i := sort.Search(len(ix.Files), func(i int) bool { return ix.Files[i].Path >= path })
	return i, i < len(ix.Files) && ix.Files[i].Path == path
}

// under returns the range of ix.Files inside the folder dir ("" for all).
func (ix *FileIndex) under(dir string) (int, int) {
	if dir == "" {
		return 0, len(ix.Files)
	}
	prefix := dir + "/"
	lo := sort.Search(len(ix.Files), func(i int) bool { return ix.Files[i].Path >= prefix })
	hi := lo + sort.Search(len(ix.Files)-lo, func(i int) bool { return !strings.HasPrefix(ix.Files[lo+i].Path, prefix) })
	return lo, hi
}

// skip reports whether the index shows that file i, as walked with size
// and mtime, cannot match: it is unchanged since the run and binary, or
// its trigrams rule it out.
func (ix *FileIndex) skip(i int, size, mtimeNS int64, cand trigram.Set) bool {
	f := &ix.Files[i]
	if f.Size != size || f.MTimeNS != mtimeNS {
		return false
	}
	return f.Binary || (f.HasGrams && !cand.Has(f.Slot))
}

// LoadIndex reads the n-gram index a collection holds (nil when it holds
// none, or one that does not list what a search walks) and inverts it.
// The result is not Complete: the caller vouches for that.
func LoadIndex(ctx context.Context, r store.Reader) (*FileIndex, error) {
	meta, err := r.Meta(ctx)
	if err != nil {
		return nil, err
	}
	if meta[store.MetaGramWalk] != store.GramWalkDefault {
		return nil, nil
	}
	ix := &FileIndex{}
	var grams [][]byte
	err = r.Grams(ctx, func(f store.GramFile) error {
		ix.Files = append(ix.Files, IndexedFile{Path: f.Path, Size: f.Size, MTimeNS: f.MTimeNS, Binary: f.Binary,
			HasGrams: !f.Binary && len(f.Grams) > 0, Slot: len(ix.Files)})
		if f.Binary || len(f.Grams) == 0 {
			grams = append(grams, nil)
		} else {
			grams = append(grams, f.Grams)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(ix.Files) == 0 {
		return nil, nil
	}
	if ix.Grams, err = trigram.Build(grams); err != nil {
		return nil, fmt.Errorf("loading the n-gram index: %w", err)
	}
	return ix, nil
}

// maxUnindexed bounds the files a FileIndex made by WithChanges reads
// instead of narrowing by their grams: past it, reading the index whole
// costs less than reading them on every search.
const maxUnindexed = 1000

// WithChanges returns the index of the generation the changes reach (see
// store.Change), made from ix without reading the collection: the files
// the changes wrote are listed with their new size and modification time
// and read by each search instead of narrowed by grams (Grams is shared
// with ix, which is not modified). It returns false when the caller must
// load the index whole: a run emptied it, or too many files would be read.
// The result is not Complete.
func (ix *FileIndex) WithChanges(changes []store.Change) (*FileIndex, bool) {
	unindexed := ix.unindexed
	files := ix.Files
	for _, c := range changes {
		if c.GramsReset {
			return nil, false
		}
		if len(c.RemovedGrams) == 0 && len(c.Grams) == 0 {
			continue
		}
		gone := make(map[string]bool, len(c.RemovedGrams)+len(c.Grams))
		for _, p := range c.RemovedGrams {
			gone[p] = true
		}
		written := slices.Clone(c.Grams)
		slices.SortFunc(written, func(a, b store.GramFile) int { return strings.Compare(a.Path, b.Path) })
		for _, g := range written {
			gone[g.Path] = true
		}
		out := make([]IndexedFile, 0, len(files)+len(written))
		i := 0
		for _, g := range written {
			for ; i < len(files) && files[i].Path < g.Path; i++ {
				if !gone[files[i].Path] {
					out = append(out, files[i])
				}
			}
			out = append(out, IndexedFile{Path: g.Path, Size: g.Size, MTimeNS: g.MTimeNS, Binary: g.Binary})
			if !g.Binary {
				unindexed++
			}
		}
		for ; i < len(files); i++ {
			if !gone[files[i].Path] {
				out = append(out, files[i])
			}
		}
		files = out
	}
	if unindexed > maxUnindexed {
		return nil, false
	}
	return &FileIndex{Files: files, Grams: ix.Grams, unindexed: unindexed}, true
}
