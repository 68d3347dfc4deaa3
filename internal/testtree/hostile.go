package testtree

import (
	"path/filepath"
	"testing"
)

// SecretMarker is written into every file of a Hostile tree that no lore
// tool may ever return: hidden files, ignored files, .git, a default-skipped
// folder and files outside the root. A test that finds it in any output has
// found a leak.
const SecretMarker = "LORE-SECRET-d41d8cd98f"

// Hostile is a repository crafted the way an attacker would: symlinks into
// hidden, ignored, .git and default-skipped places and out of the root,
// relative and absolute, through "..", in chains and in loops, beside a few
// ordinary files and links that must keep working.
type Hostile struct {
	Root    string // the repository; serve or index this
	Outside string // a sibling folder outside the root, holding a secret too

	// Visible are the root-relative files a walk must report, in walk order.
	Visible []string
	// Indexed are the files an index holds: Visible without the second
	// paths that reach a file through a link.
	Indexed []string
	// Invisible maps each link inside the root whose target is hidden,
	// ignored, under .git or default-skipped (or a loop) to true
	// when the target is a folder. Every tool must treat them as absent.
	Invisible map[string]bool
	// Outward maps each link leading out of the root to true when the
	// target is a folder. Tools refuse them as outside the root.
	Outward map[string]bool
	// Broken are links to nothing: absent to every tool, like a missing file.
	Broken []string
	// Secrets are the root-relative paths of the secret files themselves.
	Secrets []string
}

// WriteHostile builds a Hostile tree in a fresh temporary folder.
func WriteHostile(t testing.TB) *Hostile {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	secret := func(what string) string { return what + " " + SecretMarker + "\n" }
	Write(t, base, map[string]string{
		"outside/secret.txt": secret("outside"),

		// The secrets, each hidden by a different rule.
		"repo/.env":                      "API_KEY=" + secret("env"),
		"repo/.gitignore":                "secrets/\n*.log\n",
		"repo/.git/config":               "[core]\n\tsecret = " + secret("git"),
		"repo/.git/HEAD":                 "ref: refs/heads/main\n",
		"repo/.hidden/h.txt":             secret("hidden"),
		"repo/secrets/k.txt":             secret("ignored folder"),
		"repo/debug.log":                 secret("ignored file"),
		"repo/node_modules/pkg/index.js": "// " + secret("default skip"),
		"repo/src/.gitignore":            "private.go\nutil/gen.go\n",
		"repo/src/util/gen.go":           "package util // " + secret("ignored where it really is"),
		"repo/src/private.go":            "package src // " + secret("ignored below"),

		// Ordinary code and docs.
		"repo/src/main.go":        "package main\n\n// main starts the visible program.\nfunc main() { helper() }\n",
		"repo/src/util/helper.go": "package util\n\n// Helper is visible.\nfunc Helper() {}\n",
		"repo/docs/guide.md":      "# Guide\n\nThe visible guide.\n",
		"repo/openspec/specs/auth/spec.md": "# Auth\n\n## Purpose\n\nVisible.\n\n## Requirements\n\n" +
			"### Requirement: Login\n\nThe system SHALL log users in.\n\n#### Scenario: Good password\n\n- **WHEN** the password is right\n- **THEN** a session opens\n",
		"repo/openspec/specs/leak/spec.md": "->../../../.env",

		// Links into hidden, ignored, .git and skipped places.
		"repo/notes.txt":     "->.env",
		"repo/g":             "->.git",
		"repo/s":             "->secrets",
		"repo/k-link.txt":    "->secrets/k.txt",
		"repo/log-link.txt":  "->debug.log",
		"repo/h":             "->.hidden",
		"repo/hfile.txt":     "->.hidden/h.txt",
		"repo/nm":            "->node_modules",
		"repo/chain1.txt":    "->chain2.txt",
		"repo/chain2.txt":    "->.env",
		"repo/dotdot.txt":    "->src/../.env",
		"repo/src/up.txt":    "->../.env",
		"repo/src/deep":      "->../.hidden",
		"repo/src/priv.go":   "->private.go",
		"repo/env-abs":       "->" + filepath.Join(root, ".env"),
		"repo/git-abs":       "->" + filepath.Join(root, ".git"),
		"repo/loop1":         "->loop2",
		"repo/loop2":         "->loop1",
		"repo/broken":        "->missing-target",
		"repo/lib/private":   "->../src/private.go",
		"repo/lib/gitconfig": "->../g/config",

		// Links out of the root.
		"repo/out":          "->../outside",
		"repo/out-file.txt": "->../outside/secret.txt",
		"repo/out-abs.txt":  "->" + filepath.Join(outside, "secret.txt"),
		"repo/etc":          "->/etc",
		"repo/src/cwd":      "->/proc/self/cwd",

		// Links that stay visible.
		"repo/readme-link.md": "->docs/guide.md",
		"repo/lib/util":       "->../src/util", // lib/util/gen.go is visible by name, ignored where it really is
		"repo/chain-ok.md":    "->readme-link.md",
		"repo/self":           "->.",
	})
	return &Hostile{
		Root:    root,
		Outside: outside,
		Visible: []string{
			"chain-ok.md",
			"docs/guide.md",
			"lib/util/helper.go",
			"openspec/specs/auth/spec.md",
			"readme-link.md",
			"src/main.go",
			"src/util/helper.go",
		},
		Indexed: []string{
			"docs/guide.md",
			"openspec/specs/auth/spec.md",
			"src/main.go",
			"src/util/helper.go",
		},
		Invisible: map[string]bool{
			"notes.txt": false, "g": true, "s": true, "k-link.txt": false, "log-link.txt": false,
			"h": true, "hfile.txt": false, "nm": true, "chain1.txt": false, "chain2.txt": false,
			"dotdot.txt": false, "src/up.txt": false, "src/deep": true, "src/priv.go": false,
			"env-abs": false, "git-abs": true, "loop1": false, "loop2": false,
			"lib/private": false, "lib/gitconfig": false, "openspec/specs/leak/spec.md": false,
		},
		Outward: map[string]bool{
			"out": true, "out-file.txt": false, "out-abs.txt": false, "etc": true, "src/cwd": true,
		},
		Broken: []string{"broken"},
		Secrets: []string{
			".env", ".git/config", ".hidden/h.txt", "secrets/k.txt", "debug.log",
			"node_modules/pkg/index.js", "src/private.go", "src/util/gen.go",
		},
	}
}
