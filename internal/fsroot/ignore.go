package fsroot

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreFileNames are read in every directory, in increasing priority: a
// ".ignore" (the ripgrep convention, same syntax) can override ".gitignore".
var ignoreFileNames = []string{".gitignore", ".ignore"}

// readIgnoreFile parses the ignore file at path; domain is the path
// components (from the work-tree top) of the directory holding it. A missing
// or unreadable file contributes no patterns: ignore files are advisory and
// an unreadable one must not stop a walk.
func readIgnoreFile(path string, domain []string) []gitignore.Pattern {
	data, err := readSmallFile(path)
	if err != nil {
		return nil
	}
	return parseIgnore(data, domain)
}

// parseIgnore turns the text of an ignore file into patterns, in file order
// (later lines win, as in git).
func parseIgnore(data []byte, domain []string) []gitignore.Pattern {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	var patterns []gitignore.Pattern
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		// gitignore.ParsePattern does not know about comments or blank lines.
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		patterns = append(patterns, parsePattern(negatedClassToGo(line), domain))
	}
	return patterns
}

// parsePattern is gitignore.ParsePattern with one fix: go-git lets "X/**"
// match X itself, while git matches only what is inside X (so that
// "X/**" followed by "!X/keep" re-includes X/keep).
func parsePattern(line string, domain []string) gitignore.Pattern {
	body, negated := strings.CutPrefix(line, "!")
	prefix, ok := strings.CutSuffix(strings.TrimRight(body, " "), "/**")
	if !ok || prefix == "" || strings.HasSuffix(body, `\ `) {
		if p, ok := parseNamePattern(line, domain); ok {
			return p
		}
		return gitignore.ParsePattern(line, domain)
	}
	if !strings.HasPrefix(prefix, "/") {
		prefix = "/" + prefix // the pattern had a slash, so it is anchored
	}
	return insideOf{parent: gitignore.ParsePattern(prefix, domain), negated: negated}
}

// insideOf matches every path strictly below a folder matched by parent.
type insideOf struct {
	parent  gitignore.Pattern
	negated bool
}

func (p insideOf) Match(path []string, _ bool) gitignore.MatchResult {
	// go-git's glob match succeeds when any prefix of the path matches, so
	// matching the parent folder's path asks "is a proper prefix of path
	// matched by the prefix pattern?".
	if len(path) < 2 || p.parent.Match(path[:len(path)-1], true) == gitignore.NoMatch {
		return gitignore.NoMatch
	}
	if p.negated {
		return gitignore.Include
	}
	return gitignore.Exclude
}

// namePattern is a pattern without a slash whose name is a literal
// ("target"), a suffix ("*.pyc"), a prefix ("build*") or "*". go-git
// matches such a pattern by calling filepath.Match on every component of
// every path a walk meets, the walk's costliest step; comparing strings
// answers the same (a component holds no separator for "*" to stop at).
// parseNamePattern makes one exactly where go-git's ParsePattern would
// make a simple-name pattern.
type namePattern struct {
	domain         []string
	prefix, suffix string // the name is prefix + suffix, or prefix + anything + suffix when star
	star           bool
	dirOnly        bool
	inclusion      bool
}

// parseNamePattern parses line as go-git's ParsePattern does, when the
// result is a namePattern.
func parseNamePattern(line string, domain []string) (namePattern, bool) {
	p := namePattern{domain: slices.Clone(domain)}
	line, p.inclusion = strings.CutPrefix(line, "!")
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " ")
	}
	line, p.dirOnly = strings.CutSuffix(line, "/")
	if strings.Contains(line, "/") {
		return p, false // a glob over the path
	}
	name := line
	if rest, ok := strings.CutPrefix(name, "*"); ok {
		p.star, p.suffix = true, rest
	} else if rest, ok := strings.CutSuffix(name, "*"); ok {
		p.star, p.prefix = true, rest
	} else {
		p.prefix = name
	}
	if name == "" || strings.ContainsAny(p.prefix+p.suffix, `*?[\`) {
		return p, false
	}
	return p, true
}

func (p namePattern) matches(name string) bool {
	if !p.star {
		return name == p.prefix
	}
	return len(name) >= len(p.prefix)+len(p.suffix) && strings.HasPrefix(name, p.prefix) && strings.HasSuffix(name, p.suffix)
}

// Match is go-git's simple-name match: some component of path below
// the domain matches, and a pattern for folders does not match a file by
// its own name.
func (p namePattern) Match(path []string, isDir bool) gitignore.MatchResult {
	if len(path) <= len(p.domain) {
		return gitignore.NoMatch
	}
	for i, e := range p.domain {
		if path[i] != e {
			return gitignore.NoMatch
		}
	}
	for i, name := range path[len(p.domain):] {
		if !p.matches(name) {
			continue
		}
		if p.dirOnly && !isDir && i == len(path)-len(p.domain)-1 {
			return gitignore.NoMatch
		}
		if p.inclusion {
			return gitignore.Include
		}
		return gitignore.Exclude
	}
	return gitignore.NoMatch
}

// negatedClassToGo rewrites git's negated character class "[!...]" to the
// "[^...]" that path/filepath.Match (used by go-git) understands.
func negatedClassToGo(p string) string {
	if !strings.Contains(p, "[!") {
		return p
	}
	var b strings.Builder
	escaped := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		b.WriteByte(c)
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '[' && i+1 < len(p) && p[i+1] == '!':
			b.WriteByte('^')
			i++
		}
	}
	return b.String()
}

// excluded reports whether the highest-priority pattern matching path says
// to exclude it. Patterns are in increasing priority.
func excluded(patterns []gitignore.Pattern, path []string, isDir bool) bool {
	for i := len(patterns) - 1; i >= 0; i-- {
		if m := patterns[i].Match(path, isDir); m != gitignore.NoMatch {
			return m == gitignore.Exclude
		}
	}
	return false
}

// dirPatterns returns the patterns of the ignore files in dir, whose
// components from the work-tree top are domain. entries, when not nil, is
// the folder's listing (sorted by name, as os.ReadDir returns it): an
// ignore file it lacks is not looked for, which saves a failing open per
// folder and name on a walk.
func dirPatterns(dir string, domain []string, entries []os.DirEntry) []gitignore.Pattern {
	var patterns []gitignore.Pattern
	for _, name := range ignoreFileNames {
		if entries != nil {
			i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= name })
			if i == len(entries) || entries[i].Name() != name {
				continue
			}
		}
		patterns = append(patterns, readIgnoreFile(filepath.Join(dir, name), domain)...)
	}
	return patterns
}

// basePatterns returns the patterns that apply before the root's own ignore
// files: the repository's info/exclude and the ignore files of the folders
// between the work-tree top and the root. If those patterns would ignore the
// root itself they are dropped: the user asked for that folder explicitly.
func (r *Root) basePatterns() []gitignore.Pattern {
	var patterns []gitignore.Pattern
	if r.gitDir != "" {
		patterns = append(patterns, readIgnoreFile(filepath.Join(r.gitDir, "info", "exclude"), nil)...)
	}
	dir := r.top
	for i, name := range r.base {
		patterns = append(patterns, dirPatterns(dir, r.base[:i], nil)...)
		if excluded(patterns, r.base[:i+1], true) {
			return nil
		}
		dir = filepath.Join(dir, name)
	}
	return patterns
}
