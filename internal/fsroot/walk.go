package fsroot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/lore-dev/lore/internal/errs"
)

// DefaultMaxFileSize is the size above which Walk skips a file when
// WalkOptions.MaxFileSize is 0.
const DefaultMaxFileSize = 1 << 20

// Reasons passed to WalkOptions.Skipped. Files and folders skipped by ignore
// rules, hidden names or the default skip list are not reported: they are
// expected and numerous.
const (
	SkipTooLarge       = "too large"
	SkipNotRegular     = "not a regular file"
	SkipSymlinkOutside = "symlink target outside root"
	SkipSymlinkBroken  = "broken symlink"
	SkipSymlinkLoop    = "symlink loop"
	SkipSymlinkHidden  = "symlink target hidden or ignored"
	SkipUnreadable     = "unreadable"
)

// WalkOptions tunes Walk, ReadDir and IgnoredWith. The zero value is the
// default behaviour.
type WalkOptions struct {
	// MaxFileSize skips files bigger than this many bytes; 0 means
	// DefaultMaxFileSize, a negative value means no limit.
	MaxFileSize int64
	// SkipDirs are extra folders to skip. An entry without "/" is a folder
	// name (a filepath.Match pattern, e.g. "testdata" or "gen-*"); an entry
	// with "/" is matched against the folder's slash-separated path relative
	// to the root, segment by segment (e.g. "docs/generated").
	SkipDirs []string
	// NoDefaultSkips turns off the built-in list of dependency and
	// generated folders (see defaultSkipRules). ".git" is always skipped.
	NoDefaultSkips bool
	// IncludeHidden visits names starting with "." (except ".git" and the
	// hidden folders of the default skip list).
	IncludeHidden bool
	// ShowHidden, if set, is asked about each hidden folder (by its
	// slash-separated path relative to the root) and walks the ones it
	// returns true for as if their names did not start with ".": the
	// indexer shows the folders a workspace declares members in
	// ("examples/.*/*"). Hidden files stay hidden; ".git", ignore rules and
	// the default skips still apply. The files tools never set it.
	ShowHidden func(rel string) bool
	// Dir restricts Walk to one folder, relative to the root (validated like
	// Resolve); "" walks the whole root. Reported paths stay relative to the
	// root. If the folder itself is ignored nothing is visited.
	Dir string
	// Skipped, if set, is told about files and folders left out for a reason
	// the user may want to know (one of the Skip* constants).
	Skipped func(rel, reason string)
}

// File is a regular file found by Walk.
type File struct {
	Rel     string    // slash-separated path relative to the root
	Abs     string    // absolute path (through any followed symlink)
	Size    int64     // bytes
	ModTime time.Time // modification time
	// Linked is set when the walk reached the file through a symlink: the
	// file is one, or a folder below the walk's starting folder is.
	Linked bool
}

// Entry is one visible entry of a folder, as returned by ReadDir.
type Entry struct {
	Name    string    // base name
	Rel     string    // slash-separated path relative to the root
	IsDir   bool      // a folder (or a symlink to a folder inside the root)
	Size    int64     // bytes; 0 for folders
	ModTime time.Time // modification time
}

// Walk calls fn for every regular file under the root (or under opts.Dir)
// that is not ignored, hidden, in a skipped folder or too large, in
// lexicographic order of the slash-separated relative paths. Symlinks are
// followed only when their target lies inside the root, and a symlinked
// folder that is one of its own ancestors is not entered again. ctx is
// checked before each folder. Walk returns the first error fn returns,
// unchanged, and stops.
func (r *Root) Walk(ctx context.Context, opts WalkOptions, fn func(File) error) error {
	w := r.newWalker(opts)
	start, entries, err := w.start(opts.Dir)
	if err != nil || start == nil {
		return err
	}
	return w.walk(ctx, start, entries, fn)
}

