package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/testtree"
)

// restServer serves the REST API over a real HTTP server, with two
// repositories: api (indexed as a collection) and web (only allowed).
type restServer struct {
	url      string
	svc      *app.App
	api, web string
	token    string
}

func newRESTServer(t *testing.T, token string) *restServer {
	t.Helper()
	base := t.TempDir()
	api, web := filepath.Join(base, "api"), filepath.Join(base, "web")
	testtree.Write(t, api, map[string]string{
		"src/search/engine.go": "package search\n\n// Engine answers ranked queries.\ntype Engine struct{}\n\n// RankContext orders results.\nfunc RankContext() {}\n",
		"src/store/db.go":      "package store\n\n// Open opens the database file.\nfunc Open(path string) error { return nil }\n",
		".env":                 "SECRET=1\n",
	})
	testtree.Write(t, web, map[string]string{"app.ts": "// renderPage draws results.\nexport function renderPage() {}\n"})
	svc := app.New(app.Options{Collections: filepath.Join(t.TempDir(), "c.db")})
	t.Cleanup(func() { svc.Close() })
	if _, _, err := svc.IndexCollection(context.Background(), "api", app.IndexRequest{Root: api}); err != nil {
		t.Fatal(err)
	}
	rootAPI, err := fsroot.Open(api)
	if err != nil {
		t.Fatal(err)
	}
	rootWeb, err := fsroot.Open(web)
	if err != nil {
		t.Fatal(err)
	}
	h := handler(Options{
		AuthToken: token,
		API:       NewAPI(APIOptions{Services: svc, Allowed: fsroot.NewAllowed(rootAPI, rootWeb)}),
		Health:    Health(func(ctx context.Context) error { _, err := svc.Collections(ctx); return err }),
	}, []string{"127.0.0.1"})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &restServer{url: srv.URL, svc: svc, api: api, web: web, token: token}
}

// do sends a request and decodes the JSON answer.
func (s *restServer) do(t *testing.T, method, path string, body any) (int, map[string]any, http.Header) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s answered %d with non-JSON %q", method, path, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode, out, resp.Header
}

func TestRESTCollections(t *testing.T) {
	s := newRESTServer(t, "")
	code, out, _ := s.do(t, "GET", "/api/v1/collections", nil)
	list, _ := out["collections"].([]any)
	if code != 200 || len(list) != 1 || list[0].(map[string]any)["name"] != "api" {
		t.Fatalf("list: %d %v", code, out)
	}
	code, out, _ = s.do(t, "GET", "/api/v1/collections/api", nil)
	if code != 200 || out["root"] != s.api || out["files"] != 2.0 || out["indexed_at"] == "" {
		t.Errorf("show: %d %v", code, out)
	}

	// Index web in the background, follow the job, search it.
	code, job, hdr := s.do(t, "POST", "/api/v1/collections", map[string]any{"name": "web", "path": s.web})
	if code != 202 || job["state"] != "running" || hdr.Get("Location") != "/api/v1/jobs/"+job["id"].(string) {
		t.Fatalf("create: %d %v %v", code, job, hdr)
	}
	deadline := time.Now().Add(time.Minute)
	for job["state"] == "running" && time.Now().Before(deadline) {
		_, job, _ = s.do(t, "GET", "/api/v1/jobs/"+job["id"].(string), nil)
		if job["state"] == "running" {
			time.Sleep(20 * time.Millisecond) // polling a real job, as a client does
		}
	}
	if job["state"] != "succeeded" || job["collection"] != "web" {
		t.Fatalf("job: %v", job)
	}
	if code, out, _ := s.do(t, "DELETE", "/api/v1/jobs/"+job["id"].(string), nil); code != 200 || out["state"] != "succeeded" {
		t.Errorf("cancelling a finished job: %d %v", code, out)
	}
	code, out, _ = s.do(t, "POST", "/api/v1/collections/web/search/fulltext", map[string]any{"textQuery": "renderpage"})
	if code != 200 || len(out["results"].([]any)) != 1 {
		t.Errorf("fulltext in web: %d %v", code, out)
	}
	if code, _, _ := s.do(t, "DELETE", "/api/v1/collections/web", nil); code != 204 {
		t.Errorf("delete: %d", code)
	}
	if code, out, _ := s.do(t, "GET", "/api/v1/collections/web", nil); code != 404 || out["code"] != "COLLECTION_NOT_FOUND" {
		t.Errorf("a deleted collection: %d %v", code, out)
	}
}

