package embed

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

const testRepo = "acme/tiny-model"

// hfServer serves files under /<repo>/resolve/main/<name> like the Hugging
// Face hub. handlers override the answer for single file names.
type hfServer struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte
	handlers map[string]http.HandlerFunc
	auth     []string // Authorization headers seen
}

func newHFServer(t *testing.T, files map[string][]byte) *hfServer {
	t.Helper()
	s := &hfServer{files: files, handlers: map[string]http.HandlerFunc{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.mu.Unlock()
		prefix := "/" + testRepo + "/resolve/main/"
		name, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if h, ok := s.handlers[name]; ok {
			h(w, r)
			return
		}
		data, ok := s.files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.Write(data)
	}))
	t.Cleanup(s.Close)
	t.Setenv("LORE_HF_ENDPOINT", s.URL)
	t.Setenv("HF_ENDPOINT", "")
	t.Setenv("HF_TOKEN", "")
	return s
}

func tinyModelFiles(t *testing.T, dtype string) map[string][]byte {
	return map[string][]byte{
		modelWeightsFile:   buildSafetensors(t, embeddingTensor(t, dtype)),
		modelTokenizerFile: testTokenizerJSON(t),
		modelConfigFile:    []byte(`{"normalize": true}`),
	}
}

// cacheEntries lists what the model cache holds, to catch leftovers.
func cacheEntries(t *testing.T, cache string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(cache, "models"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestPullDownloadsAndInstalls(t *testing.T) {
	files := tinyModelFiles(t, "F32")
	newHFServer(t, files)
	cache := t.TempDir()

	var calls [][2]int64
	dir, err := Pull(context.Background(), testRepo, cache, func(done, total int64) {
		calls = append(calls, [2]int64{done, total})
	})
	if err != nil {
		t.Fatalf("Pull: %v", err)
	}
	if want := filepath.Join(cache, "models", "acme__tiny-model"); dir != want || ModelDir(cache, testRepo) != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
	for name, data := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: content differs (err %v)", name, err)
		}
	}
	total := int64(len(files[modelWeightsFile]) + len(files[modelTokenizerFile]) + len(files[modelConfigFile]))
	if len(calls) == 0 || calls[len(calls)-1] != [2]int64{total, total} {
		t.Errorf("last progress call %v, want [%d %d]", calls, total, total)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] < calls[i-1][0] || calls[i][1] != total {
			t.Errorf("progress not monotonic or total changed: %v", calls)
			break
		}
	}
	m, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatalf("pulled model does not load: %v", err)
	}
	if got := cacheEntries(t, cache); len(got) != 1 || got[0] != "acme__tiny-model" {
		t.Errorf("cache holds %v, want only the model", got)
	}

	// Pulling again replaces the model (here with F16 weights).
	newHFServer(t, tinyModelFiles(t, "F16"))
	dir2, err := Pull(context.Background(), testRepo, cache, nil)
	if err != nil {
		t.Fatalf("second Pull: %v", err)
	}
	m2, err := LoadModel2Vec(dir2)
	if err != nil {
		t.Fatal(err)
	}
	if dir2 != dir || m2.ID() == m.ID() {
		t.Errorf("second pull: dir %s (was %s), ID %s (was %s)", dir2, dir, m2.ID(), m.ID())
	}
	if got := cacheEntries(t, cache); len(got) != 1 {
		t.Errorf("cache holds %v after the second pull, want only the model", got)
	}
}

