package packages

import (
	"path"
	"sort"
	"strings"
)

// HiddenMembers are the workspace member globs that name hidden folders
// explicitly: trpc's pnpm workspace lists "examples/.*/*", so
// examples/.test/ssg is a member although the walker hides folders whose
// name starts with ".". The indexer walks these folders for manifests (and
// only for manifests: the files tools keep hiding them).
type HiddenMembers struct {
	globs [][]string // resolved against the repository root, split into segments
}

// FindHiddenMembers collects the member globs of the workspaces declared
// by parsed manifests that have a segment starting with ".".
func FindHiddenMembers(parsed []Parsed) HiddenMembers {
	var h HiddenMembers
	seen := map[string]bool{}
	for _, p := range parsed {
		if p.d == nil {
			continue
		}
		for _, w := range p.d.workspaces {
			for _, pattern := range w.include {
				pattern = strings.TrimSuffix(strings.TrimSpace(pattern), "/")
				if pattern == "" || strings.HasPrefix(pattern, "/") {
					continue
				}
				resolved := path.Join(w.root, pattern)
				if resolved == ".." || strings.HasPrefix(resolved, "../") || seen[resolved] {
					continue
				}
				segments := strings.Split(resolved, "/")
				for _, s := range segments {
					if strings.HasPrefix(s, ".") && s != "." && s != ".." {
						seen[resolved] = true
						h.globs = append(h.globs, segments)
						break
					}
				}
			}
		}
	}
	sort.Slice(h.globs, func(i, j int) bool { return strings.Join(h.globs[i], "/") < strings.Join(h.globs[j], "/") })
	return h
}

// Empty reports whether no workspace names a hidden folder.
func (h HiddenMembers) Empty() bool { return len(h.globs) == 0 }

// Bases are the folders to walk to find the hidden members: each glob's
// segments before its first hidden or wildcard one ("examples" for
// "examples/.*/*"; "" for the root).
func (h HiddenMembers) Bases() []string {
	var bases []string
	seen := map[string]bool{}
	for _, g := range h.globs {
		var base []string
		for _, s := range g {
			if strings.HasPrefix(s, ".") || strings.ContainsAny(s, "*?[\\") {
				break
			}
			base = append(base, s)
		}
		b := strings.Join(base, "/")
		if !seen[b] {
			seen[b] = true
			bases = append(bases, b)
		}
	}
	sort.Strings(bases)
	return bases
}

// Shows reports whether the hidden folder dir (relative to the root) is
// named by a member glob or lies on the way to its members: the glob's
// leading segments match dir's, and the segment matching dir's hidden name
// starts with "." itself. A glob's "**" never opens a hidden folder.
func (h HiddenMembers) Shows(dir string) bool {
	segments := strings.Split(dir, "/")
	for _, g := range h.globs {
		if len(segments) > len(g) {
			continue
		}
		ok := true
		for i, s := range segments {
			if g[i] == "**" {
				ok = false
				break
			}
			if matched, err := path.Match(g[i], s); err != nil || !matched {
				ok = false
				break
			}
			if strings.HasPrefix(s, ".") && !strings.HasPrefix(g[i], ".") {
				ok = false // "*" does not open hidden folders, as in the package managers' globs
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