func TestRESTSearches(t *testing.T) {
	s := newRESTServer(t, "")
	paths := func(out map[string]any) []string {
		var ps []string
		for _, r := range out["results"].([]any) {
			ps = append(ps, r.(map[string]any)["payload"].(map[string]any)["filePath"].(string))
		}
		return ps
	}
	code, out, _ := s.do(t, "POST", "/api/v1/collections/api/search/semantic", map[string]any{"query": "ranked queries engine", "top_k": 1})
	if code != 200 || !slices.Equal(paths(out), []string{"/src/search/engine.go"}) || out["took_ms"] == nil {
		t.Errorf("semantic: %d %v", code, out)
	}
	code, out, _ = s.do(t, "POST", "/api/v1/collections/api/search/semantic", map[string]any{"query": "open", "prompt": "database file", "rerank": false})
	if code != 200 || len(paths(out)) == 0 || paths(out)[0] != "/src/store/db.go" {
		t.Errorf("semantic with a prompt: %d %v", code, out)
	}
	code, out, _ = s.do(t, "POST", "/api/v1/collections/api/search/fulltext", map[string]any{"textQuery": "rankcont", "payload": map[string]any{"language": "go"}})
	if code != 200 || !slices.Equal(paths(out), []string{"/src/search/engine.go"}) {
		t.Errorf("fulltext: %d %v", code, out)
	}
	code, out, _ = s.do(t, "POST", "/api/v1/collections/api/search/payload", map[string]any{"payload": map[string]any{"filePath": "/src/store/*"}})
	if code != 200 || !slices.Equal(paths(out), []string{"/src/store/db.go"}) {
		t.Errorf("payload: %d %v", code, out)
	}
	hit := out["results"].([]any)[0].(map[string]any)
	if p := hit["payload"].(map[string]any); hit["score"] != 1.0 || p["collectionName"] != "api" || p["code"] == "" || p["startLine"] != 1.0 {
		t.Errorf("payload search hit: %v", hit)
	}
}

