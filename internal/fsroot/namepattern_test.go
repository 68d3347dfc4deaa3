package fsroot

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// TestNamePatternMatchesGoGit: wherever parseNamePattern takes a pattern,
// it answers as go-git's own pattern does, for random patterns, domains
// and paths.
func TestNamePatternMatchesGoGit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "ab", "ba", "target", "node_modules", "x.pyc", "pyc", ".pyc", "build", "build.log", ".env", "a b"}
	pick := func() string { return names[rng.IntN(len(names))] }
	taken := 0
	for range 20000 {
		var line string
		switch rng.IntN(5) {
		case 0:
			line = "*" + pick()[rng.IntN(2):]
		case 1:
			line = pick() + "*"
		case 2:
			line = "*"
		default:
			line = pick()
		}
		if rng.IntN(3) == 0 {
			line += "/"
		}
		if rng.IntN(4) == 0 {
			line = "!" + line
		}
		line += strings.Repeat(" ", rng.IntN(2))
		var domain []string
		for range rng.IntN(2) {
			domain = append(domain, pick())
		}
		fast, ok := parseNamePattern(line, domain)
		if !ok {
			continue
		}
		taken++
		slow := gitignore.ParsePattern(line, domain)
		for range 5 {
			var path []string
			for range 1 + rng.IntN(4) {
				path = append(path, pick())
			}
			isDir := rng.IntN(2) == 0
			if got, want := fast.Match(path, isDir), slow.Match(path, isDir); got != want {
				t.Fatalf("%q in %v, path %v (dir %v): %v, go-git says %v", line, domain, path, isDir, got, want)
			}
		}
	}
	if taken < 10000 {
		t.Fatalf("only %d patterns took the fast path", taken)
	}
	for _, line := range []string{"a/b", "a*b", "*a*", "a?", "[ab]", `\#a`, `a\ `, "", "/", "!", "**"} {
		if _, ok := parseNamePattern(line, nil); ok {
			t.Errorf("%q took the fast path", line)
		}
	}
}
