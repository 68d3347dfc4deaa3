package search

import "slices"

// topK returns the k best items of s, best first, by better (a ranks
// above b). Ranking keeps a few hundred of thousands of candidates, then ten
// of a few hundred; a bounded heap selects them in one pass instead of
// sorting everything. better must be a strict total order for the result
// to be deterministic. s itself is not reordered.
func topK[T any](s []T, k int, better func(a, b T) bool) []T {
	var out []T
	if len(s) <= k {
		out = slices.Clone(s)
	} else {
		h := boundedHeap[T]{items: slices.Clone(s[:k]), better: better}
		h.init()
		for _, x := range s[k:] {
			if better(x, h.items[0]) {
				h.items[0] = x
				h.down(0)
			}
		}
		out = h.items
	}
	slices.SortFunc(out, func(a, b T) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return 0
	})
	return out
}

// boundedHeap is a min-heap by better: its root is the worst item kept.
type boundedHeap[T any] struct {
	items  []T
	better func(a, b T) bool
}

func (h *boundedHeap[T]) init() {
	for i := len(h.items)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *boundedHeap[T]) down(i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h.items) && h.better(h.items[worst], h.items[l]) {
			worst = l
		}
		if r < len(h.items) && h.better(h.items[worst], h.items[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h.items[i], h.items[worst] = h.items[worst], h.items[i]
		i = worst
	}
}
