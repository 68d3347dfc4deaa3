package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/install"
)

func init() {
	register("install", command{summary: "add lore's MCP server to AI agents' configurations (claude-code, codex, vscode, …)", run: runInstall})
}

// installEnv is the machine lore install reads and the commands it may
// run; tests replace it so that they never touch the real home folder or
// run a client's command.
var installEnv = func() (*install.Env, error) {
	env, err := install.DefaultEnv()
	if err != nil {
		return nil, err
	}
	env.LookPath = exec.LookPath
	env.Run = func(name string, args ...string) ([]byte, error) {
		return exec.Command(name, args...).CombinedOutput()
	}
	return env, nil
}

// executable is the running lore binary, which the entries start.
var executable = func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(exe)
}

func runInstall(ctx context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	all := fs.Bool("all", false, "every agent set up on this machine (its configuration folder exists)")
	rootFlag := fs.String("root", ".", "the folder the agents' lore serves (an absolute path is written)")
	dryRun := fs.Bool("dry-run", false, "print the changes as unified diffs; write nothing")
	uninstall := fs.Bool("uninstall", false, "remove what lore install added")
	instructions := fs.Bool("instructions", false, "also keep a block about lore's tools in the agents' global instructions (CLAUDE.md, AGENTS.md, GEMINI.md)")
	fs.Usage = func() {
		commandUsage(fs, "lore install [--all | CLIENT...] [--root DIR] [--dry-run] [--uninstall] [--instructions]")
		fmt.Fprintf(a.stdout, "\nClients: %s\n", strings.Join(install.IDs(), ", "))
	}
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	env, err := installEnv()
	if err != nil {
		return err
	}
	var clients []*install.Client
	switch {
	case *all && len(pos) > 0:
		return usagef("install: give client names or --all, not both")
	case *all:
		if clients = install.Detected(env); len(clients) == 0 {
			fmt.Fprintf(a.stdout, "no agent's configuration found on this machine; name one: %s\n", strings.Join(install.IDs(), ", "))
			return nil
		}
	case len(pos) == 0:
		return usagef("install: name the agents to set up (%s), or --all", strings.Join(install.IDs(), ", "))
	default:
		for _, name := range pos {
			c, ok := install.Lookup(name)
			if !ok {
				return usagef("install: unknown client %q; known: %s", name, strings.Join(install.IDs(), ", "))
			}
			clients = append(clients, c)
		}
	}
	root, err := fsroot.Open(*rootFlag)
	if err != nil {
		return err
	}
	exe, err := executable()
	if err != nil {
		return fmt.Errorf("finding the lore binary: %w", err)
	}
	if !*uninstall && isTemporaryBuild(exe) {
		return usagef("install: this lore is a temporary build (%s), which the agents could not start later; install lore (go install ./cmd/lore) and run that one", exe)
	}
	return install.Run(install.Options{
		Clients:      clients,
		Server:       install.Server{Command: exe, Args: []string{"serve", "--root", root.Path()}},
		Root:         root.Path(),
		Uninstall:    *uninstall,
		Instructions: *instructions,
		DryRun:       *dryRun,
		Env:          env,
		Out:          a.stdout,
	})
}

// isTemporaryBuild reports whether exe is a binary go run or go test made
// in a temporary folder, gone when it exits.
func isTemporaryBuild(exe string) bool {
	return strings.Contains(exe, string(filepath.Separator)+"go-build")
}
