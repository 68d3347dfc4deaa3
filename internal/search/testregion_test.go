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
		{name: "a sibling module after the tests closes them",
			chunks: []chunk{{0, 10, "module", "Tests"}, {0, 12, "function", "case"}, {0, 30, "module", "helpers"}, {0, 35, "function", "helper"}},
			want:   []bool{true, true, false, false}},
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
