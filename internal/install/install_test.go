package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// testServer is the entry every test installs.
var testServer = Server{Command: "/opt/lore/bin/lore", Args: []string{"serve", "--root", "/work/repo"}}

// testEnv is a machine whose home is a fresh temporary folder, with
// XDG_CONFIG_HOME under it, and no client command on PATH.
func testEnv(t *testing.T) *Env {
	t.Helper()
	home := t.TempDir()
	vars := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	return &Env{Home: home, GOOS: "linux", Getenv: func(k string) string { return vars[k] }}
}

// run runs lore install for one client and returns its report.
func run(t *testing.T, env *Env, c *Client, mutate func(*Options)) (string, error) {
	t.Helper()
	var out bytes.Buffer
	opts := Options{Clients: []*Client{c}, Server: testServer, Root: "/work/repo", Env: env, Out: &out}
	if mutate != nil {
		mutate(&opts)
	}
	err := Run(opts)
	return out.String(), err
}

func mustRun(t *testing.T, env *Env, c *Client, mutate func(*Options)) string {
	t.Helper()
	out, err := run(t, env, c, mutate)
	if err != nil {
		t.Fatalf("lore install %s: %v", c.ID, err)
	}
	return out
}

func client(t *testing.T, id string) *Client {
	t.Helper()
	c, ok := Lookup(id)
	if !ok {
		t.Fatalf("no client %q", id)
	}
	return c
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// decode reads a client's configuration file as data: JSON with comments,
// or TOML.
func decode(t *testing.T, path string) map[string]any {
	t.Helper()
	src := []byte(read(t, path))
	var doc map[string]any
	if strings.HasSuffix(strings.TrimSuffix(path, BackupSuffix), ".toml") {
		if err := toml.Unmarshal(src, &doc); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, src)
		}
		return doc
	}
	std, err := hujson.Standardize(src)
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, src)
	}
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// at follows keys into doc.
func at(doc map[string]any, keys ...string) any {
	var cur any = doc
	for _, k := range keys {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// wantEntry is lore's entry as each client should read it: the path to it
// in the decoded file and its members.
var wantEntry = map[string]struct {
	path  []string
	entry map[string]any
}{
	"claude-code": {[]string{"mcpServers", "lore"}, map[string]any{"type": "stdio", "command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"}}},
	"codex":       {[]string{"mcp_servers", "lore"}, map[string]any{"command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"}}},
	"gemini":      {[]string{"mcpServers", "lore"}, map[string]any{"command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"}}},
	"copilot": {[]string{"mcpServers", "lore"}, map[string]any{"type": "local", "command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"},
		"env": map[string]any{"LORE_CACHE_DIR": "HOME/.cache/lore"}, "tools": []any{"*"}}},
	"vscode":   {[]string{"servers", "lore"}, map[string]any{"type": "stdio", "command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"}}},
	"cursor":   {[]string{"mcpServers", "lore"}, map[string]any{"command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"}}},
	"windsurf": {[]string{"mcpServers", "lore"}, map[string]any{"command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"}}},
	"zed":      {[]string{"context_servers", "lore"}, map[string]any{"command": testServer.Command, "args": []any{"serve", "--root", "/work/repo"}}},
	"opencode": {[]string{"mcp", "lore"}, map[string]any{"type": "local", "command": []any{testServer.Command, "serve", "--root", "/work/repo"}, "enabled": true}},
}

// checkEntry checks that the client's file holds lore's entry as the
// client reads it.
func checkEntry(t *testing.T, env *Env, c *Client) {
	t.Helper()
	w, ok := wantEntry[c.ID]
	if !ok {
		t.Fatalf("no expected entry for %s", c.ID)
	}
	want := map[string]any{}
	for k, v := range w.entry {
		if m, ok := v.(map[string]any); ok && k == "env" {
			v = map[string]any{"LORE_CACHE_DIR": strings.Replace(m["LORE_CACHE_DIR"].(string), "HOME", env.Home, 1)}
		}
		want[k] = v
	}
	got := at(decode(t, c.Config(env)), w.path...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: entry = %#v, want %#v\n%s", c.ID, got, want, read(t, c.Config(env)))
	}
}

