package trigram

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Op is the kind of a Query node.
type Op uint8

// Query operators.
const (
	OpAll  Op = iota // every file may match
	OpNone           // no file can match
	OpAnd            // files with every key and matching every sub-query
	OpOr             // files with any key or matching any sub-query
)

// Query says which files may hold a match: a tree of trigram keys.
type Query struct {
	Op   Op
	Keys []uint32
	Sub  []*Query
}

var (
	all  = &Query{Op: OpAll}
	none = &Query{Op: OpNone}
)

// String shows a query for tests and logs.
func (q *Query) String() string {
	switch q.Op {
	case OpAll:
		return "+"
	case OpNone:
		return "-"
	}
	var parts []string
	for _, k := range q.Keys {
		parts = append(parts, keyString(k))
	}
	for _, s := range q.Sub {
		parts = append(parts, "("+s.String()+")")
	}
	sep := " "
	if q.Op == OpOr {
		sep = "|"
	}
	return strings.Join(parts, sep)
}

func keyString(k uint32) string {
	var b [3]byte
	for i := 2; i >= 0; i-- {
		s := k % base
		k /= base
		switch {
		case s == 128:
			b[i] = '?' // any non-ASCII byte
		default:
			b[i] = byte(s)
		}
	}
	return string(b[:])
}

func and(a, b *Query) *Query {
	switch {
	case a.Op == OpNone || b.Op == OpNone:
		return none
	case a.Op == OpAll:
		return b
	case b.Op == OpAll:
		return a
	}
	q := &Query{Op: OpAnd}
	for _, x := range []*Query{a, b} {
		if x.Op == OpAnd {
			q.Keys = append(q.Keys, x.Keys...)
			q.Sub = append(q.Sub, x.Sub...)
		} else {
			q.Sub = append(q.Sub, x)
		}
	}
	slices.Sort(q.Keys)
	q.Keys = slices.Compact(q.Keys)
	return q
}

func or(a, b *Query) *Query {
	switch {
	case a.Op == OpAll || b.Op == OpAll:
		return all
	case a.Op == OpNone:
		return b
	case b.Op == OpNone:
		return a
	}
	q := &Query{Op: OpOr}
	for _, x := range []*Query{a, b} {
		switch {
		case x.Op == OpOr:
			q.Keys = append(q.Keys, x.Keys...)
			q.Sub = append(q.Sub, x.Sub...)
		case x.Op == OpAnd && len(x.Sub) == 0 && len(x.Keys) == 1:
			q.Keys = append(q.Keys, x.Keys[0])
		default:
			q.Sub = append(q.Sub, x)
		}
	}
	slices.Sort(q.Keys)
	q.Keys = slices.Compact(q.Keys)
	return q
}

// stringQuery is the files holding s: every trigram of s (that does not
// span a line break); All when s has none.
func stringQuery(s string) *Query {
	var keys []uint32
	for i := 0; i+3 <= len(s); i++ {
		if strings.IndexByte(s[i:i+3], '\n') >= 0 {
			continue
		}
		keys = append(keys, Key(s[i], s[i+1], s[i+2]))
	}
	if len(keys) == 0 {
		return all
	}
	slices.Sort(keys)
	return &Query{Op: OpAnd, Keys: slices.Compact(keys)}
}

// setQuery is the files holding one of the strings of set; None for an
// empty set.
func setQuery(set []string) *Query {
	q := none
	for _, s := range set {
		q = or(q, stringQuery(s))
		if q.Op == OpAll {
			break
		}
	}
	return q
}

// Literal is the query for a literal searched as is (caseSensitive) or
// with ASCII case folding: the files holding its trigrams.
func Literal(s string) *Query {
	return stringQuery(s)
}

// Limits of the analysis: string sets larger than maxSet are summarised.
const (
	maxSet   = 64
	maxClass = 16 // character classes with more runes match "any character"
)

// info is what the analysis knows of the matches of a regexp.
type info struct {
	exact    []string // when isExact, every match is one of these strings
	isExact  bool
	prefix   []string // otherwise, every match begins with one of these
	suffix   []string // and ends with one of these
	canEmpty bool
	match    *Query // and the files holding a match satisfy this
}

// Regexp returns the query for a parsed (and simplified) regular
// expression matched against single lines: every line holding a match is
// in a file the query accepts. Constructs the analysis cannot bound give
// All, which means scanning every file.
func Regexp(re *syntax.Regexp) *Query {
	in := analyze(re)
	return and(in.match, in.summary())
}

// summary is the query the strings of in imply.
func (in *info) summary() *Query {
	if in.isExact {
		return setQuery(in.exact)
	}
	return and(setQuery(in.prefix), setQuery(in.suffix))
}

// inexact turns an exact info into prefix, suffix and match.
func (in info) inexact() info {
	if !in.isExact {
		return in
	}
	return info{prefix: in.exact, suffix: in.exact, canEmpty: in.canEmpty, match: and(in.match, setQuery(in.exact))}
}

func exactInfo(set []string) info {
	set = normalize(set)
	in := info{exact: set, isExact: true, match: all}
	in.canEmpty = slices.Contains(set, "")
	if len(set) == 0 {
		in.match = none
	}
	return in
}

func anyChar() info {
	return info{prefix: []string{""}, suffix: []string{""}, match: all}
}