func TestPullWithoutConfigAndWithToken(t *testing.T) {
	files := tinyModelFiles(t, "F32")
	delete(files, modelConfigFile)
	srv := newHFServer(t, files)
	t.Setenv("HF_TOKEN", "secret-token")
	dir, err := Pull(context.Background(), testRepo, t.TempDir(), nil)
	if err != nil {
		t.Fatalf("Pull: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, modelConfigFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("config.json should be absent: %v", err)
	}
	for _, a := range srv.auth {
		if a != "Bearer secret-token" {
			t.Errorf("Authorization header %q, want the HF_TOKEN", a)
		}
	}
}

func TestPullFailuresLeaveCacheUntouched(t *testing.T) {
	cases := []struct {
		name     string
		setup    func(s *hfServer)
		wantKind errs.Kind
		wantCode string
		wantMsg  string
	}{
		{
			name:     "repository not found",
			setup:    func(s *hfServer) { delete(s.files, modelWeightsFile) },
			wantKind: errs.NotFound, wantCode: CodeModelNotFound, wantMsg: "has no model.safetensors for model acme/tiny-model (HTTP 404",
		},
		{
			name: "gated repository",
			setup: func(s *hfServer) {
				s.handlers[modelWeightsFile] = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) }
			},
			wantKind: errs.Invalid, wantCode: CodeModelDownload, wantMsg: "set HF_TOKEN",
		},
		{
			name: "server error",
			setup: func(s *hfServer) {
				s.handlers[modelTokenizerFile] = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) }
			},
			wantKind: errs.Internal, wantCode: CodeModelDownload, wantMsg: "HTTP 502",
		},
		{
			name: "connection lost mid-file",
			setup: func(s *hfServer) {
				data := s.files[modelWeightsFile]
				s.handlers[modelWeightsFile] = func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Length", strconv.Itoa(len(data)+100))
					w.Write(data)
				}
			},
			wantKind: errs.Internal, wantCode: CodeModelDownload, wantMsg: "model.safetensors",
		},
		{
			name:     "not a model",
			setup:    func(s *hfServer) { s.files[modelWeightsFile] = []byte("<html>login</html>") },
			wantKind: errs.Invalid, wantCode: CodeModelInvalid, wantMsg: "not a usable model2vec model",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cache := t.TempDir()
			// A model from an earlier pull must survive the failed one.
			newHFServer(t, tinyModelFiles(t, "F32"))
			dir, err := Pull(context.Background(), testRepo, cache, nil)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(filepath.Join(dir, modelWeightsFile))

			srv := newHFServer(t, tinyModelFiles(t, "F16"))
			c.setup(srv)
			_, err = Pull(context.Background(), testRepo, cache, nil)
			if err == nil {
				t.Fatal("Pull succeeded, want error")
			}
			e, ok := errs.As(err)
			if !ok || e.Kind != c.wantKind || e.Code != c.wantCode || !strings.Contains(err.Error(), c.wantMsg) {
				t.Errorf("error %q (%+v), want kind %v code %s containing %q", err, e, c.wantKind, c.wantCode, c.wantMsg)
			}
			after, _ := os.ReadFile(filepath.Join(dir, modelWeightsFile))
			if !bytes.Equal(before, after) {
				t.Error("the earlier model was changed")
			}
			if got := cacheEntries(t, cache); len(got) != 1 {
				t.Errorf("cache holds %v, want only the earlier model", got)
			}
		})
	}
}

func TestPullUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	t.Setenv("LORE_HF_ENDPOINT", url)
	cache := t.TempDir()
	_, err := Pull(context.Background(), testRepo, cache, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot reach "+url) || !strings.Contains(err.Error(), "LORE_HF_ENDPOINT") {
		t.Errorf("error %v, want one naming %s and LORE_HF_ENDPOINT", err, url)
	}
	if got := cacheEntries(t, cache); len(got) != 0 {
		t.Errorf("cache holds %v, want nothing", got)
	}
}

func TestPullCancelled(t *testing.T) {
	srv := newHFServer(t, tinyModelFiles(t, "F32"))
	release := make(chan struct{})
	defer close(release)
	srv.handlers[modelWeightsFile] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5000")
		w.Write(make([]byte, 100))
		w.(http.Flusher).Flush()
		select { // stall until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cache := t.TempDir()
	_, err := Pull(ctx, testRepo, cache, func(done, total int64) { cancel() })
	if !errors.Is(err, context.Canceled) || errs.KindOf(err) != errs.Cancelled {
		t.Errorf("error %v, want cancellation", err)
	}
	if got := cacheEntries(t, cache); len(got) != 0 {
		t.Errorf("cache holds %v, want nothing", got)
	}
}

func TestPullRejectsBadRepoIDs(t *testing.T) {
	for _, id := range []string{"", "noslash", "a/b/c", "../x", "a/..", "a b/c", "/a/b", "a/b?x=1", "a/.."} {
		_, err := Pull(context.Background(), id, t.TempDir(), nil)
		if errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "not a Hugging Face repo id") {
			t.Errorf("Pull(%q) error %v, want an invalid repo id error", id, err)
		}
	}
}
