package files

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
	"github.com/lore-dev/lore/internal/trigram"
)

// matcher finds the lines of a buffer that match a query. It is built once
// per search and shared, read-only, by the workers.
//
// Literal queries are found with bytes.Index (case-sensitive) or with a
// SIMD-friendly scan for the query's rarest byte in both cases followed by
// an ASCII case-insensitive compare. Non-ASCII case-insensitive literals go
// through the regexp engine with Unicode folding. Regexes are matched line
// by line; when the regex has a literal every match must contain, only the
// lines holding that literal are given to the regex engine.
type matcher struct {
	literal []byte     // literal query (lowercased when fold); nil for regexes
	fold    *foldIndex // case-insensitive literal finder; nil when case-sensitive
	re      *regexp.Regexp
	// prefilter, for regexes, finds candidates: each line holding a match
	// of re contains a match of prefilter. nil means every line is a
	// candidate.
	prefilter *matcher
	// anyOf, for a prefilter, finds the first of several literals: every
	// match of an alternation holds one of them.
	anyOf []*matcher
	// grams says which files can hold a match, by their trigrams.
	grams *trigram.Query
}

func newMatcher(query string, regex, caseSensitive bool) (*matcher, error) {
	if !regex {
		switch {
		case caseSensitive:
			return &matcher{literal: []byte(query), grams: trigram.Literal(query)}, nil
		case isASCII(query):
			lower := []byte(strings.ToLower(query))
			return &matcher{literal: lower, fold: newFoldIndex(lower), grams: trigram.Literal(query)}, nil
		}
		query = regexp.QuoteMeta(query)
	}
	expr := query
	if !caseSensitive {
		expr = "(?i)" + expr
	}
	// Parse (what regexp.Compile does first, with the same errors) and
	// bound the size of the program before building it: a short pattern
	// with nested repetitions can expand to millions of instructions.
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, errs.New(errs.Invalid, CodeInvalidArgument, "invalid regex %q: %v", query, err).With("query", query).Wrap(err)
	}
	if regex {
		if err := querylimit.CheckRegexSize(regexSize(parsed)); err != nil {
			return nil, err
		}
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, errs.New(errs.Invalid, CodeInvalidArgument, "invalid regex %q: %v", query, err).With("query", query).Wrap(err)
	}
	simple := parsed.Simplify()
	m := &matcher{re: re, grams: trigram.Regexp(simple)}
	lit, fold := requiredLiteral(simple)
	if any := anyLiteral(simple); any != nil && any.shortestLiteral() > len(lit) {
		m.prefilter = any
		return m, nil
	}
	switch {
	case len(lit) == 0:
	case !fold:
		m.prefilter = &matcher{literal: []byte(lit)}
	case isASCII(lit):
		// ASCII folding misses the two non-ASCII runes Go folds onto
		// ASCII letters (U+212A KELVIN SIGN, U+017F LONG S); lines
		// matching only through them are not reported.
		lower := []byte(strings.ToLower(lit))
		m.prefilter = &matcher{literal: lower, fold: newFoldIndex(lower)}
	}
	return m, nil
}

// regexSize estimates the number of instructions of re's compiled
// program the way Go's regexp/syntax parser bounds it: a bounded
// repetition x{n,m} counts x m times. It saturates far above any limit,
// so nested repetitions cannot overflow it.
func regexSize(re *syntax.Regexp) int {
	const ceiling = 1 << 40
	var size int
	switch re.Op {
	case syntax.OpLiteral:
		size = len(re.Rune)
	case syntax.OpCapture, syntax.OpStar:
		size = 2 + regexSize(re.Sub[0])
	case syntax.OpPlus, syntax.OpQuest:
		size = 1 + regexSize(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		for _, sub := range re.Sub {
			size = min(ceiling, size+regexSize(sub))
		}
		if re.Op == syntax.OpAlternate {
			size += len(re.Sub) - 1
		}
	case syntax.OpRepeat:
		sub := regexSize(re.Sub[0])
		switch {
		case re.Max == -1 && re.Min == 0:
			size = 2 + sub
		case re.Max == -1:
			size = 1 + min(ceiling, re.Min*sub)
		default:
			size = min(ceiling, re.Max*sub) + re.Max - re.Min
		}
	}
	return min(ceiling, max(1, size))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// requiredLiteral returns a literal that every match of re contains, and
// whether it is matched case-insensitively; "" when there is none.
func requiredLiteral(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune), re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		best, bestFold := "", false
		for _, sub := range re.Sub {
			if lit, fold := requiredLiteral(sub); len(lit) > len(best) {
				best, bestFold = lit, fold
			}
		}
		return best, bestFold
	}
	return "", false
}

