package packages

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
	_ "modernc.org/sqlite"
)

// openDB opens a real SQLite file with the package schema.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(Schema); err != nil {
		t.Fatalf("creating schema: %v", err)
	}
	return db
}

func save(t testing.TB, db *sql.DB, pkgs []Package) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(context.Background(), tx, pkgs); err != nil {
		tx.Rollback()
		t.Fatalf("Save: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func fixtureDB(t testing.TB) (*sql.DB, []Package) {
	t.Helper()
	db := openDB(t)
	pkgs, _ := Build(loadFixture(t, "monorepo"))
	save(t, db, pkgs)
	return db, pkgs
}

func TestSchemaIsIdempotentAndSplittable(t *testing.T) {
	db := openDB(t)
	if _, err := db.Exec(Schema); err != nil {
		t.Fatalf("running Schema twice: %v", err)
	}
	// The store's migration runner splits at ";\n"; every piece must run.
	db2, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "split.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	pieces := 0
	for _, stmt := range strings.Split(Schema, ";\n") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		pieces++
		if _, err := db2.Exec(stmt); err != nil {
			t.Fatalf("statement %q: %v", stmt, err)
		}
	}
	if pieces != 5 {
		t.Errorf("Schema has %d statements, want 5", pieces)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	db, pkgs := fixtureDB(t)
	loaded, err := LoadAll(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded, pkgs) {
		t.Errorf("LoadAll differs from what was saved:\n%v\nwant\n%v", summarize(loaded), summarize(pkgs))
	}

	// Save replaces everything, including the search index.
	replacement := []Package{{Name: "solo", Path: ".", Kind: KindGo, Manifest: "go.mod", Dependencies: []Dependency{{Name: "x", DepKind: DepRuntime}}}}
	save(t, db, replacement)
	loaded, err = LoadAll(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	want := []Package{{Name: "solo", Path: ".", Kind: KindGo, Manifest: "go.mod", Metadata: map[string]any{}, Dependencies: []Dependency{{Name: "x", DepKind: DepRuntime}}}}
	if !reflect.DeepEqual(loaded, want) {
		t.Errorf("after replacement LoadAll = %+v, want %+v", loaded, want)
	}
	found, err := Search(context.Background(), db, "acme", 20)
	if err != nil || len(found) != 0 {
		t.Errorf("Search after replacement = %v, %v; want nothing", summarize(found), err)
	}

	save(t, db, nil)
	loaded, err = LoadAll(context.Background(), db)
	if err != nil || loaded == nil || len(loaded) != 0 {
		t.Errorf("LoadAll of an empty table = %#v, %v; want an empty slice", loaded, err)
	}
}

func names(pkgs []Package) []string {
	out := []string{}
	for _, p := range pkgs {
		out = append(out, p.Name)
	}
	return out
}

func TestSearch(t *testing.T) {
	db, _ := fixtureDB(t)
	for _, tc := range []struct {
		query    string
		limit    int
		first    string   // expected best result, "" for none
		all      []string // when set, the exact result list
		contains []string // when set, names that must be among the results
	}{
		{query: "ui", first: "@acme/ui"},
		{query: "@acme/ui", first: "@acme/ui"},
		{query: "UI", first: "@acme/ui"},
		{query: "uti", contains: []string{"@acme/utils", "acme.utils", "acme/php-utils"}}, // prefix on the last term
		{query: "helpers", all: []string{"acme-lib", "@acme/utils"}},                      // description only; the shorter one first
		{query: "numerical helpers", all: []string{"acme-lib"}},                           // every term must match
		{query: "numerical zebra", all: []string{"acme-lib"}},                             // ... else any term
		{query: "api", contains: []string{"AcmeApi", "example.com/api"}},                  // AcmeApi: name split at case changes
		{query: "kotlin/libs", all: []string{"shared"}},                                   // path
		{query: "example.com/api", first: "example.com/api"},
		{query: "com.acme:acme-core", first: "com.acme:acme-core"},
		{query: "acme", limit: 3, all: nil},
		{query: "zebra", all: []string{}},
		{query: "***", all: []string{}},
	} {
		got, err := Search(context.Background(), db, tc.query, tc.limit)
		if err != nil {
			t.Errorf("Search(%q): %v", tc.query, err)
			continue
		}
		switch {
		case tc.contains != nil:
			for _, name := range tc.contains {
				found := false
				for _, p := range got {
					found = found || p.Name == name
				}
				if !found {
					t.Errorf("Search(%q) = %v, want %s among them", tc.query, names(got), name)
				}
			}
		case tc.all != nil:
			if !reflect.DeepEqual(names(got), tc.all) {
				t.Errorf("Search(%q) = %v, want %v", tc.query, names(got), tc.all)
			}
		case tc.first != "":
			if len(got) == 0 || got[0].Name != tc.first {
				t.Errorf("Search(%q) = %v, want %s first", tc.query, names(got), tc.first)
			}
		case tc.limit > 0:
			if len(got) != tc.limit {
				t.Errorf("Search(%q, %d) returned %d results", tc.query, tc.limit, len(got))
			}
		}
	}

	// Results carry their dependencies.
	got, err := Search(context.Background(), db, "@acme/ui", 1)
	if err != nil || len(got) != 1 || len(got[0].Dependencies) != 4 {
		t.Errorf("Search(@acme/ui) = %+v, %v; want the package with its 4 dependencies", got, err)
	}
	// The default limit applies to non-positive limits.
	all, err := Search(context.Background(), db, "a", 0)
	if err != nil || len(all) != DefaultSearchLimit {
		t.Errorf("Search(a, 0) returned %d results, %v; want %d", len(all), err, DefaultSearchLimit)
	}
}

func TestSearchDeterministic(t *testing.T) {
	db, _ := fixtureDB(t)
	first, err := Search(context.Background(), db, "acme", 50)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, err := Search(context.Background(), db, "acme", 50)
		if err != nil || !reflect.DeepEqual(names(again), names(first)) {
			t.Fatalf("Search order changed: %v vs %v (%v)", names(again), names(first), err)
		}
	}
}

func TestSearchEmptyQuery(t *testing.T) {
	db := openDB(t)
	for _, query := range []string{"", " ", "\t\n  "} {
		_, err := Search(context.Background(), db, query, 20)
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.Invalid || e.Code != "QUERY_EMPTY" || e.Message != "Search query must not be empty" {
			t.Errorf("Search(%q) error = %#v", query, err)
		}
	}
}

// TestSearchFTSSyntaxIsInert checks queries full of FTS5 syntax: none may
// fail, and operators are searched as plain words.
func TestSearchFTSSyntaxIsInert(t *testing.T) {
	db, _ := fixtureDB(t)
	for _, query := range []string{
		`"`, `""`, `"ui`, `ui"`, `ui*`, `*ui`, `-ui`, `ui-`, `ui:`, `name:ui`, `{name}:ui`,
		`AND`, `OR`, `NOT`, `NEAR`, `ui AND`, `OR ui`, `NOT ui`, `NEAR(ui utils)`, `NEAR(ui, 2)`,
		`(`, `)`, `(ui`, `^ui`, `+ui`, `ui +`, `a"b"c`, `'ui'`, `ui ; DROP TABLE packages`,
		"\x00ui", "ui\x00", "\xff\xfe", "é", "ui\u0301", "😀", "ui 😀", `\`, `%`, `_`,
	} {
		if _, err := Search(context.Background(), db, query, 20); err != nil {
			t.Errorf("Search(%q): %v", query, err)
		}
	}
	got, err := Search(context.Background(), db, `"@acme/ui"`, 20)
	if err != nil || len(got) == 0 || got[0].Name != "@acme/ui" {
		t.Errorf(`Search("\"@acme/ui\"") = %v, %v`, names(got), err)
	}
	got, err = Search(context.Background(), db, "NOT ui", 20)
	if err != nil || len(got) == 0 || got[0].Name != "@acme/ui" {
		t.Errorf("Search(NOT ui) = %v, %v; NOT must be a plain word, not an operator", names(got), err)
	}
}

func TestSearchErrorsAreTyped(t *testing.T) {
	db, _ := fixtureDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Search(ctx, db, "acme", 20)
	if e, ok := errs.As(err); !ok || e.Kind != errs.Cancelled {
		t.Errorf("cancelled Search error = %#v, want kind Cancelled", err)
	}

	bare, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "bare.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	// An unreadable index is an internal failure: not an *errs.Error, whose
	// message would reach MCP clients, but the driver's error wrapped with
	// what was being done, for the log and the terminal.
	_, err = Search(context.Background(), bare, "acme", 20)
	if _, typed := errs.As(err); typed || errs.KindOf(err) != errs.Internal ||
		!strings.HasPrefix(err.Error(), "searching packages: ") || !strings.Contains(err.Error(), "no such table") {
		t.Errorf("Search without schema error = %#v, want an untyped internal error with its cause", err)
	}
}

func TestNameParts(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"@acme/HTTPServer2", []string{"acme", "http", "server", "2"}},
		{"MyLib.Core", []string{"my", "lib", "core"}},
		{"snake_case-name", []string{"snake", "case", "name"}},
		{"x", []string{"x"}},
		{"", nil},
		{"ÜberLib", []string{"über", "lib"}},
	} {
		if got := nameParts(tc.name); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("nameParts(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzSearchQuery: whatever the query, Search answers without an error
// (or, for a blank query, with the QUERY_EMPTY *errs.Error, and for one
// over the limits, QUERY_TOO_LONG).
func FuzzSearchQuery(f *testing.F) {
	for _, seed := range []string{"ui", `"`, `ui*`, `-`, `:`, "AND OR NOT", "NEAR(a b, 3)", "(^+)", "\x00", "\xff", " ", "a\"b", "é😀", `""*`, "*\"\"", "ui -utils"} {
		f.Add(seed)
	}
	db, _ := fixtureDB(f)
	f.Fuzz(func(t *testing.T, query string) {
		_, err := Search(context.Background(), db, query, 5)
		if len(query) > querylimit.MaxBytes || len(searchTerms(query)) > querylimit.MaxTerms {
			if e, ok := errs.As(err); !ok || e.Code != querylimit.Code {
				t.Fatalf("Search(%d bytes) error = %#v, want QUERY_TOO_LONG", len(query), err)
			}
			return
		}
		if strings.TrimSpace(query) == "" {
			if e, ok := errs.As(err); !ok || e.Code != "QUERY_EMPTY" {
				t.Fatalf("Search(%q) error = %#v, want QUERY_EMPTY", query, err)
			}
			return
		}
		if err != nil {
			if _, ok := errs.As(err); !ok {
				t.Fatalf("Search(%q) returned an untyped error: %v", query, err)
			}
			t.Fatalf("Search(%q): %v", query, err)
		}
	})
}
