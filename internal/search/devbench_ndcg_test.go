package search

import (
	"math"
	"testing"
)

// TestNDCGCountsAResultOnce checks the dev bench's NDCG against the
// figures ../shared/bench/eval.py gives: a result covering two targets
// counts once.
func TestNDCGCountsAResultOnce(t *testing.T) {
	cases := []struct {
		ranks   []int
		present int
		want    float64
	}{
		{[]int{1}, 1, 1},
		{[]int{1, 1}, 2, 1 / (1 + 1/math.Log2(3))}, // one result covers both targets
		{[]int{2, 2}, 2, (1 / math.Log2(3)) / (1 + 1/math.Log2(3))},
		{[]int{1, 3}, 2, (1 + 0.5) / (1 + 1/math.Log2(3))},
		{[]int{11}, 1, 0},
		{nil, 0, 0},
	}
	for _, c := range cases {
		if got := ndcg(c.ranks, c.present); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ndcg(%v, %d) = %v, want %v", c.ranks, c.present, got, c.want)
		}
	}
}