// anyLiteral returns a prefilter finding any of the literals one of which
// every match of re holds (an alternation of words, say); nil when there
// is no such set of literals of at least 3 bytes that can be found
// without Unicode folding.
func anyLiteral(re *syntax.Regexp) *matcher {
	set := literalSet(re)
	if len(set) < 2 {
		return nil
	}
	m := &matcher{}
	for _, l := range set {
		if len(l.s) < 3 || (l.fold && !isASCII(l.s)) {
			return nil
		}
		if l.fold {
			lower := []byte(strings.ToLower(l.s))
			m.anyOf = append(m.anyOf, &matcher{literal: lower, fold: newFoldIndex(lower)})
		} else {
			m.anyOf = append(m.anyOf, &matcher{literal: []byte(l.s)})
		}
	}
	return m
}

func (m *matcher) shortestLiteral() int {
	n := len(m.anyOf[0].literal)
	for _, l := range m.anyOf {
		n = min(n, len(l.literal))
	}
	return n
}

type foldLiteral struct {
	s    string
	fold bool
}

// maxLiteralSet bounds the literals of an anyLiteral prefilter.
const maxLiteralSet = 8

// literalSet returns literals one of which every match of re contains;
// nil when it finds none.
func literalSet(re *syntax.Regexp) []foldLiteral {
	switch re.Op {
	case syntax.OpLiteral:
		return []foldLiteral{{string(re.Rune), re.Flags&syntax.FoldCase != 0}}
	case syntax.OpCapture, syntax.OpPlus:
		return literalSet(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literalSet(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []foldLiteral
		for _, sub := range re.Sub {
			set := literalSet(sub)
			if set == nil || len(out)+len(set) > maxLiteralSet {
				return nil
			}
			out = append(out, set...)
		}
		return out
	case syntax.OpConcat:
		// The set whose shortest literal is longest.
		var best []foldLiteral
		shortest := func(set []foldLiteral) int {
			n := -1
			for _, l := range set {
				if n < 0 || len(l.s) < n {
					n = len(l.s)
				}
			}
			return n
		}
		for _, sub := range re.Sub {
			if set := literalSet(sub); set != nil && shortest(set) > shortest(best) {
				best = set
			}
		}
		return best
	}
	return nil
}

// find returns the start and end of the first literal match in buf at or
// after from, or -1.
func (m *matcher) find(buf []byte, from int) (int, int) {
	if m.anyOf != nil {
		bs, be := -1, -1
		for _, l := range m.anyOf {
			limit := len(buf)
			if bs >= 0 {
				limit = min(len(buf), bs+len(l.literal))
			}
			if s, e := l.find(buf[:limit], from); s >= 0 && (bs < 0 || s < bs) {
				bs, be = s, e
			}
		}
		return bs, be
	}
	if m.fold != nil {
		i := m.fold.index(buf, from)
		return i, i + len(m.literal)
	}
	i := bytes.Index(buf[from:], m.literal)
	if i < 0 {
		return -1, -1
	}
	return from + i, from + i + len(m.literal)
}

// lineHit is a matching line: its number, its bytes (without "\n") and
// where the match lies in it.
type lineHit struct {
	n          int
	line       []byte
	start, end int
}

// scan calls hit for each matching line of buf, in order, at most max
// times. Line numbers are counted lazily, only up to the lines that match.
func (m *matcher) scan(buf []byte, max int, hit func(lineHit)) {
	lineNo, counted := 1, 0 // lineNo is the number of the line starting at counted
	pos, found := 0, 0
	for pos < len(buf) && found < max {
		var lineStart, lineEnd, start, end int
		if finder := m.candidateFinder(); finder != nil {
			s, e := finder.find(buf, pos)
			if s < 0 {
				return
			}
			lineStart = bytes.LastIndexByte(buf[pos:s], '\n') + 1 + pos
			lineEnd = lineEndAt(buf, s)
			if e > lineEnd { // a regex's literal with "\n" in it: lines never hold one
				pos = lineEnd + 1
				continue
			}
			start, end = s-lineStart, e-lineStart
			if m.re != nil {
				loc := m.re.FindIndex(trimCR(buf[lineStart:lineEnd]))
				if loc == nil {
					pos = lineEnd + 1
					continue
				}
				start, end = loc[0], loc[1]
			}
		} else {
			lineStart, lineEnd = pos, lineEndAt(buf, pos)
			loc := m.re.FindIndex(trimCR(buf[lineStart:lineEnd]))
			if loc == nil {
				pos = lineEnd + 1
				continue
			}
			start, end = loc[0], loc[1]
		}
		lineNo += bytes.Count(buf[counted:lineStart], []byte{'\n'})
		counted = lineStart
		hit(lineHit{n: lineNo, line: trimCR(buf[lineStart:lineEnd]), start: start, end: end})
		found++
		pos = lineEnd + 1
	}
}

// candidateFinder is the literal finder that locates candidate lines: the
// matcher itself for literals, its prefilter for regexes.
func (m *matcher) candidateFinder() *matcher {
	if m.re == nil {
		return m
	}
	return m.prefilter
}

// trimCR drops the "\r" of a CRLF line ending.
func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// lineEndAt returns the index of the "\n" ending the line holding i (or
// len(buf)).
func lineEndAt(buf []byte, i int) int {
	if i > len(buf) {
		return len(buf)
	}
	if j := bytes.IndexByte(buf[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(buf)
}

// foldIndex finds an ASCII-lowercased literal case-insensitively. It looks
// for the literal's rarest byte (both cases) with bytes.IndexByte, which is
// vectorised, and compares the rest only at those candidates.
type foldIndex struct {
	lower    []byte
	anchor   int  // index in lower of the rarest byte
	lo, up   byte // the anchor byte in lower and upper case
	anchorUp bool // whether lo != up
}

func newFoldIndex(lower []byte) *foldIndex {
	f := &foldIndex{lower: lower}
	for i, c := range lower {
		if byteCommonness(c) < byteCommonness(lower[f.anchor]) {
			f.anchor = i
		}
	}
	f.lo = lower[f.anchor]
	f.up = toUpperASCII(f.lo)
	f.anchorUp = f.up != f.lo
	return f
}

func (f *foldIndex) index(buf []byte, from int) int {
	n := len(f.lower)
	for i := from + f.anchor; i < len(buf); {
		// Next occurrence of the anchor byte in either case.
		j := bytes.IndexByte(buf[i:], f.lo)
		if f.anchorUp {
			limit := len(buf)
			if j >= 0 {
				limit = i + j
			}
			if k := bytes.IndexByte(buf[i:limit], f.up); k >= 0 {
				j = k
			}
		}
		if j < 0 {
			return -1
		}
		p := i + j // anchor position
		start := p - f.anchor
		if start+n <= len(buf) && equalFoldASCII(buf[start:start+n], f.lower) {
			return start
		}
		i = p + 1
	}
	return -1
}

// equalFoldASCII reports whether b equals the lowercase ASCII lower when
// ASCII letters of b are lowercased.
func equalFoldASCII(b, lower []byte) bool {
	for i, c := range b {
		if lowerTable[c] != lower[i] {
			return false
		}
	}
	return true
}

var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

func toUpperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// commonBytes lists bytes roughly from most to least frequent in source
// code and prose, lowercase standing for both cases. Bytes not listed are
// rarer than all of these.
const commonBytes = " e\nta\toinsrlcdu.pm(h)f,g_\"=b;y/w:v-k'{}0x*1>2<[]j#q3z&54$|+!6987%@?~`\\^"

// byteCommonness ranks how common c is (higher = more common).
func byteCommonness(c byte) int {
	if i := strings.IndexByte(commonBytes, lowerTable[c]); i >= 0 {
		return len(commonBytes) - i
	}
	return 0
}
