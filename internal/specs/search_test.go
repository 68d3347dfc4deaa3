package specs

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
	_ "modernc.org/sqlite"
)

// openDB opens a new SQLite file in a temporary folder.
func openDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// createSchema runs Schema the way the store's migrations do: statement by
// statement, split at ";\n".
func createSchema(t *testing.T, db *sql.DB) {
	t.Helper()
	for _, stmt := range strings.Split(Schema, ";\n") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("schema statement %q: %v", stmt, err)
		}
	}
}

func save(t *testing.T, db *sql.DB, specs []Spec) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(context.Background(), tx, specs); err != nil {
		tx.Rollback()
		t.Fatalf("Save: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// indexedDB is a database holding specs.
func indexedDB(t *testing.T, specs []Spec) *sql.DB {
	t.Helper()
	db := openDB(t)
	createSchema(t, db)
	save(t, db, specs)
	return db
}

func count(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSaveStoresAndReplaces(t *testing.T) {
	specs := fixtureSpecs(t)
	db := indexedDB(t, specs)
	wantReqs, wantScens := 0, 0
	for _, s := range specs {
		wantReqs += len(s.Requirements)
		for _, r := range s.Requirements {
			wantScens += len(r.Scenarios)
		}
	}
	check := func(stage string) {
		t.Helper()
		for table, want := range map[string]int{"specs": len(specs), "spec_requirements": wantReqs, "spec_scenarios": wantScens, "spec_fts": wantReqs} {
			if got := count(t, db, table); got != want {
				t.Errorf("%s: %s has %d rows, want %d", stage, table, got, want)
			}
		}
	}
	check("first save")
	save(t, db, specs) // a second save replaces, it does not add
	check("second save")

	var warnings, kind, change string
	if err := db.QueryRow(`SELECT warnings, kind, change FROM specs WHERE id = 'add-2fa/session'`).Scan(&warnings, &kind, &change); err != nil {
		t.Fatal(err)
	}
	var list []string
	if err := json.Unmarshal([]byte(warnings), &list); err != nil {
		t.Fatalf("warnings %q are not JSON: %v", warnings, err)
	}
	if !reflect.DeepEqual(list, specByID(t, specs, "add-2fa/session").Warnings) || kind != KindOpenSpecChange || change != "add-2fa" {
		t.Errorf("stored (%q, %q, %q)", warnings, kind, change)
	}
	var given, when, then string
	var line int
	err := db.QueryRow(`SELECT s.given_clauses, s.when_clauses, s.then_clauses, s.line
		FROM spec_scenarios s JOIN spec_requirements r ON r.id = s.requirement_id
		WHERE r.spec_id = 'auth' AND r.name = 'Account Lockout' AND s.ord = 0`).Scan(&given, &when, &then, &line)
	if err != nil {
		t.Fatal(err)
	}
	if given != `["four failed attempts","no successful login since"]` || when != `["a fifth wrong password is submitted"]` || then != `["the account is locked for thirty minutes"]` || line != 43 {
		t.Errorf("stored scenario (%s, %s, %s, %d)", given, when, then, line)
	}

	save(t, db, nil)
	for _, table := range []string{"specs", "spec_requirements", "spec_scenarios", "spec_fts"} {
		if n := count(t, db, table); n != 0 {
			t.Errorf("after saving no specs, %s has %d rows", table, n)
		}
	}
}

func TestSaveCancelled(t *testing.T) {
	db := openDB(t)
	createSchema(t, db)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Save(ctx, tx, fixtureSpecs(t)); errs.KindOf(err) != errs.Cancelled {
		t.Errorf("Save with a cancelled context = %v, want a cancellation", err)
	}
}

// rankingSpecs puts one word in a requirement's name, description and
// scenario, to check the weighting.
func rankingSpecs() []Spec {
	req := func(name, desc, then string) Requirement {
		r := Requirement{Name: name, Description: desc, Scenarios: []Scenario{}}
		if then != "" {
			r.Scenarios = append(r.Scenarios, Scenario{Name: "s", When: []string{"a request arrives"}, Then: []string{then}})
		}
		return r
	}
	return []Spec{
		{ID: "a", Title: "A", Kind: KindOpenSpec, Requirements: []Requirement{
			req("Scenario Mention", "Requests are answered in order.", "the throttling counter is updated"),
			req("Description Mention", "Clients are subject to throttling per address.", "the request is served"),
		}},
		{ID: "b", Title: "B", Kind: KindOpenSpec, Requirements: []Requirement{
			req("Request Throttling", "Clients get an error when they send too much.", "a 429 status is returned"),
			req("Unrelated Audit Log", "Every change is written to the audit log.", "the entry has a timestamp"),
		}},
	}
}

func TestSearchRanking(t *testing.T) {
	db := indexedDB(t, rankingSpecs())
	hits, err := Search(context.Background(), db, "throttling", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.SpecID+"/"+h.Requirement)
	}
	want := []string{"b/Request Throttling", "a/Description Mention", "a/Scenario Mention"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ranking = %q, want %q (name above description above scenario)", got, want)
	}
	if hits[0].Score != 1 {
		t.Errorf("top score = %v, want 1", hits[0].Score)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score || hits[i].Score <= 0 {
			t.Errorf("scores not descending in (0, 1]: %v then %v", hits[i-1].Score, hits[i].Score)
		}
	}
}

func TestSearchFixture(t *testing.T) {
	db := indexedDB(t, fixtureSpecs(t))
	tests := []struct {
		query       string
		top         string // spec/requirement of the first hit
		snippetHas  string
		stemmedFrom string
	}{
		{query: "account lockout", top: "auth/Account Lockout", snippetHas: "Account Lockout"},
		{query: "tag filter", top: "search/Tag Filter", snippetHas: "Tag Filter"},
		{query: "two-factor code", top: "add-2fa/auth/Two-Factor Code", snippetHas: "Two-Factor Code"},
		{query: "remembered devices", top: "add-2fa/session/Remember Device", snippetHas: "Remember"},
		{query: "export JSON array", top: "001-export-bookmarks/FR-002", snippetHas: "JSON array"},
		{query: "what happens when the account is locked?", top: "auth/Account Lockout", snippetHas: "locked"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := Search(context.Background(), db, tt.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Fatal("no hits")
			}
			if got := hits[0].SpecID + "/" + hits[0].Requirement; got != tt.top {
				t.Errorf("top hit = %s, want %s (all: %+v)", got, tt.top, hits)
			}
			if !strings.Contains(hits[0].Snippet, tt.snippetHas) {
				t.Errorf("snippet %q lacks %q", hits[0].Snippet, tt.snippetHas)
			}
		})
	}
}

func TestSearchRelevanceThreshold(t *testing.T) {
	db := indexedDB(t, fixtureSpecs(t))
	tests := []struct {
		query string
		hit   bool
	}{
		{"quantum chromodynamics lattice", false},
		{"lockout banana", true},         // 1 of 2 terms: exactly MinTermCoverage
		{"lockout banana cherry", false}, // 1 of 3 terms: below it
		{"lockout account banana", true}, // 2 of 3
		{"the of and", false},            // stop words only: nothing to search for
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := Search(context.Background(), db, tt.query, 10)
			if err != nil {
				t.Fatal(err)
			}
			if hits == nil {
				t.Fatal("hits is nil; an empty result must be an empty slice")
			}
			if got := len(hits) > 0; got != tt.hit {
				t.Errorf("hits = %+v, want hit=%v", hits, tt.hit)
			}
		})
	}
	if MinTermCoverage != 0.5 {
		t.Errorf("MinTermCoverage = %v; the cases above are chosen around 0.5", MinTermCoverage)
	}
	b, err := json.Marshal([]Hit{})
	if err != nil || string(b) != "[]" {
		t.Errorf("empty hits JSON = %s, %v", b, err)
	}
}

