package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
)

// MaxTokens is how many tokens of a text a model2vec model embeds; the rest
// is ignored, as in the model2vec library (which uses the same default).
const MaxTokens = 512

// Files of a model2vec model folder.
const (
	modelWeightsFile   = "model.safetensors"
	modelTokenizerFile = "tokenizer.json"
	modelConfigFile    = "config.json" // optional
)

// idHashLen is how many hex digits of the model files' hash the ID keeps.
const idHashLen = 12

// Model2Vec is a static embedding model in the model2vec format: a matrix
// with one vector per vocabulary token and the tokenizer that produced the
// vocabulary. A text's vector is the mean of its tokens' vectors, L2
// normalised. Safe for concurrent use.
type Model2Vec struct {
	id  string
	dim int
	tok *tokenizer
	// rows holds the embedding matrix, row-major, rows×dim.
	rows []float32
	// mapping, when present, maps token id → row (vocabulary-quantised
	// models share rows between tokens); nil means row = token id.
	mapping []int
	// weights, when present, scales each token's row.
	weights []float32
	// maxChars bounds the text looked at before tokenising, so a huge input
	// costs no more than MaxTokens need (model2vec: MaxTokens × the median
	// token length).
	maxChars int
}

// LoadModel2Vec loads the model2vec model in dir: model.safetensors (a 2-D
// "embeddings" tensor of F32, F16, BF16, F64 or I8, shape [vocab, dim], with
// optional "weights" and "mapping" tensors), tokenizer.json and, if present,
// config.json. Model2vec's "normalize" setting does not matter: the vectors
// are always L2-normalised.
func LoadModel2Vec(dir string) (*Model2Vec, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errs.New(errs.Invalid, CodeInvalidEmbedder, "model folder %q: %v", dir, err).Wrap(err)
	}
	info, err := os.Stat(abs)
	if err != nil || !info.IsDir() {
		return nil, errs.New(errs.NotFound, CodeModelNotFound,
			"model2vec model folder %s does not exist (it should hold model.safetensors and tokenizer.json)", abs).Wrap(err)
	}
	weightsData, err := readModelFile(abs, modelWeightsFile)
	if err != nil {
		return nil, err
	}
	tokenizerData, err := readModelFile(abs, modelTokenizerFile)
	if err != nil {
		return nil, err
	}
	if configData, err := os.ReadFile(filepath.Join(abs, modelConfigFile)); err == nil {
		var cfg map[string]any
		if err := json.Unmarshal(configData, &cfg); err != nil {
			return nil, modelInvalid(abs, modelConfigFile, fmt.Errorf("malformed JSON: %w", err))
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, modelInvalid(abs, modelConfigFile, err)
	}

	tok, err := parseTokenizer(tokenizerData)
	if err != nil {
		return nil, modelInvalid(abs, modelTokenizerFile, err)
	}
	m := &Model2Vec{tok: tok}
	if err := m.loadWeights(weightsData); err != nil {
		return nil, modelInvalid(abs, modelWeightsFile, err)
	}
	m.maxChars = MaxTokens * medianRuneLength(tok.tokens())

	// The ID changes whenever the weights or the tokenizer change: either
	// changes every vector.
	h := sha256.New()
	h.Write(weightsData)
	h.Write(tokenizerData)
	m.id = "model2vec:" + abs + "@" + hex.EncodeToString(h.Sum(nil))[:idHashLen]
	return m, nil
}

func readModelFile(dir, name string) ([]byte, error) {
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errs.New(errs.NotFound, CodeModelNotFound, "model2vec model in %s has no %s", dir, name).Wrap(err)
	}
	if err != nil {
		return nil, modelInvalid(dir, name, err)
	}
	return data, nil
}

func modelInvalid(dir, name string, err error) error {
	return errs.New(errs.Invalid, CodeModelInvalid, "model2vec model %s: %s: %v", dir, name, err).Wrap(err)
}

