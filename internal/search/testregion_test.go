package search

import (
	"slices"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

func TestMarkTestRegions(t *testing.T) {
	type chunk struct {
		file  int32
		start int32
		kind  string
		syms  string
	}
	tests := []struct {
		name   string
		chunks []chunk
		want   []bool // nil: no region anywhere
	}{
		{name: "no test module", chunks: []chunk{{0, 1, "function", "wrap"}, {0, 20, "module", "layout"}}, want: nil},
		{name: "rust tests module to the end of the file",
			chunks: []chunk{{0, 1, "preamble", ""}, {0, 10, "function", "wrap"}, {0, 40, "module", "tests"},
				{0, 45, "function", "wraps_long_words"}, {0, 60, "enum", "Composer"}, {1, 5, "function", "other"}},
			want: []bool{false, false, true, true, true, false}},
		{name: "a module after the tests is nested in them",
			chunks: []chunk{{0, 10, "module", "Tests"}, {0, 12, "function", "case"}, {0, 30, "module", "no_scrolling_regions"}, {0, 35, "function", "inserts_lines"}},
			want:   []bool{true, true, true, true}},
		{name: "a class named Test is implementation",
			chunks: []chunk{{0, 8, "class", "Test"}, {0, 20, "method", "Test.run"}}, want: nil},
		{name: "a module whose name only contains a test word",
			chunks: []chunk{{0, 8, "module", "testing_utils"}, {0, 20, "function", "run"}}, want: nil},
		{name: "qualified module name",
			chunks: []chunk{{0, 1, "function", "f"}, {0, 8, "module", "crate::tests"}, {0, 20, "function", "g"}},
			want:   []bool{false, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			meta := make([]store.ChunkMeta, len(tt.chunks))
			files := make([]int32, len(tt.chunks))
			for i, c := range tt.chunks {
				meta[i] = store.ChunkMeta{ID: int64(i + 1), StartLine: c.start, EndLine: c.start + 1, Kind: c.kind, Symbols: c.syms}
				files[i] = c.file
			}
			got := markTestRegions(meta, files, 2)
			if !slices.Equal(got, tt.want) {
				t.Errorf("markTestRegions = %v, want %v", got, tt.want)
			}
		})
	}
}

// With testsToEnd off, the next module closes a test region.
func TestMarkTestRegionsSiblingCloses(t *testing.T) {
	old := weights.testsToEnd
	weights.testsToEnd = false
	defer func() { weights.testsToEnd = old }()
	meta := []store.ChunkMeta{
		{ID: 1, StartLine: 10, EndLine: 11, Kind: "module", Symbols: "Tests"},
		{ID: 2, StartLine: 12, EndLine: 13, Kind: "function", Symbols: "case"},
		{ID: 3, StartLine: 30, EndLine: 31, Kind: "module", Symbols: "helpers"},
		{ID: 4, StartLine: 35, EndLine: 36, Kind: "function", Symbols: "helper"},
	}
	got := markTestRegions(meta, []int32{0, 0, 0, 0}, 1)
	if want := []bool{true, true, false, false}; !slices.Equal(got, want) {
		t.Errorf("markTestRegions = %v, want %v", got, want)
	}
}
