package search

import (
	"context"
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

// postingCache keeps posting lists of the engine's current snapshot, by
// term.
type postingCache = snapCache[string, []store.PostingAt]

// postingSize is what a cached list costs: its postings, its term, the
// map slot and list element.
func postingSize(term string, list []store.PostingAt) int {
	return len(list)*int(unsafe.Sizeof(store.PostingAt{})) + len(term) + postingEntryOverhead
}

// postings returns the posting lists of terms resolved against snap, as
// store.Reader.Postings does but without snap's dead chunks, from the
// cache where it can. The lists are shared: callers must not modify them.
func (e *Engine) postings(ctx context.Context, snap *snapshot, terms []string) ([][]store.PostingAt, error) {
	c := &e.postingCache
	current := e.snap.Load() == snap
	out := make([][]store.PostingAt, len(terms))
	missing := c.lookup(snap, current, terms, func(i int, list []store.PostingAt) { out[i] = list })
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
		// A list larger than an eighth of the budget is not kept.
		c.store(snap, names, read, postingSize, postingCacheBytes, 8)
	}
	return out, nil
}
