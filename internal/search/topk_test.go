package search

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

func TestTopK(t *testing.T) {
	byValueThenIndex := func(a, b [2]int) bool { // value descending, then index
		if a[0] != b[0] {
			return a[0] > b[0]
		}
		return a[1] < b[1]
	}
	tests := []struct {
		name string
		in   []int
		k    int
		want []int // indexes into in
	}{
		{"empty", nil, 3, nil},
		{"fewer than k", []int{1, 3, 2}, 5, []int{1, 2, 0}},
		{"exactly k", []int{1, 3, 2}, 3, []int{1, 2, 0}},
		{"selects the best", []int{5, 1, 9, 7, 3}, 2, []int{2, 3}},
		{"ties by index", []int{4, 4, 4, 4}, 2, []int{0, 1}},
		{"best at the end", []int{1, 1, 1, 1, 8}, 1, []int{4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := make([][2]int, len(tt.in))
			for i, v := range tt.in {
				items[i] = [2]int{v, i}
			}
			orig := slices.Clone(items)
			got := topK(items, tt.k, byValueThenIndex)
			var idx []int
			for _, g := range got {
				idx = append(idx, g[1])
			}
			if !slices.Equal(idx, tt.want) {
				t.Errorf("topK(%v, %d) = %v, want %v", tt.in, tt.k, idx, tt.want)
			}
			if !slices.Equal(items, orig) {
				t.Errorf("topK reordered its input")
			}
		})
	}
}

// TestTopKMatchesSort checks the selection against a full sort.
func TestTopKMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n, k := r.IntN(500), 1+r.IntN(50)
		items := make([][2]int, n)
		for i := range items {
			items[i] = [2]int{r.IntN(40), i} // many ties
		}
		better := func(a, b [2]int) bool { return a[0] > b[0] || a[0] == b[0] && a[1] < b[1] }
		want := slices.Clone(items)
		slices.SortFunc(want, func(a, b [2]int) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		want = want[:min(k, n)]
		if got := topK(items, k, better); !slices.Equal(got, want) {
			t.Fatalf("n=%d k=%d: topK differs from sorting", n, k)
		}
	}
}

// TestTopCandidatesMatchesTopK checks topCandidates, topK written out for
// candidates, against topK with betterCandidate: the same candidates in
// the same order, with many tied scores and positions in any order, with
// and without a buffer to reuse.
func TestTopCandidatesMatchesTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var buf []*candidate
	for round := 0; round < 300; round++ {
		n, k := r.IntN(2000), 1+r.IntN(400)
		cands := make([]*candidate, n)
		for i, pos := range r.Perm(n) {
			cands[i] = &candidate{pos: pos, score: float64(r.IntN(60)) / 7}
		}
		want := topK(cands, k, betterCandidate)
		got := topCandidates(cands, k, buf)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d k=%d: topCandidates differs from topK", n, k)
		}
		buf = got[:0]
	}
}

// TestGroupByFile checks groupByFile against the sort it replaces: by
// slot, then compareInFile, with tied scores and start lines.
func TestGroupByFile(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var sc rankScratch
	for round := 0; round < 300; round++ {
		n := r.IntN(400)
		rows := make([]store.ChunkMeta, n)
		s := make([]scored, n)
		for i := range s {
			rows[i] = store.ChunkMeta{ID: int64(r.IntN(1000)), StartLine: int32(r.IntN(5))}
			s[i] = scored{row: &rows[i], slot: int32(r.IntN(1 + n/3)), score: float64(r.IntN(4)) / 3}
		}
		want := slices.Clone(s)
		slices.SortFunc(want, func(a, b scored) int {
			if a.slot != b.slot {
				return int(a.slot - b.slot)
			}
			return compareInFile(a, b)
		})
		sc.groupByFile(s)
		for i := range s {
			if s[i].slot != want[i].slot || s[i].score != want[i].score || compareInFile(s[i], want[i]) != 0 {
				t.Fatalf("n=%d: groupByFile differs from sorting at %d", n, i)
			}
		}
	}
}
