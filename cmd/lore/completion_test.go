package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletionModel: the completion model is derived from the registered
// commands: each one is there, and the flags and subcommands found in their
// help are those they define.
func TestCompletionModel(t *testing.T) {
	model := completionModel()
	byName := map[string]compCmd{}
	for _, c := range model {
		byName[c.name] = c
	}
	for name := range commands {
		if _, ok := byName[name]; !ok {
			t.Errorf("command %s is missing from the completion", name)
		}
	}
	has := func(flags []compFlag, name string, value bool) bool {
		for _, f := range flags {
			if f.name == name && f.value == value {
				return true
			}
		}
		return false
	}
	checks := []struct {
		cmd, sub, flag string
		value          bool
	}{
		{"search", "", "limit", true},
		{"search", "", "root", true},
		{"index", "", "force", false},
		{"serve", "", "http", true},
		{"serve", "", "read-only", false},
		{"install", "", "dry-run", false},
		{"install", "", "root", true},
		{"version", "", "format", true},
		{"packages", "list", "kind", true},
		{"packages", "list", "root", true},
		{"specs", "show", "specs-dir", true},
	}
	for _, c := range checks {
		cmd := byName[c.cmd]
		flags := cmd.flags
		if c.sub != "" {
			found := false
			for _, s := range cmd.subs {
				if s.name == c.sub {
					flags, found = s.flags, true
				}
			}
			if !found {
				t.Errorf("%s has no subcommand %s", c.cmd, c.sub)
				continue
			}
		}
		if !has(flags, c.flag, c.value) {
			t.Errorf("%s %s: no flag --%s (value %v) in %+v", c.cmd, c.sub, c.flag, c.value, flags)
		}
	}
	for _, f := range byName["search"].flags {
		if f.usage == "" {
			t.Errorf("search --%s has no description", f.name)
		}
	}
}

// TestCompletionScripts: every shell's script names every registered
// command and every flag found, is accepted by the shell's own syntax check
// when that shell is installed, and an unknown shell is a usage error.
func TestCompletionScripts(t *testing.T) {
	model := completionModel()
	for _, shell := range completionShells {
		t.Run(shell, func(t *testing.T) {
			code, out, stderr := lore(t, "completion", shell)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, c := range model {
				if !strings.Contains(out, c.name) {
					t.Errorf("the %s script lacks command %s", shell, c.name)
				}
				all := append([]compFlag{}, c.flags...)
				for _, s := range c.subs {
					if !strings.Contains(out, s.name) {
						t.Errorf("the %s script lacks %s %s", shell, c.name, s.name)
					}
					all = append(all, s.flags...)
				}
				for _, f := range all {
					want := "--" + f.name
					if shell == "fish" {
						want = "-l " + f.name
					}
					if !strings.Contains(out, want) {
						t.Errorf("the %s script lacks %s %s", shell, c.name, want)
					}
				}
			}
			bin, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed: no syntax check", shell)
			}
			script := filepath.Join(t.TempDir(), "lore."+shell)
			if err := os.WriteFile(script, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command(bin, "-n", script).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, msg)
			}
		})
	}
	if code, _, stderr := lore(t, "completion", "powershell"); code != exitUsage || !strings.Contains(stderr, "unknown shell") {
		t.Errorf("powershell: exit %d, %q", code, stderr)
	}
	if code, _, _ := lore(t, "completion"); code != exitUsage {
		t.Errorf("no shell: exit %d", code)
	}
}

// TestCompletionBash runs the bash script's completion function on
// command lines and checks what it offers.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	_, script, _ := lore(t, "completion", "bash")
	path := filepath.Join(t.TempDir(), "lore.bash")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ line, want string }{
		{"lore ins", "install"},
		{"lore install ", "claude-code codex copilot cursor gemini opencode vscode windsurf zed"},
		{"lore install --dr", "--dry-run"},
		{"lore --index x.db sea", "search"},
		{"lore packages ", "list search show deps dependents graph status"},
		{"lore packages list --ki", "--kind"},
		{"lore search --limit 5 query --fo", "--format"},
		{"lore completion ", "bash fish zsh"},
	}
	for _, tc := range cases {
		// COMP_WORDS as bash splits the line; a trailing space starts an
		// empty word.
		words := strings.Fields(tc.line)
		if strings.HasSuffix(tc.line, " ") {
			words = append(words, "")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		prog := "source " + path + "; COMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _lore; echo \"${COMPREPLY[*]}\""
		out, err := exec.Command(bash, "--norc", "--noprofile", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", tc.line, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("%q: completes %q, want %q", tc.line, got, tc.want)
		}
	}
}