func (m *Model2Vec) loadWeights(data []byte) error {
	tensors, err := parseSafetensors(data)
	if err != nil {
		return err
	}
	emb, ok := tensors["embeddings"]
	if !ok {
		emb, ok = tensors["embedding.weight"] // sentence-transformers StaticEmbedding
	}
	if !ok && len(tensors) == 1 {
		for _, t := range tensors {
			emb, ok = t, true
		}
	}
	if !ok {
		return fmt.Errorf("no \"embeddings\" tensor (tensors: %s)", tensors.names())
	}
	if len(emb.shape) != 2 || emb.shape[0] == 0 || emb.shape[1] == 0 {
		return fmt.Errorf("tensor %q has shape %v, want [vocab, dim]", emb.name, emb.shape)
	}
	switch emb.dtype {
	case "F32", "F16", "BF16", "F64", "I8":
	default:
		return fmt.Errorf("tensor %q has dtype %s, want F32, F16, BF16, F64 or I8", emb.name, emb.dtype)
	}
	if m.rows, err = emb.float32s(); err != nil {
		return err
	}
	numRows, dim := int(emb.shape[0]), int(emb.shape[1])
	m.dim = dim
	for i, x := range m.rows {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("tensor %q: row %d holds %v", emb.name, i/dim, x)
		}
	}

	vocabSize := m.tok.maxID() + 1
	if t, ok := tensors["mapping"]; ok {
		ids, err := t.ints()
		if err != nil {
			return err
		}
		if len(t.shape) != 1 || len(ids) < vocabSize {
			return fmt.Errorf("tensor \"mapping\" has shape %v, want [%d] (one row index per token)", t.shape, vocabSize)
		}
		m.mapping = make([]int, len(ids))
		for i, row := range ids {
			if row < 0 || row >= int64(numRows) {
				return fmt.Errorf("tensor \"mapping\": token %d maps to row %d, outside the %d embedding rows", i, row, numRows)
			}
			m.mapping[i] = int(row)
		}
	} else if numRows < vocabSize {
		return fmt.Errorf("shape mismatch: tensor %q has %d rows but the tokenizer has token ids up to %d", emb.name, numRows, vocabSize-1)
	}
	if t, ok := tensors["weights"]; ok {
		if len(t.shape) != 1 || t.shape[0] < int64(vocabSize) {
			return fmt.Errorf("tensor \"weights\" has shape %v, want [%d] (one weight per token)", t.shape, vocabSize)
		}
		if m.weights, err = t.float32s(); err != nil {
			return err
		}
	}
	return nil
}

// ID returns "model2vec:<abs dir>@<hash of the weights and tokenizer>".
func (m *Model2Vec) ID() string { return m.id }

// Dim returns the vector length.
func (m *Model2Vec) Dim() int { return m.dim }

// Embed returns the normalised mean token vector of each text.
func (m *Model2Vec) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("embedding texts: %w", err)
			}
		}
		out[i] = m.embedOne(text)
	}
	return out, nil
}

func (m *Model2Vec) embedOne(text string) []float32 {
	ids := m.tokenIDs(text)
	sum := make([]float64, m.dim)
	for _, id := range ids {
		row := id
		if m.mapping != nil {
			row = m.mapping[id]
		}
		w := 1.0
		if m.weights != nil {
			w = float64(m.weights[id])
		}
		vec := m.rows[row*m.dim : (row+1)*m.dim]
		for j, x := range vec {
			sum[j] += w * float64(x)
		}
	}
	v := make([]float32, m.dim)
	if len(ids) == 0 {
		return v
	}
	// The mean's 1/n factor disappears in the normalisation.
	for j, x := range sum {
		v[j] = float32(x)
	}
	Normalize(v)
	return v
}

// tokenIDs returns the ids that count for text's vector: the tokenizer's
// ids without special tokens and the unknown token, at most MaxTokens.
func (m *Model2Vec) tokenIDs(text string) []int {
	if utf8.RuneCountInString(text) > m.maxChars {
		text = truncateRunes(text, m.maxChars)
	}
	ids := m.tok.encode(text)
	ids = slices.DeleteFunc(ids, func(id int) bool {
		return id == m.tok.unkID || m.tok.special[id] || id >= m.tokenLimit()
	})
	if len(ids) > MaxTokens {
		ids = ids[:MaxTokens]
	}
	return ids
}

// tokenLimit is the number of token ids with a vector.
func (m *Model2Vec) tokenLimit() int {
	if m.mapping != nil {
		return len(m.mapping)
	}
	return len(m.rows) / m.dim
}

func truncateRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// medianRuneLength is the median token length in characters, at least 1.
// For an even count it is the average of the two middle lengths rounded
// down, as model2vec's int(np.median(...)) computes it.
func medianRuneLength(tokens []string) int {
	if len(tokens) == 0 {
		return 1
	}
	lengths := make([]int, len(tokens))
	for i, t := range tokens {
		lengths[i] = utf8.RuneCountInString(t)
	}
	slices.Sort(lengths)
	mid := len(lengths) / 2
	median := lengths[mid]
	if len(lengths)%2 == 0 {
		median = (lengths[mid-1] + lengths[mid]) / 2
	}
	return max(1, median)
}