// ReadDir lists the visible entries of the folder rel (the ones Walk would
// visit or enter, whatever their size) in walk order: by name, where a
// folder sorts as if its name ended in "/". A folder that is itself hidden
// or ignored is reported as NOT_FOUND, like a missing one.
func (r *Root) ReadDir(rel string, opts WalkOptions) ([]Entry, error) {
	w := r.newWalker(opts)
	d, entries, err := w.start(rel)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, errs.New(errs.NotFound, CodeNotFound, "path %q is hidden or ignored", rel).With("path", rel)
	}
	w.patterns = append(w.patterns, dirPatterns(d.abs, d.comps, entries)...)
	items := w.visibleItems(d, entries)
	out := make([]Entry, 0, len(items))
	for _, it := range items {
		e := Entry{Name: it.name, Rel: it.rel, IsDir: it.isDir}
		if it.info != nil {
			e.ModTime = it.info.ModTime()
			if !it.isDir {
				e.Size = it.info.Size()
			}
		}
		if it.isDir && it.info == nil {
			if info, err := os.Stat(it.abs); err == nil {
				e.ModTime = info.ModTime()
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// Ignored reports whether Walk with default options would skip rel: because
// it or one of its folders is matched by an ignore file, hidden, ".git" or
// in the default skip list. isDir says whether rel is a folder (it need not
// exist). Paths Resolve would refuse are reported as ignored. The root
// itself is never ignored.
func (r *Root) Ignored(rel string, isDir bool) bool {
	return r.IgnoredWith(WalkOptions{}, rel, isDir)
}

// IgnoredWith is Ignored for the given options (only SkipDirs,
// NoDefaultSkips and IncludeHidden matter).
//
// A path that leads through symlinks is also judged where it leads: it is
// ignored when its real location is outside the root, hidden or ignored.
func (r *Root) IgnoredWith(opts WalkOptions, rel string, isDir bool) bool {
	parts, err := splitRel(rel)
	if err != nil {
		return true
	}
	if !r.newWalker(opts).descend(parts, isDir) {
		return true
	}
	real, rerr := r.realPath(parts)
	if rerr != nil {
		return true // a link loop leads nowhere visible
	}
	if real == r.lexicalPath(parts) {
		return false
	}
	if info, err := os.Stat(real); err == nil {
		isDir = info.IsDir()
	}
	return !r.newRealView(opts).visible(real, isDir)
}

// OwnPath returns where the file at abs (reached through symlinks, say)
// really is, relative to the root, and whether a walk of the whole root
// visits it there: then that is the path to report it under, once.
func (r *Root) OwnPath(abs string) (string, bool) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", false
	}
	rel, ok := r.relOf(real)
	if !ok || rel == "" {
		return "", false
	}
	return rel, !r.Ignored(rel, false)
}

// walker holds the state of one walk: options and the stack of ignore
// patterns in force for the current folder.
type walker struct {
	root     *Root
	opts     WalkOptions
	maxSize  int64
	rules    []skipRule
	patterns []gitignore.Pattern // increasing priority
	scratch  []string            // reused path buffer for pattern matching
	view     *realView           // judges where symlinks lead; see realView
}

func (r *Root) newWalker(opts WalkOptions) *walker {
	w := &walker{root: r, opts: opts, maxSize: opts.MaxFileSize}
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxFileSize
	}
	if !opts.NoDefaultSkips {
		w.rules = defaultSkipRules
	}
	w.patterns = r.basePatterns()
	return w
}

// dir is a folder being walked.
type dir struct {
	abs   string   // logical absolute path (root + rel)
	real  string   // symlink-free absolute path
	rel   string   // slash-separated, relative to the root
	comps []string // path components from the work-tree top
	chain []string // real paths of this folder and its ancestors, for loop detection
	// linked is set when a folder entered by this walk (below its
	// start) was a symlink.
	linked bool
}

// item is a visible entry of a folder.
type item struct {
	name, rel, abs string
	isDir          bool
	info           fs.FileInfo   // files: Lstat (or the symlink target's Stat); linked folders: target's Stat
	real           string        // folders: symlink-free path
	children       []os.DirEntry // folders: their entries, already read
	link           bool          // a symlink
}

