package app

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/testtree"
)

var ctx = context.Background()

// twoRoots writes two small repositories and an App that indexes both
// into one database file, as two collections named after the roots.
func twoRoots(t *testing.T) (web, cli string, a *App, db string) {
	t.Helper()
	base := t.TempDir()
	web, cli = filepath.Join(base, "web"), filepath.Join(base, "cli")
	testtree.Write(t, web, map[string]string{
		"router.go":    "package web\n\n// Router dispatches requests by path.\ntype Router struct{}\n",
		"package.json": `{"name": "@acme/web", "description": "the web router"}`,
		"openspec/specs/routing/spec.md": "# Routing\n\n## Purpose\n\nRoutes.\n\n## Requirements\n\n### Requirement: Path Routing\n\nThe router SHALL match paths.\n\n" +
			"#### Scenario: Known path\n\n- **WHEN** a known path is requested\n- **THEN** its handler runs\n",
	})
	testtree.Write(t, cli, map[string]string{
		"parse.go":     "package cli\n\n// ParseFlags reads command-line flags.\nfunc ParseFlags(args []string) {}\n",
		"package.json": `{"name": "@acme/cli", "description": "the command line"}`,
	})
	db = filepath.Join(t.TempDir(), "shared.db")
	a = New(Options{IndexFor: func(absRoot string) (store.Locator, error) {
		return store.Locator{Database: db, Collection: filepath.Base(absRoot)}, nil
	}})
	t.Cleanup(func() { a.Close() })
	for _, root := range []string{web, cli} {
		if _, err := a.Index(ctx, IndexRequest{Root: root}); err != nil {
			t.Fatalf("indexing %s: %v", root, err)
		}
	}
	return web, cli, a, db
}

// TestTwoCollectionsInOneDatabase: two roots indexed into one database
// file are searched, listed and reported on independently.
func TestTwoCollectionsInOneDatabase(t *testing.T) {
	web, cli, a, db := twoRoots(t)
	for _, tc := range []struct {
		root, query, want, absent string
	}{
		{web, "router dispatches requests", "router.go", "parse.go"},
		{cli, "parse command line flags", "parse.go", "router.go"},
	} {
		res, err := a.Search(ctx, SearchRequest{Root: tc.root, Options: search.Options{Query: tc.query}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || res.Results[0].Path != tc.want {
			t.Errorf("search %q in %s: %+v", tc.query, tc.root, res.Results)
		} else if top := res.Results[0]; top.DocComment != "" {
			t.Errorf("search %q: the doc comment is sent beside the content that shows it: %+v", tc.query, top)
		}
		for _, r := range res.Results {
			if r.Path == tc.absent {
				t.Errorf("search in %s returned %s of the other collection", tc.root, r.Path)
			}
		}
	}
	files := map[string]int{web: 3, cli: 2}
	for root, name := range map[string]string{web: "@acme/web", cli: "@acme/cli"} {
		pkgs, err := a.Packages(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if all := pkgs.Packages(); len(all) != 1 || all[0].Name != name {
			t.Errorf("packages of %s: %+v", root, all)
		}
		st, err := a.Status(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if st.Index != db || st.Collection != filepath.Base(root) || st.Files != files[root] {
			t.Errorf("status of %s: %+v", root, st)
		}
	}
	hits, err := a.SearchSpecs(ctx, web, "path routing", 5)
	if err != nil || len(hits) != 1 || hits[0].SpecID != "routing" {
		t.Errorf("specs of web: %+v, %v", hits, err)
	}
	if hits, _ := a.SearchSpecs(ctx, cli, "path routing", 5); len(hits) != 0 {
		t.Errorf("cli's collection has web's specs: %+v", hits)
	}
}

// TestReindexIsSeen: a service that keeps an engine and the packages of a
// collection sees what a later run committed.
func TestReindexIsSeen(t *testing.T) {
	web, _, a, _ := twoRoots(t)
	if _, err := a.SearchPackages(ctx, web, "web", 5); err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, web, map[string]string{
		"ws.go":              "package web\n\n// Upgrade turns a request into a websocket.\nfunc Upgrade() {}\n",
		"sub/package.json":   `{"name": "@acme/ws", "description": "websockets"}`,
		"sub/placeholder.md": "# ws\n",
	})
	if _, err := a.Index(ctx, IndexRequest{Root: web}); err != nil {
		t.Fatal(err)
	}
	res, err := a.Search(ctx, SearchRequest{Root: web, Options: search.Options{Query: "websocket upgrade"}})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "ws.go" {
		t.Errorf("search after a re-index: %+v, %v", res, err)
	}
	pkgs, err := a.SearchPackages(ctx, web, "websockets", 5)
	if err != nil || len(pkgs) != 1 || pkgs[0].Name != "@acme/ws" {
		t.Errorf("packages after a re-index: %+v, %v", pkgs, err)
	}
}

// TestServiceErrors: a missing index is one NoIndex error naming the root
// and the index, for every front end to word; queries are checked before
// the index is opened; vectors of another embedder are refused.
func TestServiceErrors(t *testing.T) {
	web, _, a, db := twoRoots(t)
	other := t.TempDir()
	_, err := a.Search(ctx, SearchRequest{Root: other, Options: search.Options{Query: "x"}})
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.NoIndex || e.Code != errs.CodeNoIndex || e.Details["root"] != other || e.Details["index"] != db {
		t.Fatalf("search of an unindexed root: %#v", err)
	}
	if _, err := a.SearchPackages(ctx, other, " ", 5); errs.KindOf(err) != errs.Invalid {
		t.Errorf("a blank package query was not refused before the index: %v", err)
	}
	if _, err := a.SearchSpecs(ctx, other, "", 5); errs.KindOf(err) != errs.Invalid {
		t.Errorf("a blank spec query was not refused before the index: %v", err)
	}
	_, err = a.Search(ctx, SearchRequest{Root: web, Options: search.Options{Query: "router"}, Embedder: "builtin"})
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeEmbedderMismatch {
		t.Errorf("a query with another embedder: %v, want EMBEDDER_MISMATCH", err)
	}
	if err := a.Warm(ctx, other); errs.KindOf(err) != errs.NoIndex {
		t.Errorf("Warm of an unindexed root: %v", err)
	}
}
