package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/lore-dev/lore/internal/lang"
)

func init() {
	register("version", command{summary: "print lore's version, commit, Go version, platform and parsed languages", run: runVersion})
}

// versionInfo is what lore version prints.
type versionInfo struct {
	Version    string   `json:"version"`               // the module version, dev+<revision>, or dev
	Commit     string   `json:"commit,omitempty"`      // the VCS revision the binary was built from
	CommitTime string   `json:"commit_time,omitempty"` // its commit time (RFC 3339)
	Modified   bool     `json:"modified,omitempty"`    // built from a work tree with uncommitted changes
	Go         string   `json:"go"`                    // the Go toolchain
	OS         string   `json:"os"`
	Arch       string   `json:"arch"`
	Languages  []string `json:"languages"` // the languages whose code is parsed: tree-sitter grammars and components' scripts
}

// buildInfo gathers versionInfo from the binary's build information.
func buildInfo() versionInfo {
	v := versionInfo{Version: buildVersion(), Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, Languages: lang.Parsed()}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.CommitTime = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	return v
}

func runVersion(_ context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	format := fs.String("format", "human", "output format: human or json")
	fs.Usage = func() { commandUsage(fs, "lore version [--format human|json]   (or lore --version)") }
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("version takes no arguments")
	}
	v := buildInfo()
	switch *format {
	case "json":
		return writeJSON(a.stdout, v)
	case "human":
	default:
		return usagef("--format must be human or json, got %q", *format)
	}
	commit := v.Commit
	if commit == "" {
		commit = "unknown (not built from a git checkout)"
	} else if v.Modified {
		commit += " (with uncommitted changes)"
	}
	if v.CommitTime != "" {
		commit += ", " + v.CommitTime
	}
	fmt.Fprintf(a.stdout, "lore %s\ncommit     %s\ngo         %s\nplatform   %s/%s\nlanguages  %s\n",
		v.Version, commit, v.Go, v.OS, v.Arch, strings.Join(v.Languages, ", "))
	return nil
}