// start validates the folder rel, loads the ignore patterns of its
// ancestors and reads it. It returns a nil dir when the folder is ignored.
func (w *walker) start(rel string) (*dir, []os.DirEntry, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return nil, nil, err
	}
	real, err := w.root.Resolve(rel)
	if err != nil {
		return nil, nil, err
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, nil, statError(rel, err)
	}
	if !info.IsDir() {
		return nil, nil, errs.New(errs.Invalid, CodeNotADirectory, "path %q is not a directory", rel).With("path", rel)
	}
	if !w.descend(parts, true) {
		return nil, nil, nil
	}
	if real != w.root.lexicalPath(parts) && !w.realView().visible(real, true) {
		return nil, nil, nil // reached through a link into a hidden or ignored place
	}
	entries, err := os.ReadDir(real)
	if err != nil {
		return nil, nil, statError(rel, err)
	}
	chain := make([]string, 0, len(parts)+1)
	for i := range len(parts) + 1 {
		p, perr := w.root.realPath(parts[:i])
		if perr == nil {
			chain = append(chain, p)
		}
	}
	d := &dir{
		abs:   filepath.Join(append([]string{w.root.path}, parts...)...),
		real:  real,
		rel:   strings.Join(parts, "/"),
		comps: append(slices.Clone(w.root.base), parts...),
		chain: chain,
	}
	return d, entries, nil
}

// descend checks each component of parts in turn, loading the ignore files
// of the folders on the way (not of the last component), and reports whether
// all of them are visible. lastIsDir gives the type of the last component.
func (w *walker) descend(parts []string, lastIsDir bool) bool {
	abs := w.root.path
	comps := slices.Clone(w.root.base)
	for i, name := range parts {
		w.patterns = append(w.patterns, dirPatterns(abs, comps, nil)...)
		isDir := lastIsDir || i < len(parts)-1
		if w.hidden(name, strings.Join(parts[:i+1], "/"), isDir) {
			return false
		}
		child := filepath.Join(abs, name)
		comps = append(comps, name)
		if excluded(w.patterns, comps, isDir) {
			return false
		}
		if isDir {
			rel := strings.Join(parts[:i+1], "/")
			if w.skipByName(name, rel, lazyNames(abs)) || w.skipByContents(name, lazyNames(child)) {
				return false
			}
		}
		abs = child
	}
	return true
}

// hidden reports whether the entry name (at rel, relative to the root) is
// left out for its name: ".git" always; other names starting with "."
// unless hidden entries are included or, for a folder, ShowHidden shows it.
func (w *walker) hidden(name, rel string, isDir bool) bool {
	switch {
	case name == ".git":
		return true
	case w.opts.IncludeHidden || !strings.HasPrefix(name, "."):
		return false
	}
	return !isDir || w.opts.ShowHidden == nil || !w.opts.ShowHidden(rel)
}

func (w *walker) skipped(rel, reason string) {
	if w.opts.Skipped != nil {
		w.opts.Skipped(rel, reason)
	}
}

func (w *walker) walk(ctx context.Context, d *dir, entries []os.DirEntry, fn func(File) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("walking %s: %w", w.root.path, err)
	}
	mark := len(w.patterns)
	w.patterns = append(w.patterns, dirPatterns(d.abs, d.comps, entries)...)
	defer func() { w.patterns = w.patterns[:mark] }()

	for _, it := range w.visibleItems(d, entries) {
		if it.isDir {
			child := &dir{
				abs:    it.abs,
				real:   it.real,
				rel:    it.rel,
				comps:  append(slices.Clip(d.comps), it.name),
				chain:  append(slices.Clip(d.chain), it.real),
				linked: d.linked || it.link,
			}
			if err := w.walk(ctx, child, it.children, fn); err != nil {
				return err
			}
			continue
		}
		if w.maxSize > 0 && it.info.Size() > w.maxSize {
			w.skipped(it.rel, SkipTooLarge)
			continue
		}
		if err := fn(File{Rel: it.rel, Abs: it.abs, Size: it.info.Size(), ModTime: it.info.ModTime(), Linked: d.linked || it.link}); err != nil {
			return err
		}
	}
	return nil
}

