package app

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/testtree"
)

// collectionsApp writes two repositories and indexes them as the named
// collections "api" and "web" of one database.
func collectionsApp(t *testing.T) (*App, string, string) {
	t.Helper()
	base := t.TempDir()
	api, web := filepath.Join(base, "api"), filepath.Join(base, "web")
	testtree.Write(t, api, map[string]string{
		"src/search/engine.go": "package search\n\n// Engine answers ranked queries.\ntype Engine struct{}\n\n// RankContext orders results.\nfunc RankContext() {}\n",
		"src/store/db.go":      "package store\n\n// Open opens the database file.\nfunc Open(path string) error { return nil }\n",
		"README.md":            "# API\n\nThe search API.\n",
	})
	testtree.Write(t, web, map[string]string{
		"app.ts": "// renderPage draws a page of search results.\nexport function renderPage(results: string[]) { return results.join() }\n",
	})
	a := New(Options{Collections: filepath.Join(t.TempDir(), "collections.db")})
	t.Cleanup(func() { a.Close() })
	for name, root := range map[string]string{"api": api, "web": web} {
		if used, _, err := a.IndexCollection(ctx, name, IndexRequest{Root: root}); err != nil || used != name {
			t.Fatalf("indexing %s: %q, %v", name, used, err)
		}
	}
	return a, api, web
}

