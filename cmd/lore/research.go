package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/research"
)

func init() {
	register("research", command{summary: "callers, callees, implementations, references, dependencies or a map of the code", run: runResearch})
}

// researchJSON is what lore research --format json prints: the result
// with the root, as code_research's structured content.
type researchJSON struct {
	Root string `json:"root"`
	*research.Result
}

func runResearch(ctx context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("research", flag.ContinueOnError)
	rootFlag := fs.String("root", ".", "the indexed folder")
	depth := fs.Int("depth", research.DefaultDepth, fmt.Sprintf("hops to follow, %d..%d (for --focus architecture: folder levels)", research.MinDepth, research.MaxDepth))
	focus := fs.String("focus", "", "what to emphasise: "+strings.Join(research.Focuses, ", "))
	format := fs.String("format", "human", "output format: human, json or toon")
	fs.Usage = func() {
		commandUsage(fs, "lore research [flags] QUERY")
		w := fs.Output()
		fmt.Fprintln(w, "\nQuestions: \"what calls authenticate()\", \"what does HandleLogin call\", \"all implementations of Authenticatable\",")
		fmt.Fprintln(w, "\"where is Config used\", \"what does package web depend on\", \"what depends on auth\"; anything else is an")
		fmt.Fprintln(w, "overview: ranked search results expanded along the symbol graph.")
	}
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return &usageError{msg: "research needs a QUERY", usage: func(w io.Writer) { fs.SetOutput(w); fs.Usage() }}
	}
	query := strings.Join(pos, " ")
	if strings.TrimSpace(query) == "" {
		return errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	if *depth < research.MinDepth || *depth > research.MaxDepth {
		return usagef("--depth must be between %d and %d, got %d", research.MinDepth, research.MaxDepth, *depth)
	}
	if err := research.CheckRequest(*depth, *focus); err != nil {
		return usagef("--%s", err)
	}
	switch *format {
	case "human", "json", "toon":
	default:
		return usagef("--format must be human, json or toon, got %q", *format)
	}
	root, err := fsroot.Open(*rootFlag)
	if err != nil {
		return err
	}
	res, err := a.services().Research(ctx, svc.ResearchRequest{Root: root.Path(), Query: query, Depth: *depth, Focus: *focus})
	if err != nil {
		return doing("researching the index of "+root.Path(), err)
	}
	switch *format {
	case "json":
		return writeJSON(a.stdout, researchJSON{Root: root.Path(), Result: res.Result})
	case "toon":
		return writeTOON(a.stdout, researchJSON{Root: root.Path(), Result: res.Result})
	}
	_, err = fmt.Fprintln(a.stdout, res.Text())
	return err
}
