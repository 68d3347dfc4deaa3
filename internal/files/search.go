package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/querylimit"
	"github.com/lore-dev/lore/internal/trigram"
)

// Search limits and preview size.
const (
	DefaultSearchLimit = 200
	MaxSearchLimit     = 5000
	PreviewWidth       = 200 // bytes of a line shown around the match
)

// SearchQuery is a keyword or regex search over text files.
type SearchQuery struct {
	Query string `json:"query"`
	// Repo is "docs", "code" or "both"; "" means both.
	Repo string `json:"repo,omitempty"`
	// Limit caps the number of results; 0 means DefaultSearchLimit, and it
	// must not be negative or above MaxSearchLimit.
	Limit int `json:"limit,omitempty"`
	// Path restricts the search to a folder or a file (relative to each
	// searched root), or to the files matching a glob: a glob without "/"
	// matches file names at any depth ("*.go"); with "/" it matches the
	// whole relative path, "*" staying within one folder and "**" spanning
	// any number of folders ("internal/**/*_test.go").
	Path string `json:"path,omitempty"`
	// CaseSensitive turns off the default case-insensitive matching (ASCII
	// folding for ASCII literals, Unicode folding otherwise). It applies to
	// regexes too.
	CaseSensitive bool `json:"case_sensitive,omitempty"`
	// Regex treats Query as a Go regular expression (RE2 syntax) matched
	// against each line on its own.
	Regex bool `json:"regex,omitempty"`
}

// SearchHit is one matching line.
type SearchHit struct {
	Repo    string `json:"repo"`
	Path    string `json:"path"`    // relative to the repo root, slash-separated
	Line    int    `json:"line"`    // 1-based
	Preview string `json:"preview"` // the line, trimmed, cut to about PreviewWidth bytes around the match
}

// SearchResult is the answer to a search.
type SearchResult struct {
	Results   []SearchHit `json:"results"`
	Truncated bool        `json:"truncated"` // more lines matched than the limit
}

// Search finds the lines matching q in the text files of the selected
// repositories. Results are ordered by repository (docs before code), then
// path, then line, one per matching line, and are exactly the first Limit
// entries of that complete ordering. Binary, hidden, ignored and too large
// (over fsroot.DefaultMaxFileSize) files are not searched. A query over
// querylimit.MaxBytes, or a regex expanding to more than
// querylimit.MaxRegexSize instructions, is refused with QUERY_TOO_LONG.
//
// A file reached through a symlink inside the root is searched once, under
// its own path (as the indexer does), unless the searched folder is itself
// reached through that link. With an index (WithIndex), files whose
// trigrams rule out a match are not read, and an index vouched complete
// replaces the walk: the results are the same.
//
// Files are read and scanned by a pool of workers while the tree is walked;
// once the files already done, in order, hold more than Limit matches, the
// rest of the work is cancelled.
func (s *Service) Search(ctx context.Context, q SearchQuery) (*SearchResult, error) {
	// The length first: the checks below echo the query in their messages.
	if err := querylimit.CheckBytes("query", q.Query); err != nil {
		return nil, err
	}
	if strings.TrimSpace(q.Query) == "" {
		return nil, errs.New(errs.Invalid, CodeQueryEmpty, "query is empty").With("query", q.Query)
	}
	if strings.ContainsAny(q.Query, "\r\n") {
		return nil, errs.New(errs.Invalid, CodeInvalidArgument, "query %q spans several lines; search matches one line at a time", q.Query).With("query", q.Query)
	}
	limit := q.Limit
	switch {
	case limit == 0:
		limit = DefaultSearchLimit
	case limit < 0 || limit > MaxSearchLimit:
		return nil, errs.New(errs.Invalid, CodeLimitInvalid, "limit %d is out of range: use 1 to %d (0 means %d)", q.Limit, MaxSearchLimit, DefaultSearchLimit).With("limit", q.Limit)
	}
	roots, err := s.searchRoots(q.Repo)
	if err != nil {
		return nil, err
	}
	m, err := newMatcher(q.Query, q.Regex, q.CaseSensitive)
	if err != nil {
		return nil, err
	}
	scopes, err := searchScopes(roots, q.Path)
	if err != nil {
		return nil, err
	}
	s.planScopes(ctx, scopes, m)

	hits, err := runSearch(ctx, scopes, m, limit+1) // one more than asked tells whether there are more
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Results: hits}
	if len(hits) > limit {
		res.Results, res.Truncated = hits[:limit], true
	}
	return res, nil
}

