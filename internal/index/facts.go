package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/specs"
	"github.com/lore-dev/lore/internal/store"
)

// Collection metadata that makes packages and specs incremental: how the
// stored packages and specs were made (a run made differently resolves
// again), and the manifest problems of the last resolution, reported again
// by runs that keep its packages.
const (
	metaPackagesState    = "packages_state"
	metaPackagesProblems = "packages_problems"
	metaSpecsState       = "specs_state"
	metaManifestCount    = "manifest_count" // the manifests of the last resolution, for limited runs
)

// packagesState and specsState describe the code that made the stored
// packages and specs.
var (
	packagesState = "parser " + packages.ParserVersion + ", resolver " + packages.ResolverVersion
	specsState    = "parser " + specs.ParserVersion
)

// factsInput is what projectFacts needs of a run.
type factsInput struct {
	root     *fsroot.Root
	files    []fsroot.File // the walked files
	walkOpts fsroot.WalkOptions
	specsDir string
	prevMeta map[string]string
	// keepPackages: a limited run, whose paths hold no manifest, keeps
	// the stored packages (files is not every walked file then).
	keepPackages bool
}

// projectFacts brings the run's packages and specs up to date (see
// resolvePackages and discoverSpecs) alongside the parse: what the index
// recorded is read before the run's files are written, the manifests and
// specs are read and resolved on a goroutine of their own once the walk
// has listed the files, and the results are written by finish, after the
// files. Its stats are merged into the run's there, in the order a run
// that did it all at the end would give them.
type projectFacts struct {
	done   chan struct{}
	stats  Stats                                                // what the goroutine found
	writes []func(context.Context, store.WriteTx, *Stats) error // the packages' (unless kept), then the specs'
	err    error
}

// startProjectFacts reads what the index recorded of the manifests and
// specs and starts resolving them; files waits for the walk's list.
func startProjectFacts(ctx context.Context, tx store.WriteTx, in factsInput, files func() ([]fsroot.File, error)) (*projectFacts, error) {
	var prevManifests map[string]store.ParsedFile
	if !in.keepPackages {
		var err error
		if prevManifests, err = tx.ParsedFiles(ctx, store.ParsedManifest); err != nil {
			return nil, err
		}
	}
	prevSpecs, err := tx.ParsedFiles(ctx, store.ParsedSpec)
	if err != nil {
		return nil, err
	}
	p := &projectFacts{done: make(chan struct{})}
	if in.keepPackages {
		if err := keepPackages(ctx, tx, in, &p.stats); err != nil {
			return nil, err
		}
	}
	go func() {
		defer close(p.done)
		if in.files, p.err = files(); p.err != nil {
			return
		}
		start := time.Now()
		if !in.keepPackages {
			var write func(context.Context, store.WriteTx, *Stats) error
			if write, p.err = resolvePackages(ctx, in, prevManifests, &p.stats); p.err != nil {
				return
			}
			p.writes = append(p.writes, write)
		}
		p.stats.PackagesMS = time.Since(start).Milliseconds()
		start = time.Now()
		var write func(context.Context, store.WriteTx, *Stats) error
		if write, p.err = discoverSpecs(in, prevSpecs, &p.stats); p.err != nil {
			return
		}
		p.writes = append(p.writes, write)
		p.stats.SpecsMS = time.Since(start).Milliseconds()
	}()
	return p, nil
}

// finish waits for the packages and specs and writes them.
func (p *projectFacts) finish(ctx context.Context, tx store.WriteTx, stats *Stats) error {
	select {
	case <-p.done:
	case <-ctx.Done():
		return cancelled(ctx.Err())
	}
	if p.err != nil {
		return p.err
	}
	f := &p.stats
	stats.Warnings = append(stats.Warnings, f.Warnings...)
	stats.Manifests, stats.ManifestsRead, stats.Packages, stats.PackagesUpdated = f.Manifests, f.ManifestsRead, f.Packages, f.PackagesUpdated
	stats.Specs, stats.SpecFiles, stats.SpecFilesRead, stats.SpecsUpdated = f.Specs, f.SpecFiles, f.SpecFilesRead, f.SpecsUpdated
	stats.PackagesMS, stats.SpecsMS = f.PackagesMS, f.SpecsMS
	for i, write := range p.writes {
		start := time.Now()
		if err := write(ctx, tx, stats); err != nil {
			return err
		}
		ms := &stats.SpecsMS // the last write is the specs'
		if i < len(p.writes)-1 {
			ms = &stats.PackagesMS
		}
		*ms += time.Since(start).Milliseconds()
	}
	return nil
}

// manifestLoader reads manifests through the parses earlier runs kept: a
// manifest with the size and modification time it had is not read, one
// whose content hash is the same is not parsed again.
type manifestLoader struct {
	prev    map[string]store.ParsedFile
	next    map[string]store.ParsedFile
	parsed  []packages.Parsed
	changed bool // a manifest is new or its content changed
	touched bool // a kept parse needs its new modification time
	read    int  // manifests read from disk
	stats   *Stats
}

