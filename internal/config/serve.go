package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Environment variables and the config file that configure lore serve.
const (
	EnvCodeRoot      = "CODE_ROOT"          // the root the files tools call "code"
	EnvDocsRoot      = "DOCS_ROOT"          // the root the files tools call "docs"
	EnvServerName    = "MCP_SERVER_NAME"    // the name the MCP server reports
	EnvServerVersion = "MCP_SERVER_VERSION" // the version the MCP server reports

	// DefaultConfigFile is read from the working directory when --config is
	// not given and the file exists.
	DefaultConfigFile = "lore.toml"

	// DefaultServerName is the MCP server name unless MCP_SERVER_NAME says otherwise.
	DefaultServerName = "lore"
)

// Serve is the resolved configuration of lore serve.
type Serve struct {
	Root          string // the served root (--root), absolute
	CodeRoot      string // CODE_ROOT, absolute; the served root when unset
	DocsRoot      string // DOCS_ROOT, absolute; CodeRoot when unset
	ServerName    string // MCP_SERVER_NAME, else "lore"
	ServerVersion string // MCP_SERVER_VERSION, else the build's version
	ConfigFile    string // the config file that was read, "" if none

	// AllowRoots are more folders the code tools may index and search
	// (--allow-root, then the config file's allow_roots), absolute. The
	// served root, CODE_ROOT and DOCS_ROOT are always allowed.
	AllowRoots []string
}

// ServeInputs is what LoadServe resolves a Serve from.
type ServeInputs struct {
	Root           string              // --root; "" means "."
	AllowRoots     []string            // --allow-root, repeatable; relative to WorkDir
	ConfigFile     string              // --config; "" means lore.toml in WorkDir when it exists
	WorkDir        string              // resolves relative paths; "" means the process's working directory
	Getenv         func(string) string // nil means os.Getenv
	DefaultVersion string              // the build's version, used when nothing overrides it
}

// serveFile is the [serve] table of lore.toml:
//
//	[serve]
//	code_root = "../upstream"   # relative to the config file's folder
//	docs_root = "docs"
//	server_name = "lore"
//	server_version = "1.2.3"
//	allow_roots = ["../shared-libs"]  # more folders the code tools may index
var serveFileKeys = map[string]string{
	"code_root":      EnvCodeRoot,
	"docs_root":      EnvDocsRoot,
	"server_name":    EnvServerName,
	"server_version": EnvServerVersion,
}

// setting is one configured value and where it came from, for messages.
type setting struct {
	value  string
	origin string // "environment" or "<file> [serve] <key>"
	base   string // the folder a relative path in value is relative to
}

// LoadServe resolves lore serve's configuration: environment variables win
// over the config file, unset roots fall back to the served root, and every
// root is checked to be a readable directory. An error names the variable
// (or flag) and the problem, so lore serve can refuse to start with it.
func LoadServe(in ServeInputs) (*Serve, error) {
	getenv := in.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	workDir := in.WorkDir
	if workDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("finding the working directory: %w", err)
		}
		workDir = wd
	}

	fileSettings, fileAllowRoots, configFile, err := readServeFile(in.ConfigFile, workDir)
	if err != nil {
		return nil, err
	}
	lookup := func(name string) (setting, bool) {
		if v := getenv(name); v != "" {
			return setting{value: v, origin: "environment", base: workDir}, true
		}
		s, ok := fileSettings[name]
		return s, ok
	}

	rootFlag := in.Root
	if rootFlag == "" {
		rootFlag = "."
	}
	root, err := checkDir(setting{value: rootFlag, origin: "flag", base: workDir}, "--root")
	if err != nil {
		return nil, err
	}
	cfg := &Serve{Root: root, CodeRoot: root, ServerName: DefaultServerName, ServerVersion: in.DefaultVersion, ConfigFile: configFile}
	if s, ok := lookup(EnvCodeRoot); ok {
		if cfg.CodeRoot, err = checkDir(s, EnvCodeRoot); err != nil {
			return nil, err
		}
	}
	cfg.DocsRoot = cfg.CodeRoot
	if s, ok := lookup(EnvDocsRoot); ok {
		if cfg.DocsRoot, err = checkDir(s, EnvDocsRoot); err != nil {
			return nil, err
		}
	}
	if s, ok := lookup(EnvServerName); ok {
		cfg.ServerName = strings.TrimSpace(s.value)
	}
	if s, ok := lookup(EnvServerVersion); ok {
		cfg.ServerVersion = strings.TrimSpace(s.value)
	}
	if cfg.ServerVersion == "" {
		cfg.ServerVersion = "dev"
	}
	for _, dir := range in.AllowRoots {
		abs, err := checkDir(setting{value: dir, origin: "flag", base: workDir}, "--allow-root")
		if err != nil {
			return nil, err
		}
		cfg.AllowRoots = append(cfg.AllowRoots, abs)
	}
	for _, s := range fileAllowRoots {
		abs, err := checkDir(s, "allow_roots")
		if err != nil {
			return nil, err
		}
		cfg.AllowRoots = append(cfg.AllowRoots, abs)
	}
	return cfg, nil
}