// scope is a part of one repository to search.
type scope struct {
	repo string
	root *fsroot.Root
	dir  string // folder to walk, relative; used when file is ""
	file string // a single file to search
	glob []string

	// The root's n-gram index, if any, and the files of it that may
	// match; listed says to take the files from the index rather than
	// walk (see FileIndex.Complete).
	ix     *FileIndex
	cand   trigram.Set
	listed bool
}

// planScopes finds the n-gram index of each scope's root and the files of
// it that may match. A scope whose folder is reached through a symlink is
// walked: the index knows its files under their own paths.
func (s *Service) planScopes(ctx context.Context, scopes []scope, m *matcher) {
	if s.index == nil {
		return
	}
	type found struct {
		ix   *FileIndex
		cand trigram.Set
	}
	byRoot := map[*fsroot.Root]found{}
	for i := range scopes {
		sc := &scopes[i]
		if sc.file != "" {
			continue
		}
		f, ok := byRoot[sc.root]
		if !ok {
			if ix := s.index(ctx, sc.root.Path()); ix != nil && ix.Grams != nil {
				f = found{ix, ix.Grams.Candidates(m.grams)}
			}
			byRoot[sc.root] = f
		}
		if f.ix == nil {
			continue
		}
		sc.ix, sc.cand = f.ix, f.cand
		if real, err := sc.root.Resolve(sc.dir); err == nil && real == joinAbs(sc.root, sc.dir) {
			sc.listed = f.ix.Complete
		}
	}
}

// searchScopes turns the Path of a query into the parts of each repository
// to search. A folder or file missing from every repository is NOT_FOUND;
// a glob that matches nothing is not an error.
func searchScopes(roots []repoRoot, p string) ([]scope, error) {
	var scopes []scope
	if p == "" {
		for _, r := range roots {
			scopes = append(scopes, scope{repo: r.name, root: r.root})
		}
		return scopes, nil
	}
	hidden := false
	for _, r := range roots {
		rel, err := r.root.CleanRel(p)
		if err != nil {
			return nil, withRepo(err, r.name, p)
		}
		if isGlob(rel) {
			g, dir, err := compileGlob(rel)
			if err != nil {
				return nil, err
			}
			if info, err := os.Stat(joinAbs(r.root, dir)); err == nil && info.IsDir() && !r.root.Ignored(dir, true) {
				scopes = append(scopes, scope{repo: r.name, root: r.root, dir: dir, glob: g})
			}
			continue
		}
		real, err := r.root.Resolve(rel)
		if err != nil {
			return nil, withRepo(err, r.name, p)
		}
		info, err := os.Stat(real)
		switch {
		case err != nil:
			continue
		case info.IsDir() && r.root.Ignored(rel, true), !info.IsDir() && r.root.Ignored(rel, false):
			hidden = true
		case info.IsDir():
			scopes = append(scopes, scope{repo: r.name, root: r.root, dir: rel})
		case info.Mode().IsRegular():
			scopes = append(scopes, scope{repo: r.name, root: r.root, file: rel})
		}
	}
	if len(scopes) == 0 && !isGlob(p) {
		repos := make([]string, len(roots))
		for i, r := range roots {
			repos[i] = r.name
		}
		repo := strings.Join(repos, " or ")
		if hidden {
			return nil, invisible(repo, p)
		}
		return nil, errs.New(errs.NotFound, CodeNotFound, "path %q does not exist in %s", p, repo).With("repo", repo).With("path", p)
	}
	return scopes, nil
}

func joinAbs(r *fsroot.Root, rel string) string {
	if rel == "" {
		return r.Path()
	}
	return r.Path() + string(os.PathSeparator) + strings.ReplaceAll(rel, "/", string(os.PathSeparator))
}

func isGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// compileGlob validates a cleaned glob and returns its segments and the
// folder holding everything it can match (its leading literal segments).
func compileGlob(p string) (segs []string, dir string, err error) {
	segs = strings.Split(p, "/")
	literal := 0
	for i, seg := range segs {
		if _, err := path.Match(seg, ""); err != nil || (strings.Contains(seg, "**") && seg != "**") {
			return nil, "", errs.New(errs.Invalid, CodeInvalidArgument, "invalid glob %q: bad segment %q", p, seg).With("path", p)
		}
		if literal == i && !isGlob(seg) && i < len(segs)-1 {
			literal = i + 1
		}
	}
	return segs, strings.Join(segs[:literal], "/"), nil
}

