package mcp

import (
	"slices"
	"strings"
	"testing"
)

func strs(list any) []string {
	out := []string{}
	for _, v := range list.([]any) {
		out = append(out, v.(string))
	}
	return out
}

// TestSpecsWithoutIndex checks that list_specs, get_spec_requirements and
// get_scenario read the spec files directly, and that search_specs says
// the index must be built first.
func TestSpecsWithoutIndex(t *testing.T) {
	e := monorepoEnv(t)
	cs := connectSDK(t, e.server(t, nil), nil)
	sc := newSchemaChecker(t, cs)
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res := callTool(t, cs, name, args)
		if res.IsError {
			t.Fatalf("%s(%v): %s", name, args, textOf(res))
		}
		sc.check(t, name, res)
		textIsStructuredJSON(t, res)
		return structured(t, res)
	}

	t.Run("list_specs", func(t *testing.T) {
		list := call("list_specs", nil)["specs"].([]any)
		byID := map[string]map[string]any{}
		var ids []string
		for _, raw := range list {
			s := raw.(map[string]any)
			id := s["id"].(string)
			byID[id] = s
			ids = append(ids, id)
			if _, ok := s["requirements"]; ok {
				t.Errorf("list_specs gives requirements of %s", id)
			}
		}
		want := []string{"001-export-bookmarks", "002-notify", "add-2fa/auth", "add-2fa/session", "auth", "broken", "search", "variants"}
		if !slices.Equal(ids, want) {
			t.Fatalf("ids = %v, want %v", ids, want)
		}
		if a := byID["auth"]; a["title"] != "Authentication" || !strings.HasPrefix(a["purpose"].(string), "Members sign in") || a["kind"] != "openspec" {
			t.Errorf("auth = %v", a)
		}
		if k := byID["001-export-bookmarks"]["kind"]; k != "spec-kit" {
			t.Errorf("spec-kit kind = %v", k)
		}
		if k := byID["add-2fa/auth"]["kind"]; k != "openspec-change" {
			t.Errorf("change kind = %v", k)
		}
		// The malformed spec is listed, with what could not be parsed.
		if w, _ := byID["broken"]["warnings"].([]any); len(w) == 0 {
			t.Errorf("broken spec has no warnings: %v", byID["broken"])
		}
		if _, ok := byID["auth"]["warnings"]; ok {
			t.Errorf("a clean spec has warnings: %v", byID["auth"])
		}
	})

	t.Run("get_spec_requirements", func(t *testing.T) {
		got := call("get_spec_requirements", map[string]any{"spec_id": "auth"})
		var names []string
		counts := map[string]float64{}
		for _, raw := range got["requirements"].([]any) {
			r := raw.(map[string]any)
			names = append(names, r["name"].(string))
			counts[r["name"].(string)] = r["scenario_count"].(float64)
			if _, ok := r["scenarios"]; ok {
				t.Errorf("scenario bodies given: %v", r)
			}
		}
		if len(names) < 3 || names[0] != "Password Login" || counts["Password Login"] != 2 || counts["Magic Link"] != 1 {
			t.Errorf("requirements of auth: %v %v", names, counts)
		}
		delta := call("get_spec_requirements", map[string]any{"spec_id": "add-2fa/auth"})
		for _, raw := range delta["requirements"].([]any) {
			if d, _ := raw.(map[string]any)["delta"].(string); d == "" {
				t.Errorf("a change delta's requirement without delta: %v", raw)
			}
		}
		kit := call("get_spec_requirements", map[string]any{"spec_id": "001-export-bookmarks"})
		if names := namesOf(t, kit["requirements"]); !slices.Contains(names, "User Story 1 - Export to a browser file") || !slices.Contains(names, "FR-001") {
			t.Errorf("spec-kit requirements: %v", names)
		}
	})

	t.Run("get_scenario", func(t *testing.T) {
		tests := []struct {
			args     map[string]any
			name     string
			when     []string
			thenLast string
		}{
			{map[string]any{"spec_id": "auth", "requirement": "Password Login"}, "Valid credentials",
				[]string{"the member submits the correct password"}, "the member is redirected to the bookmark list"},
			{map[string]any{"spec_id": "auth", "requirement": "Password Login", "scenario": "Wrong password"}, "Wrong password",
				[]string{"the member submits a wrong password"}, "no session is created"},
			{map[string]any{"spec_id": "AUTH", "requirement": "password login", "scenario": "wrong PASSWORD"}, "Wrong password",
				[]string{"the member submits a wrong password"}, "no session is created"},
			// AND lines after WHEN belong to WHEN.
			{map[string]any{"spec_id": "auth", "requirement": "Magic Link"}, "Link requested",
				[]string{"a member asks for a magic link", "the email address belongs to a member"}, "an email with a single-use link is sent"},
		}
		for _, tt := range tests {
			got := call("get_scenario", tt.args)
			sc := got["scenario"].(map[string]any)
			then := strs(sc["then"])
			if sc["name"] != tt.name || !slices.Equal(strs(sc["when"]), tt.when) || len(then) == 0 || then[len(then)-1] != tt.thenLast {
				t.Errorf("get_scenario(%v) = %v", tt.args, got)
			}
			if got["description"] == "" || got["spec_id"] != "auth" {
				t.Errorf("get_scenario(%v): spec_id %v, description %q", tt.args, got["spec_id"], got["description"])
			}
		}
		kit := call("get_scenario", map[string]any{"spec_id": "001-export-bookmarks", "requirement": "User Story 1 - Export to a browser file", "scenario": "Scenario 2"})
		sc := kit["scenario"].(map[string]any)
		if len(strs(sc["given"])) != 1 || len(strs(sc["then"])) != 2 {
			t.Errorf("spec-kit scenario: %v", sc)
		}
	})

	t.Run("errors", func(t *testing.T) {
		noIndex := "No index found for path: " + e.root + ". Run 'index_codebase' tool first."
		tests := []struct {
			tool    string
			args    map[string]any
			code    string
			message string
		}{
			{"search_specs", map[string]any{"query": "password"}, "NO_INDEX", noIndex},
			{"search_specs", map[string]any{"query": "  "}, "QUERY_EMPTY", "Query cannot be empty"},
			{"search_specs", map[string]any{"query": "x", "limit": 0}, "INVALID_ARGUMENT", "Argument limit must be between 1 and 100, got 0"},
			{"get_spec_requirements", map[string]any{"spec_id": "nope"}, "SPEC_NOT_FOUND", "Spec 'nope' not found"},
			{"get_spec_requirements", map[string]any{"spec_id": " "}, "SPEC_ID_REQUIRED", "Spec id cannot be empty"},
			{"get_spec_requirements", nil, "INVALID_ARGUMENT", "Missing required argument: spec_id"},
			{"get_scenario", map[string]any{"spec_id": "nope", "requirement": "x"}, "SPEC_NOT_FOUND", "Spec 'nope' not found"},
			{"get_scenario", map[string]any{"spec_id": "auth", "requirement": "Teleport"}, "REQUIREMENT_NOT_FOUND", "Requirement 'Teleport' not found in spec 'auth'"},
			{"get_scenario", map[string]any{"spec_id": "auth", "requirement": "Password Login", "scenario": "Moon landing"},
				"SCENARIO_NOT_FOUND", "Scenario 'Moon landing' not found in requirement 'Password Login'"},
			{"get_scenario", map[string]any{"spec_id": "auth"}, "INVALID_ARGUMENT", "Missing required argument: requirement"},
			{"get_scenario", map[string]any{"spec_id": "001-export-bookmarks", "requirement": "FR-001"}, "NO_SCENARIOS", "Requirement 'FR-001' has no scenarios"},
		}
		for _, tt := range tests {
			res := callTool(t, cs, tt.tool, tt.args)
			te := toolErrorOf(t, res)
			if te["code"] != tt.code || textOf(res) != tt.message {
				t.Errorf("%s(%v): %v %q, want %s %q", tt.tool, tt.args, te["code"], textOf(res), tt.code, tt.message)
			}
			sc.check(t, tt.tool, res)
		}
	})
}

