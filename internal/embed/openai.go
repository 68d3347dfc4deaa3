package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lore-dev/lore/internal/errs"
)

// Settings of the OpenAI-compatible embedder.
const (
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	// OpenAIBatchSize is how many texts go into one request.
	OpenAIBatchSize = 64
	// openAIMaxAttempts bounds the tries per batch (1 + retries) on
	// rate limiting, server errors and network errors.
	openAIMaxAttempts = 5
	// openAIRequestTimeout bounds each HTTP request.
	openAIRequestTimeout = 60 * time.Second
	// openAIMaxRetryAfter caps how long a Retry-After header can make us
	// wait before one retry.
	openAIMaxRetryAfter = 60 * time.Second
	// maxErrorBody bounds how much of an error response is read and quoted.
	maxErrorBody = 4 << 10
	// maxResponseBody bounds a successful response (64 texts × 3072 dims of
	// JSON floats is about 4 MB).
	maxResponseBody = 256 << 20
)

// knownOpenAIDims lets Dim answer before the first request for the models
// whose size is documented.
var knownOpenAIDims = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// OpenAI embeds texts through an OpenAI-compatible /embeddings endpoint.
// Safe for concurrent use.
type OpenAI struct {
	model   string
	baseURL string
	apiKey  string
	client  *http.Client
	// backoff is the wait before the first retry; it doubles per retry.
	backoff time.Duration

	mu  sync.Mutex
	dim int // 0 until known
}

// NewOpenAI returns an embedder for model. The endpoint is
// $LORE_OPENAI_BASE_URL, else $OPENAI_BASE_URL, else
// https://api.openai.com/v1; the API key is $LORE_OPENAI_API_KEY, else
// $OPENAI_API_KEY, and may be empty for local servers. Nothing is sent
// until the first Embed.
func NewOpenAI(model string) (*OpenAI, error) {
	model = strings.TrimSpace(model)
	if model == "" {
		return nil, errs.New(errs.Invalid, CodeInvalidEmbedder, "openai embedder: empty model name")
	}
	base := strings.TrimRight(firstEnv("LORE_OPENAI_BASE_URL", "OPENAI_BASE_URL"), "/")
	if base == "" {
		base = DefaultOpenAIBaseURL
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, errs.New(errs.Invalid, CodeInvalidEmbedder,
			"embeddings base URL %q must start with http:// or https:// (from LORE_OPENAI_BASE_URL or OPENAI_BASE_URL)", base)
	}
	return &OpenAI{
		model:   model,
		baseURL: base,
		apiKey:  firstEnv("LORE_OPENAI_API_KEY", "OPENAI_API_KEY"),
		client:  &http.Client{},
		backoff: 500 * time.Millisecond,
		dim:     knownOpenAIDims[model],
	}, nil
}

// ID returns "openai:<model>@<base URL>".
func (o *OpenAI) ID() string { return "openai:" + o.model + "@" + o.baseURL }

// Dim returns the vector length: known in advance for OpenAI's own models,
// otherwise learnt from the first response (0 before it).
func (o *OpenAI) Dim() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dim
}

// Embed sends texts in batches of OpenAIBatchSize and returns their
// normalised vectors in order.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += OpenAIBatchSize {
		batch := texts[start:min(start+OpenAIBatchSize, len(texts))]
		vectors, err := o.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vectors...)
	}
	return out, nil
}

type embeddingRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

type embeddingResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// embedBatch sends one request, retrying what can succeed on a retry.
func (o *OpenAI) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	input := make([]string, len(texts))
	for i, t := range texts {
		// The OpenAI API rejects empty strings; a space embeds as "nothing".
		if t == "" {
			t = " "
		}
		input[i] = t
	}
	body, err := json.Marshal(embeddingRequest{Model: o.model, Input: input, EncodingFormat: "float"})
	if err != nil {
		return nil, fmt.Errorf("encoding embeddings request: %w", err)
	}
	url := o.baseURL + "/embeddings"
	wait := o.backoff
	for attempt := 1; ; attempt++ {
		vectors, retryAfter, err := o.post(ctx, url, body, len(texts))
		if err == nil {
			return vectors, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("embedding via %s: %w", url, ctx.Err())
		}
		var retry retryableError
		if !errors.As(err, &retry) {
			return nil, err
		}
		if attempt == openAIMaxAttempts {
			return nil, fmt.Errorf("%w (gave up after %d attempts)", retry.final, attempt)
		}
		delay := wait
		if retryAfter >= 0 {
			delay = retryAfter
		}
		wait *= 2
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("embedding via %s: %w", url, ctx.Err())
		case <-time.After(delay):
		}
	}
}

// retryableError marks a failure worth retrying; final is what the caller
// sees if the retries run out.
type retryableError struct{ final error }