// TestInstallClientsHaveExpectedEntries keeps wantEntry in step with Clients.
func TestInstallClientsHaveExpectedEntries(t *testing.T) {
	for _, c := range Clients {
		if _, ok := wantEntry[c.ID]; !ok {
			t.Errorf("client %s has no expected entry in the tests", c.ID)
		}
	}
}

// TestInstallFresh: into a home without the client's file, install
// creates it with lore's entry in the client's format, a second install is
// a no-op, and uninstall takes the file away again.
func TestInstallFresh(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.ID, func(t *testing.T) {
			env := testEnv(t)
			path := c.Config(env)
			mustRun(t, env, c, nil)
			checkEntry(t, env, c)
			if exists(path + BackupSuffix) {
				t.Errorf("a backup of a file that did not exist")
			}
			first := read(t, path)
			if out := mustRun(t, env, c, nil); !strings.Contains(out, "already set up") {
				t.Errorf("second install said %q", out)
			}
			if read(t, path) != first || exists(path+BackupSuffix) {
				t.Errorf("second install changed the file or made a backup")
			}
			mustRun(t, env, c, func(o *Options) { o.Uninstall = true })
			if exists(path) {
				t.Errorf("uninstall left %s:\n%s", path, read(t, path))
			}
			if exists(filepath.Dir(path)) && filepath.Dir(path) != env.Home {
				t.Errorf("uninstall left the folder install made: %s", filepath.Dir(path))
			}
		})
	}
}

// existing holds, per client, a realistic file with other servers,
// other settings and — where the format has them — comments and trailing
// commas, which install must keep byte for byte.
var existing = map[string]string{
	"claude-code": `{
  "numStartups": 42,
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/"
    }
  },
  "projects": {
    "/home/me/src/app": {
      "mcpServers": {}
    }
  }
}
`,
	"codex": `# Codex configuration
model = "o3" # the default model

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"] # pinned

[mcp_servers.docs.env]
TOKEN = "x"

# profiles below
[profiles.fast]
model = "o4-mini"
`,
	"gemini": `{
  "theme": "Dracula",
  "mcpServers": {
    "git": {
      "command": "uvx",
      "args": ["mcp-server-git"]
    }
  }
}
`,
	"copilot": `{
  "mcpServers": {
    "playwright": {
      "type": "local",
      "command": "npx",
      "args": ["@playwright/mcp@latest"],
      "tools": ["*"]
    }
  }
}
`,
	"vscode": `// VS Code user MCP servers
{
	"inputs": [
		{ "type": "promptString", "id": "token", "password": true }, // asked once
	],
	"servers": {
		/* the team's server */
		"team": {
			"type": "http",
			"url": "https://mcp.example.com/mcp",
		},
	},
}
`,
	"cursor": `{
  "mcpServers": {
    "time": { "command": "uvx", "args": ["mcp-server-time"] }
  }
}
`,
	"windsurf": `{
    "mcpServers": {
        "ollama": {
            "command": "py",
            "args": ["-m", "mcp_ollama_python"],
            "disabled": false
        }
    }
}
`,
	"zed": `// Zed settings
//
// For information on how to configure Zed, see the Zed documentation.
{
  "theme": "One Dark", // dark, always
  "context_servers": {
    "postgres": {
      "command": "postgres-mcp",
      "args": [],
      "env": {},
    },
  },
  /* vim forever */
  "vim_mode": true,
}
`,
	"opencode": `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "jira": {
      "type": "remote",
      "url": "https://jira.example.com/mcp",
      "enabled": true
    }
  }
}
`,
}

