// Command lore indexes a repository into one SQLite file and answers ranked
// code searches over it, from the command line and over MCP.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"syscall"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/errs"
)

// Exit codes, one per kind of failure, so that a script can react: run
// lore index on exitNoIndex, fix its call on exitUsage, retry on exitError.
const (
	exitOK        = 0   // success
	exitError     = 1   // the command failed: I/O, not found, outside the root, index busy, internal
	exitUsage     = 2   // wrong flags or arguments, or invalid input (a query too long, a bad embedder)
	exitNoIndex   = 3   // the folder has no index (or one this lore cannot read): run lore index
	exitCancelled = 130 // interrupted (Ctrl-C, SIGTERM), as shells report SIGINT
)

// exitCodeOf is the exit code of a command that failed with err: the CLI's
// one mapping from error kinds to exit codes.
func exitCodeOf(err error) int {
	switch errs.KindOf(err) {
	case errs.Invalid:
		return exitUsage
	case errs.NoIndex:
		return exitNoIndex
	case errs.Cancelled:
		return exitCancelled
	default:
		return exitError
	}
}

// cli carries what every subcommand shares: output streams and global flags.
type cli struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	indexFlag      string // --index: the index file, overriding LORE_INDEX and the default

	svc *svc.App // made on first use by services
}

// services returns lore's services for this command: indexes are found
// where --index, LORE_INDEX or the default say.
func (a *cli) services() *svc.App {
	if a.svc == nil {
		opts := svc.Options{IndexFor: svc.DefaultIndexFor(a.indexFlag)}
		if a.indexFlag != "" {
			opts.Collections, _ = filepath.Abs(a.indexFlag) // --index holds the named collections too
		}
		a.svc = svc.New(opts)
	}
	return a.svc
}

// command is one subcommand of lore.
type command struct {
	summary string
	run     func(ctx context.Context, a *cli, args []string) error
}

// commands is filled by each subcommand's file in its init function, so a
// subcommand lives in one place.
var commands = map[string]command{}

func register(name string, c command) { commands[name] = c }

// usageError marks a mistake in how lore was called (exit code 2). The
// message comes first; usage, when set, prints the command's usage after
// it.
type usageError struct {
	msg   string
	usage func(io.Writer)
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

// usageText is a usage error that prints text (a command's usage) after
// its message.
func usageText(text, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), usage: func(w io.Writer) { fmt.Fprint(w, text) }}
}

// ownsProcess is set when lore runs as its own process, rather than
// in-process from a test: only then may a command tune the Go runtime
// for itself (see tuneForOneShot).
var ownsProcess bool

func main() {
	ownsProcess = true
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runMain(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// runMain runs lore with args and returns the process exit code.
func runMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &cli{stdout: stdout, stderr: stderr, stdin: stdin}
	// Global flags come before the subcommand: lore [--index FILE] <command> ...
	for len(args) > 0 {
		switch arg := args[0]; {
		case arg == "--index" || arg == "-index":
			if len(args) < 2 {
				fmt.Fprintln(stderr, "lore: --index needs a file")
				return exitUsage
			}
			a.indexFlag, args = args[1], args[2:]
			continue
		case len(arg) > 8 && (arg[:8] == "--index=" || arg[:7] == "-index="):
			a.indexFlag = arg[len("--index="):]
			if arg[1] != '-' {
				a.indexFlag = arg[len("-index="):]
			}
			args = args[1:]
			continue
		}
		break
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version" // lore --version [--format json] is lore version
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return reportError(stderr, &usageError{msg: fmt.Sprintf("unknown command %q", args[0]), usage: printUsage})
	}
	err := cmd.run(ctx, a, args[1:])
	if a.svc != nil {
		if cerr := a.svc.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return reportError(stderr, a.mapError(err))
}

// mapError gives a core error the shape the CLI promises, once for every
// command: a missing index says what to run.
func (a *cli) mapError(err error) error {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.NoIndex || e.Code != errs.CodeNoIndex {
		return err
	}
	root, _ := e.Details["root"].(string)
	index, _ := e.Details["index"].(string)
	if root == "" {
		return err
	}
	return noIndexError(a, root, index)
}

// reportError prints err for a person and maps it to an exit code; it is
// the CLI's one place that turns errors into exit codes.
func reportError(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	if err == errHelp {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.msg != "" {
			fmt.Fprintf(stderr, "lore: %s\n", ue.msg)
		}
		if ue.usage != nil {
			fmt.Fprintln(stderr)
			ue.usage(stderr)
		}
		return exitUsage
	}
	if errs.KindOf(err) == errs.Cancelled {
		fmt.Fprintln(stderr, "lore: cancelled")
		return exitCancelled
	}
	fmt.Fprintf(stderr, "lore: %s\n", err)
	return exitCodeOf(err)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "lore: a local-first code-context engine for AI coding assistants")
	fmt.Fprintln(w, "\nUsage: lore [--index FILE] <command> [flags] [args]")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "\nRun 'lore <command> -h' for a command's flags.")
	fmt.Fprintln(w, "The index lives under the user cache directory unless --index or LORE_INDEX says otherwise.")
}
