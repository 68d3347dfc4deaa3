package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestChangeRoundTrip(t *testing.T) {
	for _, c := range []*Change{
		{Lens: &DocLens{Avg: [NumFields]float64{1, 1, 1, 1, 1, 1}}},
		{
			RemovedFiles:  []int64{3, 9},
			Files:         []FileRow{{ID: 9, Path: "a/b.go", Language: "go", Lines: 40}, {ID: 12, Path: "ü/c.md", Language: "markdown"}},
			RemovedChunks: []int64{5, 6, 70},
			Lens:          &DocLens{IDs: []int64{101, 102}, Lens: [][NumFields]uint16{{1, 2, 3, 4, 5, 6}, {9, 0, 0, 0, 0, 1}}},
			Meta: []ChunkMeta{{ID: 101, FileID: 9, StartLine: 1, EndLine: 9, Kind: "function", Symbols: "A\nB"},
				{ID: 102, FileID: 12, StartLine: 3, EndLine: 3, Kind: "section"}},
			RemovedGrams: []string{"old.txt", "ü/x.png"},
			Grams:        []GramFile{{Path: "a/b.go", Size: 90, MTimeNS: -5}, {Path: "logo.png", Size: 1 << 40, MTimeNS: 1 << 62, Binary: true}},
			GramsReset:   true,
		},
	} {
		got, err := DecodeChange(EncodeChange(c))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.RemovedFiles, c.RemovedFiles) || !slices.Equal(got.Files, c.Files) ||
			!slices.Equal(got.RemovedChunks, c.RemovedChunks) || !slices.Equal(got.Lens.IDs, c.Lens.IDs) ||
			!slices.Equal(got.Lens.Lens, c.Lens.Lens) || !slices.Equal(got.Meta, c.Meta) ||
			!slices.Equal(got.RemovedGrams, c.RemovedGrams) || !slices.EqualFunc(got.Grams, c.Grams, func(a, b GramFile) bool {
			return a.Path == b.Path && a.Size == b.Size && a.MTimeNS == b.MTimeNS && a.Binary == b.Binary && b.Grams == nil
		}) || got.GramsReset != c.GramsReset {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, c)
		}
	}
}

// FuzzDecodeChange: a damaged record is an error, never a panic or a
// huge allocation.
func FuzzDecodeChange(f *testing.F) {
	f.Add(EncodeChange(&Change{RemovedFiles: []int64{1}, Files: []FileRow{{ID: 2, Path: "p", Language: "go", Lines: 3}},
		Lens: &DocLens{IDs: []int64{4}, Lens: [][NumFields]uint16{{1, 1, 1, 1, 1, 1}}},
		Meta: []ChunkMeta{{ID: 4, FileID: 2, Kind: "block"}}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeChange(b)
		if err == nil && len(c.Meta) != c.Lens.Len() {
			t.Fatalf("decoded %d metadata for %d lengths", len(c.Meta), c.Lens.Len())
		}
	})
}

// TestJoinLiveMatchesAFilter: joining parts in runs between dead chunks
// gives what filtering entry by entry gives, for sorted and unsorted
// parts.
func TestJoinLiveMatchesAFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for round := range 300 {
		var parts [][]Posting
		next := int64(1)
		for range rng.IntN(4) {
			var p []Posting
			for range rng.IntN(50) {
				next += int64(1 + rng.IntN(3))
				p = append(p, Posting{ChunkID: next})
			}
			if round%5 == 0 {
				rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			}
			parts = append(parts, p)
		}
		dead := IDSet{}
		for range rng.IntN(20) {
			dead[1+rng.Int64N(next+2)] = struct{}{}
		}
		var want []Posting
		for _, p := range parts {
			for _, v := range p {
				if !dead.Has(v.ChunkID) {
					want = append(want, v)
				}
			}
		}
		if got := JoinPostings(parts, dead); !slices.EqualFunc(got, want, func(a, b Posting) bool { return a.ChunkID == b.ChunkID }) {
			t.Fatalf("round %d: %v, want %v", round, got, want)
		}
	}
}
