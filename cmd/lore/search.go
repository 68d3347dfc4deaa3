package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/search"
)

func init() {
	register("search", command{summary: "ranked code search over an indexed folder", run: runSearch})
}

func runSearch(ctx context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	rootFlag := fs.String("root", ".", "the indexed folder")
	limit := fs.Int("limit", search.DefaultLimit, "number of results")
	format := fs.String("format", "human", "output format: human, json or toon")
	ext := fs.String("ext", "", "only these file extensions, comma-separated (go,py)")
	pathGlob := fs.String("path", "", "only paths matching this glob (** crosses folders)")
	language := fs.String("lang", "", "only this language (go, python, typescript, …)")
	semantic := fs.Float64("semantic-weight", search.DefaultSemanticWeight, "weight of the semantic side, 0 (lexical only) to 1 (semantic only)")
	embedder := fs.String("embedder", "", "embedder to query with; must match the index's")
	fs.Usage = func() { commandUsage(fs, "lore search [flags] QUERY") }
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return &usageError{msg: "search needs a QUERY", usage: func(w io.Writer) { fs.SetOutput(w); fs.Usage() }}
	}
	query := strings.Join(pos, " ")
	if strings.TrimSpace(query) == "" {
		return errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	if *limit <= 0 {
		return usagef("--limit must be positive, got %d", *limit)
	}
	switch *format {
	case "human", "json", "toon":
	default:
		return usagef("--format must be human, json or toon, got %q", *format)
	}
	opts := search.Options{Query: query, Limit: *limit, PathGlob: *pathGlob, Language: *language}
	if *ext != "" {
		opts.Extensions = strings.Split(*ext, ",")
	}
	if flagSet(fs, "semantic-weight") {
		if !(*semantic >= 0 && *semantic <= 1) { // NaN too
			return usagef("--semantic-weight must be between 0 and 1, got %g", *semantic)
		}
		opts.SemanticWeight = semantic
	}
	root, err := fsroot.Open(*rootFlag)
	if err != nil {
		return err
	}
	queryStarts := func() {}
	if ownsProcess {
		queryStarts = tuneForOneShot()
	}
	if err := a.services().Warm(ctx, root.Path()); err != nil {
		return doing("searching the index of "+root.Path(), err)
	}
	queryStarts()
	res, err := a.services().Search(ctx, svc.SearchRequest{Root: root.Path(), Options: opts, Embedder: *embedder})
	if err != nil {
		return doing("searching the index of "+root.Path(), err)
	}
	return writeResponse(a.stdout, *format, res.Response)
}

// doing prefixes an internal failure (an untyped error, such as SQLite's
// own message) with what lore was doing, so the person at the terminal
// sees both. Typed errors say it in their own words and pass unchanged.
func doing(what string, err error) error {
	if _, typed := errs.As(err); typed || err == nil {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}

// noIndexError says that root has no index and what to run. When the user
// named the file (--index or LORE_INDEX) the message names it too, and
// says whether it is missing or there but never finished (a first run
// that was killed, or is still running, which leaves the index's build
// file): the folder is not what picked the index then.
func noIndexError(a *cli, root, indexPath string) error {
	how := ""
	switch {
	case a.indexFlag != "":
		how = "lore --index " + indexPath + " index " + root
	case os.Getenv(config.EnvIndex) != "":
		how = "lore index " + root
	default:
		return errs.New(errs.NoIndex, errs.CodeNoIndex, "no index for %s; run \"lore index %s\" first", root, root)
	}
	if svc.IndexStarted(indexPath) {
		return errs.New(errs.NoIndex, errs.CodeNoIndex,
			"the index %s has not been built yet (an earlier run did not finish); run \"%s\" first", indexPath, how)
	}
	return errs.New(errs.NoIndex, errs.CodeNoIndex, "no index at %s for %s; run \"%s\" first", indexPath, root, how)
}

func writeResponse(w io.Writer, format string, resp *search.Response) error {
	switch format {
	case "json":
		return writeJSON(w, resp)
	case "toon":
		return writeTOON(w, resp)
	}
	if len(resp.Results) == 0 {
		fmt.Fprintf(w, "no results for %q\n", resp.Query)
		return nil
	}
	for i, r := range resp.Results {
		fmt.Fprintf(w, "%2d. %s:%d-%d  %s  %d%%\n", i+1, r.Path, r.StartLine, r.EndLine, r.Kind, r.RelevancePercent)
		if r.Breadcrumb != "" {
			fmt.Fprintf(w, "    in %s\n", r.Breadcrumb)
		}
		if r.Signature != "" {
			fmt.Fprintf(w, "    %s\n", r.Signature)
		}
		for _, line := range excerpt(r.Content, 3) {
			fmt.Fprintf(w, "    │ %s\n", line)
		}
	}
	fmt.Fprintf(w, "%d of %d results in %.1f ms\n", len(resp.Results), resp.Total, resp.TookMS)
	return nil
}

// excerpt returns up to n non-blank lines of content, shortened for a terminal.
func excerpt(content string, n int) []string {
	var out []string
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		line = strings.ReplaceAll(line, "\t", "    ")
		if r := []rune(line); len(r) > 100 {
			line = string(r[:99]) + "…"
		}
		out = append(out, line)
		if len(out) == n {
			break
		}
	}
	return out
}
