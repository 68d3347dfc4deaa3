package search

import (
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// This file is a small in-memory full-text index that ranks exactly as
// SQLite's FTS5 did for lore's package and spec searches: the same
// tokenizers (unicode61 with remove_diacritics 2, optionally under porter),
// the same phrase and prefix matching and the same bm25() arithmetic. It
// holds plain data, so any store can load rows and rank them in Go.

// ftsTokenizer splits text into tokens the way FTS5's "unicode61
// remove_diacritics 2" tokenizer does, stemming each with FTS5's porter
// stemmer when porter is set.
type ftsTokenizer struct {
	porter bool
}

// ftsMaxTokenSize is the length, in bytes, FTS5 cuts longer tokens to.
const ftsMaxTokenSize = 32768

// each calls emit with every token of text, in order; each token takes
// one position. The token's bytes are only valid during the call.
func (t ftsTokenizer) each(text string, emit func(tok []byte)) {
	var buf [64]byte
	out := buf[:0]
	n := len(text)
	i := 0
	for {
		// Skip separators up to the first token character. A combining
		// diacritic continues a token but cannot start one.
		var first uint32
		for found := false; !found; {
			if i >= n {
				return
			}
			if c := text[i]; c < 0x80 {
				found, first = asciiTokenChar(c), uint32(c)
				i++
				continue
			}
			first, i = readUTF8(text, i)
			found = fts5IsTokenChar(first)
		}
		out = appendFolded(out[:0], first)
		// Run through the token characters, folding them.
		for i < n {
			if c := text[i]; c < 0x80 {
				if !asciiTokenChar(c) {
					break
				}
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				out = append(out, c)
				i++
				continue
			}
			c, next := readUTF8(text, i)
			if !fts5IsTokenChar(c) && !fts5IsDiacritic(c) {
				break
			}
			out = appendFolded(out, c)
			i = next
		}
		tok := out
		if t.porter {
			tok = porterStem(out)
		}
		emit(tok[:min(len(tok), ftsMaxTokenSize)])
	}
}

// tokens returns the tokens of text as strings.
func (t ftsTokenizer) tokens(text string) []string {
	var toks []string
	t.each(text, func(tok []byte) { toks = append(toks, string(tok)) })
	return toks
}

func asciiTokenChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// readUTF8 decodes the character at text[i] as SQLite's READ_UTF8 does,
// which differs from Go on invalid input: a lone continuation byte is the
// code point of its value, a lead byte takes every continuation byte that
// follows, and overlong forms, surrogates and U+FFFE/U+FFFF become U+FFFD.
// text[i] must be >= 0x80. It returns the code point and the next index.
func readUTF8(text string, i int) (uint32, int) {
	c := uint32(text[i])
	i++
	if c < 0xc0 {
		return c, i
	}
	switch {
	case c < 0xe0:
		c &= 0x1f
	case c < 0xf0:
		c &= 0x0f
	case c < 0xf8:
		c &= 0x07
	case c < 0xfc:
		c &= 0x03
	case c < 0xfe:
		c &= 0x01
	default:
		c = 0
	}
	for i < len(text) && text[i]&0xc0 == 0x80 {
		c = c<<6 + uint32(text[i]&0x3f)
		i++
	}
	if c < 0x80 || c&0xfffff800 == 0xd800 || c&0xfffffffe == 0xfffe {
		c = 0xfffd
	}
	return c, i
}

// fts5IsTokenChar reports whether the non-ASCII code point c is a token
// character for unicode61 (by default the categories L*, N* and Co, as
// SQLite's own Unicode tables have them).
func fts5IsTokenChar(c uint32) bool {
	if c > unicode.MaxRune {
		return true // what SQLite's tables say of what is not Unicode
	}
	if fts5IsDiacritic(c) {
		return false
	}
	r := rune(c)
	// fts5Separators is sorted by range start.
	k := sort.Search(len(fts5Separators), func(k int) bool { return fts5Separators[k][1] >= r })
	return k == len(fts5Separators) || fts5Separators[k][0] > r
}

// fts5IsDiacritic reports whether c is one of the combining diacritics
// that continue a token (but cannot start one) and are dropped from it.
func fts5IsDiacritic(c uint32) bool {
	if c < 0x300 || c > 0x33f {
		return false
	}
	return fts5DiacriticMask&(1<<(c-0x300)) != 0
}

// appendFolded appends the case-folded, diacritic-free form of the
// non-ASCII token character c (or of an ASCII one) to out.
func appendFolded(out []byte, c uint32) []byte {
	if c < 0x80 {
		b := byte(c)
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		return append(out, b)
	}
	f := fts5Fold(c)
	if f == 0 {
		return out
	}
	if f > unicode.MaxRune {
		// Not a valid rune: write it as SQLite's WRITE_UTF8 would.
		return append(out, byte(0xf0+(f>>18)&0x07), byte(0x80+(f>>12)&0x3f), byte(0x80+(f>>6)&0x3f), byte(0x80+f&0x3f))
	}
	return utf8.AppendRune(out, rune(f))
}

var (
	bmpFoldOnce  sync.Once
	bmpFoldTable []uint16
)

// fts5Fold folds a non-ASCII code point as unicode61 with
// remove_diacritics 2 does: to lower case (simple case folding, as of
// SQLite's Unicode tables) and, for a Latin letter with diacritics, to
// the bare ASCII letter. The combining diacritics fold to 0 (dropped).
// Outside the Basic Multilingual Plane only Deseret is folded.
func fts5Fold(c uint32) uint32 {
	if c < 0x10000 {
		bmpFoldOnce.Do(buildBMPFold)
		return uint32(bmpFoldTable[c])
	}
	if c >= 0x10400 && c < 0x10428 {
		return c + 40
	}
	return c
}

func buildBMPFold() {
	t := make([]uint16, 0x10000)
	for c := range t {
		t[c] = uint16(foldBMP(rune(c)))
	}
	for _, e := range fts5FoldExceptions {
		t[e[0]] = uint16(e[1])
	}
	for c := rune(0x300); c < 0x340; c++ {
		if fts5IsDiacritic(uint32(c)) {
			t[c] = 0
		}
	}
	bmpFoldTable = t
}

// foldBMP is the rule behind fts5Fold; fts5FoldExceptions lists where
// SQLite's tables (an older Unicode) disagree with it.
func foldBMP(c rune) rune {
	if c >= 0xd800 && c <= 0xdfff {
		return c
	}
	l := unicode.ToLower(unicode.ToUpper(c))
	if l >= 0x10000 {
		l = unicode.ToLower(c)
	}
	if l < 0x80 {
		return l
	}
	// remove_diacritics: a letter that decomposes into an ASCII letter
	// and nonspacing marks becomes that letter.
	d := norm.NFD.String(string(l))
	if len(d) > 1 && d[0] < 0x80 {
		for _, m := range d[1:] {
			if !unicode.Is(unicode.Mn, m) {
				return l
			}
		}
		return rune(d[0])
	}
	return l
}

// porterStem stems an unicode61 token as FTS5's porter tokenizer does:
// the original Porter algorithm (with its usual departures: "logi" →
// "log", "bli" → "ble"), over bytes, tokens under 3 or over 64 bytes left
// as they are. It may stem in place, so tok must be writable; the result
// aliases it.
func porterStem(tok []byte) []byte {
	if len(tok) < 3 || len(tok) > 64 {
		return tok
	}
	b := tok
	// Step 1a.
	if n := len(b); b[n-1] == 's' {
		switch {
		case b[n-2] == 'e' && (n > 4 && b[n-4] == 's' && b[n-3] == 's' || n > 3 && b[n-3] == 'i'):
			b = b[:n-2] // sses → ss, ies → i
		case b[n-2] == 'e':
			b = b[:n-1]
		case b[n-2] != 's':
			b = b[:n-1]
		}
	}
	// Step 1b.
	if r, ok := porterMatch(b, porterStep1b); ok {
		stem := b[:len(b)-len(r.suffix)]
		if r.cond(stem) {
			b = append(stem, r.replace...)
			if r.suffix != "eed" {
				// -ed or -ing removed.
				if r2, ok := porterMatch(b, porterStep1b2); ok {
					b = append(b[:len(b)-len(r2.suffix)], r2.replace...)
				} else if c := b[len(b)-1]; !porterVowel(c, false) && c != 'l' && c != 's' && c != 'z' && len(b) >= 2 && c == b[len(b)-2] {
					b = b[:len(b)-1]
				} else if porterMEq1(b) && porterOStar(b) {
					b = append(b, 'e')
				}
			}
		}
	}
	// Step 1c.
	if n := len(b); b[n-1] == 'y' && porterHasVowel(b[:n-1]) {
		b[n-1] = 'i'
	}
	// Steps 2 to 4.
	for _, rules := range [][]porterRule{porterStep2, porterStep3, porterStep4} {
		if r, ok := porterMatch(b, rules); ok {
			if stem := b[:len(b)-len(r.suffix)]; r.cond(stem) {
				b = append(stem, r.replace...)
			}
		}
	}
	// Step 5a.
	if n := len(b); b[n-1] == 'e' {
		if stem := b[:n-1]; porterMGt1(stem) || porterMEq1(stem) && !porterOStar(stem) {
			b = stem
		}
	}
	// Step 5b.
	if n := len(b); n > 1 && b[n-1] == 'l' && b[n-2] == 'l' && porterMGt1(b[:n-1]) {
		b = b[:n-1]
	}
	return b
}

type porterRule struct {
	suffix, replace string
	cond            func(stem []byte) bool
}

// porterMatch finds the rule for b's suffix: the first rule whose suffix
// b ends with, leaving a non-empty stem. Later rules are not tried even
// when that rule's condition fails.
func porterMatch(b []byte, rules []porterRule) (porterRule, bool) {
	for _, r := range rules {
		if len(b) > len(r.suffix) && string(b[len(b)-len(r.suffix):]) == r.suffix {
			return r, true
		}
	}
	return porterRule{}, false
}

var (
	porterStep1b = []porterRule{
		{"eed", "ee", porterMGt0}, {"ed", "", porterHasVowel}, {"ing", "", porterHasVowel},
	}
	porterStep1b2 = []porterRule{
		{"at", "ate", porterAlways}, {"bl", "ble", porterAlways}, {"iz", "ize", porterAlways},
	}
	porterStep2 = []porterRule{
		{"ational", "ate", porterMGt0}, {"tional", "tion", porterMGt0},
		{"enci", "ence", porterMGt0}, {"anci", "ance", porterMGt0},
		{"izer", "ize", porterMGt0},
		{"logi", "log", porterMGt0},
		{"bli", "ble", porterMGt0}, {"alli", "al", porterMGt0}, {"entli", "ent", porterMGt0}, {"eli", "e", porterMGt0}, {"ousli", "ous", porterMGt0},
		{"ization", "ize", porterMGt0}, {"ation", "ate", porterMGt0}, {"ator", "ate", porterMGt0},
		{"alism", "al", porterMGt0}, {"iveness", "ive", porterMGt0}, {"fulness", "ful", porterMGt0}, {"ousness", "ous", porterMGt0},
		{"aliti", "al", porterMGt0}, {"iviti", "ive", porterMGt0}, {"biliti", "ble", porterMGt0},
	}
	porterStep3 = []porterRule{
		{"ical", "ic", porterMGt0}, {"ness", "", porterMGt0},
		{"icate", "ic", porterMGt0}, {"iciti", "ic", porterMGt0},
		{"ful", "", porterMGt0}, {"ative", "", porterMGt0}, {"alize", "al", porterMGt0},
	}
	porterStep4 = []porterRule{
		{"al", "", porterMGt1}, {"ance", "", porterMGt1}, {"ence", "", porterMGt1},
		{"er", "", porterMGt1}, {"ic", "", porterMGt1}, {"able", "", porterMGt1}, {"ible", "", porterMGt1},
		{"ant", "", porterMGt1}, {"ement", "", porterMGt1}, {"ment", "", porterMGt1}, {"ent", "", porterMGt1},
		{"ion", "", porterMGt1ST}, {"ou", "", porterMGt1}, {"ism", "", porterMGt1},
		{"ate", "", porterMGt1}, {"iti", "", porterMGt1}, {"ous", "", porterMGt1},
		{"ive", "", porterMGt1}, {"ize", "", porterMGt1},
	}
)

func porterAlways([]byte) bool { return true }

// porterVowel: a, e, i, o, u, and y when yIsVowel (after a consonant).
func porterVowel(c byte, yIsVowel bool) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || yIsVowel && c == 'y'
}