// TestInstallIntoExistingFile: install adds lore beside the other servers
// and keeps the rest of the file (comments, trailing commas, other keys)
// byte for byte; it keeps the file as it was in the backup; a second
// install is a no-op that makes no second backup; a dry run writes
// nothing; uninstall brings back the original bytes — through the backup,
// and also without it, by undoing its edit.
func TestInstallIntoExistingFile(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.ID, func(t *testing.T) {
			orig, ok := existing[c.ID]
			if !ok {
				t.Fatalf("no existing file for %s", c.ID)
			}
			env := testEnv(t)
			path := c.Config(env)
			write(t, path, orig)

			out := mustRun(t, env, c, func(o *Options) { o.DryRun = true })
			if read(t, path) != orig || exists(path+BackupSuffix) {
				t.Fatalf("dry run wrote")
			}
			if !strings.Contains(out, "--- "+path) || !strings.Contains(out, "+++ "+path) || !strings.Contains(out, "+") {
				t.Errorf("dry run printed no diff:\n%s", out)
			}

			mustRun(t, env, c, nil)
			checkEntry(t, env, c)
			got := read(t, path)
			if read(t, path+BackupSuffix) != orig {
				t.Errorf("the backup is not the original")
			}
			// Every original line is still there, in order: lore only
			// added lines.
			if missing := missingLines(orig, got); len(missing) > 0 {
				t.Errorf("install changed or dropped lines %q:\n%s", missing, got)
			}
			// The other servers and settings are all still there.
			before, after := decode(t, path+BackupSuffix), decode(t, path)
			w := wantEntry[c.ID]
			delete(at(after, w.path[:len(w.path)-1]...).(map[string]any), "lore")
			if !reflect.DeepEqual(before, after) {
				t.Errorf("install changed other settings:\nbefore %v\nafter  %v", before, after)
			}

			if err := os.Remove(path + BackupSuffix); err != nil {
				t.Fatal(err)
			}
			mustRun(t, env, c, nil)
			if read(t, path) != got || exists(path+BackupSuffix) {
				t.Errorf("second install changed the file or made a backup")
			}

			out = mustRun(t, env, c, func(o *Options) { o.DryRun = true; o.Uninstall = true })
			if read(t, path) != got || !strings.Contains(out, "-") {
				t.Errorf("dry-run uninstall wrote, or printed no diff:\n%s", out)
			}
			// No backup now: uninstall undoes its edit by itself.
			mustRun(t, env, c, func(o *Options) { o.Uninstall = true })
			if got := read(t, path); got != orig {
				t.Errorf("uninstall without backup gave\n%s\nwant\n%s", got, orig)
			}
			if read(t, path+BackupSuffix) != got {
				t.Errorf("uninstall kept no backup of what it changed")
			}
			if out := mustRun(t, env, c, func(o *Options) { o.Uninstall = true }); !strings.Contains(out, "nothing to remove") {
				t.Errorf("second uninstall said %q", out)
			}
		})
	}
}

// missingLines lists the lines of orig that are not found, in order, in got.
func missingLines(orig, got string) []string {
	gl := strings.Split(got, "\n")
	var missing []string
	j := 0
	for _, l := range strings.Split(orig, "\n") {
		for j < len(gl) && gl[j] != l {
			j++
		}
		if j == len(gl) {
			missing = append(missing, l)
			j = 0
			continue
		}
		j++
	}
	return missing
}

// TestInstallUninstallRestoresBackup: when lore's edit left a layout it cannot
// undo by itself (an empty object written on one line, no final newline),
// the backup, unchanged but for lore's part, is put back as it was.
func TestInstallUninstallRestoresBackup(t *testing.T) {
	cases := []struct{ id, orig string }{
		{"gemini", "{ \"mcpServers\": {\n  }, \"theme\": \"x\" }"},
		{"claude-code", "{\"mcpServers\":{}}"},
		{"codex", "model = \"o3\""},
		{"zed", "{\n  // nothing yet\n}"},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			env := testEnv(t)
			c := client(t, tc.id)
			path := c.Config(env)
			write(t, path, tc.orig)
			mustRun(t, env, c, nil)
			checkEntry(t, env, c)
			mustRun(t, env, c, func(o *Options) { o.Uninstall = true })
			if got := read(t, path); got != tc.orig {
				t.Errorf("uninstall gave %q, want %q", got, tc.orig)
			}
		})
	}
}

// TestInstallUninstallAfterOtherChanges: when the client changed its file after
// lore's install, uninstall removes lore's entry only and keeps the
// client's changes.
func TestInstallUninstallAfterOtherChanges(t *testing.T) {
	env := testEnv(t)
	c := client(t, "claude-code")
	path := c.Config(env)
	write(t, path, existing["claude-code"])
	mustRun(t, env, c, nil)
	changed := strings.Replace(read(t, path), `"numStartups": 42`, `"numStartups": 43`, 1)
	write(t, path, changed)
	mustRun(t, env, c, func(o *Options) { o.Uninstall = true })
	want := strings.Replace(existing["claude-code"], `"numStartups": 42`, `"numStartups": 43`, 1)
	if got := read(t, path); got != want {
		t.Errorf("uninstall gave\n%s\nwant\n%s", got, want)
	}
}