func anything() info {
	return info{prefix: []string{""}, suffix: []string{""}, canEmpty: true, match: all}
}

// normalize lowercases ASCII letters (the index's form), sorts and
// removes duplicates.
func normalize(set []string) []string {
	for i, s := range set {
		set[i] = lowerASCII(s)
	}
	slices.Sort(set)
	return slices.Compact(set)
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func analyze(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpNoMatch:
		return exactInfo(nil)
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactInfo([]string{""})
	case syntax.OpLiteral:
		in := exactInfo([]string{""})
		for _, r := range re.Rune {
			if alts := runeAlternatives(r, re.Flags&syntax.FoldCase != 0); alts != nil {
				in = concat(in, exactInfo(alts))
			} else {
				in = concat(in, anyChar())
			}
		}
		return in
	case syntax.OpCharClass:
		var set []string
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			n += int(hi-lo) + 1
			if n > maxClass {
				return anyChar()
			}
			for r := lo; r <= hi; r++ {
				if r == utf8.RuneError {
					return anyChar()
				}
				set = append(set, string(r))
			}
		}
		return exactInfo(set)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return anyChar()
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpStar:
		return anything()
	case syntax.OpQuest:
		x := analyze(re.Sub[0])
		if x.isExact {
			return exactInfo(append(slices.Clone(x.exact), ""))
		}
		return anything()
	case syntax.OpPlus:
		x := analyze(re.Sub[0]).inexact()
		return x
	case syntax.OpRepeat:
		if re.Min == 0 {
			return anything()
		}
		x := analyze(re.Sub[0])
		if re.Min == 1 && re.Max == 1 {
			return x
		}
		return x.inexact()
	case syntax.OpConcat:
		in := exactInfo([]string{""})
		for _, sub := range re.Sub {
			in = concat(in, analyze(sub))
		}
		return in
	case syntax.OpAlternate:
		in := exactInfo(nil)
		for _, sub := range re.Sub {
			in = alternate(in, analyze(sub))
		}
		return in
	}
	return anything() // an operator this analysis does not know
}

// runeAlternatives returns the byte strings r can match, nil when they
// cannot be told (U+FFFD also matches invalid UTF-8).
func runeAlternatives(r rune, fold bool) []string {
	if r == utf8.RuneError {
		return nil
	}
	alts := []string{string(r)}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			alts = append(alts, string(f))
		}
	}
	return alts
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return normalize(out)
}

// concat is the info of x followed by y.
func concat(x, y info) info {
	if x.isExact && y.isExact && len(x.exact)*len(y.exact) <= maxSet {
		in := exactInfo(cross(x.exact, y.exact))
		in.match = and(x.match, y.match)
		return in
	}
	in := info{canEmpty: x.canEmpty && y.canEmpty, match: and(x.match, y.match)}
	xp, xs := x.ends()
	yp, ys := y.ends()
	// Every match holds a suffix of x followed by a prefix of y.
	if len(xs)*len(yp) <= maxSet {
		in.match = and(in.match, setQuery(cross(xs, yp)))
	} else {
		in.match = and(in.match, and(setQuery(xs), setQuery(yp)))
	}
	switch {
	case x.isExact:
		in.prefix = cross(x.exact, yp)
	case x.canEmpty:
		in.prefix = union(xp, yp)
	default:
		in.prefix = xp
	}
	switch {
	case y.isExact:
		in.suffix = cross(xs, y.exact)
	case y.canEmpty:
		in.suffix = union(ys, xs)
	default:
		in.suffix = ys
	}
	in.prefix = in.bound(in.prefix, true)
	in.suffix = in.bound(in.suffix, false)
	return in
}

// ends returns the sets every match begins and ends with.
func (in info) ends() (prefix, suffix []string) {
	if in.isExact {
		return in.exact, in.exact
	}
	return in.prefix, in.suffix
}

// alternate is the info of x or y.
func alternate(x, y info) info {
	if x.isExact && y.isExact && len(x.exact)+len(y.exact) <= maxSet {
		in := exactInfo(append(slices.Clone(x.exact), y.exact...))
		in.match = or(x.match, y.match)
		return in
	}
	if x.isExact && len(x.exact) == 0 {
		return y
	}
	if y.isExact && len(y.exact) == 0 {
		return x
	}
	x, y = x.inexact(), y.inexact()
	in := info{canEmpty: x.canEmpty || y.canEmpty}
	in.match = or(and(x.match, x.summary()), and(y.match, y.summary()))
	in.prefix = in.bound(union(x.prefix, y.prefix), true)
	in.suffix = in.bound(union(x.suffix, y.suffix), false)
	return in
}

func union(a, b []string) []string {
	return normalize(append(slices.Clone(a), b...))
}

// bound keeps a prefix (or suffix) set small: what a large set says is
// moved into match first, then its strings are cut to two bytes, or the
// set is dropped.
func (in *info) bound(set []string, prefix bool) []string {
	if len(set) <= maxSet {
		return set
	}
	in.match = and(in.match, setQuery(set))
	cut := make([]string, len(set))
	for i, s := range set {
		if len(s) > 2 {
			if prefix {
				s = s[:2]
			} else {
				s = s[len(s)-2:]
			}
		}
		cut[i] = s
	}
	cut = normalize(cut)
	if len(cut) > maxSet {
		return []string{""}
	}
	return cut
}
