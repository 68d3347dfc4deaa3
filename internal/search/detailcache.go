package search

import (
	"context"

	"github.com/lore-dev/lore/internal/store"
)

// The text of the chunks a search returns (signature, breadcrumb, doc
// comment, content) is read from the store after ranking, a few chunks a
// search. Within one snapshot a chunk's text never changes, and the chunks
// that rank high recur across different questions (a codebase's central
// functions and types answer many of them), so the texts read are kept,
// per snapshot, bounded in bytes, least recently used first out, as the
// posting lists are (postingcache.go): a search on a newer snapshot drops
// them all, and one still running on an older snapshot neither reads nor
// fills the cache. Only chunk texts are kept, never a query's answer: a
// query asked again is ranked again.

// detailCacheBytes bounds the bytes of chunk texts an engine keeps.
const detailCacheBytes = 8 << 20

// detailEntryOverhead is what an entry costs besides its text: the map
// slot, the list element, the string headers.
const detailEntryOverhead = 160

// detailCache keeps chunk texts of the engine's current snapshot, by
// chunk id.
type detailCache = snapCache[int64, store.ChunkDetail]

// detailSize is what a cached text costs: its strings, the map slot and
// list element.
func detailSize(_ int64, d store.ChunkDetail) int {
	return len(d.Signature) + len(d.Breadcrumb) + len(d.DocComment) + len(d.Content) + detailEntryOverhead
}

// details returns the texts of the ranked chunks of snap, as
// store.Reader.ChunkDetails does, from the cache where it can.
func (e *Engine) details(ctx context.Context, snap *snapshot, ranked []scored) (map[int64]store.ChunkDetail, error) {
	c := &e.detailCache
	current := e.snap.Load() == snap
	ids := make([]int64, len(ranked))
	for i, s := range ranked {
		ids[i] = s.row.ID
	}
	out := make(map[int64]store.ChunkDetail, len(ranked))
	missingAt := c.lookup(snap, current, ids, func(i int, d store.ChunkDetail) { out[ids[i]] = d })
	if len(missingAt) == 0 {
		return out, nil
	}
	missing := make([]int64, len(missingAt))
	for i, at := range missingAt {
		missing[i] = ids[at]
	}
	read, err := e.st.ChunkDetails(ctx, missing)
	if err != nil {
		return nil, err
	}
	found := make([]int64, 0, len(read))
	texts := make([]store.ChunkDetail, 0, len(read))
	for _, id := range missing {
		if d, ok := read[id]; ok { // a chunk not in the store has nothing to keep
			out[id] = d
			found = append(found, id)
			texts = append(texts, d)
		}
	}
	if current {
		// A text larger than a sixty-fourth of the budget is not kept.
		c.store(snap, found, texts, detailSize, detailCacheBytes, 64)
	}
	return out, nil
}