func (e retryableError) Error() string { return e.final.Error() }

// post makes one request. retryAfter is the server's requested delay, or -1.
func (o *OpenAI) post(ctx context.Context, url string, body []byte, want int) (vectors [][]float32, retryAfter time.Duration, err error) {
	reqCtx, cancel := context.WithTimeout(ctx, openAIRequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, -1, errs.New(errs.Invalid, CodeInvalidEmbedder, "bad embeddings URL %s: %v", url, err).Wrap(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "lore")
	if o.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.apiKey)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, -1, retryableError{errs.New(errs.Internal, CodeEndpoint,
			"cannot reach the embeddings endpoint %s: %v", url, err).Wrap(err)}
	}
	defer resp.Body.Close()

	if resp.StatusCode != http.StatusOK {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, parseRetryAfter(resp.Header.Get("Retry-After")), o.statusError(url, resp.StatusCode, snippet)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	if err != nil {
		return nil, -1, retryableError{errs.New(errs.Internal, CodeEndpoint,
			"reading the response of %s: %v", url, err).Wrap(err)}
	}
	vectors, err = o.decode(url, data, want)
	return vectors, -1, err
}

func (o *OpenAI) statusError(url string, status int, body []byte) error {
	detail := apiErrorMessage(body)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		if o.apiKey == "" {
			return errs.New(errs.Invalid, CodeEndpointAuth,
				"the embeddings endpoint %s needs an API key (HTTP %d%s): set LORE_OPENAI_API_KEY or OPENAI_API_KEY", url, status, detail)
		}
		return errs.New(errs.Invalid, CodeEndpointAuth,
			"the embeddings endpoint %s rejected the API key (HTTP %d%s): check LORE_OPENAI_API_KEY or OPENAI_API_KEY", url, status, detail)
	case status == http.StatusTooManyRequests || status >= 500:
		return retryableError{errs.New(errs.Internal, CodeEndpoint,
			"the embeddings endpoint %s failed with HTTP %d%s", url, status, detail)}
	default:
		return errs.New(errs.Invalid, CodeEndpoint,
			"the embeddings endpoint %s refused the request for model %q with HTTP %d%s", url, o.model, status, detail)
	}
}

// apiErrorMessage extracts {"error": {"message": …}} from an error body,
// or quotes the start of the body.
func apiErrorMessage(body []byte) string {
	var parsed struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &parsed) == nil && parsed.Error.Message != "" {
		return ": " + parsed.Error.Message
	}
	if s := strings.TrimSpace(string(body)); s != "" {
		return ": " + quoteSnippet(s)
	}
	return ""
}

func quoteSnippet(s string) string {
	const max = 200
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconv.Quote(s)
}

// decode validates a response: one vector per input, every index once,
// one dimension throughout (and the same as earlier responses), finite
// numbers. The vectors come back in input order, normalised.
func (o *OpenAI) decode(url string, data []byte, want int) ([][]float32, error) {
	bad := func(format string, args ...any) error {
		return errs.New(errs.Internal, CodeEndpointBadData, "the embeddings endpoint %s: %s", url, fmt.Sprintf(format, args...))
	}
	var resp embeddingResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, bad("response is not the expected JSON (%v): %s", err, quoteSnippet(string(data)))
	}
	if len(resp.Data) != want {
		return nil, bad("sent %d texts, got %d embeddings", want, len(resp.Data))
	}
	vectors := make([][]float32, want)
	dim := len(resp.Data[0].Embedding)
	for pos, item := range resp.Data {
		index := pos
		if item.Index != nil {
			index = *item.Index
		}
		if index < 0 || index >= want || vectors[index] != nil {
			return nil, bad("embedding index %d is out of range or repeated", index)
		}
		if len(item.Embedding) == 0 || len(item.Embedding) != dim {
			return nil, bad("embeddings have different sizes (%d and %d)", dim, len(item.Embedding))
		}
		v := make([]float32, dim)
		for j, x := range item.Embedding {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > math.MaxFloat32 {
				return nil, bad("embedding %d holds a non-finite number", index)
			}
			v[j] = float32(x)
		}
		Normalize(v)
		vectors[index] = v
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dim != 0 && o.dim != dim {
		return nil, bad("model %q returned %d-dimensional vectors, expected %d", o.model, dim, o.dim)
	}
	o.dim = dim
	return vectors, nil
}

// parseRetryAfter reads a Retry-After header (seconds or an HTTP date);
// -1 when absent or unreadable.
func parseRetryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return -1
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 && !math.IsInf(secs, 0) {
		return time.Duration(min(secs, openAIMaxRetryAfter.Seconds()) * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(0, time.Until(t)), openAIMaxRetryAfter)
	}
	return -1
}