func TestSearchSpecs(t *testing.T) {
	e := monorepoEnv(t)
	cs := indexed(t, e, nil, nil)
	sc := newSchemaChecker(t, cs)
	search := func(args map[string]any) []map[string]any {
		t.Helper()
		res := callTool(t, cs, "search_specs", args)
		if res.IsError {
			t.Fatalf("search_specs(%v): %s", args, textOf(res))
		}
		sc.check(t, "search_specs", res)
		textIsStructuredJSON(t, res)
		var hits []map[string]any
		for _, h := range structured(t, res)["results"].([]any) {
			hits = append(hits, h.(map[string]any))
		}
		return hits
	}
	hits := search(map[string]any{"query": "password login"})
	// The spec and the change delta that modifies it both hold the requirement.
	if len(hits) < 2 || hits[0]["requirement"] != "Password Login" || hits[1]["requirement"] != "Password Login" ||
		!slices.Contains([]any{hits[0]["spec_id"], hits[1]["spec_id"]}, "auth") {
		t.Fatalf("password login: %v", hits)
	}
	for i, h := range hits {
		if s := h["score"].(float64); s <= 0 || s > 1 || (i > 0 && s > hits[i-1]["score"].(float64)) {
			t.Errorf("scores not in 0..1 descending: %v", hits)
		}
		if h["snippet"] == "" {
			t.Errorf("hit without snippet: %v", h)
		}
	}
	if got := search(map[string]any{"query": "password", "limit": 1}); len(got) != 1 {
		t.Errorf("limit 1: %d hits", len(got))
	}
	if got := search(map[string]any{"query": "export bookmarks browser"}); len(got) == 0 || got[0]["spec_id"] != "001-export-bookmarks" {
		t.Errorf("spec-kit search: %v", got)
	}
	for _, q := range []string{"quantum chromodynamics lattice", `"password`, "password AND (login", "the of and"} {
		res := callTool(t, cs, "search_specs", map[string]any{"query": q})
		if res.IsError {
			t.Errorf("search_specs %q: %s", q, textOf(res))
		}
	}
	if got := search(map[string]any{"query": "quantum chromodynamics lattice"}); len(got) != 0 {
		t.Errorf("unrelated query found %v", got)
	}
}