// TestInstallUpdatesEntry: an entry pointing elsewhere (another root, a
// moved binary) gets lore's command and arguments; keys the user added to
// it (env, a timeout) stay.
func TestInstallUpdatesEntry(t *testing.T) {
	cases := []struct {
		id, orig string
		keep     map[string]any // user keys that must survive
	}{
		{"gemini", `{
  "mcpServers": {
    "lore": {
      "command": "lore",
      "args": ["serve", "--root", "/old/repo"],
      "timeout": 300000
    }
  }
}
`, map[string]any{"timeout": float64(300000)}},
		{"codex", `[mcp_servers.lore]
command = "lore"
args = [
  "serve",
  "--root", "/old/repo",
]
tool_timeout_sec = 300

[mcp_servers.lore.env]
DOCS_ROOT = "/old/repo/docs"
`, map[string]any{"tool_timeout_sec": int64(300), "env": map[string]any{"DOCS_ROOT": "/old/repo/docs"}}},
		{"copilot", `{
  "mcpServers": {
    "lore": {
      "type": "local",
      "command": "/opt/lore/bin/lore",
      "args": ["serve", "--root", "/work/repo"],
      "env": { "DOCS_ROOT": "/work/repo/docs", "LORE_CACHE_DIR": "/old/cache" },
      "tools": ["*"]
    }
  }
}
`, map[string]any{"env": map[string]any{"DOCS_ROOT": "/work/repo/docs", "LORE_CACHE_DIR": "HOME/.cache/lore"}}},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			env := testEnv(t)
			c := client(t, tc.id)
			path := c.Config(env)
			write(t, path, tc.orig)
			mustRun(t, env, c, nil)
			entry, _ := at(decode(t, path), wantEntry[tc.id].path...).(map[string]any)
			for k, v := range wantEntry[tc.id].entry {
				if k == "env" {
					continue // checked with the user's keys below
				}
				if !reflect.DeepEqual(entry[k], v) {
					t.Errorf("%s = %#v, want %#v", k, entry[k], v)
				}
			}
			for k, v := range tc.keep {
				if m, ok := v.(map[string]any); ok {
					for mk, mv := range m {
						m[mk] = strings.Replace(mv.(string), "HOME", env.Home, 1)
					}
				}
				if !reflect.DeepEqual(entry[k], v) {
					t.Errorf("user key %s = %#v, want %#v kept", k, entry[k], v)
				}
			}
			again := read(t, path)
			mustRun(t, env, c, nil)
			if read(t, path) != again {
				t.Errorf("second install changed the file")
			}
		})
	}
}

// TestInstallMalformedFileRefused: a file lore cannot parse is named in the
// error and left as it is, and nothing else is written either.
func TestInstallMalformedFileRefused(t *testing.T) {
	cases := []struct{ id, content, want string }{
		{"claude-code", `{"mcpServers": {"a": 1,,}}`, "not valid JSON"},
		{"vscode", "{\n  \"servers\": { /* unterminated\n}", "not valid JSON"},
		{"zed", `["not", "an", "object"]`, "does not hold a JSON object"},
		{"gemini", `{"mcpServers": ["lore"]}`, "is not an object"},
		{"codex", "[mcp_servers.lore\ncommand = 1\n", "not valid TOML"},
		{"codex", "mcp_servers.lore.command = \"x\"\n", "form lore does not edit"},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			env := testEnv(t)
			c := client(t, tc.id)
			path := c.Config(env)
			write(t, path, tc.content)
			other := client(t, "cursor")
			for _, uninstall := range []bool{false, true} {
				var out bytes.Buffer
				err := Run(Options{Clients: []*Client{other, c}, Server: testServer, Root: "/work/repo", Env: env, Out: &out, Uninstall: uninstall})
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want one naming %s and saying %q", err, path, tc.want)
				}
				if read(t, path) != tc.content || exists(path+BackupSuffix) {
					t.Errorf("the malformed file was touched")
				}
				if exists(other.Config(env)) {
					t.Errorf("another client's file was written although the run failed")
				}
			}
		})
	}
}

