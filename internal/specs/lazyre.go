package specs

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles pattern on first use. Only the commands that read
// specs need these patterns, and compiling all of them at start-up cost
// every lore process about a millisecond.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
