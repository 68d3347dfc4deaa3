package search

import "github.com/lore-dev/lore/internal/tokenize"

// abbreviations pairs words of prose with the short forms code uses for
// them (and back), so "request context" also reads req and ctx. The list
// is general programming vocabulary, not tuned to any repository.
var abbreviations = [][]string{
	{"authentication", "auth", "authenticate"},
	{"authorization", "authz", "auth"},
	{"configuration", "config", "cfg", "conf"},
	{"context", "ctx"},
	{"request", "req"},
	{"response", "resp", "res"},
	{"error", "err"},
	{"message", "msg"},
	{"argument", "arg", "args"},
	{"parameter", "param", "params"},
	{"initialize", "init"},
	{"database", "db"},
	{"connection", "conn"},
	{"string", "str"},
	{"number", "num"},
	{"length", "len"},
	{"index", "idx"},
	{"buffer", "buf"},
	{"function", "func", "fn"},
	{"environment", "env"},
	{"directory", "dir"},
	{"utility", "util", "utils"},
	{"temporary", "tmp", "temp"},
	{"maximum", "max"},
	{"minimum", "min"},
	{"asynchronous", "async"},
	{"synchronous", "sync"},
	{"memory", "mem"},
	{"allocate", "alloc"},
	{"package", "pkg"},
	{"library", "lib"},
	{"specification", "spec"},
	{"source", "src"},
	{"destination", "dst", "dest"},
	{"address", "addr"},
	{"pointer", "ptr"},
	{"reference", "ref"},
	{"value", "val"},
	{"variable", "var"},
	{"previous", "prev"},
	{"current", "cur", "curr"},
	{"generate", "gen"},
	{"process", "proc"},
	{"execute", "exec"},
	{"command", "cmd"},
	{"option", "opt", "opts"},
	{"attribute", "attr", "attrs"},
	{"element", "elem"},
	{"document", "doc"},
	{"information", "info"},
	{"iterator", "iter"},
	{"repository", "repo"},
	{"certificate", "cert"},
	{"password", "passwd", "pwd"},
	{"statistics", "stats"},
	{"expression", "expr"},
	{"javascript", "js"},
	{"typescript", "ts"},
}

// expansions maps the stem of a word to the stems of its other forms.
var expansions = groupExpansions(abbreviations)

// groupExpansions maps the stem of each word of groups to the stems of
// the other words of its groups.
func groupExpansions(groups [][]string) map[string][]string {
	m := map[string][]string{}
	for _, group := range groups {
		stems := make([]string, len(group))
		for i, w := range group {
			stems[i] = tokenize.Stem(w)
		}
		for i, s := range stems {
			for j, other := range stems {
				if i != j && other != s && !contains(m[s], other) {
					m[s] = append(m[s], other)
				}
			}
		}
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