// TestInstallInstructions: --instructions keeps a marked block in the agents'
// instructions files: appended after what is there, replaced in place when
// it changed, and removed exactly on uninstall.
func TestInstallInstructions(t *testing.T) {
	for _, c := range Clients {
		if c.Instructions == nil {
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			env := testEnv(t)
			path := c.Instructions(env)
			orig := "# My rules\n\nAlways run the tests.\n"
			write(t, path, orig)
			with := func(o *Options) { o.Instructions = true }
			mustRun(t, env, c, with)
			got := read(t, path)
			if !strings.HasPrefix(got, orig+"\n"+blockBegin+"\n") || !strings.HasSuffix(got, blockEnd+"\n") || !strings.Contains(got, "search_code") {
				t.Errorf("instructions file:\n%s", got)
			}
			mustRun(t, env, c, with)
			if read(t, path) != got {
				t.Errorf("second install changed the instructions")
			}
			// An older block is replaced where it is.
			old := orig + "\n" + blockBegin + "\nold text\n" + blockEnd + "\n\n## More rules\n"
			write(t, path, old)
			mustRun(t, env, c, with)
			if got := read(t, path); strings.Contains(got, "old text") || !strings.HasSuffix(got, blockEnd+"\n\n## More rules\n") {
				t.Errorf("block not replaced in place:\n%s", got)
			}
			mustRun(t, env, c, func(o *Options) { o.Instructions = true; o.Uninstall = true })
			if got := read(t, path); got != orig+"\n## More rules\n" {
				t.Errorf("uninstall left %q", got)
			}
		})
	}
}

// TestInstallInstructionsWithoutFile: a client without an instructions file
// says so, and installs its server all the same.
func TestInstallInstructionsWithoutFile(t *testing.T) {
	env := testEnv(t)
	c := client(t, "cursor")
	out := mustRun(t, env, c, func(o *Options) { o.Instructions = true })
	if !strings.Contains(out, "no global instructions file") {
		t.Errorf("report: %s", out)
	}
	checkEntry(t, env, c)
}

// TestInstallClaudeCommand: with claude on PATH, lore runs claude mcp add (and
// remove) instead of editing ~/.claude.json, and runs nothing when the
// entry is already right; a dry run only says what it would run.
func TestInstallClaudeCommand(t *testing.T) {
	env := testEnv(t)
	var ran [][]string
	env.LookPath = func(file string) (string, error) {
		if file == "claude" {
			return "/usr/local/bin/claude", nil
		}
		return "", errors.New("not found")
	}
	env.Run = func(name string, args ...string) ([]byte, error) {
		ran = append(ran, append([]string{name}, args...))
		return nil, nil
	}
	c := client(t, "claude-code")
	add := "claude mcp add --scope user lore -- /opt/lore/bin/lore serve --root /work/repo"
	remove := "claude mcp remove --scope user lore"
	steps := []struct {
		name    string
		file    string // ~/.claude.json before the step ("" none)
		mutate  func(*Options)
		want    []string
		written bool
	}{
		{name: "dry run", mutate: func(o *Options) { o.DryRun = true }},
		{name: "fresh", want: []string{add}},
		{name: "already there", file: `{"mcpServers": {"lore": {"type": "stdio", "command": "/opt/lore/bin/lore", "args": ["serve", "--root", "/work/repo"], "env": {}}}}`},
		{name: "elsewhere", file: `{"mcpServers": {"lore": {"type": "stdio", "command": "lore", "args": ["serve"]}}}`, want: []string{remove, add}},
		{name: "uninstall", file: `{"mcpServers": {"lore": {"command": "lore"}}}`, mutate: func(o *Options) { o.Uninstall = true }, want: []string{remove}},
		{name: "uninstall absent", file: `{"mcpServers": {}}`, mutate: func(o *Options) { o.Uninstall = true }},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			ran = nil
			path := c.Config(env)
			os.Remove(path)
			if s.file != "" {
				write(t, path, s.file)
			}
			out := mustRun(t, env, c, s.mutate)
			var got []string
			for _, r := range ran {
				got = append(got, strings.Join(r, " "))
			}
			if !reflect.DeepEqual(got, s.want) {
				t.Errorf("ran %q, want %q", got, s.want)
			}
			if s.name == "dry run" && !strings.Contains(out, "would run: "+add) {
				t.Errorf("dry run said %q", out)
			}
			if s.file == "" && exists(path) || s.file != "" && read(t, path) != s.file {
				t.Errorf("lore edited %s itself", path)
			}
		})
	}
}

