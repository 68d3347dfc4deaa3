package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
)

// longLine is a line of exactly querylimit.MaxBytes bytes, so that a files
// search for it is a query at the limit that finds something.
var longLine = "needle" + strings.Repeat("x", querylimit.MaxBytes-len("needle"))

// queryEnv is an indexed root with code, docs, packages, specs and a file
// holding longLine: something for every query-taking tool to find.
func queryEnv(t *testing.T) (*env, *sdk.ClientSession) {
	t.Helper()
	e := monorepoEnv(t)
	writeTree(t, e.root, fixtureFiles)
	writeTree(t, e.root, map[string]string{"long.txt": "first\n" + longLine + "\n"})
	return e, indexed(t, e, nil, nil)
}

// words returns n distinct words joined by spaces: first, then filler
// words that match nothing ("qaaaa qaaab …").
func words(n int, first ...string) string {
	out := append([]string{}, first...)
	for i := 0; len(out) < n; i++ {
		w := []byte("aaaa")
		for j, k := len(w)-1, i; j >= 0; j, k = j-1, k/26 {
			w[j] = byte('a' + k%26)
		}
		out = append(out, "q"+string(w)) // a prefix keeps them clear of stop words
	}
	return strings.Join(out, " ")
}

// atLimit pads a query with spaces inside it (never at its ends, which
// the code tools trim) to exactly querylimit.MaxBytes bytes.
func atLimit(first, rest string) string {
	return first + strings.Repeat(" ", querylimit.MaxBytes-len(first)-len(rest)) + rest
}

// callToolWithin is callTool bounded in time: a call that never answers
// fails the test instead of hanging it. The bound is generous: speed is
// for benchmarks, this only catches the unbounded case.
func callToolWithin(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%d-byte query): %v", name, len(fmt.Sprint(args["query"])), err)
	}
	return res
}

// TestQueryTooLong calls every query-taking tool with queries over each
// limit: each answers QUERY_TOO_LONG naming the limit and the size, in
// its family's error shape, without echoing the query, and a
// 200,000-word query answers at once instead of hanging the server
// (search_packages) or failing in SQLite (search_code).
func TestQueryTooLong(t *testing.T) {
	_, cs := queryEnv(t)
	sc := newSchemaChecker(t, cs)
	overBytes := strings.Repeat("x", querylimit.MaxBytes+1)
	overTerms := words(querylimit.MaxTerms + 1)
	huge := words(200000)
	bytesErr := func(q string) (string, map[string]any) {
		return fmt.Sprintf("query is too long: %d bytes (limit %d)", len(q), querylimit.MaxBytes),
			map[string]any{"query_bytes": float64(len(q)), "max_bytes": float64(querylimit.MaxBytes)}
	}
	termsMessage := fmt.Sprintf("query is too long: %d distinct terms (limit %d)", querylimit.MaxTerms+1, querylimit.MaxTerms)
	termsDetails := map[string]any{"query_terms": float64(querylimit.MaxTerms + 1), "max_terms": float64(querylimit.MaxTerms)}
	regexMessage := fmt.Sprintf("regex is too large: it expands to 10000 instructions (limit %d)", querylimit.MaxRegexSize)
	regexDetails := map[string]any{"regex_size": float64(10000), "max_regex_size": float64(querylimit.MaxRegexSize)}

	type tc struct {
		name    string
		tool    string
		args    map[string]any
		message string
		details map[string]any
	}
	var tests []tc
	for _, tool := range []string{"search_code", "search_docs", "search_packages", "search_specs", "search"} {
		m, d := bytesErr(overBytes)
		tests = append(tests, tc{tool + "/bytes", tool, map[string]any{"query": overBytes}, m, d})
		m, d = bytesErr(huge)
		tests = append(tests, tc{tool + "/200000 words", tool, map[string]any{"query": huge}, m, d})
		if tool != "search" { // the files search matches its query as one string
			tests = append(tests, tc{tool + "/terms", tool, map[string]any{"query": overTerms}, termsMessage, termsDetails})
		}
	}
	tests = append(tests, tc{"search/regex size", "search", map[string]any{"query": "(?:abcdefghij){1000}", "regex": true}, regexMessage, regexDetails})

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callToolWithin(t, cs, tt.tool, tt.args)
			if !res.IsError {
				t.Fatalf("want %s, got a result: %.200s", querylimit.Code, textOf(res))
			}
			sc.check(t, tt.tool, res)
			te := toolErrorOf(t, res)
			if te["code"] != querylimit.Code || te["message"] != tt.message || !jsonEqual(te["details"], tt.details) {
				t.Errorf("error = %.300v\nwant %s %q %v", te, querylimit.Code, tt.message, tt.details)
			}
			text := textOf(res)
			if tt.tool == "search" { // the files family's text is the JSON of the structured content
				var v any
				if err := json.Unmarshal([]byte(text), &v); err != nil || !jsonEqual(v, structured(t, res)) {
					t.Errorf("text = %.300q, want the JSON of the structured content", text)
				}
			} else if text != tt.message {
				t.Errorf("text = %.300q, want %q", text, tt.message)
			}
			if len(text) > 1000 {
				t.Errorf("the answer echoes the query: %d bytes", len(text))
			}
		})
	}
}

