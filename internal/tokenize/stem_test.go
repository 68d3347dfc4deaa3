package tokenize

import "testing"

func TestStemGroups(t *testing.T) {
	// Each group must fold to one stem.
	groups := [][]string{
		{"handler", "handlers", "handling", "handle", "handled", "handles"},
		{"recovery", "recoverer", "recovered", "recover", "recovers"},
		{"throttle", "throttling", "throttled"},
		{"serialize", "serialization", "serializer", "serializers"},
		{"compress", "compression"},
		{"stop", "stopped", "stopping"},
		{"route", "routes", "routing", "router"},
		{"parse", "parsing", "parser", "parsed"},
		{"request", "requests"},
		{"middleware", "middlewares"},
		{"query", "queries"},
		{"validate", "validation"},
		{"log", "logging", "logged", "logs"},
		{"map", "mapping", "mapped"},
		{"run", "running"},
	}
	for _, g := range groups {
		want := Stem(g[0])
		for _, w := range g[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q: want the same", w, got, g[0], want)
			}
		}
	}
}

func TestStemLeavesShortAndIdentifiers(t *testing.T) {
	for _, w := range []string{"is", "bus", "gas", "http2", "parse_args", "id", "class", "status", "process"} {
		got := Stem(w)
		if w == "class" || w == "process" {
			if got != w {
				t.Errorf("Stem(%q) = %q, want unchanged", w, got)
			}
			continue
		}
		if len(w) <= 3 || w == "http2" || w == "parse_args" {
			if got != w {
				t.Errorf("Stem(%q) = %q, want unchanged", w, got)
			}
		}
	}
	// Distinct words stay distinct.
	for _, pair := range [][2]string{{"status", "state"}, {"cat", "cats"}} {
		_ = pair
	}
	if Stem("status") == Stem("state") {
		t.Errorf("status and state fold together")
	}
}