// visibleItems filters the entries of d down to the ones the walker visits
// or enters and returns them in walk order. Folders come with their entries
// read, because some skip rules look inside them.
func (w *walker) visibleItems(d *dir, entries []os.DirEntry) []item {
	siblings := func() []string { return entryNames(entries) }
	linked := d.real != d.abs // reached through a symlink
	var items []item
	for _, e := range entries {
		name := e.Name()
		if w.hidden(name, joinRel(d.rel, name), e.IsDir()) {
			continue
		}
		mode := e.Type()
		it := item{name: name, rel: joinRel(d.rel, name), abs: filepath.Join(d.abs, name)}
		switch {
		case mode&fs.ModeSymlink != 0:
			// A followed symlink to a folder is matched against ignore
			// patterns as a folder: everything below it is matched as
			// being inside a folder of that name anyway. (Git never
			// follows symlinks, so it has no rule for this.)
			real, err := filepath.EvalSymlinks(it.abs)
			if err != nil {
				w.skipped(it.rel, SkipSymlinkBroken)
				continue
			}
			if !w.root.contains(real) {
				w.skipped(it.rel, SkipSymlinkOutside)
				continue
			}
			info, err := os.Stat(real)
			if err != nil {
				w.skipped(it.rel, SkipSymlinkBroken)
				continue
			}
			if !info.IsDir() && !info.Mode().IsRegular() {
				w.skipped(it.rel, SkipNotRegular)
				continue
			}
			if !w.realView().visible(real, info.IsDir()) {
				w.skipped(it.rel, SkipSymlinkHidden)
				continue
			}
			it.info, it.isDir, it.real, it.link = info, info.IsDir(), real, true
		case mode.IsDir():
			it.isDir, it.real = true, filepath.Join(d.real, name)
		case mode.IsRegular():
		default:
			w.skipped(it.rel, SkipNotRegular)
			continue
		}
		// Inside a linked folder the rules of the real location apply too:
		// "lnk -> src" must not show what src's own ignore rules hide.
		if linked && mode&fs.ModeSymlink == 0 && !w.realView().visible(filepath.Join(d.real, name), it.isDir) {
			continue
		}
		w.scratch = append(append(w.scratch[:0], d.comps...), name)
		if excluded(w.patterns, w.scratch, it.isDir) {
			continue
		}
		if it.isDir {
			if w.skipByName(name, it.rel, siblings) {
				continue
			}
			if slices.Contains(d.chain, it.real) {
				w.skipped(it.rel, SkipSymlinkLoop)
				continue
			}
			children, err := os.ReadDir(it.abs)
			if err != nil {
				w.skipped(it.rel, SkipUnreadable)
				continue
			}
			if w.skipByContents(name, func() []string { return entryNames(children) }) {
				continue
			}
			it.children = children
		} else if it.info == nil {
			info, err := e.Info()
			if err != nil {
				continue // vanished since the folder was read
			}
			it.info = info
		}
		items = append(items, it)
	}
	slices.SortFunc(items, compareItems)
	return items
}

// compareItems orders entries so that the walk visits files in
// lexicographic order of their full relative paths: a folder sorts as if
// its name ended in "/" (so "a.txt" < "a/b" < "a0").
func compareItems(a, b item) int {
	n := min(len(a.name), len(b.name))
	if c := strings.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	return keyByte(a, n) - keyByte(b, n)
}

func keyByte(it item, i int) int {
	switch {
	case i < len(it.name):
		return int(it.name[i])
	case i == len(it.name) && it.isDir:
		return '/'
	}
	return -1
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// entryNames returns the names of entries (which os.ReadDir sorts).
func entryNames(entries []os.DirEntry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name()
	}
	return out
}

// lazyNames reads the sorted entry names of dir on first use; an unreadable
// folder has no names.
func lazyNames(dir string) names {
	var cached []string
	done := false
	return func() []string {
		if !done {
			done = true
			// Only ever open a folder: the caller may have been told
			// wrongly that dir is one, and opening a FIFO would block.
			if f, err := os.OpenFile(dir, os.O_RDONLY|openDirFlags, 0); err == nil {
				cached, _ = f.Readdirnames(-1)
				f.Close()
				sort.Strings(cached)
			}
		}
		return cached
	}
}

// statError turns a stat/open error on rel into a typed error.
func statError(rel string, err error) *errs.Error {
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return errs.New(errs.NotFound, CodeNotFound, "path %q does not exist", rel).With("path", rel).Wrap(err)
	case errors.Is(err, fs.ErrPermission):
		return errs.New(errs.Internal, CodeUnreadable, "path %q is not readable: permission denied", rel).With("path", rel).Wrap(err)
	}
	return errs.New(errs.Internal, CodeUnreadable, "cannot read %q: %v", rel, err).With("path", rel).Wrap(err)
}
