package index_test

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/search"
)

// embeddingServer is an OpenAI-compatible /v1/embeddings endpoint whose
// vectors are bags of hashed words, so texts sharing words are close.
func embeddingServer(t *testing.T, calls *atomic.Int64) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i, text := range req.Input {
			v := make([]float32, 32)
			for _, word := range strings.Fields(strings.ToLower(text)) {
				h := fnv.New32a()
				h.Write([]byte(strings.Trim(word, "(){}.,:;\"")))
				v[h.Sum32()%32]++
			}
			v[0] += 0.01
			data = append(data, item{Index: i, Embedding: v})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	}))
}

func TestOpenAIEmbedderIsRecordedAndNeverMixed(t *testing.T) {
	var calls atomic.Int64
	srv := embeddingServer(t, &calls)
	defer srv.Close()
	t.Setenv("LORE_OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("LORE_OPENAI_API_KEY", "test")
	root, indexPath := setup(t)
	ctx := context.Background()

	if _, err := runAt(ctx, indexPath, index.Options{Root: root, Embedder: "openai:test-model"}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() == 0 {
		t.Fatal("the embedder was never called")
	}
	meta, vectors := indexVectors(t, indexPath)
	if meta["embedder_spec"] != "openai:test-model" || vectors == 0 {
		t.Fatalf("embedder %q with %d vectors recorded", meta["embedder_spec"], vectors)
	}
	one := 1.0
	res := query(t, indexPath, "cart total price", func(o *search.Options) { o.SemanticWeight = &one })
	if len(res) == 0 {
		t.Fatal("a purely semantic search found nothing")
	}

	// Re-indexing without --embedder keeps the recorded one and embeds only
	// what changed.
	before := calls.Load()
	if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != before {
		t.Errorf("an unchanged re-index called the embedder again")
	}

	// Switching embedders drops every old vector.
	if _, err := runAt(ctx, indexPath, index.Options{Root: root, Embedder: "builtin"}); err != nil {
		t.Fatal(err)
	}
	meta, _ = indexVectors(t, indexPath)
	if meta["embedder"] != "builtin" {
		t.Errorf("embedder after switching = %q", meta["embedder"])
	}
	if _, err := runAt(ctx, indexPath, index.Options{Root: root, Embedder: "none"}); err != nil {
		t.Fatal(err)
	}
	if meta, n := indexVectors(t, indexPath); meta["embedder"] != "none" || n != 0 {
		t.Errorf("after switching to none: embedder %q, %d vectors left", meta["embedder"], n)
	}

	// An unreachable endpoint fails the run and leaves the index as it was.
	t.Setenv("LORE_OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	cctx, cancel := context.WithTimeout(ctx, 20e9)
	defer cancel()
	if _, err := runAt(cctx, indexPath, index.Options{Root: root, Embedder: "openai:test-model"}); err == nil {
		t.Error("indexing with an unreachable embedder succeeded")
	}
	if meta, _ := indexVectors(t, indexPath); meta["embedder"] != "none" {
		t.Errorf("a failed run changed the recorded embedder to %q", meta["embedder"])
	}
}

func indexVectors(t *testing.T, indexPath string) (map[string]string, int) {
	t.Helper()
	r, err := openReader(t, context.Background(), indexPath)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := r.Meta(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := r.ChunkVectors(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return meta, len(vecs)
}
