package search

import (
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

func TestChunkPrior(t *testing.T) {
	cases := []struct {
		query, kind string
		want        float64
	}{
		{"search text in copy mode", "function", weights.pickCallable},
		{"search text in copy mode", "method", weights.pickCallable},
		{"search text in copy mode", "constant", 0},
		{"search text in copy mode", "class", 0},
		{"search text in copy mode", "block", 0},
		{"window_copy_search", "function", 0}, // a symbol query names what it wants
	}
	for _, c := range cases {
		if got := chunkPrior(Analyze(c.query), &store.ChunkMeta{Kind: c.kind}); got != c.want {
			t.Errorf("chunkPrior(%q, %s) = %v, want %v", c.query, c.kind, got, c.want)
		}
	}
}

func TestPickRepresentative(t *testing.T) {
	rows := []store.ChunkMeta{{ID: 1, StartLine: 1}, {ID: 2, StartLine: 50}, {ID: 3, StartLine: 90}}
	cases := []struct {
		name   string
		scores []float64
		priors []float64
		want   []int64 // chunk ids in the new order
	}{
		{"prior lifts the second", []float64{2, 1.8, 1}, []float64{0, 0.5, 0}, []int64{2, 1, 3}},
		{"prior too small to matter", []float64{2, 1.2, 1}, []float64{0, 0.5, 0}, []int64{1, 2, 3}},
		{"no priors", []float64{3, 2, 1}, []float64{0, 0, 0}, []int64{1, 2, 3}},
		{"every chunk lifted alike", []float64{3, 2, 1}, []float64{0.5, 0.5, 0.5}, []int64{1, 2, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chunks := make([]scored, len(rows))
			for i := range rows {
				chunks[i] = scored{row: &rows[i], score: c.scores[i], prior: c.priors[i]}
			}
			pickRepresentative(chunks)
			for i, s := range chunks {
				if s.row.ID != c.want[i] {
					t.Fatalf("order %v, want %v", ids(chunks), c.want)
				}
				if s.score != c.scores[i] {
					t.Errorf("position %d scores %v, want the file's scores kept in place (%v)", i, s.score, c.scores[i])
				}
			}
		})
	}
}

func ids(chunks []scored) []int64 {
	out := make([]int64, len(chunks))
	for i, s := range chunks {
		out[i] = s.row.ID
	}
	return out
}
