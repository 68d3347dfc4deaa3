package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/errs"
)

// fakeEmbeddings is an OpenAI-compatible endpoint whose vectors encode the
// request: text i of a request gets [len(text), i+1, 0, 0] unless respond
// overrides the answer.
type fakeEmbeddings struct {
	*httptest.Server
	mu       sync.Mutex
	requests []embeddingRequest
	headers  []http.Header
	respond  func(n int, req embeddingRequest, w http.ResponseWriter, r *http.Request) bool // true: handled
}

func newFakeEmbeddings(t *testing.T, key string) *fakeEmbeddings {
	t.Helper()
	f := &fakeEmbeddings{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.Error(w, "wrong endpoint "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req embeddingRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.requests = append(f.requests, req)
		f.headers = append(f.headers, r.Header.Clone())
		n := len(f.requests)
		respond := f.respond
		f.mu.Unlock()
		if respond != nil && respond(n, req, w, r) {
			return
		}
		writeEmbeddings(w, req.Input, func(i int, text string) []float64 {
			return []float64{float64(len(text)), float64(i + 1), 0, 0}
		}, true)
	}))
	t.Cleanup(f.Close)
	t.Setenv("LORE_OPENAI_BASE_URL", f.URL+"/v1")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("LORE_OPENAI_API_KEY", key)
	t.Setenv("OPENAI_API_KEY", "")
	return f
}

// writeEmbeddings answers with one vector per input, in reverse order when
// reversed is set (clients must sort by index).
func writeEmbeddings(w http.ResponseWriter, inputs []string, vector func(int, string) []float64, reversed bool) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	items := make([]item, len(inputs))
	for i, text := range inputs {
		pos := i
		if reversed {
			pos = len(inputs) - 1 - i
		}
		items[pos] = item{Object: "embedding", Index: i, Embedding: vector(i, text)}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": items, "model": "m"})
}

func newTestOpenAI(t *testing.T, model string) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(model)
	if err != nil {
		t.Fatal(err)
	}
	o.backoff = time.Millisecond
	return o
}

func TestOpenAIEmbeds(t *testing.T) {
	f := newFakeEmbeddings(t, "sk-test")
	o := newTestOpenAI(t, "my-model")
	if o.Dim() != 0 {
		t.Errorf("Dim before any request = %d, want 0 for an unknown model", o.Dim())
	}
	if want := "openai:my-model@" + f.URL + "/v1"; o.ID() != want {
		t.Errorf("ID = %q, want %q", o.ID(), want)
	}
	got, err := o.Embed(context.Background(), []string{"abc", "", "hello"})
	if err != nil {
		t.Fatal(err)
	}
	// [len, i+1, 0, 0] normalised; "" was sent as " ".
	want := [][]float64{{3 / math.Sqrt(10), 1 / math.Sqrt(10), 0, 0}, {1 / math.Sqrt(5), 2 / math.Sqrt(5), 0, 0}, {5 / math.Sqrt(34), 3 / math.Sqrt(34), 0, 0}}
	for i := range want {
		assertVector(t, fmt.Sprint("text ", i), got[i], want[i])
	}
	if o.Dim() != 4 {
		t.Errorf("Dim after a request = %d, want 4", o.Dim())
	}
	req := f.requests[0]
	if req.Model != "my-model" || req.EncodingFormat != "float" || strings.Join(req.Input, "|") != "abc| |hello" {
		t.Errorf("request = %+v", req)
	}
	if h := f.headers[0]; h.Get("Authorization") != "Bearer sk-test" || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers = %v", h)
	}

	none, err := o.Embed(context.Background(), nil)
	if err != nil || len(none) != 0 || len(f.requests) != 1 {
		t.Errorf("empty input: %v, %v, %d requests", none, err, len(f.requests))
	}
}

func TestOpenAIBatches(t *testing.T) {
	f := newFakeEmbeddings(t, "")
	f.respond = func(n int, req embeddingRequest, w http.ResponseWriter, r *http.Request) bool {
		// The vector encodes the text's global number (the text is "t<k>").
		writeEmbeddings(w, req.Input, func(i int, text string) []float64 {
			var k float64
			fmt.Sscanf(text, "t%g", &k)
			return []float64{k + 1, 1}
		}, true)
		return true
	}
	o := newTestOpenAI(t, "m")
	texts := make([]string, 2*OpenAIBatchSize+22)
	for i := range texts {
		texts[i] = fmt.Sprintf("t%d", i)
	}
	got, err := o.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, r := range f.requests {
		sizes = append(sizes, len(r.Input))
	}
	if fmt.Sprint(sizes) != fmt.Sprint([]int{OpenAIBatchSize, OpenAIBatchSize, 22}) {
		t.Errorf("batch sizes %v", sizes)
	}
	for i, v := range got {
		k := float64(i + 1)
		assertVector(t, texts[i], v, []float64{k / math.Hypot(k, 1), 1 / math.Hypot(k, 1)})
	}
	if h := f.headers[0].Get("Authorization"); h != "" {
		t.Errorf("sent Authorization %q without a key", h)
	}
}

