package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestConcatMatchesJoin: joining encoded parts gives exactly the bytes of
// encoding the joined, decoded parts, with and without tombstones, with
// empty parts and kinds that differ from part to part.
func TestConcatMatchesJoin(t *testing.T) {
	kinds := []string{"function", "class", "block", "method", ""}
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 99))
		var lensParts, metaParts [][]byte
		var lensDec []*DocLens
		var metaDec [][]ChunkMeta
		dead := IDSet{}
		id, file := int64(0), int64(0)
		for range rng.IntN(6) {
			lens := &DocLens{}
			var meta []ChunkMeta
			for range rng.IntN(30) {
				id += 1 + rng.Int64N(300)
				file += rng.Int64N(3) - 1 // files need not increase
				var l [NumFields]uint16
				for f := range l {
					l[f] = uint16(rng.IntN(70000))
				}
				lens.IDs, lens.Lens = append(lens.IDs, id), append(lens.Lens, l)
				start := int32(rng.IntN(5000))
				meta = append(meta, ChunkMeta{ID: id, FileID: file, StartLine: start, EndLine: start + int32(rng.IntN(80)),
					Kind: kinds[rng.IntN(len(kinds))], Symbols: fmt.Sprintf("S%d\nT%d", rng.IntN(9), id)[:rng.IntN(6)]})
				if seed%3 != 0 && rng.IntN(4) == 0 {
					dead[id] = struct{}{}
				}
			}
			lensParts = append(lensParts, EncodeDocLensOf(lens))
			metaParts = append(metaParts, EncodeChunkMeta(meta))
			decoded, err := DecodeDocLens(lensParts[len(lensParts)-1])
			if err != nil {
				t.Fatal(err)
			}
			lensDec = append(lensDec, decoded)
			metaDec = append(metaDec, meta)
		}
		joined := JoinDocLens(lensDec, dead)
		got, n, err := ConcatDocLens(lensParts, dead)
		if err != nil || n != joined.Len() || !slices.Equal(got, EncodeDocLensOf(joined)) {
			t.Fatalf("seed %d: ConcatDocLens = %x (%d chunks), %v; want %x (%d)", seed, got, n, err, EncodeDocLensOf(joined), joined.Len())
		}
		want := EncodeChunkMeta(JoinChunkMeta(metaDec, dead))
		gotMeta, err := ConcatChunkMeta(metaParts, dead)
		if err != nil || !slices.Equal(gotMeta, want) {
			t.Fatalf("seed %d: ConcatChunkMeta = %x, %v; want %x", seed, gotMeta, err, want)
		}
	}
}

func TestConcatCorrupt(t *testing.T) {
	good := EncodeChunkMeta([]ChunkMeta{{ID: 3, FileID: 1, StartLine: 1, EndLine: 4, Kind: "function", Symbols: "Run"}})
	for _, bad := range [][]byte{{0xff}, {5, 1}, good[:len(good)-1], append(slices.Clone(good), 'x')} {
		if _, err := ConcatChunkMeta([][]byte{bad}, nil); err == nil {
			t.Errorf("ConcatChunkMeta(%x): no error", bad)
		}
	}
	for _, bad := range [][]byte{{0xff}, {5, 1}, {2, 1, 1}} {
		if _, _, err := ConcatDocLens([][]byte{bad}, nil); err == nil {
			t.Errorf("ConcatDocLens(%x): no error", bad)
		}
	}
}
