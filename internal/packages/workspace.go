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
func applyWorkspaces(drafts []*draft) {
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
	members := map[*workspaceDecl][]string{}
	for _, d := range drafts {
		if !d.isPackage {
			continue
		}
		for _, decl := range decls {
			if decl.kind != d.pkg.Kind || !decl.contains(d.pkg.Path) {
				continue
			}
			d.pkg.Metadata["workspace"] = decl.root
			members[decl] = append(members[decl], d.pkg.Path)
			break
		}
	}
	for _, decl := range decls {
		if !decl.rootIsPackage {
			continue
		}
		for _, d := range drafts {
			if d.isPackage && d.pkg.Kind == decl.kind && d.pkg.Path == decl.root {
				list := append([]string{}, members[decl]...)
				sort.Strings(list)
				if existing, ok := d.pkg.Metadata["workspace_members"].([]string); ok {
					list = mergeSorted(existing, list)
				}
				d.pkg.Metadata["workspace_members"] = list
				break
			}
		}
	}
}

// contains reports whether the package folder dir is a member.
func (w *workspaceDecl) contains(dir string) bool {
	matched := false
	for _, pattern := range w.include {
		if w.matches(pattern, dir) {
			matched = true
			break
		}
	}
	if !matched {
		return false
	}
	for _, pattern := range w.exclude {
		if w.matches(pattern, dir) {
			return false
		}
	}
	return true
}

// matches resolves a member glob against the workspace root and matches it
// against dir (relative to the repository root).
func (w *workspaceDecl) matches(pattern, dir string) bool {
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
