package embed

import (
	"math/rand/v2"
	"testing"
)

// Bad input must give errors, never panics: random bytes through the
// tokenizers, random corruptions of a safetensors file through the parser.

func TestTokenizersSurviveArbitraryBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	tok, err := parseTokenizer(testTokenizerJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		for _, id := range tok.encode(string(b)) {
			if id < 0 || id > tok.maxID() {
				t.Fatalf("encode(%q) produced id %d", b, id)
			}
		}
	}
}

func TestSafetensorsSurvivesCorruption(t *testing.T) {
	good := buildSafetensors(t, embeddingTensor(t, "F16"),
		safetensorsTensor{name: "weights", dtype: "F32", shape: []int64{2}, data: f32Bytes(1, 2)})
	rng := rand.New(rand.NewPCG(1, 7))
	for range 5000 {
		bad := append([]byte(nil), good...)
		switch rng.IntN(3) {
		case 0: // flip bytes, often in the header
			for range 1 + rng.IntN(4) {
				bad[rng.IntN(min(len(bad), 200))] = byte(rng.IntN(256))
			}
		case 1: // truncate
			bad = bad[:rng.IntN(len(bad))]
		default: // random header length
			for i := range 8 {
				bad[i] = byte(rng.IntN(256))
			}
		}
		tensors, err := parseSafetensors(bad)
		if err != nil {
			continue
		}
		for _, ts := range tensors {
			if _, err := ts.float32s(); err != nil {
				continue
			}
		}
	}
}

func FuzzParseSafetensors(f *testing.F) {
	f.Add(buildSafetensors(f, embeddingTensor(f, "F32")))
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 0, '{', '}'})
	f.Fuzz(func(t *testing.T, data []byte) {
		tensors, err := parseSafetensors(data)
		if err != nil {
			return
		}
		for _, ts := range tensors {
			ts.float32s()
		}
	})
}