func (l *manifestLoader) load(files []fsroot.File) {
	for _, f := range files {
		if _, done := l.next[f.Rel]; done || !packages.IsManifest(f.Rel) {
			continue
		}
		mtime := f.ModTime.UnixNano()
		prev, known := l.prev[f.Rel]
		if known && prev.Size == f.Size && prev.MTimeNS == mtime {
			if p, err := packages.UnmarshalParsed(f.Rel, prev.Data); err == nil {
				l.keep(prev, p)
				continue
			}
		}
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			l.stats.Warnings = append(l.stats.Warnings, FileError{Path: f.Rel, Message: err.Error()})
			l.changed = true
			continue
		}
		l.read++
		sum := sha256.Sum256(data)
		entry := store.ParsedFile{Kind: store.ParsedManifest, Path: f.Rel, Size: int64(len(data)), MTimeNS: mtime, Hash: hex.EncodeToString(sum[:16])}
		if known && prev.Hash == entry.Hash {
			if p, err := packages.UnmarshalParsed(f.Rel, prev.Data); err == nil {
				entry.Data = prev.Data
				l.touched = true
				l.keep(entry, p)
				continue
			}
		}
		p := packages.Parse(packages.Manifest{Path: f.Rel, Data: data})
		if entry.Data, err = p.Marshal(); err != nil {
			entry.Data = nil // cannot be kept: parsed again next time
		}
		l.changed = true
		l.keep(entry, p)
	}
}

func (l *manifestLoader) keep(entry store.ParsedFile, p packages.Parsed) {
	l.next[entry.Path] = entry
	l.parsed = append(l.parsed, p)
}

// resolvePackages reads the manifests among the walked files, and those
// in hidden folders a workspace names as members, given the parses the
// index kept (prev); it returns what writes the result. Only new and
// changed manifests are read; when none is, none is gone and the stored
// packages were made by this lore, they are kept as they are. Otherwise
// every manifest is resolved again (a dependency's target depends on all
// of them) and the packages replaced.
func resolvePackages(ctx context.Context, in factsInput, prev map[string]store.ParsedFile, stats *Stats) (func(context.Context, store.WriteTx, *Stats) error, error) {
	l := &manifestLoader{prev: prev, next: map[string]store.ParsedFile{}, stats: stats}
	l.load(in.files)
	// Workspaces may name hidden folders ("examples/.*/*"); their members'
	// manifests count, though the folders stay hidden to everything else.
	// A member found there may declare hidden members of its own.
	walked := map[string]bool{}
	for round := 0; round < 4; round++ {
		hidden := packages.FindHiddenMembers(l.parsed)
		if hidden.Empty() {
			break
		}
		extra, err := walkHiddenMembers(ctx, in, hidden, walked)
		if err != nil {
			return nil, err
		}
		before := len(l.parsed)
		l.load(extra)
		if len(l.parsed) == before {
			break
		}
	}
	for p := range prev {
		if _, ok := l.next[p]; !ok {
			l.changed = true // a manifest is gone
		}
	}
	stats.Manifests, stats.ManifestsRead = len(l.next), l.read
	count := strconv.Itoa(len(l.next))
	setCount := func(ctx context.Context, tx store.WriteTx) error {
		if in.prevMeta[metaManifestCount] != count {
			return tx.SetMeta(ctx, metaManifestCount, count)
		}
		return nil
	}
	if !l.changed && in.prevMeta[metaPackagesState] == packagesState {
		stats.Packages, _ = strconv.Atoi(in.prevMeta[store.MetaPackageCount])
		var problems []packages.Problem
		json.Unmarshal([]byte(in.prevMeta[metaPackagesProblems]), &problems) // absent: none
		reportProblems(problems, stats)
		return func(ctx context.Context, tx store.WriteTx, _ *Stats) error {
			if err := setCount(ctx, tx); err != nil {
				return err
			}
			if l.touched {
				return tx.SaveParsedFiles(ctx, store.ParsedManifest, sortedEntries(l.next))
			}
			return nil
		}, nil
	}
	stats.PackagesUpdated = true
	pkgs, problems := packages.Resolve(l.parsed)
	reportProblems(problems, stats)
	stats.Packages = len(pkgs)
	encoded, err := json.Marshal(problems)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, tx store.WriteTx, _ *Stats) error {
		if err := setCount(ctx, tx); err != nil {
			return err
		}
		if err := tx.SavePackages(ctx, pkgs); err != nil {
			return fmt.Errorf("saving packages: %w", err)
		}
		if err := tx.SaveParsedFiles(ctx, store.ParsedManifest, sortedEntries(l.next)); err != nil {
			return err
		}
		if err := tx.SetMeta(ctx, metaPackagesProblems, string(encoded)); err != nil {
			return err
		}
		return tx.SetMeta(ctx, metaPackagesState, packagesState)
	}, nil
}

