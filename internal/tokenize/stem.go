package tokenize

import "strings"

// Stem folds an English word to a stem so that inflections and common
// derivations meet: "handlers", "handling", "handle" → "handl";
// "recovery", "recoverer", "recovered" → "recover"; "throttling",
// "throttle" → "throttl". It is a light, suffix-stripping stemmer in the
// spirit of Porter's, tuned to be conservative on short words. Terms with
// digits or underscores (identifiers) are returned unchanged.
//
// A stem always begins with the first KeptPrefix bytes of its word (all
// of it when shorter): no rule leaves fewer before its suffix.
func Stem(t string) string { return stem(t, suffixRules, nil) }

// FamilyStem is Stem with familyRules, which join relatives Stem keeps
// apart: validator and validate (validat), aliases and alias (alias).
// The index keeps Stem's terms: joined there, a family's rarer member
// (validator in a codebase that validates everywhere) would lose its
// weight to the common one. A query reads the relatives instead, at a
// lower weight (search's familyStems).
func FamilyStem(t string) string { return stem(t, familyRules, familyYRules) }

// stem strips the first of rules that applies, twice. yRules, whose
// suffixes end in y, are tried first on the word as written; rules are
// tried on the word with a final consonant-y dropped (recovery →
// recover), which would hide a y suffix.
func stem(t string, rules, yRules []suffixRule) string {
	if len(t) <= 3 || strings.IndexFunc(t, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return t
	}
	t = strings.TrimSuffix(t, "'s")
	if single := strings.TrimSuffix(t, "s"); keepsWhole[single] {
		return single
	}
	// Two rounds, so that stacked suffixes (recover-er, serializ-ation-s)
	// reach the same stem as the bare word.
	for round := 0; round < 2; round++ {
		before := t
		if s, ok := stripSuffix(t, yRules, round); ok {
			t = s
		} else {
			t, _ = stripSuffix(dropFinalY(t), rules, round)
		}
		if t == before || keepsWhole[t] {
			break
		}
	}
	// A trailing e is dropped so that handle/handl(ing) meet, and a doubled
	// final consonant is undoubled so that stopped/stop meet; a doubled l
	// only in a longer stem, so that cancelled/cancel and labelled/label
	// meet while call, fill and shell stay whole.
	if len(t) > 4 && strings.HasSuffix(t, "e") {
		t = t[:len(t)-1]
	}
	if n := len(t); n >= 4 && t[n-1] == t[n-2] && !isVowel(t[n-1]) && (t[n-1] != 'l' || n >= 6) && t[n-1] != 's' && t[n-1] != 'z' && !keepsWhole[t] {
		t = t[:n-1]
	}
	return t
}

// stripSuffix applies the first of rules that fits t, and says whether
// one did.
func stripSuffix(t string, rules []suffixRule, round int) (string, bool) {
	for _, r := range rules {
		if round > 0 && (r.suffix == "s" || r.suffix == "es") {
			continue // a plural ending never sits inside another suffix
		}
		if (r.suffix == "er" || r.suffix == "ers") && keepsEr[strings.TrimSuffix(t, "s")] {
			continue
		}
		if strings.HasSuffix(t, r.suffix) && len(t)-len(r.suffix) >= r.minStem {
			if stem := t[:len(t)-len(r.suffix)] + r.replace; hasVowel(stem) {
				return stem, true
			}
		}
	}
	return t, false
}

// keepsEr are words in -er that name something other than what their
// stem names: a header is not a head (HTTP's HEAD), a pointer not a point,
// a container not what contains does, a helper not help, a timer not
// time, an owner not own, outer not out, power not pow, a letter not let,
// a folder not fold, proper not props. Stem keeps their -er.
var keepsEr = map[string]bool{
	"header": true, "pointer": true, "container": true, "helper": true,
	"timer": true, "owner": true, "outer": true, "power": true,
	"letter": true, "folder": true, "proper": true,
}

