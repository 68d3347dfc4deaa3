package tokenize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

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
		{"header", "headers"},
		{"pointer", "pointers"},
		{"state", "states"},
		{"theme", "themes"},
		{"cancel", "cancelled", "canceled", "cancelling"},
		{"label", "labelled", "labels"},
		{"control", "controlled", "controller", "controls"},
		{"factory", "factories"},
	}
	for _, g := range groups {
		want := Stem(g[0])
		for _, w := range g[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q: want the same", w, got, g[0], want)
			}
		}
	}
	// Nouns in -er that name something else than their stem stay apart.
	for _, pair := range [][2]string{{"header", "head"}, {"headers", "heads"}, {"pointer", "point"}, {"container", "contains"}, {"helper", "help"}, {"timer", "time"}, {"owner", "own"}, {"outer", "out"}, {"power", "pow"}, {"letters", "let"}, {"folder", "fold"}, {"state", "stat"}, {"statements", "state"}, {"themes", "them"}, {"locale", "local"}, {"ready", "read"}, {"factory", "factor"}, {"specification", "specific"}, {"paste", "past"}, {"proper", "props"}} {
		if Stem(pair[0]) == Stem(pair[1]) {
			t.Errorf("Stem(%q) = Stem(%q) = %q: want them apart", pair[0], pair[1], Stem(pair[0]))
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
	// A doubled l is undoubled only in a longer stem (cancelled → cancel).
	for _, w := range []string{"call", "fill", "shell", "null", "poll", "spell", "small"} {
		if got := Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want unchanged", w, got)
		}
	}
	if Stem("status") == Stem("state") {
		t.Errorf("status and state fold together")
	}
}

// TestStemKeepsPrefix checks KeptPrefix: every rule leaves at least that
// many bytes before its suffix, and the stems of random words over a few
// letters that make the suffixes often, and of suffix-laden words, begin
// with the word's first KeptPrefix bytes.
func TestStemKeepsPrefix(t *testing.T) {
	for _, r := range suffixRules {
		if r.minStem < KeptPrefix {
			t.Fatalf("rule %q leaves %d bytes, fewer than KeptPrefix", r.suffix, r.minStem)
		}
	}
	words := []string{"asses", "usses", "isses", "izations", "ications", "essness", "yies", "eyed", "ssss", "bees"}
	rng := rand.New(rand.NewPCG(5, 6))
	const letters = "aeiosynzltdgrmc"
	for i := 0; i < 200000; i++ {
		b := make([]byte, 1+rng.IntN(12))
		for j := range b {
			b[j] = letters[rng.IntN(len(letters))]
		}
		words = append(words, string(b))
	}
	for _, w := range words {
		k := min(KeptPrefix, len(w))
		if s := Stem(w); !strings.HasPrefix(s, w[:k]) {
			t.Fatalf("Stem(%q) = %q does not begin with %q", w, s, w[:k])
		}
	}
}

func TestFamilyStemJoinsWhatStemSplits(t *testing.T) {
	// Each group is split by Stem and joined by FamilyStem.
	groups := [][]string{
		{"validate", "validator", "validators", "validation"},
		{"iterate", "iterator", "iteration"},
		{"allocate", "allocator"},
		{"alias", "aliases", "aliased"},
		{"bias", "biases"},
		{"null", "nullable"},
		{"serialize", "serializable"},
		{"call", "callable", "callables"},
		{"equal", "equality", "equalities"},
		{"valid", "validity"},
		{"compare", "comparison", "comparisons"},
		{"visible", "visibility"},
		{"nullable", "nullability"},
	}
	for _, g := range groups {
		split := false
		for _, w := range g[1:] {
			if Stem(w) != Stem(g[0]) {
				split = true
			}
			if got, want := FamilyStem(w), FamilyStem(g[0]); got != want {
				t.Errorf("FamilyStem(%q) = %q, FamilyStem(%q) = %q: want the same", w, got, g[0], want)
			}
		}
		if !split {
			t.Errorf("Stem already joins %v: not a test of FamilyStem", g)
		}
	}
	// Words Stem handles stay as Stem leaves them.
	for _, w := range []string{"handler", "route", "replicas", "schemas", "status", "format", "error", "cursor", "table", "disable", "enable", "city", "poison", "recovery", "entity"} {
		if FamilyStem(w) != Stem(w) {
			t.Errorf("FamilyStem(%q) = %q, Stem = %q: want the same", w, FamilyStem(w), Stem(w))
		}
	}
}