// TestQueryAtLimit calls every query-taking tool with queries exactly at
// each limit: they answer, and find what they should, so the limits are
// not off by one. search_code with as many distinct words as allowed
// reads more index terms (with parts and compounds) than one IN list of
// the store holds.
func TestQueryAtLimit(t *testing.T) {
	_, cs := queryEnv(t)
	sc := newSchemaChecker(t, cs)
	tests := []struct {
		name  string
		tool  string
		args  map[string]any
		check func(t *testing.T, out map[string]any)
	}{
		{"search_code/bytes", "search_code", map[string]any{"query": atLimit("Login", "password session")}, wantFirst("results", "path", "auth/login.go")},
		{"search_code/terms", "search_code", map[string]any{"query": words(querylimit.MaxTerms, "Login", "password", "session")}, wantAmong("results", "path", "auth/login.go")},
		{"search_docs/bytes", "search_docs", map[string]any{"query": atLimit("installation", "configuration")}, wantFirst("results", "path", "docs/install.md")},
		{"search_docs/terms", "search_docs", map[string]any{"query": words(querylimit.MaxTerms, "installation", "configuration")}, wantAmong("results", "path", "docs/install.md")},
		{"search_packages/bytes", "search_packages", map[string]any{"query": atLimit("ui", "ui")}, wantFirst("packages", "name", "@acme/ui")},
		{"search_packages/terms", "search_packages", map[string]any{"query": words(querylimit.MaxTerms, "ui")}, wantAmong("packages", "name", "@acme/ui")},
		{"search_specs/bytes", "search_specs", map[string]any{"query": atLimit("password", "login")}, wantFirst("results", "requirement", "Password Login")},
		// 256 words of which two match: too few for the coverage threshold.
		{"search_specs/terms", "search_specs", map[string]any{"query": words(querylimit.MaxTerms, "password", "login")}, func(t *testing.T, out map[string]any) {}},
		{"search/bytes", "search", map[string]any{"query": longLine}, func(t *testing.T, out map[string]any) {
			hits, _ := out["result"].(map[string]any)["matches"].([]any)
			if len(hits) != 1 || hits[0].(map[string]any)["path"] != "long.txt" || hits[0].(map[string]any)["line"] != float64(2) {
				t.Errorf("hits = %.300v", hits)
			}
		}},
		// 8006 instructions; "needle" keeps the matching linear on the long line.
		{"search/regex size", "search", map[string]any{"query": "needle" + strings.Repeat("x{1000}", 8), "regex": true}, func(t *testing.T, out map[string]any) {
			hits, _ := out["result"].(map[string]any)["matches"].([]any)
			if len(hits) != 1 || hits[0].(map[string]any)["path"] != "long.txt" {
				t.Errorf("hits = %.300v", hits)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callToolWithin(t, cs, tt.tool, tt.args)
			if res.IsError {
				t.Fatalf("%s: %s", tt.tool, textOf(res))
			}
			sc.check(t, tt.tool, res)
			tt.check(t, structured(t, res))
		})
	}
}

// wantFirst checks that the first entry of out[list] has field value.
func wantFirst(list, field, value string) func(*testing.T, map[string]any) {
	return func(t *testing.T, out map[string]any) {
		t.Helper()
		entries, _ := out[list].([]any)
		if len(entries) == 0 || entries[0].(map[string]any)[field] != value {
			t.Errorf("first of %s = %.300v, want %s %q", list, entries, field, value)
		}
	}
}

// wantAmong checks that some entry of out[list] has field value.
func wantAmong(list, field, value string) func(*testing.T, map[string]any) {
	return func(t *testing.T, out map[string]any) {
		t.Helper()
		entries, _ := out[list].([]any)
		for _, e := range entries {
			if e.(map[string]any)[field] == value {
				return
			}
		}
		t.Errorf("%s = %.300v lacks %s %q", list, entries, field, value)
	}
}

// TestInternalErrorsAreGeneric checks that no error text lore did not
// write for the client reaches it: an untyped error (a driver's message)
// and a typed error without a message of its own answer INTERNAL with a
// generic message, in each family's shape, while the server log keeps the
// real cause. The last cases break a real index under the server.
func TestInternalErrorsAreGeneric(t *testing.T) {
	e := monorepoEnv(t)
	writeTree(t, e.root, fixtureFiles)
	s := e.server(t, nil)
	const cause = "reading postings: SQL logic error: too many SQL variables (1)"
	for _, raw := range []struct {
		name     string
		jsonText bool
		err      error
	}{
		{"zz_untyped", false, fmt.Errorf("%s", cause)},
		{"zz_untyped_files", true, fmt.Errorf("%s", cause)},
		{"zz_typed_without_message", false, &errs.Error{Kind: errs.Internal, Err: fmt.Errorf("%s", cause)}},
	} {
		s.register(newTool(&tool{def: &sdk.Tool{Name: raw.name, Description: "fails"}, jsonText: raw.jsonText},
			func(context.Context, *call, *noArgs) (*outcome, error) { return nil, raw.err }))
	}
	cs := connectSDK(t, s, nil)
	if res := callTool(t, cs, "index_codebase", map[string]any{"path": e.root}); res.IsError {
		t.Fatalf("index_codebase: %s", textOf(res))
	}
	// Break the index under the server: every page after the first is
	// overwritten, so the searches fail inside the database driver.
	corrupt(t, e.indexFile(t, e.root))

	tests := []struct {
		tool     string
		args     map[string]any
		jsonText bool
		cause    string // in the server log
	}{
		{"zz_untyped", nil, false, cause},
		{"zz_untyped_files", nil, true, cause},
		{"zz_typed_without_message", nil, false, cause},
		{"search_code", map[string]any{"query": "login"}, false, "malformed"},
		{"search_packages", map[string]any{"query": "ui"}, false, "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res := callTool(t, cs, tt.tool, tt.args)
			te := toolErrorOf(t, res)
			want := map[string]any{"code": "INTERNAL", "message": internalMessage, "details": map[string]any{}}
			if !jsonEqual(te, want) {
				t.Errorf("error = %v, want %v", te, want)
			}
			text := textOf(res)
			if tt.jsonText {
				var v any
				if err := json.Unmarshal([]byte(text), &v); err != nil || !jsonEqual(v, map[string]any{"error": want}) {
					t.Errorf("text = %q, want the JSON of the error", text)
				}
			} else if text != internalMessage {
				t.Errorf("text = %q, want %q", text, internalMessage)
			}
			line := ""
			for _, l := range strings.Split(e.log.String(), "\n") {
				if strings.Contains(l, "tool="+tt.tool+" ") {
					line = l
				}
			}
			if !strings.Contains(line, `msg="tool call failed"`) || !strings.Contains(line, "code=INTERNAL") || !strings.Contains(line, tt.cause) {
				t.Errorf("the log does not keep the cause %q:\n%s", tt.cause, line)
			}
		})
	}
}

// corrupt overwrites every page of the index file at path but the first.
func corrupt(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	garbage := bytes.Repeat([]byte{0xa5}, int(info.Size())-4096)
	if _, err := f.WriteAt(garbage, 4096); err != nil {
		t.Fatal(err)
	}
}

// TestPanicIsAnInternalError: a tool that panics answers INTERNAL's
// generic message, logs the panic, and the session goes on.
func TestPanicIsAnInternalError(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	s.register(newTool(&tool{def: &sdk.Tool{Name: "zz_panics", Description: "panics"}},
		func(context.Context, *call, *noArgs) (*outcome, error) { panic("boom") }))
	cs := connectSDK(t, s, nil)
	te := toolErrorOf(t, callTool(t, cs, "zz_panics", nil))
	if te["code"] != "INTERNAL" || te["message"] != internalMessage {
		t.Errorf("a panicking tool answered %v", te)
	}
	if !strings.Contains(e.log.String(), "tool call panicked") || !strings.Contains(e.log.String(), "boom") {
		t.Errorf("the panic is not in the log:\n%s", e.log.String())
	}
	if res := callTool(t, cs, "list_dir", map[string]any{"repo": "code"}); res.IsError {
		t.Errorf("the session did not go on: %s", textOf(res))
	}
}