// keepsWhole are words (and their plurals) that no rule may shorten, since
// what is left names something else: a state is not a stat (the system
// call, statistics), nor a statement; a theme is not them, a locale not
// local, ready not read, paste not past, a factory not a factor, a
// specification not specific.
var keepsWhole = map[string]bool{
	"state": true, "statement": true, "theme": true, "locale": true, "ready": true,
	"paste": true, "factory": true, "specification": true,
}

// dropFinalY turns a consonant-y ending into the bare stem: recovery → recover.
func dropFinalY(t string) string {
	if len(t) > 4 && strings.HasSuffix(t, "y") && !isVowel(t[len(t)-2]) {
		return t[:len(t)-1]
	}
	return t
}

// KeptPrefix is how many leading bytes of a word its stem always keeps:
// the least minStem of suffixRules. A caller may skip stemming a word
// whose first bytes differ from a stem it compares with.
const KeptPrefix = 2

type suffixRule struct {
	suffix  string
	replace string
	minStem int // shortest stem the rule may leave
}

// suffixRules are tried in order; the first that applies wins, so longer
// suffixes come first.
var suffixRules = []suffixRule{
	{"izations", "ize", 3}, {"ization", "ize", 3}, {"isations", "ize", 3}, {"isation", "ize", 3},
	{"ications", "ic", 3}, {"ication", "ic", 3},
	{"ations", "ate", 3}, {"ation", "ate", 3},
	{"nesses", "", 3}, {"ness", "", 3},
	{"ements", "", 4}, {"ement", "", 4}, {"ments", "", 4}, {"ment", "", 4},
	{"ingly", "", 3}, {"edly", "", 3},
	{"ings", "", 3}, {"ing", "", 3},
	{"ers", "", 3}, {"er", "", 3},
	{"ied", "y", 3}, {"ies", "y", 3},
	{"ed", "", 3},
	{"ion", "", 4},
	{"sses", "ss", 2},
	{"ly", "", 4},
	{"es", "", 4},
	{"ss", "ss", 2},
	{"us", "us", 2},
	{"is", "is", 2},
	{"s", "", 3},
}

// familyExtra are the rules FamilyStem adds: an agent noun in -ator
// meets its verb (validator → validate, iterator → iterate); a word in
// -ias keeps its s, which is not a plural (alias, bias; aliases →
// alias), where Stem drops it from the singular alone; and an adjective
// in -able/-ible meets its verb or noun (nullable → null, iterable →
// iter, compatible → compat), when four letters or more stay. A noun
// in -ison meets its verb (comparisons → compare), and plural nouns in
// -ities their adjective (see familyYRules).
var familyExtra = []suffixRule{
	{"ators", "ate", 3}, {"ator", "ate", 3},
	{"ias", "ias", 1},
	{"abilities", "able", 3}, {"ibilities", "ible", 3}, {"ities", "", 4},
	{"isons", "e", 4}, {"ison", "e", 4},
	{"ables", "", 4}, {"able", "", 4}, {"ibles", "", 4}, {"ible", "", 4},
}

// familyYRules are FamilyStem's rules for suffixes ending in y, read
// before a final y is dropped: a noun in -ity meets its adjective
// (equality → equal, validity → valid, nullability → nullable → null).
var familyYRules = []suffixRule{
	{"ability", "able", 3}, {"ibility", "ible", 3}, {"ity", "", 4},
}

// familyRules are Stem's rules after familyExtra.
var familyRules = append(append([]suffixRule(nil), familyExtra...), suffixRules...)

// FamilyRule is one of the rules FamilyStem adds to Stem's: a word
// ending in Suffix takes Replace instead.
type FamilyRule struct{ Suffix, Replace string }

// FamilyRules are the rules FamilyStem adds to Stem's, made once: the
// caller reads them and must not change them.
func FamilyRules() []FamilyRule { return familyRuleList }

var familyRuleList = func() []FamilyRule {
	out := make([]FamilyRule, len(familyExtra))
	for i, r := range familyExtra {
		out[i] = FamilyRule{r.suffix, r.replace}
	}
	return out
}()

func hasVowel(s string) bool {
	for i := 0; i < len(s); i++ {
		if isVowel(s[i]) {
			return true
		}
	}
	return false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}
