package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/install"
	"github.com/lore-dev/lore/internal/lang"
)

// lore runs lore in-process and returns the exit code and both outputs.
func lore(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runMain(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// fakeInstallMachine points lore install at a temporary home (HOME and
// XDG_CONFIG_HOME set), with no client command on PATH, and makes the
// running binary /opt/lore/bin/lore. It returns the home.
func fakeInstallMachine(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	t.Setenv("LORE_CACHE_DIR", "")
	oldEnv, oldExe := installEnv, executable
	installEnv = func() (*install.Env, error) {
		return &install.Env{Home: home, GOOS: runtime.GOOS, Getenv: os.Getenv}, nil
	}
	executable = func() (string, error) { return "/opt/lore/bin/lore", nil }
	t.Cleanup(func() { installEnv, executable = oldEnv, oldExe })
	return home
}

// TestInstallCommand: lore install's command line, end to end against
// real files in a temporary home: usage errors, a dry run that writes
// nothing, install, a no-op second install, --all, --instructions and
// --uninstall.
func TestInstallCommand(t *testing.T) {
	home := fakeInstallMachine(t)
	repo := t.TempDir()
	realRepo, err := filepath.EvalSymlinks(repo)
	if err != nil {
		t.Fatal(err)
	}
	gemini := filepath.Join(home, ".gemini", "settings.json")
	codex := filepath.Join(home, ".codex", "config.toml")
	claudeMD := filepath.Join(home, ".claude", "CLAUDE.md")

	usage := []struct {
		name string
		args []string
		want string
	}{
		{"no client", []string{"install"}, "name the agents"},
		{"unknown client", []string{"install", "emacs"}, `unknown client "emacs"`},
		{"clients and --all", []string{"install", "--all", "codex"}, "not both"},
		{"bad flag", []string{"install", "--bogus", "codex"}, "bogus"},
	}
	for _, u := range usage {
		code, _, stderr := lore(t, u.args...)
		if code != exitUsage || !strings.Contains(stderr, u.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", u.name, code, stderr, exitUsage, u.want)
		}
	}

	code, out, stderr := lore(t, "install", "--dry-run", "--root", repo, "gemini")
	if code != exitOK || !strings.Contains(out, "+++ "+gemini) || !strings.Contains(out, `+      "args": ["serve", "--root", "`+realRepo+`"]`) {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(gemini); err == nil {
		t.Fatalf("dry run wrote %s", gemini)
	}

	if code, out, stderr := lore(t, "install", "--root", repo, "--instructions", "gemini", "codex", "claude"); code != exitOK {
		t.Fatalf("install: exit %d\n%s%s", code, out, stderr)
	}
	var settings map[string]any
	if err := json.Unmarshal([]byte(readFile(t, gemini)), &settings); err != nil {
		t.Fatal(err)
	}
	entry := settings["mcpServers"].(map[string]any)["lore"].(map[string]any)
	if entry["command"] != "/opt/lore/bin/lore" || !reflect.DeepEqual(entry["args"], []any{"serve", "--root", realRepo}) {
		t.Errorf("gemini entry = %v", entry)
	}
	if !strings.Contains(readFile(t, codex), `args = ["serve", "--root", "`+realRepo+`"]`) {
		t.Errorf("codex config:\n%s", readFile(t, codex))
	}
	if !strings.Contains(readFile(t, claudeMD), "<!-- lore:begin -->") {
		t.Errorf("CLAUDE.md:\n%s", readFile(t, claudeMD))
	}

	code, out, _ = lore(t, "install", "--root", repo, "gemini")
	if code != exitOK || !strings.Contains(out, "already set up") {
		t.Errorf("second install: exit %d, %q", code, out)
	}

	// --all: the agents whose configuration exists (gemini, codex, claude
	// now, as install made their folders).
	code, out, _ = lore(t, "install", "--all", "--root", repo, "--dry-run")
	if code != exitOK || !strings.Contains(out, "gemini: lore is already set up") || strings.Contains(out, "cursor") {
		t.Errorf("--all: exit %d\n%s", code, out)
	}

	// The served folder may not hold the files lore writes.
	if code, _, stderr := lore(t, "install", "--root", home, "cursor"); code != exitError || !strings.Contains(stderr, "inside the served folder") {
		t.Errorf("root = home: exit %d, %q", code, stderr)
	}

	if code, out, stderr := lore(t, "install", "--uninstall", "--instructions", "--root", repo, "gemini", "codex", "claude"); code != exitOK {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, stderr)
	}
	for _, p := range []string{gemini, codex, claudeMD} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("uninstall left %s", p)
		}
	}
}

// TestInstallRefusesTemporaryBinary: a go run binary would be gone when
// the agent starts it, so lore install refuses it.
func TestInstallRefusesTemporaryBinary(t *testing.T) {
	fakeInstallMachine(t)
	executable = func() (string, error) {
		return filepath.Join(os.TempDir(), "go-build1234", "b001", "exe", "lore"), nil
	}
	code, _, stderr := lore(t, "install", "--root", t.TempDir(), "cursor")
	if code != exitUsage || !strings.Contains(stderr, "temporary build") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestVersion: lore version and lore --version print the build's version,
// commit, Go version, platform and the tree-sitter languages, in both
// formats.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version", "--format", "json"}, {"--version", "--format", "json"}} {
		code, out, stderr := lore(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d, %s", args, code, stderr)
		}
		var v versionInfo
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		want := versionInfo{Version: buildVersion(), Commit: v.Commit, CommitTime: v.CommitTime, Modified: v.Modified,
			Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, Languages: lang.Parsed()}
		if !reflect.DeepEqual(v, want) {
			t.Errorf("%v: %+v, want %+v", args, v, want)
		}
		if !strings.Contains(out, `"languages"`) || !strings.Contains(out, `"go"`) {
			t.Errorf("%v: JSON keys: %s", args, out)
		}
	}
	code, out, _ := lore(t, "--version")
	if code != exitOK || !strings.HasPrefix(out, "lore "+buildVersion()+"\n") || !strings.Contains(out, runtime.Version()) ||
		!strings.Contains(out, runtime.GOOS+"/"+runtime.GOARCH) || !strings.Contains(out, strings.Join(lang.Parsed(), ", ")) {
		t.Errorf("lore --version: exit %d\n%s", code, out)
	}
	if code, _, _ := lore(t, "version", "--format", "xml"); code != exitUsage {
		t.Errorf("--format xml: exit %d", code)
	}
}