// porterGobbleVC skips [C]V+C (one vowel-consonant sequence, with any
// leading consonants) and returns the length consumed, 0 if there is none.
func porterGobbleVC(s []byte, prevCons bool) int {
	cons := prevCons
	i := 0
	for ; i < len(s); i++ {
		if cons = !porterVowel(s[i], cons); !cons {
			break
		}
	}
	for i++; i < len(s); i++ {
		if cons = !porterVowel(s[i], cons); cons {
			return i + 1
		}
	}
	return 0
}

// porterMGt0: the measure m of stem is above 0.
func porterMGt0(s []byte) bool { return porterGobbleVC(s, false) != 0 }

// porterMGt1: m > 1.
func porterMGt1(s []byte) bool {
	n := porterGobbleVC(s, false)
	return n != 0 && porterGobbleVC(s[n:], true) != 0
}

// porterMEq1: m = 1.
func porterMEq1(s []byte) bool {
	n := porterGobbleVC(s, false)
	return n != 0 && porterGobbleVC(s[n:], true) == 0
}

// porterMGt1ST: m > 1 and the stem ends in s or t.
func porterMGt1ST(s []byte) bool {
	c := s[len(s)-1]
	return (c == 's' || c == 't') && porterMGt1(s)
}

// porterOStar: the stem ends consonant-vowel-consonant, the last not w, x
// or y.
func porterOStar(s []byte) bool {
	switch s[len(s)-1] {
	case 'w', 'x', 'y':
		return false
	}
	mask := 0
	cons := false
	for _, c := range s {
		cons = !porterVowel(c, cons)
		mask <<= 1
		if cons {
			mask++
		}
	}
	return mask&7 == 5
}

// porterHasVowel: the stem contains a vowel (y counts anywhere but first).
func porterHasVowel(s []byte) bool {
	for i, c := range s {
		if porterVowel(c, i > 0) {
			return true
		}
	}
	return false
}
