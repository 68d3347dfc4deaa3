package packages

import (
	"path"
	"sort"
	"strings"
)

// workspaceDecl is a workspace (npm/yarn/pnpm workspaces, a Cargo or uv
// workspace, go.work, Gradle settings, Maven modules, a pub workspace)
// declared by one manifest.
type workspaceDecl struct {
	root    string   // folder of the declaring manifest
	kind    string   // kind of the packages it gathers
	include []string // member folders as globs relative to root
	exclude []string // globs of folders that are not members even if included
	// rootIsPackage says that the package of this kind in the root folder, if
	// any, is the workspace root and gets the member list (not so for go.work,
	// which is not a module itself).
	rootIsPackage bool
}

// applyWorkspaces records workspace membership: each member gets
// Metadata["workspace"] = the root folder of the nearest workspace that
// includes it, and the root package gets Metadata["workspace_members"].
//
// Literal member paths (Maven modules, Gradle includes, go.work uses, most
// Cargo members) are looked up in a map and only real globs are matched, so
// a repository with thousands of manifests and modules costs one lookup per
// package instead of one glob match per package and module.
func applyWorkspaces(drafts []*draft) *workspaceIndex {
	var decls []*workspaceDecl
	for _, d := range drafts {
		for i := range d.workspaces {
			decls = append(decls, &d.workspaces[i])
		}
	}
	// Nearest (deepest) workspace root first, so nested workspaces win.
	sort.SliceStable(decls, func(i, j int) bool {
		di, dj := depth(decls[i].root), depth(decls[j].root)
		if di != dj {
			return di > dj
		}
		return decls[i].root < decls[j].root
	})
	index := newWorkspaceIndex(decls)
	members := map[*workspaceDecl][]string{}
	for _, d := range drafts {
		if !d.isPackage {
			continue
		}
		if decl := index.nearest(d.pkg.Kind, d.pkg.Path); decl != nil {
			d.pkg.Metadata["workspace"] = decl.root
			members[decl] = append(members[decl], d.pkg.Path)
		}
	}
	rootPackages := map[string]*draft{}
	for _, d := range drafts {
		key := d.pkg.Kind + "\x00" + d.pkg.Path
		if _, taken := rootPackages[key]; d.isPackage && !taken {
			rootPackages[key] = d
		}
	}
	for _, decl := range decls {
		if !decl.rootIsPackage {
			continue
		}
		if d := rootPackages[decl.kind+"\x00"+decl.root]; d != nil {
			list := append([]string{}, members[decl]...)
			sort.Strings(list)
			if existing, ok := d.pkg.Metadata["workspace_members"].([]string); ok {
				list = mergeSorted(existing, list)
			}
			d.pkg.Metadata["workspace_members"] = list
		}
	}
	return index
}

// workspaceIndex finds the nearest workspace declaration that includes a
// folder without matching every declaration's globs against it.
type workspaceIndex struct {
	order   map[*workspaceDecl]int      // position in nearest-first order
	literal map[string][]*workspaceDecl // "kind\x00folder" → decls naming that folder literally
	globbed []globbedDecl               // decls with at least one real glob
}

// globbedDecl is a declaration with globs and the folders (relative to the
// repository root) its globs can only match below.
type globbedDecl struct {
	decl  *workspaceDecl
	globs []string // the include patterns that are real globs
	bases []string
}

// includes reports whether one of the globs matches dir.
func (g globbedDecl) includes(dir string) bool {
	for _, pattern := range g.globs {
		if g.decl.matches(pattern, dir) {
			return true
		}
	}
	return false
}

func newWorkspaceIndex(decls []*workspaceDecl) *workspaceIndex {
	ix := &workspaceIndex{order: map[*workspaceDecl]int{}, literal: map[string][]*workspaceDecl{}}
	for i, decl := range decls {
		ix.order[decl] = i
		g := globbedDecl{decl: decl}
		for _, pattern := range decl.include {
			if folder, ok := decl.literalMember(pattern); ok {
				key := decl.kind + "\x00" + folder
				ix.literal[key] = append(ix.literal[key], decl)
			} else if base, ok := globBase(decl.root, pattern); ok {
				g.globs = append(g.globs, pattern)
				g.bases = append(g.bases, base)
			}
		}
		if len(g.globs) > 0 {
			ix.globbed = append(ix.globbed, g)
		}
	}
	return ix
}

