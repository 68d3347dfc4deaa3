package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"

	svc "github.com/lore-dev/lore/internal/app"
)

func init() {
	register("collections", command{summary: "the named collections: list, show, remove", run: runCollections})
}

const collectionsUsage = `Usage: lore collections <command> [--format human|json] [NAME]

Commands:
  list          every named collection: name, root, files, chunks, when indexed
  show NAME     one collection, with its languages
  remove NAME   delete a collection's index (never its files)

Named collections live in one database (lore --index FILE, LORE_INDEX, or
collections.db in lore's cache folder); "lore index --collection NAME PATH"
adds or updates one.
`

func runCollections(ctx context.Context, a *cli, argv []string) error {
	if len(argv) == 0 {
		return usageText(collectionsUsage, "collections needs a command")
	}
	sub, rest := argv[0], argv[1:]
	fs := flag.NewFlagSet("collections "+sub, flag.ContinueOnError)
	format := fs.String("format", "human", "output format: human or json")
	fs.Usage = func() { fmt.Fprint(fs.Output(), collectionsUsage) }
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprint(a.stdout, collectionsUsage)
		return nil
	case "list", "show", "remove":
	default:
		return usageText(collectionsUsage, "unknown collections command %q", sub)
	}
	pos, err := parseFlags(a, fs, rest)
	if err != nil {
		return err
	}
	if *format != "human" && *format != "json" {
		return usagef("--format must be human or json, got %q", *format)
	}
	wantArgs := 1
	if sub == "list" {
		wantArgs = 0
	}
	if len(pos) != wantArgs {
		return usagef("usage: lore collections %s", map[string]string{"list": "list", "show": "show NAME", "remove": "remove NAME"}[sub])
	}
	services := a.services()
	switch sub {
	case "list":
		list, err := services.Collections(ctx)
		if err != nil {
			return err
		}
		if *format == "json" {
			return writeJSON(a.stdout, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(a.stdout, `no collections yet; add one with "lore index --collection NAME PATH"`)
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tFILES\tCHUNKS\tINDEXED AT\tROOT")
		for _, c := range list {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", c.Name, c.Files, c.Chunks, c.IndexedAt, c.Root)
		}
		return tw.Flush()
	case "show":
		info, err := services.Collection(ctx, pos[0])
		if err != nil {
			return err
		}
		if *format == "json" {
			return writeJSON(a.stdout, info)
		}
		writeCollection(a, info)
		return nil
	default: // remove
		if err := services.RemoveCollection(ctx, pos[0]); err != nil {
			return err
		}
		if *format == "json" {
			return writeJSON(a.stdout, map[string]any{"removed": pos[0]})
		}
		fmt.Fprintf(a.stdout, "removed collection %s (its files are untouched)\n", pos[0])
		return nil
	}
}

func writeCollection(a *cli, c *svc.CollectionInfo) {
	commit := c.GitCommit
	if commit == "" {
		commit = "(not a git repository)"
	}
	fmt.Fprintf(a.stdout, "name            %s\nroot            %s\nindex           %s\nindexed at      %s\ngit commit      %s\nfiles           %d\nchunks          %d\n",
		c.Name, c.Root, c.Index, c.IndexedAt, commit, c.Files, c.Chunks)
	if len(c.Languages) > 0 {
		fmt.Fprintf(a.stdout, "\n%-14s %8s %8s\n", "language", "files", "chunks")
		for _, l := range c.Languages {
			fmt.Fprintf(a.stdout, "%-14s %8d %8d\n", l.Language, l.Files, l.Chunks)
		}
	}
}
