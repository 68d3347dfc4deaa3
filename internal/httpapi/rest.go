package httpapi

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/search"
)

// The REST API serves the collections family over plain HTTP and JSON, at
// /api/v1, beside /mcp. Every route parses its input, calls a service of
// internal/app and renders; errors are RFC 9457 problem documents.

// maxAPIBody bounds a request body of the REST API.
const maxAPIBody = 1 << 20

//go:embed openapi.json
var openAPI []byte

// APIOptions configures NewAPI.
type APIOptions struct {
	Services *app.App
	// Allowed is where POST /api/v1/collections may index; nil refuses
	// every path.
	Allowed *fsroot.Allowed
	Logger  *slog.Logger // nil discards
}

// NewAPI returns the REST API's handler, routed under /api/v1/.
func NewAPI(opts APIOptions) http.Handler {
	a := &api{svc: opts.Services, allowed: opts.Allowed, log: opts.Logger}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	for _, rt := range a.routes() {
		mux.HandleFunc(rt.method+" "+rt.pattern, rt.handle)
	}
	mux.HandleFunc("/api/", a.noRoute)
	return mux
}

type api struct {
	svc     *app.App
	allowed *fsroot.Allowed
	log     *slog.Logger
}

// route is one operation of the API; openapi.json documents exactly these.
type route struct {
	method, pattern string
	handle          http.HandlerFunc
}

func (a *api) routes() []route {
	return []route{
		{"GET", "/api/v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(openAPI)
		}},
		{"GET", "/api/v1/collections", a.listCollections},
		{"POST", "/api/v1/collections", a.createCollection},
		{"GET", "/api/v1/collections/{name}", a.getCollection},
		{"DELETE", "/api/v1/collections/{name}", a.deleteCollection},
		{"POST", "/api/v1/collections/{name}/search/semantic", a.searchSemantic},
		{"POST", "/api/v1/collections/{name}/search/fulltext", a.searchFulltext},
		{"POST", "/api/v1/collections/{name}/search/payload", a.searchPayload},
		{"GET", "/api/v1/jobs/{id}", a.getJob},
		{"DELETE", "/api/v1/jobs/{id}", a.cancelJob},
	}
}

// noRoute answers a request no route takes: 405 with the allowed methods
// when the path is a route's, 404 otherwise.
func (a *api) noRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, rt := range a.routes() {
		if pathMatches(rt.pattern, r.URL.Path) {
			allow = append(allow, rt.method)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeProblem(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "Method not allowed",
			fmt.Sprintf("%s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(allow, " or ")), nil)
		return
	}
	writeProblem(w, http.StatusNotFound, "ROUTE_NOT_FOUND", "No such route",
		fmt.Sprintf("%s %s is not a route of this API; see /api/v1/openapi.json", r.Method, r.URL.Path), nil)
}

// pathMatches reports whether a path fits a route pattern, a {wildcard}
// standing for one segment.
func pathMatches(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if !strings.HasPrefix(ps[i], "{") && ps[i] != xs[i] {
			return false
		}
	}
	return true
}

func (a *api) listCollections(w http.ResponseWriter, r *http.Request) {
	list, err := a.svc.Collections(r.Context())
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"collections": list})
}

func (a *api) getCollection(w http.ResponseWriter, r *http.Request) {
	info, err := a.svc.Collection(r.Context(), r.PathValue("name"))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	fresh, err := a.svc.CollectionFreshness(r.Context(), info.Name)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		*app.CollectionInfo
		Freshness *app.Freshness `json:"freshness"`
	}{info, fresh})
}