// nearest returns the first declaration, in nearest-first order, of this
// kind that includes dir, or nil.
func (ix *workspaceIndex) nearest(kind, dir string) *workspaceDecl {
	var best *workspaceDecl
	better := func(decl *workspaceDecl) bool {
		return decl.kind == kind && (best == nil || ix.order[decl] < ix.order[best])
	}
	for _, decl := range ix.literal[kind+"\x00"+dir] {
		if better(decl) && !decl.excludes(dir) {
			best = decl
		}
	}
	for _, g := range ix.globbed {
		if !better(g.decl) {
			continue
		}
		for _, base := range g.bases {
			if base == "." || dir == base || strings.HasPrefix(dir, base+"/") {
				if g.includes(dir) && !g.decl.excludes(dir) {
					best = g.decl
				}
				break
			}
		}
	}
	return best
}

// globBase is the folder a member glob of a workspace rooted at root can
// only match below: the glob resolved against root, up to its first
// segment with a metacharacter. ok is false for a glob that matches nothing
// (absolute, or leaving the repository).
func globBase(root, pattern string) (string, bool) {
	pattern = strings.TrimSuffix(strings.TrimSpace(pattern), "/")
	if pattern == "" || strings.HasPrefix(pattern, "/") {
		return "", false
	}
	resolved := path.Join(root, pattern)
	if resolved == ".." || strings.HasPrefix(resolved, "../") {
		return "", false
	}
	var base []string
	for _, segment := range strings.Split(resolved, "/") {
		if strings.ContainsAny(segment, "*?[\\") {
			break
		}
		base = append(base, segment)
	}
	if len(base) == 0 {
		return ".", true
	}
	return strings.Join(base, "/"), true
}

// literalMember resolves an include pattern without glob metacharacters (or
// with only escaped ones) to the folder it names.
func (w *workspaceDecl) literalMember(pattern string) (string, bool) {
	pattern = strings.TrimSuffix(strings.TrimSpace(pattern), "/")
	if pattern == "" || strings.HasPrefix(pattern, "/") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*', '?', '[':
			return "", false
		case '\\':
			if i+1 < len(pattern) {
				i++
				b.WriteByte(pattern[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	resolved := path.Join(w.root, b.String())
	if resolved == ".." || strings.HasPrefix(resolved, "../") {
		return "", false
	}
	return resolved, true
}

// excludes reports whether an exclude pattern matches dir.
func (w *workspaceDecl) excludes(dir string) bool {
	for _, pattern := range w.exclude {
		if w.matches(pattern, dir) {
			return true
		}
	}
	return false
}

// countMatch, when set (by tests), is called for every glob match tried.
var countMatch func()

// matches resolves a member glob against the workspace root and matches it
// against dir (relative to the repository root).
func (w *workspaceDecl) matches(pattern, dir string) bool {
	if countMatch != nil {
		countMatch()
	}
	pattern = strings.TrimSpace(pattern)
	pattern = strings.TrimSuffix(pattern, "/")
	if pattern == "" {
		return false
	}
	// Not joinRel: a backslash here escapes a glob metacharacter.
	if strings.HasPrefix(pattern, "/") {
		return false
	}
	resolved := path.Join(w.root, pattern)
	if resolved == ".." || strings.HasPrefix(resolved, "../") {
		return false
	}
	if dir == w.root { // "*" must not make the root a member of itself
		return resolved == w.root
	}
	return globMatch(resolved, dir)
}

// globMatch matches a slash-separated path against a glob in which "*", "?"
// and "[…]" work within one segment and "**" spans any number of segments.
// A malformed glob matches nothing. The match is a dynamic programme over
// (pattern segment, path segment), so hostile globs such as "**/**/**/…"
// cannot take exponential time.
func globMatch(pattern, name string) bool {
	patterns, names := strings.Split(pattern, "/"), strings.Split(name, "/")
	// matched[i][j]: patterns[i:] matches names[j:].
	matched := make([][]bool, len(patterns)+1)
	for i := range matched {
		matched[i] = make([]bool, len(names)+1)
	}
	matched[len(patterns)][len(names)] = true
	for i := len(patterns) - 1; i >= 0; i-- {
		for j := len(names); j >= 0; j-- {
			if patterns[i] == "**" {
				// Match no segment, or swallow names[j] and stay on "**".
				matched[i][j] = matched[i+1][j] || j < len(names) && matched[i][j+1]
				continue
			}
			if j == len(names) {
				continue
			}
			ok, err := path.Match(patterns[i], names[j])
			matched[i][j] = err == nil && ok && matched[i+1][j+1]
		}
	}
	return matched[0][0]
}

// depth counts the segments of a root-relative folder; the root has none.
func depth(dir string) int {
	if dir == "." || dir == "" {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// splitNegations separates "!glob" exclusions from inclusions, the way npm,
// yarn and pnpm workspace lists mix them.
func splitNegations(patterns []string) (include, exclude []string) {
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if rest, ok := strings.CutPrefix(p, "!"); ok {
			exclude = append(exclude, rest)
		} else if p != "" {
			include = append(include, p)
		}
	}
	return include, exclude
}

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