// globMatch reports whether the relative path rel matches glob segments;
// a single-segment glob matches the file name at any depth.
func globMatch(glob []string, rel string) bool {
	if len(glob) == 1 {
		ok, _ := path.Match(glob[0], path.Base(rel))
		return ok
	}
	return matchSegments(glob, strings.Split(rel, "/"))
}

func matchSegments(glob, segs []string) bool {
	for len(glob) > 0 {
		if glob[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegments(glob[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(glob[0], segs[0]); !ok {
			return false
		}
		glob, segs = glob[1:], segs[1:]
	}
	return len(segs) == 0
}

// A batch groups consecutive files of the walk so that workers are woken
// once per batch rather than once per file: on machines where system calls
// are expensive, goroutine hand-offs cost as much as reading a small file.
const (
	batchMaxFiles = 32
	batchMaxBytes = 256 << 10
)

// searchBatch is a run of consecutive files to search, numbered in result
// order.
type searchBatch struct {
	idx   int
	files []searchFile
}

type searchFile struct {
	repo string
	file fsroot.File
	// confined, set for files listed from an index rather than just
	// walked, is the root to open the file through: whatever changed
	// since the run, it cannot lead outside the root.
	confined *fsroot.Root
}

type batchHits struct {
	idx  int
	hits []SearchHit
}

// runSearch returns the first want hits, in order, over the scopes.
func runSearch(ctx context.Context, scopes []scope, m *matcher, want int) ([]SearchHit, error) {
	workCtx, stop := context.WithCancel(ctx)
	defer stop()

	batches := make(chan searchBatch, 64)
	results := make(chan batchHits, 64)
	var walkErr error
	go func() {
		defer close(batches)
		walkErr = produceBatches(workCtx, scopes, batches)
	}()
	var wg sync.WaitGroup
	for range max(2, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			var buf []byte
			for b := range batches {
				if workCtx.Err() != nil {
					continue // drain so the producer can finish
				}
				var hits []SearchHit
				for _, f := range b.files {
					if len(hits) >= want {
						break
					}
					var fh []SearchHit
					fh, buf = searchOneFile(f, m, want-len(hits), buf)
					hits = append(hits, fh...)
				}
				results <- batchHits{b.idx, hits}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	// Batches finish out of order; hits are appended in batch order, and
	// the search stops as soon as the batches done so far, in order, hold
	// want hits: nothing after them can change the answer.
	var hits []SearchHit
	pending := map[int][]SearchHit{}
	next := 0
	for r := range results {
		if len(hits) >= want {
			continue
		}
		pending[r.idx] = r.hits
		for len(hits) < want {
			h, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			hits = append(hits, h...)
		}
		if len(hits) >= want {
			stop()
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search cancelled: %w", err)
	}
	if walkErr != nil && !(errors.Is(walkErr, context.Canceled) && len(hits) >= want) {
		return nil, walkErr
	}
	if len(hits) > want {
		hits = hits[:want]
	}
	return hits, nil
}

// produceBatches walks the scopes in order and sends their files in
// batches.
func produceBatches(ctx context.Context, scopes []scope, batches chan<- searchBatch) error {
	var cur searchBatch
	var addFile func(searchFile) error
	curBytes := int64(0)
	flush := func() error {
		if len(cur.files) == 0 {
			return nil
		}
		select {
		case batches <- cur:
			cur = searchBatch{idx: cur.idx + 1}
			curBytes = 0
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	add := func(repo string, f fsroot.File) error {
		return addFile(searchFile{repo: repo, file: f})
	}
	addFile = func(sf searchFile) error {
		f := sf.file
		cur.files = append(cur.files, sf)
		curBytes += f.Size
		if len(cur.files) >= batchMaxFiles || curBytes >= batchMaxBytes {
			return flush()
		}
		return nil
	}
	for _, sc := range scopes {
		if sc.file != "" {
			abs := joinAbs(sc.root, sc.file)
			info, err := os.Stat(abs)
			if err != nil || info.Size() > fsroot.DefaultMaxFileSize {
				continue
			}
			if err := add(sc.repo, fsroot.File{Rel: sc.file, Abs: abs, Size: info.Size(), ModTime: info.ModTime()}); err != nil {
				return err
			}
			continue
		}
		if sc.listed {
			if err := listIndexed(ctx, sc, func(f fsroot.File) error { return addFile(searchFile{repo: sc.repo, file: f, confined: sc.root}) }); err != nil {
				return err
			}
			continue
		}
		err := sc.root.Walk(ctx, fsroot.WalkOptions{Dir: sc.dir}, func(f fsroot.File) error {
			if sc.glob != nil && !globMatch(sc.glob, f.Rel) {
				return nil
			}
			if f.Linked {
				// A file reached through a link is reported once, under
				// its own path, as the indexer does.
				if _, visible := sc.root.OwnPath(f.Abs); visible {
					return nil
				}
			}
			if sc.ix != nil {
				if i, ok := sc.ix.find(f.Rel); ok && sc.ix.skip(i, f.Size, f.ModTime.UnixNano(), sc.cand) {
					return nil
				}
			}
			return add(sc.repo, f)
		})
		if err != nil {
			return err
		}
	}
	return flush()
}

// listIndexed calls fn with the files of sc's index that may match, in
// walk order, without walking.
func listIndexed(ctx context.Context, sc scope, fn func(fsroot.File) error) error {
	lo, hi := sc.ix.under(sc.dir)
	for i := lo; i < hi; i++ {
		if i&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		f := &sc.ix.Files[i]
		if f.Binary || (f.HasGrams && !sc.cand.Has(f.Slot)) {
			continue
		}
		if sc.glob != nil && !globMatch(sc.glob, f.Path) {
			continue
		}
		err := fn(fsroot.File{Rel: f.Path, Abs: joinAbs(sc.root, f.Path), Size: f.Size, ModTime: time.Unix(0, f.MTimeNS)})
		if err != nil {
			return err
		}
	}
	return nil
}

// searchOneFile returns up to want hits in one file. buf is a reusable read
// buffer, returned (possibly grown) for the next call. Files that cannot be
// read or are binary have no hits.
func searchOneFile(job searchFile, m *matcher, want int, buf []byte) ([]SearchHit, []byte) {
	if job.file.Size == 0 {
		return nil, buf
	}
	// The walk's size is enough: a file that grew since is searched up to
	// that size, one that shrank up to its end.
	var data []byte
	var err error
	if job.confined != nil {
		data, err = readConfined(job.confined, job.file, buf)
	} else {
		data, err = readWalked(job.file, buf)
	}
	buf = data[:0]
	if err != nil {
		return nil, buf
	}
	if fsroot.IsBinary(data) {
		return nil, buf
	}
	var hits []SearchHit
	m.scan(data, want, func(h lineHit) {
		hits = append(hits, SearchHit{Repo: job.repo, Path: job.file.Rel, Line: h.n, Preview: preview(h.line, h.start, h.end)})
	})
	return hits, buf
}

// readConfined is readWalked for a file listed by an index: opened
// through the root (see fsroot.Root.OpenFile), up to the listed size.
func readConfined(r *fsroot.Root, f fsroot.File, buf []byte) ([]byte, error) {
	fh, _, err := r.OpenFile(f.Rel)
	if err != nil {
		return buf[:0], err
	}
	defer fh.Close()
	buf = slices.Grow(buf[:0], int(f.Size))[:f.Size]
	n, err := io.ReadFull(fh, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return buf[:0], fmt.Errorf("reading %s: %w", f.Rel, err)
	}
	return buf[:n], nil
}

// preview returns line without surrounding blanks, cut to about
// PreviewWidth bytes around the match [start, end) with "…" marking cuts,
// and with invalid UTF-8 replaced.
func preview(line []byte, start, end int) string {
	end = min(end, len(line))
	start = min(start, end)
	lead := len(line) - len(bytes.TrimLeft(line, " \t"))
	lead = min(lead, start)
	line, start, end = line[lead:], start-lead, end-lead
	trimmed := bytes.TrimRight(line, " \t")
	if len(trimmed) >= end {
		line = trimmed
	}
	if len(line) <= PreviewWidth {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	from := start - (PreviewWidth-(end-start))/2
	from = max(0, min(from, len(line)-PreviewWidth))
	to := min(from+PreviewWidth, len(line))
	for from > 0 && !utf8.RuneStart(line[from]) {
		from++
	}
	for to < len(line) && to > from && !utf8.RuneStart(line[to]) {
		to--
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	b.WriteString(strings.ToValidUTF8(string(line[from:to]), "\uFFFD"))
	if to < len(line) {
		b.WriteString("…")
	}
	return b.String()
}
