// Package embed turns text into fixed-size vectors for semantic search.
//
// One interface, Embedder, has two implementations here:
//
//   - model2vec:<dir> loads a static embedding model (model2vec format: a
//     safetensors matrix of token vectors plus a Hugging Face tokenizer.json)
//     and embeds a text as the mean of its token vectors. It runs locally,
//     needs no network and is fast enough to embed whole repositories.
//   - openai:<model> calls any OpenAI-compatible /v1/embeddings endpoint.
//
// A third, "builtin", is fitted on the indexed corpus itself and lives in the
// search package; Parse returns a nil Embedder for it.
//
// Every embedder reports a stable ID that the index records next to its
// vectors: vectors from different embedders (or different model files) are
// not comparable, so the index must never mix them. All embedders return
// L2-normalised vectors, so cosine similarity is a plain dot product; the
// helpers in vector.go compute it and store vectors compactly as int8.
package embed

import (
	"context"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
)

// Embedder turns texts into fixed-size vectors.
type Embedder interface {
	// ID is a stable identity recorded in the index, e.g.
	// "model2vec:/abs/dir@3f2a9c1b0d4e" or
	// "openai:text-embedding-3-small@https://api.openai.com/v1".
	// Two embedders with the same ID produce comparable vectors.
	ID() string
	// Dim is the vector length. For openai embedders of models whose size is
	// not known in advance it is 0 until the first successful Embed.
	Dim() int
	// Embed returns one L2-normalised vector per text, in order. A text with
	// nothing to embed (for a model2vec model: no known token) gets a zero
	// vector.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Builtin names the corpus-fitted embedder of the search package. Parse
// returns (nil, nil) for it, and for the empty spec.
const Builtin = "builtin"

// Error codes of the errors this package returns.
const (
	CodeInvalidEmbedder = errs.CodeEmbedderInvalid    // unknown or malformed embedder spec
	CodeModelNotFound   = errs.CodeModelNotFound      // model folder or file missing
	CodeModelInvalid    = errs.CodeModelInvalid       // model files present but unreadable
	CodeModelDownload   = errs.CodeModelDownload      // pulling a model failed
	CodeEndpoint        = errs.CodeEmbeddingEndpoint  // the embeddings endpoint failed
	CodeEndpointAuth    = errs.CodeEmbeddingAuth      // the endpoint rejected the API key
	CodeEndpointBadData = errs.CodeEmbeddingBadResult // the endpoint answered with unusable data
)

// Parse builds the embedder named by spec:
//
//	builtin (or "")   → nil, nil: the caller uses the search package's own
//	model2vec:<dir>   → a model2vec model loaded from the local folder dir
//	openai:<model>    → an OpenAI-compatible endpoint (see NewOpenAI for the
//	                    environment variables it reads)
//
// Parse reads the model files of a model2vec spec, so a broken model fails
// here, not at the first Embed. It never touches the network.
func Parse(spec string) (Embedder, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == Builtin {
		return nil, nil
	}
	kind, arg, ok := strings.Cut(spec, ":")
	if !ok {
		return nil, invalidSpec(spec)
	}
	switch kind {
	case "model2vec":
		if arg == "" {
			return nil, errs.New(errs.Invalid, CodeInvalidEmbedder, "embedder %q: missing model folder after \"model2vec:\"", spec)
		}
		m, err := LoadModel2Vec(arg)
		if err != nil {
			return nil, err // not a typed nil inside the interface
		}
		return m, nil
	case "openai":
		if arg == "" {
			return nil, errs.New(errs.Invalid, CodeInvalidEmbedder, "embedder %q: missing model name after \"openai:\"", spec)
		}
		o, err := NewOpenAI(arg)
		if err != nil {
			return nil, err
		}
		return o, nil
	default:
		return nil, invalidSpec(spec)
	}
}

func invalidSpec(spec string) error {
	return errs.New(errs.Invalid, CodeInvalidEmbedder,
		"unknown embedder %q: use %q, \"model2vec:<dir>\" or \"openai:<model>\"", spec, Builtin)
}