// allowRootsKey is the [serve] key listing more allowed roots.
const allowRootsKey = "allow_roots"

// readServeFile reads the [serve] table of the config file: the explicit
// one (which must exist) or lore.toml in workDir (skipped when absent). It
// returns the string settings by variable name, the allow_roots entries and
// the file's path.
func readServeFile(explicit, workDir string) (map[string]setting, []setting, string, error) {
	path := explicit
	if path == "" {
		path = filepath.Join(workDir, DefaultConfigFile)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, "", nil
		}
	} else if !filepath.IsAbs(path) {
		path = filepath.Join(workDir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading config file %s: %w", path, err)
	}
	var doc struct {
		Serve map[string]any `toml:"serve"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, nil, "", fmt.Errorf("parsing config file %s: %w", path, err)
	}
	keys := make([]string, 0, len(doc.Serve))
	for k := range doc.Serve {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	settings := make(map[string]setting, len(keys))
	var allowRoots []setting
	for _, k := range keys {
		origin := fmt.Sprintf("%s [serve] %s", path, k)
		if k == allowRootsKey {
			list, ok := doc.Serve[k].([]any)
			if !ok {
				return nil, nil, "", fmt.Errorf("config file %s: [serve] %s must be a list of folders, got %T", path, k, doc.Serve[k])
			}
			for _, item := range list {
				dir, ok := item.(string)
				if !ok || dir == "" {
					return nil, nil, "", fmt.Errorf("config file %s: [serve] %s must list folder names, got %v", path, k, item)
				}
				allowRoots = append(allowRoots, setting{value: dir, origin: origin, base: filepath.Dir(path)})
			}
			continue
		}
		name, ok := serveFileKeys[k]
		if !ok {
			return nil, nil, "", fmt.Errorf("config file %s: unknown key %q in [serve] (known: %s, code_root, docs_root, server_name, server_version)", path, k, allowRootsKey)
		}
		v, ok := doc.Serve[k].(string)
		if !ok {
			return nil, nil, "", fmt.Errorf("config file %s: [serve] %s must be a string, got %T", path, k, doc.Serve[k])
		}
		if v == "" {
			continue
		}
		settings[name] = setting{value: v, origin: origin, base: filepath.Dir(path)}
	}
	return settings, allowRoots, path, nil
}

// checkDir makes s absolute and checks that it is a directory lore can
// list; the error names the variable, the value, where it was set and the problem.
func checkDir(s setting, name string) (string, error) {
	path := s.value
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.base, path)
	}
	path = filepath.Clean(path)
	fail := func(problem string) error {
		where := ""
		if s.origin != "environment" && s.origin != "flag" {
			where = " (set in " + s.origin + ")"
		}
		return fmt.Errorf("%s=%s%s: %s", name, s.value, where, problem)
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fail("the directory does not exist")
	case errors.Is(err, fs.ErrPermission):
		return "", fail("the directory is not readable (permission denied)")
	case err != nil:
		return "", fail(err.Error())
	case !info.IsDir():
		return "", fail("not a directory")
	}
	f, err := os.Open(path)
	if err == nil {
		_, err = f.Readdirnames(1)
		f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fail("the directory is not readable: " + err.Error())
	}
	return path, nil
}