func (a *api) deleteCollection(w http.ResponseWriter, r *http.Request) {
	if err := a.svc.RemoveCollection(r.Context(), r.PathValue("name")); err != nil {
		a.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// createBody is POST /api/v1/collections's body.
type createBody struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

func (a *api) createCollection(w http.ResponseWriter, r *http.Request) {
	var body createBody
	if !a.decode(w, r, &body) {
		return
	}
	if strings.TrimSpace(body.Path) == "" {
		a.fail(w, r, errs.New(errs.Invalid, errs.CodeInvalidArgument, "missing required field: path").With("field", "path"))
		return
	}
	if a.allowed == nil {
		a.fail(w, r, errs.New(errs.OutOfRoot, errs.CodeOutsideRoot, "path %q is outside the allowed roots", body.Path).With("path", body.Path))
		return
	}
	root, err := a.allowed.Dir(body.Path)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	job, err := a.svc.StartIndexJob(body.Name, root)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/jobs/"+job.ID)
	writeJSON(w, http.StatusAccepted, job)
}

// semanticBody is the body of a semantic search.
type semanticBody struct {
	Query  string `json:"query"`
	Prompt string `json:"prompt"`
	TopK   *int   `json:"top_k"`
	Rerank *bool  `json:"rerank"`
}

func (a *api) searchSemantic(w http.ResponseWriter, r *http.Request) {
	var body semanticBody
	if !a.decode(w, r, &body) {
		return
	}
	req := app.SemanticRequest{Collection: r.PathValue("name"), Query: body.Query, Prompt: body.Prompt,
		TopK: topK(body.TopK), NoRerank: body.Rerank != nil && !*body.Rerank}
	hits, took, err := a.svc.SearchSemantic(r.Context(), req)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": hits, "took_ms": took})
}

// fulltextBody is the body of a full-text search.
type fulltextBody struct {
	TextQuery string         `json:"textQuery"`
	Payload   map[string]any `json:"payload"`
	TopK      *int           `json:"top_k"`
}

func (a *api) searchFulltext(w http.ResponseWriter, r *http.Request) {
	var body fulltextBody
	if !a.decode(w, r, &body) {
		return
	}
	hits, took, err := timed(func() ([]search.Hit, error) {
		return a.svc.SearchFulltext(r.Context(), app.FulltextRequest{Collection: r.PathValue("name"), Text: body.TextQuery,
			Payload: body.Payload, TopK: topK(body.TopK)})
	})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": hits, "took_ms": took})
}

// payloadBody is the body of a metadata search.
type payloadBody struct {
	Payload map[string]any `json:"payload"`
	TopK    *int           `json:"top_k"`
}

func (a *api) searchPayload(w http.ResponseWriter, r *http.Request) {
	var body payloadBody
	if !a.decode(w, r, &body) {
		return
	}
	hits, took, err := timed(func() ([]search.Hit, error) {
		return a.svc.SearchPayload(r.Context(), r.PathValue("name"), body.Payload, topK(body.TopK))
	})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": hits, "took_ms": took})
}

func (a *api) getJob(w http.ResponseWriter, r *http.Request) {
	job, err := a.svc.Job(r.PathValue("id"))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

func (a *api) cancelJob(w http.ResponseWriter, r *http.Request) {
	job, err := a.svc.CancelJob(r.PathValue("id"))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

// topK is a body's top_k, app.DefaultTopK when absent.
func topK(v *int) int {
	if v == nil {
		return app.DefaultTopK
	}
	return *v
}

// timed runs a search and measures it in milliseconds.
func timed(run func() ([]search.Hit, error)) ([]search.Hit, float64, error) {
	start := time.Now()
	hits, err := run()
	return hits, float64(time.Since(start).Microseconds()) / 1000, err
}

// decode reads a JSON object body strictly: unknown fields, wrong types,
// trailing data and bodies over maxAPIBody are problems naming what is
// wrong. It answers the problem itself and reports false on failure.
func (a *api) decode(w http.ResponseWriter, r *http.Request, into any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxAPIBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(into)
	if err == nil && dec.More() {
		err = errors.New("the body holds more than one JSON value")
	}
	if err == nil {
		return true
	}
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooLarge):
		writeProblem(w, http.StatusRequestEntityTooLarge, "too-large", "Request body too large",
			fmt.Sprintf("the body is over %d bytes", maxAPIBody), nil)
	case errors.As(err, &typeErr):
		writeProblem(w, http.StatusBadRequest, errs.CodeInvalidArgument, "Invalid request body",
			fmt.Sprintf("field %s must be %s, got %s", typeErr.Field, jsonTypeName(typeErr.Type.Kind().String()), typeErr.Value),
			map[string]any{"field": typeErr.Field})
	case errors.Is(err, io.EOF):
		writeProblem(w, http.StatusBadRequest, errs.CodeInvalidArgument, "Invalid request body", "the body is empty; send a JSON object", nil)
	default:
		writeProblem(w, http.StatusBadRequest, errs.CodeInvalidArgument, "Invalid request body", "the body is not a valid JSON object: "+err.Error(), nil)
	}
	return false
}

func jsonTypeName(kind string) string {
	switch kind {
	case "int", "int64", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "map":
		return "an object"
	case "slice":
		return "an array"
	}
	return kind
}

// fail answers a service error as a problem document: the one place the
// REST API maps lore's error kinds to HTTP statuses.
func (a *api) fail(w http.ResponseWriter, r *http.Request, err error) {
	e, typed := errs.As(err)
	if !typed || e.Message == "" {
		a.log.Error("REST request failed", "method", r.Method, "path", r.URL.Path, "error", err)
		writeProblem(w, http.StatusInternalServerError, errs.CodeInternal, "Internal error", "internal error; the server log has the details", nil)
		return
	}
	status := http.StatusInternalServerError
	switch e.Kind {
	case errs.Invalid:
		status = http.StatusBadRequest
		if e.Code == errs.CodeQueryTooLong {
			status = http.StatusRequestEntityTooLarge
		}
	case errs.NotFound, errs.NoIndex:
		status = http.StatusNotFound
	case errs.OutOfRoot:
		status = http.StatusForbidden
	case errs.Busy, errs.Cancelled:
		status = http.StatusConflict
	}
	if status == http.StatusInternalServerError {
		a.log.Error("REST request failed", "method", r.Method, "path", r.URL.Path, "code", e.Code, "error", err)
	}
	writeProblem(w, status, e.Code, http.StatusText(status), e.Message, e.Details)
}

// writeProblem writes an RFC 9457 problem document; code is lore's error
// code, also the last segment of type.
func writeProblem(w http.ResponseWriter, status int, code, title, detail string, extra map[string]any) {
	body := map[string]any{
		"type":   "https://lore.dev/problems/" + strings.ToLower(strings.ReplaceAll(code, "_", "-")),
		"title":  title,
		"status": status,
		"detail": detail,
		"code":   code,
	}
	for k, v := range extra {
		if _, taken := body[k]; !taken {
			body[k] = v
		}
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// Health answers /healthz (the process is alive) and /readyz (ready
// reports whether lore can answer: nil when it can).
func Health(ready func(context.Context) error) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if ready != nil {
			if err := ready(r.Context()); err != nil {
				msg := "not ready"
				if e, ok := errs.As(err); ok && e.Message != "" {
					msg = e.Message
				}
				writeProblem(w, http.StatusServiceUnavailable, "NOT_READY", "Not ready", msg, nil)
				return
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"status": "ready"})
	})
	return mux
}