func TestSearchFTSSyntaxIsText(t *testing.T) {
	db := indexedDB(t, fixtureSpecs(t))
	for _, q := range []string{
		`"unbalanced`, `lockout"`, `NEAR(lockout account)`, `lockout AND OR NOT`, `*`, `lockout*`, `-lockout`,
		`^lockout`, `name:lockout`, `(((`, `{name description}: lockout`, `'; DROP TABLE specs; --`, `"" OR ""`,
		"lock\x00out", `ünïcödé`,
	} {
		hits, err := Search(context.Background(), db, q, 10)
		if err != nil {
			t.Errorf("Search(%q): %v", q, err)
			continue
		}
		if hits == nil {
			t.Errorf("Search(%q) returned nil", q)
		}
	}
	hits, err := Search(context.Background(), db, `NEAR(lockout account)`, 10)
	if err != nil || len(hits) == 0 || hits[0].Requirement != "Account Lockout" {
		t.Errorf("operators should be searched as words: %+v, %v", hits, err)
	}
	if count(t, db, "specs") == 0 {
		t.Error("the specs table lost its rows")
	}
}

func TestSearchEmptyQuery(t *testing.T) {
	db := indexedDB(t, nil)
	for _, q := range []string{"", "   ", "\t\n"} {
		_, err := Search(context.Background(), db, q, 10)
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.Invalid || e.Code != "QUERY_EMPTY" || e.Message != "Query cannot be empty" {
			t.Errorf("Search(%q) error = %v, want QUERY_EMPTY", q, err)
		}
	}
}