func TestOpenAIRetries(t *testing.T) {
	t.Run("500 then success", func(t *testing.T) {
		f := newFakeEmbeddings(t, "k")
		f.respond = func(n int, req embeddingRequest, w http.ResponseWriter, r *http.Request) bool {
			if n == 1 {
				http.Error(w, "overloaded", http.StatusInternalServerError)
				return true
			}
			return false
		}
		if _, err := newTestOpenAI(t, "m").Embed(context.Background(), []string{"a"}); err != nil {
			t.Fatal(err)
		}
		if len(f.requests) != 2 {
			t.Errorf("%d requests, want 2", len(f.requests))
		}
	})
	t.Run("429 honours Retry-After", func(t *testing.T) {
		f := newFakeEmbeddings(t, "k")
		f.respond = func(n int, req embeddingRequest, w http.ResponseWriter, r *http.Request) bool {
			if n == 1 {
				w.Header().Set("Retry-After", "0.2")
				http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
				return true
			}
			return false
		}
		o := newTestOpenAI(t, "m")
		o.backoff = time.Hour // only Retry-After can make this finish
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		if _, err := o.Embed(ctx, []string{"a"}); err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed < 200*time.Millisecond {
			t.Errorf("retried after %v, before the 200ms Retry-After", elapsed)
		}
	})
	t.Run("gives up", func(t *testing.T) {
		f := newFakeEmbeddings(t, "k")
		f.respond = func(n int, req embeddingRequest, w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, `{"error":{"message":"down for maintenance"}}`, http.StatusServiceUnavailable)
			return true
		}
		_, err := newTestOpenAI(t, "m").Embed(context.Background(), []string{"a"})
		if len(f.requests) != openAIMaxAttempts {
			t.Errorf("%d requests, want %d", len(f.requests), openAIMaxAttempts)
		}
		if err == nil || !strings.Contains(err.Error(), "HTTP 503: down for maintenance") || !strings.Contains(err.Error(), "gave up after 5 attempts") {
			t.Errorf("error %v", err)
		}
	})
}

func TestOpenAIErrors(t *testing.T) {
	cases := []struct {
		name     string
		key      string
		respond  func(w http.ResponseWriter, req embeddingRequest)
		wantReqs int
		wantKind errs.Kind
		wantCode string
		wantMsg  string
	}{
		{
			name: "permanent 400", key: "k",
			respond: func(w http.ResponseWriter, req embeddingRequest) {
				http.Error(w, `{"error":{"message":"model not found"}}`, http.StatusBadRequest)
			},
			wantReqs: 1, wantKind: errs.Invalid, wantCode: CodeEndpoint, wantMsg: `refused the request for model "m" with HTTP 400: model not found`,
		},
		{
			name: "wrong key", key: "bad",
			respond: func(w http.ResponseWriter, req embeddingRequest) {
				http.Error(w, `{"error":{"message":"Incorrect API key provided"}}`, http.StatusUnauthorized)
			},
			wantReqs: 1, wantKind: errs.Invalid, wantCode: CodeEndpointAuth, wantMsg: "rejected the API key (HTTP 401: Incorrect API key provided): check LORE_OPENAI_API_KEY",
		},
		{
			name: "missing key", key: "",
			respond: func(w http.ResponseWriter, req embeddingRequest) {
				http.Error(w, "no auth", http.StatusUnauthorized)
			},
			wantReqs: 1, wantKind: errs.Invalid, wantCode: CodeEndpointAuth, wantMsg: "needs an API key (HTTP 401: \"no auth\"): set LORE_OPENAI_API_KEY or OPENAI_API_KEY",
		},
		{
			name: "HTML instead of JSON", key: "k",
			respond: func(w http.ResponseWriter, req embeddingRequest) {
				w.Write([]byte("<html><body>Welcome to nginx</body></html>"))
			},
			wantReqs: 1, wantKind: errs.Internal, wantCode: CodeEndpointBadData, wantMsg: "response is not the expected JSON",
		},
		{
			name: "too few embeddings", key: "k",
			respond: func(w http.ResponseWriter, req embeddingRequest) {
				writeEmbeddings(w, req.Input[:1], func(int, string) []float64 { return []float64{1} }, false)
			},
			wantReqs: 1, wantKind: errs.Internal, wantCode: CodeEndpointBadData, wantMsg: "sent 2 texts, got 1 embeddings",
		},
		{
			name: "mixed dimensions", key: "k",
			respond: func(w http.ResponseWriter, req embeddingRequest) {
				writeEmbeddings(w, req.Input, func(i int, _ string) []float64 { return make([]float64, i+1) }, false)
			},
			wantReqs: 1, wantKind: errs.Internal, wantCode: CodeEndpointBadData, wantMsg: "different sizes",
		},
		{
			name: "repeated index", key: "k",
			respond: func(w http.ResponseWriter, req embeddingRequest) {
				w.Write([]byte(`{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`))
			},
			wantReqs: 1, wantKind: errs.Internal, wantCode: CodeEndpointBadData, wantMsg: "index 0 is out of range or repeated",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeEmbeddings(t, c.key)
			f.respond = func(n int, req embeddingRequest, w http.ResponseWriter, r *http.Request) bool {
				c.respond(w, req)
				return true
			}
			_, err := newTestOpenAI(t, "m").Embed(context.Background(), []string{"a", "b"})
			e, ok := errs.As(err)
			if !ok || e.Kind != c.wantKind || e.Code != c.wantCode || !strings.Contains(err.Error(), c.wantMsg) {
				t.Errorf("error %v (%+v), want kind %v code %s containing %q", err, e, c.wantKind, c.wantCode, c.wantMsg)
			}
			if err != nil && !strings.Contains(err.Error(), f.URL+"/v1/embeddings") {
				t.Errorf("error %q does not name the endpoint", err)
			}
			if len(f.requests) != c.wantReqs {
				t.Errorf("%d requests, want %d", len(f.requests), c.wantReqs)
			}
		})
	}
}