// keepPackages reports the stored packages of a limited run as they are,
// with the manifest problems of their resolution.
func keepPackages(ctx context.Context, tx store.WriteTx, in factsInput, stats *Stats) error {
	n, err := strconv.Atoi(in.prevMeta[metaManifestCount])
	if err != nil { // recorded by runs since limited runs exist
		prev, err := tx.ParsedFiles(ctx, store.ParsedManifest)
		if err != nil {
			return err
		}
		n = len(prev)
	}
	stats.Manifests = n
	stats.Packages, _ = strconv.Atoi(in.prevMeta[store.MetaPackageCount])
	var problems []packages.Problem
	json.Unmarshal([]byte(in.prevMeta[metaPackagesProblems]), &problems) // absent: none
	reportProblems(problems, stats)
	return nil
}

func reportProblems(problems []packages.Problem, stats *Stats) {
	for _, p := range problems {
		stats.Warnings = append(stats.Warnings, FileError{Path: p.Path, Message: p.Message})
	}
}

// sortedEntries lists parsed files by path (kept parses without data are
// left out: they are parsed again next time).
func sortedEntries(m map[string]store.ParsedFile) []store.ParsedFile {
	out := make([]store.ParsedFile, 0, len(m))
	for _, p := range sortedKeys(m) {
		if m[p].Data != nil {
			out = append(out, m[p])
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// discoverSpecs discovers the specs, given the parses the index kept
// (prev), reading only the spec files (and change proposals) that are new
// or changed since the last run; it returns what writes the result. When
// none is new or changed and none is gone, the stored specs are kept.
func discoverSpecs(in factsInput, prev map[string]store.ParsedFile, stats *Stats) (func(context.Context, store.WriteTx, *Stats) error, error) {
	cache := &specs.Cache{Prev: map[string]specs.CachedFile{}}
	for p, f := range prev {
		cache.Prev[p] = specs.CachedFile{Path: f.Path, Size: f.Size, MTimeNS: f.MTimeNS, Hash: f.Hash, Data: f.Data}
	}
	found, err := specs.DiscoverCached(in.root.Path(), in.specsDir, cache)
	if err != nil {
		return nil, err
	}
	for _, s := range found {
		for _, w := range s.Warnings {
			stats.Warnings = append(stats.Warnings, FileError{Path: s.Path, Message: w})
		}
	}
	stats.Specs, stats.SpecFiles, stats.SpecFilesRead = len(found), len(cache.Next), cache.Read
	update := cache.Changed || in.prevMeta[metaSpecsState] != specsState || in.prevMeta[store.MetaSpecsDir] != in.specsDir
	stats.SpecsUpdated = update
	return func(ctx context.Context, tx store.WriteTx, _ *Stats) error {
		if update {
			if err := tx.SaveSpecs(ctx, found); err != nil {
				return fmt.Errorf("saving specs: %w", err)
			}
			if err := tx.SetMeta(ctx, metaSpecsState, specsState); err != nil {
				return err
			}
		}
		if cache.Changed || cache.Touched || update {
			entries := make([]store.ParsedFile, 0, len(cache.Next))
			for _, p := range sortedKeys(cache.Next) {
				f := cache.Next[p]
				entries = append(entries, store.ParsedFile{Kind: store.ParsedSpec, Path: f.Path, Size: f.Size, MTimeNS: f.MTimeNS, Hash: f.Hash, Data: f.Data})
			}
			return tx.SaveParsedFiles(ctx, store.ParsedSpec, entries)
		}
		return nil
	}, nil
}

// walkHiddenMembers walks the folders that lead to hidden workspace
// members (each base once per run) and returns the files found inside
// hidden folders. Ignore rules, the default skips and the size limit apply
// as in the main walk.
func walkHiddenMembers(ctx context.Context, in factsInput, hidden packages.HiddenMembers, walked map[string]bool) ([]fsroot.File, error) {
	var out []fsroot.File
	for _, base := range hidden.Bases() {
		if walked[base] {
			continue
		}
		walked[base] = true
		opts := in.walkOpts
		opts.Dir, opts.ShowHidden, opts.Skipped = base, hidden.Shows, nil
		err := in.root.Walk(ctx, opts, func(f fsroot.File) error {
			if inHiddenFolder(f.Rel) && packages.IsManifest(f.Rel) {
				out = append(out, f)
			}
			return nil
		})
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return nil, cancelled(ctx.Err())
		case errs.KindOf(err) == errs.NotFound || errs.KindOf(err) == errs.Invalid || errors.Is(err, os.ErrNotExist):
			// The folder a glob starts in does not exist (or is a file).
		default:
			return nil, fmt.Errorf("walking %s for hidden workspace members: %w", base, err)
		}
	}
	return out, nil
}

// inHiddenFolder reports whether a file lies in a folder whose name starts
// with ".".
func inHiddenFolder(rel string) bool {
	segments := strings.Split(rel, "/")
	for _, s := range segments[:len(segments)-1] {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return false
}
