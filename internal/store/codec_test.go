package store

import (
	"reflect"
	"slices"
	"testing"
)

func TestPostingsEncoding(t *testing.T) {
	list := []Posting{{ChunkID: 3, Freqs: [NumFields]uint16{1, 0, 0, 0, 0, 7}}, {ChunkID: 900, Freqs: [NumFields]uint16{0, 0, 2, 0, 1, 1000}}}
	got, err := DecodePostings(EncodePostings(list))
	if err != nil || !reflect.DeepEqual(got, list) {
		t.Fatalf("round trip: %v, %v", got, err)
	}
	for _, bad := range [][]byte{{0xff}, {5, 1}, {200, 1, 1}} {
		if _, err := DecodePostings(bad); err == nil {
			t.Errorf("decoding %v: no error", bad)
		}
	}
	lens := map[int64][NumFields]uint16{2: {1, 2, 3, 4, 5, 6}, 10: {0, 0, 0, 0, 0, 9}}
	d, err := DecodeDocLens(EncodeDocLens(lens))
	if err != nil || d.Len() != 2 || d.Lens[1][FieldBody] != 9 {
		t.Fatalf("doc lens round trip: %+v, %v", d, err)
	}
	if pos, ok := d.Pos(10); !ok || pos != 1 {
		t.Errorf("Pos(10) = %d, %v", pos, ok)
	}
	if _, ok := d.Pos(5); ok {
		t.Errorf("Pos(5) found a chunk that is not there")
	}
	if got, want := EncodeDocLensOf(d), EncodeDocLens(lens); !slices.Equal(got, want) {
		t.Errorf("EncodeDocLensOf = %x, EncodeDocLens = %x", got, want)
	}
	if got := EncodeDocLensOf(&DocLens{}); !slices.Equal(got, EncodeDocLens(nil)) {
		t.Errorf("EncodeDocLensOf of nothing = %x", got)
	}
	head := []Posting{{ChunkID: 1, Freqs: [NumFields]uint16{0, 0, 0, 0, 0, 1}}}
	joined, err := AppendPostings(slices.Clone(head), EncodePostings(list))
	if err != nil || !reflect.DeepEqual(joined, append(head, list...)) {
		t.Errorf("AppendPostings = %v, %v", joined, err)
	}
	if _, err := AppendPostings(nil, []byte{0xff}); err == nil {
		t.Errorf("AppendPostings of a corrupt list: no error")
	}
}

func TestDecodePostingsAt(t *testing.T) {
	// 64 chunks with ids 10, 20, …, 640: a list of 3 postings gallops, a
	// list of 8 or more steps through.
	lens := &DocLens{}
	for i := int64(1); i <= 64; i++ {
		lens.IDs = append(lens.IDs, i*10)
	}
	postings := func(ids ...int64) []Posting {
		var out []Posting
		for _, id := range ids {
			out = append(out, Posting{ChunkID: id, Freqs: [NumFields]uint16{FieldBody: uint16(id % 7)}})
		}
		return out
	}
	tests := []struct {
		name string
		list []Posting
		want []int32
	}{
		{"empty", nil, nil},
		{"short list gallops", postings(10, 330, 640), []int32{0, 32, 63}},
		{"unknown chunks are skipped", postings(5, 330, 331, 9999), []int32{32}},
		{"long list steps", postings(10, 20, 30, 40, 50, 60, 70, 80, 90, 655), []int32{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{"past the end", postings(700, 800), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodePostingsAt(EncodePostings(tt.list), lens)
			if err != nil {
				t.Fatal(err)
			}
			var pos []int32
			for _, h := range got {
				pos = append(pos, h.Pos)
				if want := uint16(lens.IDs[h.Pos] % 7); h.Freqs[FieldBody] != want {
					t.Errorf("position %d carries freqs %v, want body %d", h.Pos, h.Freqs, want)
				}
			}
			if !slices.Equal(pos, tt.want) {
				t.Errorf("positions = %v, want %v", pos, tt.want)
			}
		})
	}
}

func TestChunkMetaEncoding(t *testing.T) {
	tests := []struct {
		name string
		all  []ChunkMeta
	}{
		{"empty", nil},
		{"one chunk", []ChunkMeta{{ID: 7, FileID: 3, StartLine: 1, EndLine: 9, Kind: "function", Symbols: "Run"}}},
		{"files out of order, shared kinds, no symbols", []ChunkMeta{
			{ID: 1, FileID: 5, StartLine: 1, EndLine: 4, Kind: "block"},
			{ID: 2, FileID: 5, StartLine: 5, EndLine: 40, Kind: "class", Symbols: "Router\nRouter.Handle"},
			{ID: 9, FileID: 2, StartLine: 10, EndLine: 10, Kind: "block", Symbols: "x"},
			{ID: 300, FileID: 70000, StartLine: 1, EndLine: 2, Kind: "", Symbols: "ünïcode"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeChunkMeta(EncodeChunkMeta(tt.all))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.all) || (len(got) > 0 && !reflect.DeepEqual(got, tt.all)) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.all)
			}
		})
	}
	good := EncodeChunkMeta(tests[2].all)
	for _, bad := range [][]byte{good[:len(good)-1], good[:5], append(append([]byte{}, good...), 'x'), {0xff}} {
		if _, err := DecodeChunkMeta(bad); err == nil {
			t.Errorf("decoding %d corrupt bytes succeeded", len(bad))
		}
	}
}

// TestTermStatsInOrder: a chunk's terms come in byte order from either
// form of TermStats, Sorted first.
func TestTermStatsInOrder(t *testing.T) {
	sorted := []TermFreq{{Term: "a", Freqs: [NumFields]uint16{1}}, {Term: "b"}}
	for _, tc := range []struct {
		name string
		ts   TermStats
		want []TermFreq
	}{
		{"none", TermStats{}, nil},
		{"a map", TermStats{Freqs: map[string][NumFields]uint16{"z": {0, 2}, "Z": {3}, "a": {1}}},
			[]TermFreq{{Term: "Z", Freqs: [NumFields]uint16{3}}, {Term: "a", Freqs: [NumFields]uint16{1}}, {Term: "z", Freqs: [NumFields]uint16{0, 2}}}},
		{"sorted", TermStats{Sorted: sorted, Freqs: map[string][NumFields]uint16{"ignored": {1}}}, sorted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.ts.InOrder(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("InOrder() = %v, want %v", got, tc.want)
			}
		})
	}
}