func TestSpecsEmptyAndSpecsDir(t *testing.T) {
	e := newEnv(t, map[string]string{"README.md": "# nothing here\n"})
	cs := connectSDK(t, e.server(t, nil), nil)
	res := callTool(t, cs, "list_specs", nil)
	if res.IsError || textOf(res) != `{"specs":[]}` {
		t.Errorf("list_specs without specs: %s", textOf(res))
	}

	// A configured specs folder replaces the default layout.
	writeTree(t, e.root, map[string]string{
		"docs/requirements/billing/spec.md": "# Billing\n\n## Purpose\n\nInvoices.\n\n## Requirements\n\n### Requirement: Invoice\n\nThe system SHALL send invoices.\n\n#### Scenario: Monthly\n\n- **WHEN** a month ends\n- **THEN** an invoice is sent\n",
	})
	withDir := connectSDK(t, e.server(t, func(o *Options) { o.SpecsDir = "docs/requirements" }), nil)
	got := structured(t, callTool(t, withDir, "list_specs", nil))
	if ids := namesOfField(got["specs"], "id"); !slices.Equal(ids, []string{"billing"}) {
		t.Errorf("list_specs with SpecsDir: %v", got)
	}
	idx := callTool(t, withDir, "index_codebase", map[string]any{"path": e.root})
	if idx.IsError {
		t.Fatal(textOf(idx))
	}
	hits := structured(t, callTool(t, withDir, "search_specs", map[string]any{"query": "invoice"}))["results"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["spec_id"] != "billing" {
		t.Errorf("index_codebase does not index the configured specs folder: %v", hits)
	}

	bad := connectSDK(t, e.server(t, func(o *Options) { o.SpecsDir = "no/such/folder" }), nil)
	if res := callTool(t, bad, "list_specs", nil); !res.IsError || textOf(res) != "Specs folder 'no/such/folder' not found" {
		t.Errorf("a missing specs folder: %s", textOf(res))
	}
}

func namesOfField(list any, field string) []string {
	out := []string{}
	for _, it := range list.([]any) {
		out = append(out, it.(map[string]any)[field].(string))
	}
	return out
}
