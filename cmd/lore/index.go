package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/index"
)

func init() {
	register("index", command{summary: "build or update the index of a folder (default: .)", run: runIndex})
}

func runIndex(ctx context.Context, a *cli, args []string) error {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	force := fs.Bool("force", false, "rebuild the index from scratch")
	format := fs.String("format", "human", "output format: human or json")
	quiet := fs.Bool("quiet", false, "no progress bar")
	specsDir := fs.String("specs-dir", "", "the specs folder, relative to PATH (default: openspec/ and specs/ under PATH)")
	maxSize := fs.Int64("max-file-size", 0, "skip files larger than this many bytes (default: the last run's, else 1 MiB; -1: no limit)")
	skipDirs := fs.String("skip-dir", "", "more folder names to skip, comma-separated (node_modules, target/ beside Cargo.toml, … are skipped already); kept for later runs, --skip-dir '' clears")
	embedder := fs.String("embedder", "", `embedder: "builtin", "model2vec:<dir>" or "openai:<model>" (default: keep the recorded one)`)
	noWait := fs.Bool("no-wait", false, "fail at once, instead of waiting, when another lore process is updating the index")
	collection := fs.String("collection", "", "index PATH as this named collection of the collections database (see lore collections)")
	memory := fs.String("memory", "", "memory budget of the run's in-memory index, e.g. 256MiB (default: $"+config.EnvIndexMemory+", else 32MiB); larger is faster on very large roots, never changes the index")
	fs.Usage = func() { commandUsage(fs, "lore index [flags] [PATH]") }
	pos, err := parseFlags(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("index takes one folder, got %d arguments", len(pos))
	}
	if *format != "human" && *format != "json" {
		return usagef("--format must be human or json, got %q", *format)
	}
	target := "."
	if len(pos) == 1 {
		target = pos[0]
	}
	root, err := fsroot.Open(target)
	if err != nil {
		return err
	}
	named := flagSet(fs, "collection")
	if named {
		if err := svc.CheckCollectionName(*collection); err != nil {
			return usagef("--collection: %v", err)
		}
	}
	loc, err := a.services().Locate(root.Path())
	if err != nil {
		return err
	}
	if named {
		if loc.Database, err = a.services().CollectionsDatabase(); err != nil {
			return err
		}
	}
	budget, err := config.IndexMemoryBudget(*memory, os.Getenv)
	if err != nil {
		return usagef("%v", err)
	}
	req := svc.IndexRequest{Root: root.Path(), Force: *force, MemoryBudget: budget, Embedder: *embedder, MaxFileSize: *maxSize, SpecsDir: *specsDir,
		NoWait: *noWait, OnWait: func(pid int) { fmt.Fprintln(a.stderr, waitingMessage(loc.Database, pid)) }}
	if flagSet(fs, "skip-dir") {
		req.SkipDirs = []string{} // named, even empty: replaces the recorded ones
	}
	for _, d := range strings.Split(*skipDirs, ",") {
		if d = strings.TrimSpace(d); d != "" {
			req.SkipDirs = append(req.SkipDirs, d)
		}
	}
	bar := newProgressBar(a.stderr, *quiet)
	req.Progress = bar.update
	var stats *index.Stats
	if named {
		_, stats, err = a.services().IndexCollection(ctx, *collection, req)
	} else {
		stats, err = a.services().Index(ctx, req)
	}
	bar.finish()
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeJSON(a.stdout, stats)
	}
	if stats.NoChanges() {
		fmt.Fprintf(a.stdout, "indexed %s: no changes\n", stats.Root)
	} else {
		fmt.Fprintf(a.stdout, "indexed %s\n", stats.Root)
	}
	row := func(label string, v any) { fmt.Fprintf(a.stdout, "  %-15s %v\n", label, v) }
	if named {
		row("collection", stats.Collection)
	}
	row("files scanned", stats.Scanned)
	if !stats.NoChanges() {
		row("files indexed", stats.Indexed)
	}
	row("files unchanged", stats.Unchanged)
	if !stats.NoChanges() {
		row("files deleted", stats.Deleted)
		row("chunks written", stats.Chunks)
		row("errors", stats.Errors)
	}
	row("packages", fmt.Sprintf("%d (%d of %d manifests read, %s)", stats.Packages, stats.ManifestsRead, stats.Manifests, share(stats.PackagesMS, stats.DurationMS)))
	row("specs", fmt.Sprintf("%d (%d of %d files read, %s)", stats.Specs, stats.SpecFilesRead, stats.SpecFiles, share(stats.SpecsMS, stats.DurationMS)))
	row("duration", stats.Duration.Round(time.Millisecond))
	row("index", stats.IndexPath)
	for _, fe := range stats.FileErrors {
		fmt.Fprintf(a.stdout, "  error: %s: %s\n", fe.Path, fe.Message)
	}
	for _, w := range stats.Warnings {
		fmt.Fprintf(a.stdout, "  warning: %s: %s\n", w.Path, w.Message)
	}
	return nil
}

// waitingMessage is what lore index prints on stderr while another lore
// process holds the index's writer lock.
func waitingMessage(indexPath string, pid int) string {
	holder := "another lore process"
	if pid != 0 {
		holder += fmt.Sprintf(" (pid %d)", pid)
	}
	return fmt.Sprintf("waiting for index %s: it is being updated by %s…", indexPath, holder)
}

// progressBar draws "files processed / total" on a terminal's stderr; it
// stays silent when stderr is not a terminal or with --quiet.
type progressBar struct {
	w       io.Writer
	enabled bool
	mu      sync.Mutex
	last    time.Time
	drawn   bool
}

func newProgressBar(w io.Writer, quiet bool) *progressBar {
	enabled := false
	if f, ok := w.(*os.File); ok && !quiet {
		enabled = isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
	}
	return &progressBar{w: w, enabled: enabled}
}

func (p *progressBar) update(pr index.Progress) {
	if !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if pr.Done != pr.Total && time.Since(p.last) < 50*time.Millisecond {
		return
	}
	p.last = time.Now()
	const width = 30
	filled := width
	if pr.Total > 0 {
		filled = width * pr.Done / pr.Total
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d files", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), pr.Done, pr.Total)
	p.drawn = true
}

func (p *progressBar) finish() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// commandUsage prints a subcommand's usage line and flags to fs.Output():
// stdout on -h, stderr after a flag error (see parseFlags).
func commandUsage(fs *flag.FlagSet, line string) {
	fmt.Fprintf(fs.Output(), "Usage: %s\n\nFlags:\n", line)
	fs.PrintDefaults()
}

// errHelp ends a command after it printed its usage on request (exit 0).
var errHelp = &usageError{}

// absPath is filepath.Abs that keeps the user's spelling in errors.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// share renders a phase's time and its part of the run: "42 ms, 3%".
func share(ms, total int64) string {
	if total <= 0 {
		return fmt.Sprintf("%d ms", ms)
	}
	return fmt.Sprintf("%d ms, %d%%", ms, ms*100/total)
}