func TestCollectionsListShowRemove(t *testing.T) {
	a, api, web := collectionsApp(t)
	list, err := a.Collections(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "api" || list[1].Name != "web" {
		t.Fatalf("Collections = %+v, %v", list, err)
	}
	if list[0].Root != api || list[0].Files != 3 || list[0].Chunks == 0 || list[0].IndexedAt == "" || len(list[0].Languages) == 0 {
		t.Errorf("api = %+v", list[0])
	}
	_, err = a.Collection(ctx, "nope")
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeCollectionNotFound || !strings.Contains(e.Message, "api, web") {
		t.Errorf("unknown collection: %v", err)
	}
	for _, bad := range []string{"", "a b", "..", strings.Repeat("x", 65), "x/y"} {
		if _, err := a.Collection(ctx, bad); errs.KindOf(err) != errs.Invalid {
			t.Errorf("Collection(%q) = %v, want an invalid name", bad, err)
		}
	}
	if err := a.RemoveCollection(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	if list, _ := a.Collections(ctx); len(list) != 1 || list[0].Name != "api" {
		t.Errorf("after removing web: %+v", list)
	}
	if _, err := a.SearchPayload(ctx, "web", map[string]any{"language": "typescript"}, 10); errs.KindOf(err) != errs.NotFound {
		t.Errorf("a removed collection is still searched: %v", err)
	}
	if err := a.RemoveCollection(ctx, "web"); errs.KindOf(err) != errs.NotFound {
		t.Errorf("removing it again: %v", err)
	}
	// The files are never touched.
	if _, err := filepath.Glob(filepath.Join(web, "app.ts")); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultCollectionNames(t *testing.T) {
	a := New(Options{Collections: filepath.Join(t.TempDir(), "c.db")})
	defer a.Close()
	base := t.TempDir()
	one, two := filepath.Join(base, "a", "proj"), filepath.Join(base, "b", "proj")
	testtree.Write(t, one, map[string]string{"x.go": "package x\n"})
	testtree.Write(t, two, map[string]string{"y.go": "package y\n"})
	for _, tc := range []struct{ root, want string }{{one, "proj"}, {two, "proj-2"}, {one, "proj"}} {
		name, _, err := a.IndexCollection(ctx, "", IndexRequest{Root: tc.root})
		if err != nil || name != tc.want {
			t.Errorf("default name of %s = %q, %v; want %q", tc.root, name, err, tc.want)
		}
	}
}

func TestCollectionSearches(t *testing.T) {
	a, _, _ := collectionsApp(t)
	paths := func(hits []search.Hit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.Payload.FilePath)
		}
		return out
	}

	hits, took, err := a.SearchSemantic(ctx, SemanticRequest{Collection: "api", Query: "ranked queries engine", TopK: 10})
	if err != nil || len(hits) == 0 || hits[0].Payload.FilePath != "/src/search/engine.go" || took <= 0 {
		t.Fatalf("semantic: %v, %v", paths(hits), err)
	}
	p := hits[0].Payload
	if p.CollectionName != "api" || p.Language != "go" || p.StartLine < 1 || p.Code == "" || p.Symbols == nil {
		t.Errorf("payload = %+v", p)
	}
	for _, h := range hits {
		if strings.Contains(h.Payload.FilePath, "app.ts") {
			t.Errorf("api's search returned web's %s", h.Payload.FilePath)
		}
	}
	// The prompt reorders without being required to match.
	plain, _, _ := a.SearchSemantic(ctx, SemanticRequest{Collection: "api", Query: "open", TopK: 10})
	prompted, _, err := a.SearchSemantic(ctx, SemanticRequest{Collection: "api", Query: "open", Prompt: "database file", TopK: 10})
	if err != nil || len(prompted) == 0 || prompted[0].Payload.FilePath != "/src/store/db.go" || len(prompted) < len(plain) {
		t.Errorf("prompted: %v (plain %v), %v", paths(prompted), paths(plain), err)
	}
	if _, _, err := a.SearchSemantic(ctx, SemanticRequest{Collection: "api", Query: "engine", TopK: 10, NoRerank: true}); err != nil {
		t.Errorf("without reranking: %v", err)
	}

	full, err := a.SearchFulltext(ctx, FulltextRequest{Collection: "api", Text: "rankcont", TopK: 10})
	if err != nil || !slices.Equal(paths(full), []string{"/src/search/engine.go"}) {
		t.Errorf("fulltext of a partial identifier: %v, %v", paths(full), err)
	}
	full, err = a.SearchFulltext(ctx, FulltextRequest{Collection: "api", Text: "the", TopK: 10, Payload: map[string]any{"filePath": "/src/**"}})
	if err != nil || len(full) == 0 {
		t.Errorf("fulltext narrowed by path: %v, %v", paths(full), err)
	}
	for _, h := range full {
		if !strings.HasPrefix(h.Payload.FilePath, "/src/") {
			t.Errorf("the payload filter let %s through", h.Payload.FilePath)
		}
	}

	for _, tc := range []struct {
		payload map[string]any
		want    []string
	}{
		{map[string]any{"filePath": "/src/search/*"}, []string{"/src/search/engine.go"}},
		{map[string]any{"language": []any{"markdown", "typescript"}}, []string{"/README.md"}},
		{map[string]any{"symbols": "Open"}, []string{"/src/store/db.go"}},
		{map[string]any{"language": "go", "symbols": []any{"Engine", "Open"}}, []string{"/src/search/engine.go", "/src/store/db.go"}},
		{map[string]any{"collectionName": "web"}, nil},
	} {
		got, err := a.SearchPayload(ctx, "api", tc.payload, 10)
		if err != nil || !slices.Equal(paths(got), tc.want) {
			t.Errorf("payload %v = %v, %v; want %v", tc.payload, paths(got), err, tc.want)
		}
	}
	if got, _ := a.SearchPayload(ctx, "api", map[string]any{"filePath": "/**"}, 2); len(got) != 2 {
		t.Errorf("top_k 2 gave %d", len(got))
	}

	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"unknown key", func() error {
			_, err := a.SearchPayload(ctx, "api", map[string]any{"path": "x"}, 10)
			return err
		}},
		{"wrong type", func() error {
			_, err := a.SearchPayload(ctx, "api", map[string]any{"startLine": "one"}, 10)
			return err
		}},
		{"empty payload", func() error { _, err := a.SearchPayload(ctx, "api", map[string]any{}, 10); return err }},
		{"top_k 0", func() error { _, err := a.SearchPayload(ctx, "api", map[string]any{"kind": "x"}, 0); return err }},
		{"top_k 1001", func() error {
			_, _, err := a.SearchSemantic(ctx, SemanticRequest{Collection: "api", Query: "x", TopK: 1001})
			return err
		}},
		{"empty text", func() error {
			_, err := a.SearchFulltext(ctx, FulltextRequest{Collection: "api", Text: " ", TopK: 10})
			return err
		}},
	} {
		if err := tc.run(); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s: %v, want an invalid-argument error", tc.name, err)
		}
	}
	_, err = a.SearchPayload(ctx, "api", map[string]any{"path": "x"}, 10)
	if e, _ := errs.As(err); e == nil || !strings.Contains(e.Message, "allowed: filePath, language") {
		t.Errorf("an unknown key's message does not list the allowed ones: %v", err)
	}
}

func TestIndexJobs(t *testing.T) {
	a, api, _ := collectionsApp(t)
	job, err := a.StartIndexJob("api2", api)
	if err != nil || job.State != JobRunning || job.ID == "" {
		t.Fatalf("StartIndexJob = %+v, %v", job, err)
	}
	if err := a.WaitJobs(ctx); err != nil {
		t.Fatal(err)
	}
	// WaitJobs cancels what still runs: the job either finished or was
	// cancelled, and says which.
	got, err := a.Job(job.ID)
	if err != nil || (got.State != JobSucceeded && got.State != JobCancelled) || got.Finished == nil {
		t.Errorf("job after the wait = %+v, %v", got, err)
	}
	if got.State == JobSucceeded && (got.Stats == nil || got.Stats.Scanned != 3) {
		t.Errorf("a succeeded job's stats = %+v", got.Stats)
	}
	if _, err := a.Job("nope"); errs.KindOf(err) != errs.NotFound {
		t.Errorf("unknown job: %v", err)
	}
	if _, err := a.StartIndexJob("bad name", api); errs.KindOf(err) != errs.Invalid {
		t.Errorf("a bad name started a job: %v", err)
	}
}
