package search

import (
	"slices"
	"testing"
)

// TestSlotPoolReturnsZeroed takes tables of several sizes from the pool,
// dirties some entries, returns them with those entries named, and checks
// that every table taken again is all zero and of the size asked.
func TestSlotPoolReturnsZeroed(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		used []int
	}{
		{"empty", 0, nil},
		{"small", 10, []int{0, 3, 9}},
		{"large", 5000, []int{1, 4999, 2500}},
		{"smaller after larger", 7, []int{6}},
		{"larger after smaller", 9000, []int{8999, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 3 {
				slot := getSlots(tc.n)
				if len(slot) != tc.n {
					t.Fatalf("len %d, want %d", len(slot), tc.n)
				}
				if i := slices.IndexFunc(slot, func(v int32) bool { return v != 0 }); i >= 0 {
					t.Fatalf("entry %d is %d, want 0", i, slot[i])
				}
				for _, p := range tc.used {
					slot[p] = int32(p + 1)
				}
				putSlots(slot, slices.Values(tc.used))
			}
		})
	}
}
