package search

import (
	"container/list"
	"context"
	"sync"

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

// detailCache keeps chunk texts of the engine's current snapshot. Its lock
// is held only to look up, insert and evict, never while the store is read.
type detailCache struct {
	budget int // bytes; 0 means detailCacheBytes, below 0 keeps nothing

	mu     sync.Mutex
	snap   *snapshot               // the snapshot the texts belong to
	chunks map[int64]*list.Element // chunk id -> its entry in lru
	lru    list.List               // of *detailEntry, most recently used first
	bytes  int
}

// detailEntry is one cached chunk text.
type detailEntry struct {
	id     int64
	detail store.ChunkDetail
	bytes  int
}

// details returns the texts of the ranked chunks of snap, as
// store.Reader.ChunkDetails does, from the cache where it can.
func (e *Engine) details(ctx context.Context, snap *snapshot, ranked []scored) (map[int64]store.ChunkDetail, error) {
	c := &e.detailCache
	current := e.snap.Load() == snap
	out := make(map[int64]store.ChunkDetail, len(ranked))
	missing := c.lookup(snap, ranked, current, out)
	if len(missing) == 0 {
		return out, nil
	}
	read, err := e.st.ChunkDetails(ctx, missing)
	if err != nil {
		return nil, err
	}
	for id, d := range read {
		out[id] = d
	}
	if current {
		c.store(snap, missing, read)
	}
	return out, nil
}

// lookup puts the cached texts of ranked into out and returns the ids it
// lacks. A current snapshot other than the cache's replaces it, dropping
// every text; an older one finds nothing.
func (c *detailCache) lookup(snap *snapshot, ranked []scored, current bool, out map[int64]store.ChunkDetail) []int64 {
	var missing []int64
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap && current {
		c.reset(snap)
	}
	for _, s := range ranked {
		id := s.row.ID
		if c.snap == snap {
			if el, ok := c.chunks[id]; ok {
				c.lru.MoveToFront(el)
				out[id] = el.Value.(*detailEntry).detail
				continue
			}
		}
		missing = append(missing, id)
	}
	return missing
}

// store keeps texts read for ids against snap, if snap is still the
// cache's, evicting the least recently used beyond the budget. A text
// larger than a sixty-fourth of the budget is not kept: it would push out
// many others.
func (c *detailCache) store(snap *snapshot, ids []int64, read map[int64]store.ChunkDetail) {
	budget := c.budget
	switch {
	case budget < 0:
		return
	case budget == 0:
		budget = detailCacheBytes
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		return
	}
	for _, id := range ids {
		d, ok := read[id]
		if !ok {
			continue // not in the store: nothing to keep
		}
		if _, ok := c.chunks[id]; ok {
			continue // another search read it meanwhile
		}
		size := len(d.Signature) + len(d.Breadcrumb) + len(d.DocComment) + len(d.Content) + detailEntryOverhead
		if size > budget/64 {
			continue
		}
		for c.bytes+size > budget {
			c.evictOldest()
		}
		c.chunks[id] = c.lru.PushFront(&detailEntry{id: id, detail: d, bytes: size})
		c.bytes += size
	}
}

// reset empties the cache for snap. c.mu is held.
func (c *detailCache) reset(snap *snapshot) {
	c.snap = snap
	c.chunks = map[int64]*list.Element{}
	c.lru.Init()
	c.bytes = 0
}

// evictOldest drops the least recently used text. c.mu is held.
func (c *detailCache) evictOldest() {
	el := c.lru.Back()
	if el == nil {
		return
	}
	ent := c.lru.Remove(el).(*detailEntry)
	delete(c.chunks, ent.id)
	c.bytes -= ent.bytes
}

// cached reports how many texts and bytes the cache holds, for tests.
func (c *detailCache) cached() (texts, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.chunks), c.bytes
}
