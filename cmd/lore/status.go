package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/store"
)

func init() {
	register("status", command{summary: "show where an index is, when it was built and what it holds", run: runStatus})
}

// statusReport is what lore status prints.
type statusReport struct {
	Root          string                `json:"root"`
	Index         string                `json:"index"`
	IndexedAt     string                `json:"indexed_at"`
	GitCommit     string                `json:"git_commit"`
	SchemaVersion int                   `json:"schema_version"`
	Files         int                   `json:"files"`
	Chunks        int                   `json:"chunks"`
	Languages     []store.LanguageCount `json:"languages"`
}

func runStatus(ctx context.Context, a *app, args []string) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	rootFlag := fs.String("root", ".", "the indexed folder")
	format := fs.String("format", "human", "output format: human or json")
	fs.Usage = func() { commandUsage(a.stdout, fs, "lore status [--root PATH]") }
	pos, err := parseFlags(fs, args)
	if err != nil {
		return helpOr(err, fs)
	}
	if len(pos) > 0 {
		return usagef("status takes no arguments; use --root")
	}
	root, err := fsroot.Open(*rootFlag)
	if err != nil {
		return err
	}
	eng, err := openEngine(ctx, a, root.Path())
	if err != nil {
		return err
	}
	defer eng.Close()
	st := eng.Store()
	meta, err := st.Meta(ctx)
	if err != nil {
		return err
	}
	langs, err := st.LanguageCounts(ctx)
	if err != nil {
		return err
	}
	rep := statusReport{Root: root.Path(), Index: st.Path(), IndexedAt: meta["indexed_at"], GitCommit: meta["git_commit"], Languages: langs}
	rep.SchemaVersion, _ = strconv.Atoi(meta["schema_version"])
	rep.Files, _ = strconv.Atoi(meta["file_count"])
	rep.Chunks, _ = strconv.Atoi(meta["chunk_count"])
	if *format == "json" {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	commit := rep.GitCommit
	if commit == "" {
		commit = "(not a git repository)"
	}
	fmt.Fprintf(a.stdout, "root            %s\nindex           %s\nindexed at      %s\ngit commit      %s\nschema version  %d\nfiles           %d\nchunks          %d\n",
		rep.Root, rep.Index, rep.IndexedAt, commit, rep.SchemaVersion, rep.Files, rep.Chunks)
	if len(langs) > 0 {
		fmt.Fprintf(a.stdout, "\n%-14s %8s %8s\n", "language", "files", "chunks")
		for _, l := range langs {
			fmt.Fprintf(a.stdout, "%-14s %8d %8d\n", l.Language, l.Files, l.Chunks)
		}
	}
	return nil
}
