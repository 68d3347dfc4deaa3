package embed

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// A tiny but real model2vec model, written by the tests themselves: a BERT
// WordPiece tokenizer.json and a safetensors matrix of testDim columns.

const testDim = 8

// testVocab is the WordPiece vocabulary; a token's id is its index.
var testVocab = []string{
	"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", // 0-4
	"hello", "world", "##s", "un", "##aff", // 5-9
	"##able", "cafe", ",", ".", "!", // 10-14
	"$", "的", "中", "go", "##lang", // 15-19
	"##ing", "run", "-", "a", "##b", // 20-24
	"x", "_", "123", "##4", "naive", // 25-29
}

// Added tokens beyond the vocabulary: one matched on the raw text, one
// (multi-word, as model2vec adds them) matched after normalisation.
const (
	idCodeTag = 30 // "<code>", normalized: false
	idNewYork = 31 // "new york", normalized: true
	testRows  = 32
)

// testRow returns row i of the embedding matrix: multiples of 1/4 in
// [-1.25, 1.25], exact in F16 and BF16, and integers times 1/4 so an I8
// copy (the integers) gives the same normalised vectors.
func testRow(i int) []float32 {
	row := make([]float32, testDim)
	for j := range row {
		row[j] = float32(testRowInt(i, j)) / 4
	}
	return row
}

func testRowInt(i, j int) int { return (i*7+j*3+1)%11 - 5 }

func testTokenizerJSON(t testing.TB) []byte {
	t.Helper()
	vocab := map[string]int{}
	for i, tok := range testVocab {
		vocab[tok] = i
	}
	added := []map[string]any{}
	for i, tok := range testVocab[:5] {
		added = append(added, map[string]any{"id": i, "content": tok, "single_word": false,
			"lstrip": false, "rstrip": false, "normalized": false, "special": true})
	}
	added = append(added,
		map[string]any{"id": idCodeTag, "content": "<code>", "single_word": false,
			"lstrip": false, "rstrip": false, "normalized": false, "special": false},
		map[string]any{"id": idNewYork, "content": "New York", "single_word": false,
			"lstrip": false, "rstrip": false, "normalized": true, "special": false})
	file := map[string]any{
		"version":      "1.0",
		"truncation":   nil,
		"padding":      nil,
		"added_tokens": added,
		"normalizer": map[string]any{"type": "BertNormalizer", "clean_text": true,
			"handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer":  map[string]any{"type": "BertPreTokenizer"},
		"post_processor": nil,
		"decoder":        map[string]any{"type": "WordPiece", "prefix": "##", "cleanup": true},
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]",
			"continuing_subword_prefix": "##", "max_input_chars_per_word": 12, "vocab": vocab},
	}
	data, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// safetensorsTensor describes one tensor to write.
type safetensorsTensor struct {
	name  string
	dtype string
	shape []int64
	data  []byte
}

// buildSafetensors lays tensors out in the safetensors format, in the given
// order.
func buildSafetensors(t testing.TB, tensors ...safetensorsTensor) []byte {
	t.Helper()
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var body []byte
	for _, ts := range tensors {
		header[ts.name] = map[string]any{"dtype": ts.dtype, "shape": ts.shape,
			"data_offsets": []int{len(body), len(body) + len(ts.data)}}
		body = append(body, ts.data...)
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(out, h...)
	return append(out, body...)
}

// embeddingTensor encodes the test matrix in dtype.
func embeddingTensor(t testing.TB, dtype string) safetensorsTensor {
	t.Helper()
	var data []byte
	for i := range testRows {
		for j, x := range testRow(i) {
			switch dtype {
			case "F32":
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(x))
			case "F64":
				data = binary.LittleEndian.AppendUint64(data, math.Float64bits(float64(x)))
			case "F16":
				data = binary.LittleEndian.AppendUint16(data, float32ToFloat16(t, x))
			case "BF16":
				data = binary.LittleEndian.AppendUint16(data, uint16(math.Float32bits(x)>>16))
			case "I8":
				data = append(data, byte(int8(testRowInt(i, j))))
			default:
				t.Fatalf("dtype %s", dtype)
			}
		}
	}
	return safetensorsTensor{name: "embeddings", dtype: dtype, shape: []int64{testRows, testDim}, data: data}
}

// float32ToFloat16 encodes the normal, exactly representable values the
// test matrix uses.
func float32ToFloat16(t testing.TB, x float32) uint16 {
	t.Helper()
	if x == 0 {
		return 0
	}
	bits := math.Float32bits(x)
	sign := uint16(bits>>16) & 0x8000
	exp := int(bits>>23&0xff) - 127 + 15
	mant := bits & 0x7fffff
	if exp <= 0 || exp >= 0x1f || mant&0x1fff != 0 {
		t.Fatalf("%v is not exactly representable as a normal float16", x)
	}
	return sign | uint16(exp)<<10 | uint16(mant>>13)
}

func f32Bytes(values ...float32) []byte {
	var b []byte
	for _, v := range values {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// writeTestModel writes a model folder with the given weights file and the
// test tokenizer, and returns its path.
func writeTestModel(t testing.TB, weights []byte) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, modelWeightsFile), weights)
	writeFile(t, filepath.Join(dir, modelTokenizerFile), testTokenizerJSON(t))
	writeFile(t, filepath.Join(dir, modelConfigFile), []byte(`{"model_type":"model2vec","normalize":true,"hidden_dim":8}`))
	return dir
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// expectedVector computes the normalised (weighted) mean of the given rows
// in float64, independently of the code under test.
func expectedVector(ids []int, rowOf func(int) int, weightOf func(int) float64) []float64 {
	sum := make([]float64, testDim)
	for _, id := range ids {
		row := testRow(rowOf(id))
		for j, x := range row {
			sum[j] += weightOf(id) * float64(x)
		}
	}
	var norm float64
	for _, x := range sum {
		norm += x * x
	}
	norm = math.Sqrt(norm)
	if norm == 0 {
		return sum
	}
	for j := range sum {
		sum[j] /= norm
	}
	return sum
}

func identity(id int) int    { return id }
func unitWeight(int) float64 { return 1 }
