package search

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// pathMatcher matches relative, slash-separated paths against a glob:
// `*` and `?` stay within a folder, `**` crosses folders, `[…]` is a class.
// A pattern without a slash also matches a file's base name (`*.go`), and a
// pattern without wildcards matches that file or everything under that
// folder (`internal/search`).
type pathMatcher struct {
	re       *regexp.Regexp
	baseOnly bool
	prefix   string
}

func compileGlob(pattern string) (*pathMatcher, error) {
	pattern = strings.TrimPrefix(strings.ReplaceAll(pattern, `\`, "/"), "./")
	if pattern == "" {
		return nil, fmt.Errorf("empty path glob")
	}
	if !strings.ContainsAny(pattern, "*?[") {
		return &pathMatcher{prefix: strings.TrimSuffix(pattern, "/")}, nil
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch c {
		case '*':
			if i+1 < len(pattern) && pattern[i+1] == '*' {
				i++
				if i+1 < len(pattern) && pattern[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?") // **/ : zero or more folders
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			end := strings.IndexByte(pattern[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("path glob %q: unclosed [", pattern)
			}
			class := pattern[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("path glob %q: %v", pattern, err)
	}
	return &pathMatcher{re: re, baseOnly: !strings.Contains(pattern, "/")}, nil
}

func (m *pathMatcher) match(rel string) bool {
	if m.re == nil {
		return rel == m.prefix || strings.HasPrefix(rel, m.prefix+"/")
	}
	if m.re.MatchString(rel) {
		return true
	}
	return m.baseOnly && m.re.MatchString(path.Base(rel))
}