func TestRESTErrors(t *testing.T) {
	s := newRESTServer(t, "")
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code, detail       string
	}{
		{"unknown collection", "GET", "/api/v1/collections/nope", nil, 404, "COLLECTION_NOT_FOUND", `collection "nope" not found (known collections: api)`},
		{"bad name", "GET", "/api/v1/collections/a%20b", nil, 400, "INVALID_ARGUMENT", "collection name"},
		{"unknown payload key", "POST", "/api/v1/collections/api/search/payload", map[string]any{"payload": map[string]any{"path": "x"}}, 400, "INVALID_ARGUMENT", "allowed: filePath"},
		{"bad top_k", "POST", "/api/v1/collections/api/search/semantic", map[string]any{"query": "x", "top_k": 0}, 400, "INVALID_ARGUMENT", "top_k must be between 1 and 1000"},
		{"wrong type", "POST", "/api/v1/collections/api/search/semantic", map[string]any{"query": 3}, 400, "INVALID_ARGUMENT", "field query must be a string"},
		{"unknown field", "POST", "/api/v1/collections/api/search/semantic", map[string]any{"query": "x", "limit": 3}, 400, "INVALID_ARGUMENT", `unknown field "limit"`},
		{"not JSON", "POST", "/api/v1/collections/api/search/fulltext", "{", 400, "INVALID_ARGUMENT", "not a valid JSON"},
		{"empty body", "POST", "/api/v1/collections/api/search/fulltext", "", 400, "INVALID_ARGUMENT", "the body is empty"},
		{"empty query", "POST", "/api/v1/collections/api/search/semantic", map[string]any{"query": " "}, 400, "QUERY_EMPTY", "Query cannot be empty"},
		{"query too long", "POST", "/api/v1/collections/api/search/fulltext", map[string]any{"textQuery": strings.Repeat("x", 9000)}, 413, "QUERY_TOO_LONG", "query is too long"},
		{"body too large", "POST", "/api/v1/collections/api/search/fulltext", `{"textQuery":"` + strings.Repeat("x", 2<<20) + `"}`, 413, "too-large", "over"},
		{"path outside", "POST", "/api/v1/collections", map[string]any{"path": "/etc"}, 403, "PATH_OUTSIDE_ROOT", "outside the allowed roots"},
		{"hidden path", "POST", "/api/v1/collections", map[string]any{"path": filepath.Join(t.TempDir(), "x")}, 403, "PATH_OUTSIDE_ROOT", "outside the allowed roots"},
		{"missing path", "POST", "/api/v1/collections", map[string]any{"name": "x"}, 400, "INVALID_ARGUMENT", "missing required field: path"},
		{"unknown job", "GET", "/api/v1/jobs/nope", nil, 404, "JOB_NOT_FOUND", `job "nope" not found`},
		{"unknown route", "GET", "/api/v1/nothing", nil, 404, "ROUTE_NOT_FOUND", "not a route"},
		{"wrong method", "PUT", "/api/v1/collections", nil, 405, "METHOD_NOT_ALLOWED", "use GET or POST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, hdr := s.do(t, tc.method, tc.path, tc.body)
			if code != tc.status {
				t.Fatalf("status %d (%v), want %d", code, out, tc.status)
			}
			if tc.code == "" {
				return
			}
			if ct := hdr.Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("Content-Type %q", ct)
			}
			if out["code"] != tc.code || !strings.Contains(out["detail"].(string), tc.detail) || out["status"] != float64(tc.status) || out["type"] == "" {
				t.Errorf("problem %v, want code %s and detail with %q", out, tc.code, tc.detail)
			}
		})
	}
}

func TestRESTAuthAndHealth(t *testing.T) {
	s := newRESTServer(t, "s3cret-token")
	if code, out, _ := s.do(t, "GET", "/api/v1/collections", nil); code != 200 {
		t.Errorf("with the token: %d %v", code, out)
	}
	resp, err := http.Get(s.url + "/api/v1/collections")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("without the token: %d", resp.StatusCode)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(s.url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s without a token: %d", p, resp.StatusCode)
		}
	}
}

// TestOpenAPIMatchesRoutes: the OpenAPI document describes exactly the
// routes the API serves, with a response for each.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	served := map[string]bool{"get /healthz": true, "get /readyz": true}
	for _, rt := range (&api{}).routes() {
		served[strings.ToLower(rt.method)+" "+rt.pattern] = true
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			documented[method+" "+path] = true
			var op map[string]any
			if err := json.Unmarshal(raw, &op); err != nil || op["responses"] == nil || op["operationId"] == nil {
				t.Errorf("%s %s lacks responses or an operationId", method, path)
			}
		}
	}
	for k := range served {
		if !documented[k] {
			t.Errorf("%s is served but not documented", k)
		}
	}
	for k := range documented {
		if !served[k] {
			t.Errorf("%s is documented but not served", k)
		}
	}
	s := newRESTServer(t, "")
	code, out, _ := s.do(t, "GET", "/api/v1/openapi.json", nil)
	if code != 200 || out["openapi"] != "3.1.0" {
		t.Errorf("GET openapi.json: %d", code)
	}
}
