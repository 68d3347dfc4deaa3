package search

import (
	"container/list"
	"sync"
)

// snapCache keeps values read from the store for one snapshot of the
// engine, bounded in bytes, least recently used first out: the posting
// lists (postingcache.go) and the chunk texts (detailcache.go) searches
// read. What is read for a snapshot never changes while it is current. A
// search on a newer snapshot drops every value, and one still running on
// an older snapshot neither finds nor keeps any. The lock is held only to
// look up, insert and evict, never while the store is read.
type snapCache[K comparable, V any] struct {
	budget int // bytes; 0 means the cache's default, below 0 keeps nothing

	mu    sync.Mutex
	snap  *snapshot // the snapshot the values were read for
	items map[K]*list.Element
	lru   list.List // of *snapEntry[K, V], most recently used first
	bytes int
}

// snapEntry is one cached value and what it costs.
type snapEntry[K comparable, V any] struct {
	key   K
	value V
	bytes int
}

// lookup calls found with the index and cached value of each of keys it
// holds for snap, and returns the indexes of the others. A current
// snapshot other than the cache's replaces it, dropping every value; an
// older one finds nothing.
func (c *snapCache[K, V]) lookup(snap *snapshot, current bool, keys []K, found func(i int, v V)) (missing []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		if !current {
			for i := range keys {
				missing = append(missing, i)
			}
			return missing
		}
		c.reset(snap)
	}
	for i, k := range keys {
		el, ok := c.items[k]
		if !ok {
			missing = append(missing, i)
			continue
		}
		c.lru.MoveToFront(el)
		found(i, el.Value.(*snapEntry[K, V]).value)
	}
	return missing
}

// store keeps values read for keys against snap, if snap is still the
// cache's, evicting the least recently used beyond the budget (0 meaning
// defaultBudget). size says what a value costs in bytes; one over a
// maxShare-th of the budget is not kept: it would push out many others.
func (c *snapCache[K, V]) store(snap *snapshot, keys []K, values []V, size func(K, V) int, defaultBudget, maxShare int) {
	budget := c.budget
	switch {
	case budget < 0:
		return
	case budget == 0:
		budget = defaultBudget
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != snap {
		return
	}
	for i, k := range keys {
		if _, ok := c.items[k]; ok {
			continue // another search read it meanwhile
		}
		n := size(k, values[i])
		if n > budget/maxShare {
			continue
		}
		for c.bytes+n > budget {
			c.evictOldest()
		}
		c.items[k] = c.lru.PushFront(&snapEntry[K, V]{key: k, value: values[i], bytes: n})
		c.bytes += n
	}
}

// reset empties the cache for snap. c.mu is held.
func (c *snapCache[K, V]) reset(snap *snapshot) {
	c.snap = snap
	c.items = map[K]*list.Element{}
	c.lru.Init()
	c.bytes = 0
}

// evictOldest drops the least recently used value. c.mu is held.
func (c *snapCache[K, V]) evictOldest() {
	el := c.lru.Back()
	if el == nil {
		return
	}
	ent := c.lru.Remove(el).(*snapEntry[K, V])
	delete(c.items, ent.key)
	c.bytes -= ent.bytes
}

// cached reports how many values and bytes the cache holds, for tests.
func (c *snapCache[K, V]) cached() (values, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items), c.bytes
}
