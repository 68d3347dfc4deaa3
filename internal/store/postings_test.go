package store

import (
	"slices"
	"testing"
)

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
			got, err := decodePostingsAt(encodePostings(tt.list), lens)
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
