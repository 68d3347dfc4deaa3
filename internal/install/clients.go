package install

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Env is the part of the machine lore install reads: the home folder, the
// environment and the operating system, and, optionally, how to find and
// run a client's own command (claude mcp add). Tests give their own.
type Env struct {
	Home   string
	GOOS   string
	Getenv func(string) string
	// LookPath finds a program on PATH; nil means never use a client's own
	// command, only edit files.
	LookPath func(file string) (string, error)
	// Run runs a client's command and returns its combined output.
	Run func(name string, args ...string) ([]byte, error)
}

// DefaultEnv is this process's environment.
func DefaultEnv() (*Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	return &Env{Home: home, GOOS: runtime.GOOS, Getenv: os.Getenv}, nil
}

func (e *Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// dirFromEnv is the absolute folder named by the variable k, else def.
func (e *Env) dirFromEnv(k, def string) string {
	if v := e.getenv(k); v != "" && filepath.IsAbs(v) {
		return v
	}
	return def
}

// xdgConfig is $XDG_CONFIG_HOME, else ~/.config.
func (e *Env) xdgConfig() string {
	return e.dirFromEnv("XDG_CONFIG_HOME", filepath.Join(e.Home, ".config"))
}

// userConfig is where desktop applications keep settings (Electron's
// appData): ~/Library/Application Support on macOS, %APPDATA% on Windows,
// the XDG config folder elsewhere.
func (e *Env) userConfig() string {
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	case "windows":
		return e.dirFromEnv("APPDATA", filepath.Join(e.Home, "AppData", "Roaming"))
	}
	return e.xdgConfig()
}

// loreCacheDir is the folder lore serve will use for its indexes, as
// config.CacheDir computes it, for clients that do not pass the
// environment through (Copilot CLI).
func (e *Env) loreCacheDir() string {
	if v := e.getenv("LORE_CACHE_DIR"); v != "" {
		if abs, err := filepath.Abs(v); err == nil {
			return abs
		}
	}
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Caches", "lore")
	case "windows":
		return filepath.Join(e.dirFromEnv("LocalAppData", filepath.Join(e.Home, "AppData", "Local")), "lore")
	}
	return filepath.Join(e.dirFromEnv("XDG_CACHE_HOME", filepath.Join(e.Home, ".cache")), "lore")
}

// Server is what a client starts: lore's binary and its arguments.
type Server struct {
	Command string   // the absolute path of the lore binary
	Args    []string // serve --root DIR
}

// Client is one AI agent whose configuration lore install edits.
type Client struct {
	ID      string   // the name on the command line: claude-code
	Name    string   // for people: Claude Code
	Aliases []string // other accepted names
	// Config is the agent's MCP configuration file.
	Config func(e *Env) string
	// Detect is a file or folder whose presence means the agent is set up
	// on this machine (for --all).
	Detect func(e *Env) string
	// Instructions is the agent's global instructions file, or nil.
	Instructions func(e *Env) string
	// CLI is the agent's own command that can add the server itself
	// ("claude"), or "".
	CLI string
	// editor edits Config for the server s.
	editor func(e *Env, s Server) editor
}

// editor is a format-aware editor of one configuration file: it adds or
// removes exactly lore's part and keeps every other byte.
type editor interface {
	// install returns src with lore's part set (src when it already is).
	install(path string, src []byte) ([]byte, error)
	// uninstall returns src without lore's part; del reports that nothing
	// else is left, so the file can go. keep is the backup's content, or
	// nil, to undo install's side effects exactly.
	uninstall(path string, src, keep []byte) (out []byte, del bool, err error)
	// has reports whether src holds lore's part.
	has(path string, src []byte) (bool, error)
	// canonical is src without layout, to compare two versions of a file.
	canonical(src []byte) string
}

// mcpJSON is the common JSON entry: command and args, under key, with
// extra members before them (type) and after (env, tools).
func mcpJSON(container string, before, after fields) func(*Env, Server) editor {
	return func(_ *Env, s Server) editor {
		entry := append(fields{}, before...)
		entry = append(entry, field{"command", s.Command}, field{"args", s.Args})
		entry = append(entry, after...)
		return &jsonEditor{container: []string{container}, name: "lore", entry: entry}
	}
}