func TestOpenAIDimensionMustStayTheSame(t *testing.T) {
	f := newFakeEmbeddings(t, "k")
	o := newTestOpenAI(t, "text-embedding-3-small")
	if o.Dim() != 1536 {
		t.Errorf("Dim = %d, want 1536 for text-embedding-3-small", o.Dim())
	}
	_ = f
	_, err := o.Embed(context.Background(), []string{"a"}) // the fake answers with 4 dims
	if err == nil || !strings.Contains(err.Error(), "returned 4-dimensional vectors, expected 1536") {
		t.Errorf("error %v", err)
	}
}

func TestOpenAIUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	t.Setenv("LORE_OPENAI_BASE_URL", url+"/v1")
	_, err := newTestOpenAI(t, "m").Embed(context.Background(), []string{"a"})
	if err == nil || !strings.Contains(err.Error(), "cannot reach the embeddings endpoint "+url+"/v1/embeddings") {
		t.Errorf("error %v, want one naming the endpoint", err)
	}
}

func TestOpenAICancelled(t *testing.T) {
	f := newFakeEmbeddings(t, "k")
	f.respond = func(n int, req embeddingRequest, w http.ResponseWriter, r *http.Request) bool {
		select { // stall until the client hangs up
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := newTestOpenAI(t, "m").Embed(ctx, []string{"a"})
	if !errors.Is(err, context.DeadlineExceeded) || errs.KindOf(err) != errs.Cancelled {
		t.Errorf("error %v, want the context's", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("took %v to notice the cancellation", elapsed)
	}
}

func TestNewOpenAIConfiguration(t *testing.T) {
	t.Setenv("LORE_OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1/")
	t.Setenv("LORE_OPENAI_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "fallback")
	o, err := NewOpenAI("nomic-embed-text")
	if err != nil {
		t.Fatal(err)
	}
	if o.ID() != "openai:nomic-embed-text@http://localhost:11434/v1" || o.apiKey != "fallback" {
		t.Errorf("ID %q key %q", o.ID(), o.apiKey)
	}
	t.Setenv("LORE_OPENAI_BASE_URL", "https://lore.example/v1")
	t.Setenv("LORE_OPENAI_API_KEY", "preferred")
	if o, _ = NewOpenAI("m"); o.baseURL != "https://lore.example/v1" || o.apiKey != "preferred" {
		t.Errorf("LORE_ variables not preferred: %q %q", o.baseURL, o.apiKey)
	}
	t.Setenv("LORE_OPENAI_BASE_URL", "localhost:8080")
	if _, err := NewOpenAI("m"); errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "must start with http") {
		t.Errorf("bad base URL: %v", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", -1}, {"soon", -1}, {"-3", -1}, {"0", 0}, {"2", 2 * time.Second},
		{"0.5", 500 * time.Millisecond}, {"86400", openAIMaxRetryAfter},
		{time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), 0},
		{time.Now().Add(48 * time.Hour).UTC().Format(http.TimeFormat), openAIMaxRetryAfter},
	}
	for _, c := range cases {
		if got := parseRetryAfter(c.in); got != c.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
