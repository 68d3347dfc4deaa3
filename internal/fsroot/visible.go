package fsroot

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// A symlink is judged by where it leads. A link whose target, after every
// hop, is hidden, ignored, under ".git", default-skipped or outside the root
// is invisible exactly like its target: to Walk, ReadDir and Ignored, and so
// to the indexer and every tool. Otherwise "notes.txt -> .env" or
// "g -> .git" would hand out what the rules hide by name.
//
// realView answers that question for real locations (absolute paths with
// every symlink resolved) inside the root. The rules are those at the real
// location: its own name, the ignore files of its real folders, the skip
// list. Folders are memoized, so checking every file of a linked folder
// costs a map lookup each.
type realView struct {
	w    *walker             // options, skip rules and name checks; its pattern stack is not used
	dirs map[string]*realDir // by slash-separated path relative to the root
}

// realDir is what realView knows about one real folder.
type realDir struct {
	visible  bool
	abs      string
	comps    []string            // path components from the work-tree top
	patterns []gitignore.Pattern // in force inside the folder, its own ignore files included
}

func (r *Root) newRealView(opts WalkOptions) *realView {
	return &realView{w: r.newWalker(opts), dirs: map[string]*realDir{}}
}

// realView returns the walker's view of real locations, made on first use:
// most walks meet no symlink at all.
func (w *walker) realView() *realView {
	if w.view == nil {
		w.view = w.root.newRealView(w.opts)
	}
	return w.view
}

// visible reports whether the real absolute path p lies inside the root and
// would be visible there. isDir says whether p is a folder.
func (v *realView) visible(p string, isDir bool) bool {
	rel, ok := v.w.root.relOf(p)
	if !ok {
		return false
	}
	if rel == "" {
		return true
	}
	if isDir {
		return v.dir(rel).visible
	}
	parent, name := splitLast(rel)
	d := v.dir(parent)
	if !d.visible || v.w.hidden(name, rel, false) {
		return false
	}
	return !excluded(d.patterns, append(slices.Clip(d.comps), name), false)
}

// dir returns the state of the real folder rel ("" for the root), working
// out its ancestors first.
func (v *realView) dir(rel string) *realDir {
	if d, ok := v.dirs[rel]; ok {
		return d
	}
	root := v.w.root
	var d *realDir
	if rel == "" {
		comps := slices.Clone(root.base)
		d = &realDir{visible: true, abs: root.path, comps: comps,
			patterns: append(root.basePatterns(), dirPatterns(root.path, comps, nil)...)}
	} else {
		parentRel, name := splitLast(rel)
		parent := v.dir(parentRel)
		d = &realDir{abs: filepath.Join(parent.abs, name), comps: append(slices.Clip(parent.comps), name)}
		d.visible = parent.visible && !v.w.hidden(name, rel, true) && !excluded(parent.patterns, d.comps, true) &&
			!v.w.skipByName(name, rel, lazyNames(parent.abs)) && !v.w.skipByContents(name, lazyNames(d.abs))
		if d.visible {
			d.patterns = append(slices.Clip(parent.patterns), dirPatterns(d.abs, d.comps, nil)...)
		}
	}
	v.dirs[rel] = d
	return d
}

// splitLast splits a slash-separated relative path into its folder ("" at
// the top) and its last component.
func splitLast(rel string) (dir, name string) {
	dir, name = path.Split(rel)
	return strings.TrimSuffix(dir, "/"), name
}

// relOf returns the slash-separated path of the absolute, cleaned path p
// relative to the root, and whether p is the root or lies below it.
func (r *Root) relOf(p string) (string, bool) {
	if p == r.path {
		return "", true
	}
	if !r.contains(p) {
		return "", false
	}
	prefix := strings.TrimSuffix(r.path, string(filepath.Separator)) + string(filepath.Separator)
	return filepath.ToSlash(strings.TrimPrefix(p, prefix)), true
}

// lexicalPath is where rel's components would be without any symlink.
func (r *Root) lexicalPath(parts []string) string {
	return filepath.Join(append([]string{r.path}, parts...)...)
}
