package main

import (
	"path/filepath"
	"testing"
)

func TestSpecsCommand(t *testing.T) {
	f := newFactsFixture(t)
	root := []string{"--root", f.root}
	with := func(args ...string) []string { return append(args, root...) }
	runCases(t, f, []cliCase{
		{name: "list", args: with("specs", "list"), stdout: []string{"ID", "KIND", "TITLE", "001-export-bookmarks", "spec-kit",
			"add-2fa/auth", "openspec-change", "auth", "openspec", "Authentication", "broken", "warning: broken: "}},
		{name: "list json", args: with("specs", "list", "--format", "json"), jsonLength: 8, stdoutNot: []string{`"requirements"`}},
		{name: "show", args: with("specs", "show", "auth"), stdout: []string{"REQUIREMENT", "SCENARIOS", "Password Login", "2", "Magic Link", "1"}},
		{name: "show delta", args: with("specs", "show", "add-2fa/auth", "--format", "json"), stdout: []string{`"delta": "`}},
		{name: "show unknown", args: with("specs", "show", "nope"), code: 1, stderr: "lore: Spec 'nope' not found"},
		{name: "scenario first", args: with("specs", "scenario", "auth", "Password Login"), stdout: []string{"auth / Password Login",
			"sign in with an email address", "Scenario: Valid credentials", "GIVEN", "WHEN  the member submits the correct password",
			"THEN  a session is created", "AND   the member is redirected to the bookmark list"}},
		{name: "scenario named", args: with("specs", "scenario", "auth", "password login", "wrong password", "--format", "json"),
			stdout: []string{`"name": "Wrong password"`, `"then": [`, `"no session is created"`}},
		{name: "scenario unknown requirement", args: with("specs", "scenario", "auth", "Teleport"), code: 1, stderr: "lore: Requirement 'Teleport' not found in spec 'auth'"},
		{name: "scenario unknown", args: with("specs", "scenario", "auth", "Password Login", "Nope"), code: 1,
			stderr: "lore: Scenario 'Nope' not found in requirement 'Password Login'"},
		{name: "scenario too few", args: with("specs", "scenario", "auth"), code: 2, stderr: "usage: lore specs scenario ID REQUIREMENT"},
		{name: "search", args: with("specs", "search", "password", "login"), stdout: []string{" 1. ", "Password Login", "("}},
		{name: "search json limit", args: with("specs", "search", "password", "--limit", "2", "--format", "json"),
			stdout: []string{`"query": "password"`, `"results": [`, `"spec_id"`, `"score"`, `"snippet"`, `"spec_id"`}},
		{name: "search unrelated", args: with("specs", "search", "quantum", "chromodynamics"), stdout: []string{`no requirements match "quantum chromodynamics"`}},
		{name: "search bad limit", args: with("specs", "search", "x", "--limit", "0"), code: 2, stderr: "--limit must be positive, got 0"},
		{name: "search blank", args: with("specs", "search", " "), code: exitUsage, stderr: "lore: Query cannot be empty"},
		{name: "specs dir", args: with("specs", "list", "--specs-dir", "openspec/specs"), stdout: []string{"auth", "search"}, stdoutNot: []string{"001-export-bookmarks", "add-2fa"}},
		{name: "specs dir missing", args: with("specs", "list", "--specs-dir", "nowhere"), code: 1, stderr: "nowhere"},
		{name: "no command", args: []string{"specs"}, code: 2, stderr: "Usage: lore specs"},
		{name: "unknown command", args: []string{"specs", "grep"}, code: 2, stderr: `unknown specs command "grep"`},
	})

	// Without an index, list, show and scenario still work; search says what to run.
	f.index = filepath.Join(t.TempDir(), "none.db")
	unindexed := []string{"--root", f.unindexed}
	runCases(t, f, []cliCase{
		{name: "list without index", args: append([]string{"specs", "list"}, unindexed...), stdout: []string{"auth"}},
		{name: "show without index", args: append([]string{"specs", "show", "auth"}, unindexed...), stdout: []string{"Password Login"}},
		{name: "scenario without index", args: append([]string{"specs", "scenario", "auth", "Magic Link"}, unindexed...), stdout: []string{"Link requested"}},
		{name: "search without index", args: append([]string{"specs", "search", "password"}, unindexed...), code: exitNoIndex,
			stderr: `lore: no index at ` + f.index + ` for ` + realPath(t, f.unindexed) + `; run "lore --index ` + f.index + ` index`},
	})
}