// TestInstallNeverWritesInsideRoot: a configuration file inside the served folder
// is refused, and nothing is written.
func TestInstallNeverWritesInsideRoot(t *testing.T) {
	env := testEnv(t)
	c := client(t, "gemini")
	_, err := run(t, env, c, func(o *Options) { o.Root = env.Home })
	if err == nil || !strings.Contains(err.Error(), "inside the served folder") {
		t.Fatalf("err = %v", err)
	}
	if exists(c.Config(env)) {
		t.Errorf("wrote %s", c.Config(env))
	}
}

// TestInstallSymlinkedConfig: a configuration file that is a symlink (a dotfiles
// repository) is edited where it points, and stays a symlink.
func TestInstallSymlinkedConfig(t *testing.T) {
	env := testEnv(t)
	c := client(t, "cursor")
	target := filepath.Join(env.Home, "dotfiles", "cursor-mcp.json")
	write(t, target, existing["cursor"])
	link := c.Config(env)
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	mustRun(t, env, c, nil)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	checkEntry(t, env, c)
	if read(t, target+BackupSuffix) != existing["cursor"] {
		t.Errorf("no backup beside the link's target")
	}
}

// TestInstallPaths: each client's file is where its documentation says, and the
// variables that move it are honoured.
func TestInstallPaths(t *testing.T) {
	home := "/home/me"
	cases := []struct {
		id, goos string
		vars     map[string]string
		want     string
	}{
		{"claude-code", "linux", nil, "/home/me/.claude.json"},
		{"codex", "linux", nil, "/home/me/.codex/config.toml"},
		{"codex", "linux", map[string]string{"CODEX_HOME": "/srv/codex"}, "/srv/codex/config.toml"},
		{"gemini", "darwin", nil, "/home/me/.gemini/settings.json"},
		{"copilot", "linux", nil, "/home/me/.copilot/mcp-config.json"},
		{"copilot", "linux", map[string]string{"COPILOT_HOME": "/srv/copilot"}, "/srv/copilot/mcp-config.json"},
		{"vscode", "linux", nil, "/home/me/.config/Code/User/mcp.json"},
		{"vscode", "linux", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "/xdg/Code/User/mcp.json"},
		{"vscode", "darwin", nil, "/home/me/Library/Application Support/Code/User/mcp.json"},
		{"cursor", "linux", nil, "/home/me/.cursor/mcp.json"},
		{"windsurf", "darwin", nil, "/home/me/.codeium/windsurf/mcp_config.json"},
		{"zed", "linux", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "/xdg/zed/settings.json"},
		{"zed", "darwin", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "/home/me/.config/zed/settings.json"},
		{"opencode", "linux", nil, "/home/me/.config/opencode/opencode.json"},
	}
	for _, tc := range cases {
		env := &Env{Home: home, GOOS: tc.goos, Getenv: func(k string) string { return tc.vars[k] }}
		if got := client(t, tc.id).Config(env); got != filepath.FromSlash(tc.want) {
			t.Errorf("%s on %s with %v: %s, want %s", tc.id, tc.goos, tc.vars, got, tc.want)
		}
	}
}

// TestInstallDetected: --all takes the clients whose configuration folder exists.
func TestInstallDetected(t *testing.T) {
	env := testEnv(t)
	for _, d := range []string{".codex", ".config/zed"} {
		if err := os.MkdirAll(filepath.Join(env.Home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	for _, c := range Detected(env) {
		ids = append(ids, c.ID)
	}
	if want := []string{"codex", "zed"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("detected %v, want %v", ids, want)
	}
}

// TestInstallLookup: clients are found by name and alias, case-insensitively.
func TestInstallLookup(t *testing.T) {
	for name, want := range map[string]string{"claude": "claude-code", "Claude-Code": "claude-code", "code": "vscode", "gemini-cli": "gemini"} {
		if c, ok := Lookup(name); !ok || c.ID != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", name, c, ok, want)
		}
	}
	if _, ok := Lookup("emacs"); ok {
		t.Errorf("Lookup(emacs) found a client")
	}
}
