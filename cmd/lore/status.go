package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/fsroot"
)

func init() {
	register("status", command{summary: "show where an index is, when it was built and what it holds", run: runStatus})
}

func runStatus(ctx context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	rootFlag := fs.String("root", ".", "the indexed folder")
	format := fs.String("format", "human", "output format: human or json")
	fs.Usage = func() { commandUsage(fs, "lore status [--root PATH] [--format human|json]") }
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("status takes no arguments; use --root")
	}
	if *format != "human" && *format != "json" {
		return usagef("--format must be human or json, got %q", *format)
	}
	root, err := fsroot.Open(*rootFlag)
	if err != nil {
		return err
	}
	rep, err := a.services().Status(ctx, root.Path())
	if err != nil {
		return err
	}
	fresh, err := a.services().Freshness(ctx, root.Path())
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeJSON(a.stdout, struct {
			*svc.Status
			Freshness *svc.Freshness `json:"freshness"`
		}{rep, fresh})
	}
	commit := rep.GitCommit
	if commit == "" {
		commit = "(not a git repository)"
	}
	fmt.Fprintf(a.stdout, "root            %s\nindex           %s\nindexed at      %s\ngit commit      %s\nschema version  %d\nfiles           %d\nchunks          %d\n",
		rep.Root, rep.Index, rep.IndexedAt, commit, rep.SchemaVersion, rep.Files, rep.Chunks)
	if fresh.PendingChanges == 0 {
		fmt.Fprintf(a.stdout, "changes         none since the index was built\n")
	} else {
		some := fresh.PendingPaths
		if len(some) > 3 {
			some = append(some[:3:3], "…")
		}
		fmt.Fprintf(a.stdout, "changes         %d files changed since the index was built (%s): lore index picks them up\n",
			fresh.PendingChanges, strings.Join(some, ", "))
	}
	if rep.Rebuild != "" {
		fmt.Fprintf(a.stdout, "rebuild         %s: the next lore index rebuilds it\n", rep.Rebuild)
	}
	if len(rep.Languages) > 0 {
		fmt.Fprintf(a.stdout, "\n%-14s %8s %8s\n", "language", "files", "chunks")
		for _, l := range rep.Languages {
			fmt.Fprintf(a.stdout, "%-14s %8d %8d\n", l.Language, l.Files, l.Chunks)
		}
	}
	return nil
}