// Clients are the agents lore install knows, in the order --all goes
// through them.
var Clients = []*Client{
	{
		// code.claude.com/docs/en/mcp: user scope lives in ~/.claude.json
		// under mcpServers; `claude mcp add --scope user` writes it.
		ID: "claude-code", Name: "Claude Code", Aliases: []string{"claude"},
		Config:       func(e *Env) string { return filepath.Join(e.Home, ".claude.json") },
		Detect:       func(e *Env) string { return filepath.Join(e.Home, ".claude") },
		Instructions: func(e *Env) string { return filepath.Join(e.Home, ".claude", "CLAUDE.md") },
		CLI:          "claude",
		editor:       mcpJSON("mcpServers", fields{{"type", "stdio"}}, nil),
	},
	{
		// developers.openai.com/codex/mcp: [mcp_servers.<name>] in
		// $CODEX_HOME/config.toml (default ~/.codex).
		ID: "codex", Name: "Codex CLI", Aliases: []string{"codex-cli"},
		Config:       func(e *Env) string { return filepath.Join(codexHome(e), "config.toml") },
		Detect:       codexHome,
		Instructions: func(e *Env) string { return filepath.Join(codexHome(e), "AGENTS.md") },
		editor: func(_ *Env, s Server) editor {
			return &tomlEditor{table: "mcp_servers", name: "lore", entry: fields{{"command", s.Command}, {"args", s.Args}}}
		},
	},
	{
		// geminicli.com/docs/tools/mcp-server: mcpServers in
		// ~/.gemini/settings.json.
		ID: "gemini", Name: "Gemini CLI", Aliases: []string{"gemini-cli"},
		Config:       func(e *Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
		Detect:       func(e *Env) string { return filepath.Join(e.Home, ".gemini") },
		Instructions: func(e *Env) string { return filepath.Join(e.Home, ".gemini", "GEMINI.md") },
		editor:       mcpJSON("mcpServers", nil, nil),
	},
	{
		// docs.github.com/copilot/how-tos/copilot-cli/customize-copilot/
		// add-mcp-servers: mcpServers in $COPILOT_HOME/mcp-config.json
		// (default ~/.copilot); type "local", tools, and only PATH passed
		// through, so lore's cache folder is named.
		ID: "copilot", Name: "GitHub Copilot CLI", Aliases: []string{"copilot-cli"},
		Config: func(e *Env) string { return filepath.Join(copilotHome(e), "mcp-config.json") },
		Detect: copilotHome,
		editor: func(e *Env, s Server) editor {
			return mcpJSON("mcpServers", fields{{"type", "local"}},
				fields{{"env", map[string]string{"LORE_CACHE_DIR": e.loreCacheDir()}}, {"tools", []string{"*"}}})(e, s)
		},
	},
	{
		// code.visualstudio.com/docs/copilot/reference/mcp-configuration:
		// "servers" in the user profile's mcp.json (JSON with comments).
		ID: "vscode", Name: "VS Code", Aliases: []string{"code", "vs-code"},
		Config: func(e *Env) string { return filepath.Join(e.userConfig(), "Code", "User", "mcp.json") },
		Detect: func(e *Env) string { return filepath.Join(e.userConfig(), "Code", "User") },
		editor: mcpJSON("servers", fields{{"type", "stdio"}}, nil),
	},
	{
		// cursor.com/docs/mcp: mcpServers in ~/.cursor/mcp.json.
		ID: "cursor", Name: "Cursor",
		Config: func(e *Env) string { return filepath.Join(e.Home, ".cursor", "mcp.json") },
		Detect: func(e *Env) string { return filepath.Join(e.Home, ".cursor") },
		editor: mcpJSON("mcpServers", nil, nil),
	},
	{
		// docs.windsurf.com/windsurf/cascade/mcp: mcpServers in
		// ~/.codeium/windsurf/mcp_config.json.
		ID: "windsurf", Name: "Windsurf",
		Config: func(e *Env) string { return filepath.Join(e.Home, ".codeium", "windsurf", "mcp_config.json") },
		Detect: func(e *Env) string { return filepath.Join(e.Home, ".codeium", "windsurf") },
		editor: mcpJSON("mcpServers", nil, nil),
	},
	{
		// zed.dev/docs/ai/mcp: context_servers in the settings file
		// (~/.config/zed/settings.json, $XDG_CONFIG_HOME on Linux; JSON
		// with comments and trailing commas).
		ID: "zed", Name: "Zed",
		Config: func(e *Env) string { return filepath.Join(zedConfig(e), "settings.json") },
		Detect: zedConfig,
		editor: mcpJSON("context_servers", nil, nil),
	},
	{
		// opencode.ai/docs/mcp-servers: "mcp" in
		// ~/.config/opencode/opencode.json, type "local" with the whole
		// command line in "command".
		ID: "opencode", Name: "opencode",
		Config: opencodeConfig,
		Detect: func(e *Env) string { return filepath.Join(e.xdgConfig(), "opencode") },
		editor: func(_ *Env, s Server) editor {
			return &jsonEditor{container: []string{"mcp"}, name: "lore", entry: fields{
				{"type", "local"}, {"command", append([]string{s.Command}, s.Args...)}, {"enabled", true},
			}}
		},
	},
}

func codexHome(e *Env) string { return e.dirFromEnv("CODEX_HOME", filepath.Join(e.Home, ".codex")) }

func copilotHome(e *Env) string {
	return e.dirFromEnv("COPILOT_HOME", filepath.Join(e.Home, ".copilot"))
}

// zedConfig is Zed's settings folder: XDG on Linux, ~/.config/zed on macOS.
func zedConfig(e *Env) string {
	if e.GOOS == "linux" || e.GOOS == "freebsd" {
		return filepath.Join(e.xdgConfig(), "zed")
	}
	return filepath.Join(e.Home, ".config", "zed")
}

// opencodeConfig is opencode.json, or opencode.jsonc when only that exists.
func opencodeConfig(e *Env) string {
	dir := filepath.Join(e.xdgConfig(), "opencode")
	plain := filepath.Join(dir, "opencode.json")
	if _, err := os.Stat(plain); err != nil {
		if _, err := os.Stat(plain + "c"); err == nil {
			return plain + "c"
		}
	}
	return plain
}

// Lookup returns the client named id (or one of its aliases).
func Lookup(id string) (*Client, bool) {
	id = strings.ToLower(id)
	for _, c := range Clients {
		if c.ID == id {
			return c, true
		}
		for _, a := range c.Aliases {
			if a == id {
				return c, true
			}
		}
	}
	return nil, false
}

// IDs lists the clients' names, sorted.
func IDs() []string {
	ids := make([]string, len(Clients))
	for i, c := range Clients {
		ids[i] = c.ID
	}
	sort.Strings(ids)
	return ids
}

// Detected returns the clients that are set up on this machine: their
// configuration file or folder exists.
func Detected(e *Env) []*Client {
	var out []*Client
	for _, c := range Clients {
		for _, p := range []string{c.Config(e), c.Detect(e)} {
			if _, err := os.Stat(p); err == nil {
				out = append(out, c)
				break
			}
		}
	}
	return out
}
