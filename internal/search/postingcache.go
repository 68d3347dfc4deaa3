package search

import (
	"container/list"
	"context"
	"sync"
	"unsafe"

	"github.com/lore-dev/lore/internal/store"
)

// The posting lists of one snapshot never change: a run that commits makes
// a new generation, and with it a new snapshot whose chunk positions may
// differ. So the lists searches read are kept, per snapshot, for the next
// search that asks for the same term: the common words of a codebase
// ("error", "read", "task") appear in most queries, and their lists are the
// longest to read and decode. What is kept is bounded in bytes, least
// recently used first out; a search on a newer snapshot drops the whole
// cache, and a search still running on an older one neither reads nor
// fills it.

// postingCacheBytes bounds the bytes of posting lists an engine keeps. On
// tokio's index, 16 MiB saved as much CPU per distinct query as 64 MiB
// (BenchmarkPostingCache).
const postingCacheBytes = 16 << 20

// postingEntryOverhead is what an entry costs besides its postings: the map
// slot, the list element, the term's header.
const postingEntryOverhead = 128

// postingCache keeps posting lists of the engine's current snapshot. Its
// lock is held only to look up, insert and evict, never while a list is
// read from the store.
type postingCache struct {
	budget int // bytes; 0 means postingCacheBytes, below 0 keeps nothing

	mu    sync.Mutex
	snap  *snapshot                // the snapshot the lists were resolved against
	terms map[string]*list.Element // term -> its entry in lru
	lru   list.List                // of *postingEntry, most recently used first
	bytes int
}

// postingEntry is one cached list.
type postingEntry struct {
	term  string
	list  []store.PostingAt
	bytes int
}

// postings returns the posting lists of terms resolved against snap, as
// store.Reader.Postings does but without snap's dead chunks, from the
// cache where it can. The lists are shared: callers must not modify them.
func (e *Engine) postings(ctx context.Context, snap *snapshot, terms []string) ([][]store.PostingAt, error) {
	c := &e.postingCache
	current := e.snap.Load() == snap
	out, missing := c.lookup(snap, terms, current)
	if len(missing) == 0 {
		return out, nil
	}
	names := terms
	if len(missing) < len(terms) {
		names = make([]string, len(missing))
		for i, ti := range missing {
			names[i] = terms[ti]
		}
	}
	read, err := e.st.Postings(ctx, names, snap.lens)
	if err != nil {
		return nil, err
	}
	// The snapshot's dead chunks leave the lists here, once, before they
	// are kept: a kept list is never written again.
	snap.dropDead(read)
	for i, ti := range missing {
		out[ti] = read[i]
	}
	if current {
		c.store(snap, names, read)
	}
	return out, nil
}

// lookup returns the cached lists of terms (nil where none is cached) and
// the indexes of the terms it lacks. A current snapshot other than the
// cache's replaces it, dropping every list; an older one finds nothing.
func (c *postingCache) lookup(snap *snapshot, terms []string, current bool) ([][]store.PostingAt, []int) {
	out := make([][]store.PostingAt, len(terms))
	var missing []int
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		if !current {
			for i := range terms {
				missing = append(missing, i)
			}
			return out, missing
		}
		c.reset(snap)
	}
	for i, t := range terms {
		el, ok := c.terms[t]
		if !ok {
			missing = append(missing, i)
			continue
		}
		c.lru.MoveToFront(el)
		out[i] = el.Value.(*postingEntry).list
	}
	return out, missing
}

// store keeps lists read for terms against snap, if snap is still the
// cache's, evicting the least recently used lists beyond the budget. A
// list larger than an eighth of the budget is not kept: it would push out
// many others.
func (c *postingCache) store(snap *snapshot, terms []string, lists [][]store.PostingAt) {
	budget := c.budget
	switch {
	case budget < 0:
		return
	case budget == 0:
		budget = postingCacheBytes
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		return
	}
	for i, t := range terms {
		if _, ok := c.terms[t]; ok {
			continue // another search read it meanwhile
		}
		size := len(lists[i])*int(unsafe.Sizeof(store.PostingAt{})) + len(t) + postingEntryOverhead
		if size > budget/8 {
			continue
		}
		for c.bytes+size > budget {
			c.evictOldest()
		}
		c.terms[t] = c.lru.PushFront(&postingEntry{term: t, list: lists[i], bytes: size})
		c.bytes += size
	}
}

// reset empties the cache for snap. c.mu is held.
func (c *postingCache) reset(snap *snapshot) {
	c.snap = snap
	c.terms = map[string]*list.Element{}
	c.lru.Init()
	c.bytes = 0
}

// evictOldest drops the least recently used list. c.mu is held.
func (c *postingCache) evictOldest() {
	el := c.lru.Back()
	if el == nil {
		return
	}
	ent := c.lru.Remove(el).(*postingEntry)
	delete(c.terms, ent.term)
	c.bytes -= ent.bytes
}

// cached reports how many lists and bytes the cache holds, for tests.
func (c *postingCache) cached() (lists, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.terms), c.bytes
}
