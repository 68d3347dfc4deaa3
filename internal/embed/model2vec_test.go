package embed

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func loadTestModel(t *testing.T, dtype string) *Model2Vec {
	t.Helper()
	m, err := LoadModel2Vec(writeTestModel(t, buildSafetensors(t, embeddingTensor(t, dtype))))
	if err != nil {
		t.Fatalf("LoadModel2Vec: %v", err)
	}
	return m
}

func TestTokenizerEncode(t *testing.T) {
	m := loadTestModel(t, "F32")
	cases := []struct {
		text string
		want []int // tokenizer output, before the embedder drops special/unknown ids
	}{
		{"hello", []int{5}},
		{"Hello, World!", []int{5, 12, 6, 14}},
		{"HELLO   world\n", []int{5, 6}},
		{"hellos", []int{5, 7}},
		{"unaffable", []int{8, 9, 10}},
		{"golang going", []int{18, 19, 18, 20}},
		{"Café", []int{11}},               // accents stripped, lowercased
		{"NAÏVE", []int{29}},              // NFD splits Ï into I + diaeresis
		{"$1234", []int{15, 27, 28}},      // $ is ASCII punctuation
		{"a_x", []int{23, 26, 25}},        // _ is punctuation for BERT
		{"a-b", []int{23, 22, 1}},         // "b" alone is unknown ("##b" only continues)
		{"ab", []int{23, 24}},             // …but continues "a"
		{"xyz", []int{1}},                 // one unknown piece makes the word unknown
		{"中的", []int{17, 16}},             // CJK characters are split apart
		{"hello\x00\tworld", []int{5, 6}}, // NUL dropped, tab is whitespace
		{"hel\u200blo", []int{5}},         // zero-width space (Cf) is removed
		{"hello\u00a0world", []int{5, 6}}, // no-break space separates words
		{"runrunrunrunrun", []int{1}},     // longer than max_input_chars_per_word
		{"[CLS] hello [SEP]", []int{2, 5, 3}},
		{"[cls]", []int{1, 1, 1}}, // special tokens match case-sensitively, before lowercasing
		{"x<code>x", []int{25, idCodeTag, 25}},
		{"<CODE>", []int{1, 1, 1}}, // raw added tokens are not normalised: "<", "code", ">"
		{"I love New York.", []int{1, 1, idNewYork, 13}},
		{"NEW YORK", []int{idNewYork}}, // normalised added token matches normalised text
		{"", nil},
		{"   ", nil},
	}
	for _, c := range cases {
		got := m.tok.encode(c.text)
		if !slices.Equal(got, c.want) {
			t.Errorf("encode(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestModel2VecVectors(t *testing.T) {
	for _, dtype := range []string{"F32", "F16", "BF16", "F64", "I8"} {
		t.Run(dtype, func(t *testing.T) {
			m := loadTestModel(t, dtype)
			if m.Dim() != testDim {
				t.Fatalf("Dim = %d, want %d", m.Dim(), testDim)
			}
			cases := []struct {
				text string
				ids  []int // the ids whose rows are averaged
			}{
				{"hello", []int{5}},
				{"Hello, World!", []int{5, 12, 6, 14}},
				{"[CLS] hello xyz [SEP] [PAD]", []int{5}}, // special and unknown tokens skipped
				{"hello hello world", []int{5, 5, 6}},     // repeats count
				{"New York <code>", []int{idNewYork, idCodeTag}},
			}
			texts := make([]string, len(cases))
			for i, c := range cases {
				texts[i] = c.text
			}
			got, err := m.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range cases {
				assertVector(t, c.text, got[i], expectedVector(c.ids, identity, unitWeight))
			}
		})
	}
}

func TestModel2VecEmptyTextsGiveZeroVectors(t *testing.T) {
	m := loadTestModel(t, "F32")
	got, err := m.Embed(context.Background(), []string{"", "xyz [CLS]", "  \t"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if len(v) != testDim || slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) {
			t.Errorf("text %d: got %v, want a zero vector of %d", i, v, testDim)
		}
	}
}

func TestModel2VecWeightsAndMapping(t *testing.T) {
	// A vocabulary-quantised model: 32 tokens share 6 rows through
	// "mapping", and "weights" scales each token.
	emb := embeddingTensor(t, "F32")
	emb.shape = []int64{6, testDim}
	emb.data = emb.data[:6*testDim*4]
	var mapping []byte
	weights := make([]float32, testRows)
	for id := range testRows {
		mapping = binary.LittleEndian.AppendUint64(mapping, uint64(id%6))
		weights[id] = 0.5 + float32(id%3)
	}
	m, err := LoadModel2Vec(writeTestModel(t, buildSafetensors(t, emb,
		safetensorsTensor{name: "mapping", dtype: "I64", shape: []int64{testRows}, data: mapping},
		safetensorsTensor{name: "weights", dtype: "F32", shape: []int64{testRows}, data: f32Bytes(weights...)},
	)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Embed(context.Background(), []string{"Hello, World!"})
	if err != nil {
		t.Fatal(err)
	}
	want := expectedVector([]int{5, 12, 6, 14},
		func(id int) int { return id % 6 },
		func(id int) float64 { return float64(weights[id]) })
	assertVector(t, "Hello, World!", got[0], want)
}

func TestModel2VecTruncatesLongTexts(t *testing.T) {
	m := loadTestModel(t, "F32")
	// One-character tokens: the token cap bites before the character cap.
	ids := m.tokenIDs(strings.Repeat("$", MaxTokens+100) + " hello")
	if len(ids) != MaxTokens || slices.Contains(ids, 5) {
		t.Errorf("got %d ids (contains hello: %v), want the first %d dollars", len(ids), slices.Contains(ids, 5), MaxTokens)
	}
	// Long tokens: text beyond MaxTokens × the median token length is cut
	// before tokenising, as model2vec does.
	if want := MaxTokens * medianRuneLength(m.tok.tokens()); m.maxChars != want {
		t.Errorf("maxChars = %d, want %d", m.maxChars, want)
	}
	ids = m.tokenIDs(strings.Repeat("hello ", MaxTokens))
	wantHellos := m.maxChars / len("hello ")
	if m.maxChars%len("hello ") >= len("hello") {
		wantHellos++
	}
	if len(ids) != wantHellos {
		t.Errorf("got %d ids, want %d (the hellos within %d characters)", len(ids), wantHellos, m.maxChars)
	}
	if got := m.tokenIDs(strings.Repeat("x", 10*m.maxChars)); len(got) != 0 {
		t.Errorf("huge unknown word gave ids %v", got)
	}
}

func TestMedianRuneLength(t *testing.T) {
	cases := []struct {
		tokens []string
		want   int
	}{
		{nil, 1},
		{[]string{"a"}, 1},
		{[]string{"a", "bcd"}, 2},
		{[]string{"a", "bc"}, 1}, // (1+2)/2 rounded down
		{[]string{"ab", "中文字", "x", "wxyz", "##é"}, 3},
	}
	for _, c := range cases {
		if got := medianRuneLength(c.tokens); got != c.want {
			t.Errorf("medianRuneLength(%q) = %d, want %d", c.tokens, got, c.want)
		}
	}
}

func TestModel2VecIDAndConcurrency(t *testing.T) {
	dir := writeTestModel(t, buildSafetensors(t, embeddingTensor(t, "F32")))
	m1, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	if !regexp.MustCompile(`^model2vec:` + regexp.QuoteMeta(abs) + `@[0-9a-f]{12}$`).MatchString(m1.ID()) {
		t.Errorf("ID %q has the wrong form", m1.ID())
	}
	m2, _ := LoadModel2Vec(dir)
	if m1.ID() != m2.ID() {
		t.Errorf("ID not stable: %q vs %q", m1.ID(), m2.ID())
	}
	// Different weights, same folder: a different ID.
	writeFile(t, filepath.Join(dir, modelWeightsFile), buildSafetensors(t, embeddingTensor(t, "F16")))
	m3, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m3.ID() == m1.ID() {
		t.Errorf("ID did not change with the weights: %q", m3.ID())
	}

	done := make(chan error)
	for range 4 {
		go func() {
			_, err := m1.Embed(context.Background(), []string{"hello world", "Café New York"})
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func TestModel2VecCancelled(t *testing.T) {
	m := loadTestModel(t, "F32")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := m.Embed(ctx, []string{"hello"})
	if !errors.Is(err, context.Canceled) || errs.KindOf(err) != errs.Cancelled {
		t.Errorf("err = %v, want cancellation", err)
	}
}

func TestLoadModel2VecErrors(t *testing.T) {
	good := buildSafetensors(t, embeddingTensor(t, "F32"))
	withHeader := func(header string, body []byte) []byte {
		out := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
		return append(append(out, header...), body...)
	}
	nanRows := embeddingTensor(t, "F32")
	nanRows.data = slices.Clone(nanRows.data)
	binary.LittleEndian.PutUint32(nanRows.data[4*testDim*3:], math.Float32bits(float32(math.NaN())))

	cases := []struct {
		name     string
		weights  []byte // nil: do not write model.safetensors
		noTok    bool
		tok      string // replaces tokenizer.json when set
		config   string // replaces config.json when set
		wantKind errs.Kind
		wantMsg  string
	}{
		{name: "missing weights", weights: nil, wantKind: errs.NotFound, wantMsg: "has no model.safetensors"},
		{name: "missing tokenizer", weights: good, noTok: true, wantKind: errs.NotFound, wantMsg: "has no tokenizer.json"},
		{name: "truncated header length", weights: []byte{1, 2, 3}, wantKind: errs.Invalid, wantMsg: "too short for the 8-byte header length"},
		{name: "header longer than file", weights: good[:40], wantKind: errs.Invalid, wantMsg: "exceeds the file size"},
		{name: "bad header JSON", weights: withHeader(`{"embeddings": [`, nil), wantKind: errs.Invalid, wantMsg: "malformed JSON header"},
		{name: "bad dtype", weights: withHeader(`{"embeddings":{"dtype":"Q4","shape":[32,8],"data_offsets":[0,256]}}`, make([]byte, 256)),
			wantKind: errs.Invalid, wantMsg: `tensor "embeddings" has dtype Q4, want F32, F16, BF16, F64 or I8`},
		{name: "unused tensor of unknown dtype is fine", weights: withHeader(`{"embeddings":{"dtype":"F32","shape":[2,8],"data_offsets":[0,64]},"extra":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[64,65]}}`, make([]byte, 65)),
			wantKind: errs.Invalid, wantMsg: "has 2 rows but the tokenizer"},
		{name: "mapping of unknown dtype", weights: buildSafetensors(t, embeddingTensor(t, "F32"),
			safetensorsTensor{name: "mapping", dtype: "U16", shape: []int64{32}, data: make([]byte, 64)}),
			wantKind: errs.Invalid, wantMsg: `tensor "mapping": unsupported dtype "U16"`},
		{name: "mapping outside the rows", weights: buildSafetensors(t, embeddingTensor(t, "F32"),
			safetensorsTensor{name: "mapping", dtype: "I32", shape: []int64{32}, data: slices.Repeat([]byte{40, 0, 0, 0}, 32)}),
			wantKind: errs.Invalid, wantMsg: "token 0 maps to row 40, outside the 32 embedding rows"},
		{name: "weights too short", weights: buildSafetensors(t, embeddingTensor(t, "F32"),
			safetensorsTensor{name: "weights", dtype: "F32", shape: []int64{2}, data: f32Bytes(1, 2)}),
			wantKind: errs.Invalid, wantMsg: `tensor "weights" has shape [2], want [32]`},
		{name: "shape does not match data", weights: withHeader(`{"embeddings":{"dtype":"F32","shape":[32,8],"data_offsets":[0,256]}}`, make([]byte, 256)),
			wantKind: errs.Invalid, wantMsg: "needs 1024 bytes, data_offsets give 256"},
		{name: "data beyond file", weights: withHeader(`{"embeddings":{"dtype":"F32","shape":[32,8],"data_offsets":[0,1024]}}`, make([]byte, 100)),
			wantKind: errs.Invalid, wantMsg: "outside the 100 data bytes"},
		{name: "fewer rows than tokens", weights: withHeader(`{"embeddings":{"dtype":"F32","shape":[16,8],"data_offsets":[0,512]}}`, make([]byte, 512)),
			wantKind: errs.Invalid, wantMsg: "shape mismatch: tensor \"embeddings\" has 16 rows but the tokenizer has token ids up to 31"},
		{name: "1-D embeddings", weights: withHeader(`{"embeddings":{"dtype":"F32","shape":[256],"data_offsets":[0,1024]}}`, make([]byte, 1024)),
			wantKind: errs.Invalid, wantMsg: "want [vocab, dim]"},
		{name: "integer embeddings", weights: withHeader(`{"embeddings":{"dtype":"I32","shape":[32,8],"data_offsets":[0,1024]}}`, make([]byte, 1024)),
			wantKind: errs.Invalid, wantMsg: "has dtype I32"},
		{name: "no embeddings tensor", weights: withHeader(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, make([]byte, 8)),
			wantKind: errs.Invalid, wantMsg: `no "embeddings" tensor (tensors: a, b)`},
		{name: "NaN in weights", weights: buildSafetensors(t, nanRows), wantKind: errs.Invalid, wantMsg: "row 3 holds NaN"},
		{name: "malformed tokenizer", weights: good, tok: `{"model":`, wantKind: errs.Invalid, wantMsg: "tokenizer.json: malformed JSON"},
		{name: "BPE tokenizer", weights: good, tok: `{"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`,
			wantKind: errs.Invalid, wantMsg: `tokenizer model type "BPE" is not supported`},
		{name: "Metaspace pre-tokenizer", weights: good, tok: `{"pre_tokenizer":{"type":"Metaspace"},"model":{"type":"WordPiece","unk_token":"[UNK]","vocab":{"[UNK]":0}}}`,
			wantKind: errs.Invalid, wantMsg: `pre-tokenizer type "Metaspace" is not supported`},
		{name: "Precompiled normalizer", weights: good, tok: `{"normalizer":{"type":"Precompiled"},"model":{"type":"WordPiece","unk_token":"[UNK]","vocab":{"[UNK]":0}}}`,
			wantKind: errs.Invalid, wantMsg: `normalizer type "Precompiled" is not supported`},
		{name: "unk token not in vocab", weights: good, tok: `{"model":{"type":"WordPiece","unk_token":"[UNK]","vocab":{"a":0}}}`,
			wantKind: errs.Invalid, wantMsg: `unk_token "[UNK]" is not in the vocabulary`},
		{name: "no model section", weights: good, tok: `{}`, wantKind: errs.Invalid, wantMsg: `no "model" section`},
		{name: "bad config", weights: good, config: `{"normalize":`, wantKind: errs.Invalid, wantMsg: "config.json: malformed JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTestModel(t, good)
			if c.weights == nil {
				os.Remove(filepath.Join(dir, modelWeightsFile))
			} else {
				writeFile(t, filepath.Join(dir, modelWeightsFile), c.weights)
			}
			if c.noTok {
				os.Remove(filepath.Join(dir, modelTokenizerFile))
			}
			if c.tok != "" {
				writeFile(t, filepath.Join(dir, modelTokenizerFile), []byte(c.tok))
			}
			if c.config != "" {
				writeFile(t, filepath.Join(dir, modelConfigFile), []byte(c.config))
			}
			_, err := LoadModel2Vec(dir)
			if err == nil {
				t.Fatal("LoadModel2Vec succeeded, want error")
			}
			if errs.KindOf(err) != c.wantKind || !strings.Contains(err.Error(), c.wantMsg) {
				t.Errorf("error %q (kind %v), want kind %v containing %q", err, errs.KindOf(err), c.wantKind, c.wantMsg)
			}
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("error %q does not name the folder %s", err, dir)
			}
		})
	}
}

func TestLoadModel2VecWithoutConfig(t *testing.T) {
	dir := writeTestModel(t, buildSafetensors(t, embeddingTensor(t, "F32")))
	os.Remove(filepath.Join(dir, modelConfigFile))
	if _, err := LoadModel2Vec(dir); err != nil {
		t.Errorf("config.json is optional: %v", err)
	}
}

func TestFloat16Conversion(t *testing.T) {
	cases := []struct {
		bits uint16
		want float32
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xc000, -2}, {0x3555, 0.333251953125},
		{0x7bff, 65504}, {0x0001, 5.960464477539063e-08}, {0x0400, 6.103515625e-05},
		{0x7c00, float32(math.Inf(1))}, {0xfc00, float32(math.Inf(-1))},
	}
	for _, c := range cases {
		if got := float16ToFloat32(c.bits); got != c.want {
			t.Errorf("float16ToFloat32(%#04x) = %v, want %v", c.bits, got, c.want)
		}
	}
	if got := float16ToFloat32(0x7e00); !math.IsNaN(float64(got)) {
		t.Errorf("0x7e00 = %v, want NaN", got)
	}
	if got := float16ToFloat32(0x8000); got != 0 || !math.Signbit(float64(got)) {
		t.Errorf("0x8000 = %v, want -0", got)
	}
}

func TestParse(t *testing.T) {
	dir := writeTestModel(t, buildSafetensors(t, embeddingTensor(t, "F32")))
	t.Setenv("LORE_OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_BASE_URL", "")
	cases := []struct {
		spec     string
		wantNil  bool
		wantID   string // prefix
		wantKind errs.Kind
		wantErr  string
	}{
		{spec: "", wantNil: true},
		{spec: "builtin", wantNil: true},
		{spec: " builtin ", wantNil: true},
		{spec: "model2vec:" + dir, wantID: "model2vec:" + dir + "@"},
		{spec: "openai:text-embedding-3-small", wantID: "openai:text-embedding-3-small@https://api.openai.com/v1"},
		{spec: "model2vec:", wantKind: errs.Invalid, wantErr: "missing model folder"},
		{spec: "openai:", wantKind: errs.Invalid, wantErr: "missing model name"},
		{spec: "model2vec:" + filepath.Join(dir, "nope"), wantKind: errs.NotFound, wantErr: "does not exist"},
		{spec: "word2vec:x", wantKind: errs.Invalid, wantErr: `unknown embedder "word2vec:x"`},
		{spec: "openai", wantKind: errs.Invalid, wantErr: `unknown embedder "openai"`},
	}
	for _, c := range cases {
		e, err := Parse(c.spec)
		switch {
		case c.wantErr != "":
			if err == nil || errs.KindOf(err) != c.wantKind || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Parse(%q) error = %v, want kind %v containing %q", c.spec, err, c.wantKind, c.wantErr)
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", c.spec, err)
		case c.wantNil:
			if e != nil {
				t.Errorf("Parse(%q) = %v, want nil", c.spec, e)
			}
		case e == nil || !strings.HasPrefix(e.ID(), c.wantID):
			t.Errorf("Parse(%q) ID = %v, want prefix %q", c.spec, e, c.wantID)
		}
	}
}

func assertVector(t *testing.T, label string, got []float32, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d dims, want %d", label, len(got), len(want))
	}
	for j := range got {
		if math.Abs(float64(got[j])-want[j]) > 1e-6 {
			t.Errorf("%s: got %v, want %v", label, got, want)
			return
		}
	}
}

func BenchmarkModel2VecEmbed(b *testing.B) {
	m, err := LoadModel2Vec(writeTestModel(b, buildSafetensors(b, embeddingTensor(b, "F32"))))
	if err != nil {
		b.Fatal(err)
	}
	// About 2 KB of code-like text, a typical chunk.
	text := strings.Repeat("func (s *Server) HandleRequest(ctx context.Context, req *Request) error { return nil } // Café New York\n", 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := m.Embed(context.Background(), []string{text}); err != nil {
			b.Fatal(err)
		}
	}
}