func TestSearchLimit(t *testing.T) {
	var reqs []Requirement
	for i := 0; i < 15; i++ {
		reqs = append(reqs, Requirement{Name: fmt.Sprintf("Widget %02d", i), Description: "A widget.", Scenarios: []Scenario{}})
	}
	db := indexedDB(t, []Spec{{ID: "w", Kind: KindOpenSpec, Requirements: reqs}})
	for _, tt := range []struct{ limit, want int }{{0, DefaultSearchLimit}, {-3, DefaultSearchLimit}, {1, 1}, {12, 12}, {100, 15}} {
		hits, err := Search(context.Background(), db, "widget", tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != tt.want {
			t.Errorf("limit %d: %d hits, want %d", tt.limit, len(hits), tt.want)
		}
		// Equal scores fall back to spec and requirement order.
		for i, h := range hits {
			if want := fmt.Sprintf("Widget %02d", i); h.Requirement != want {
				t.Errorf("limit %d: hit %d = %s, want %s", tt.limit, i, h.Requirement, want)
				break
			}
		}
	}
}

func TestSearchWithoutIndex(t *testing.T) {
	db := openDB(t)
	_, err := Search(context.Background(), db, "login", 10)
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.NoIndex || e.Code != "NO_INDEX" {
		t.Errorf("error = %v, want NO_INDEX", err)
	}
}

func TestHitJSON(t *testing.T) {
	b, err := json.Marshal(Hit{SpecID: "s", Requirement: "r", Score: 0.5, Snippet: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"spec_id":"s","requirement":"r","score":0.5,"snippet":"x"}`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("filler words here ", 20) + "the throttling limit applies " + strings.Repeat("more filler ", 20)
	tests := []struct {
		name  string
		lines []string
		terms []string
		want  string
	}{
		{"best line first, others in order if they fit",
			[]string{"Name", "no match", "WHEN a throttled request", "THEN throttling and limits apply"}, []string{"throttling", "limits"},
			"WHEN a throttled request … THEN throttling and limits apply"},
		{"no matching line gives the first", []string{"Name", "other"}, []string{"zzz"}, "Name"},
		{"long line is cut around the match", []string{"Name", long}, []string{"throttling"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := snippet(tt.lines, tt.terms)
			if n := utf8.RuneCountInString(got); n > SnippetLength {
				t.Errorf("snippet has %d characters, more than %d", n, SnippetLength)
			}
			if tt.want != "" && got != tt.want {
				t.Errorf("snippet = %q, want %q", got, tt.want)
			}
			if tt.want == "" && (!strings.Contains(got, "throttling limit") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…")) {
				t.Errorf("windowed snippet = %q", got)
			}
		})
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"How does the Login work?", []string{"login", "work"}},
		{"list_specs AND list_specs", []string{"list", "specs"}},
		{"the and", nil},
		{`"*()"`, nil},
		{"Café crème", []string{"café", "crème"}},
	}
	for _, tt := range tests {
		if got := queryTerms(tt.query); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("queryTerms(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
	var words []string
	for i := 0; i < 50; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	if got := len(queryTerms(strings.Join(words, " "))); got != maxQueryTerms {
		t.Errorf("%d terms kept, want %d", got, maxQueryTerms)
	}
}
