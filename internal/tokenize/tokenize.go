// Package tokenize turns code and queries into the code-aware terms lore
// indexes: identifiers are split at camelCase, snake_case, kebab-case and
// digit boundaries, lower-cased, and kept whole as well, so that both
// "RouteContext" and "route context" find a definition of RouteContext.
package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Version identifies how text becomes terms (splitting and stemming). An
// index records it; when it changes, the next index run rebuilds, since
// old and new terms would not meet.
const Version = "5"

// MaxTermLen bounds a term; longer runs (base64 blobs, minified code) are
// not useful search terms.
const MaxTermLen = 64

// Identifiers returns the identifier-like runs of text (letters, digits and
// underscores, starting with a letter or underscore, or a run of digits), in
// order of appearance.
func Identifiers(text string) []string {
	var out []string
	start := -1
	for i, r := range text {
		word := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && start < 0 {
			start = i
		}
		if !word && start >= 0 {
			out = appendIdent(out, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = appendIdent(out, text[start:])
	}
	return out
}

func appendIdent(out []string, id string) []string {
	id = strings.Trim(id, "_")
	if id == "" || len(id) > MaxTermLen {
		return out
	}
	return append(out, id)
}

// SplitIdentifier splits one identifier into its lower-cased parts:
// "parseHTTPRequest2" → [parse http request 2], "max_line_len" → [max line len].
// A single-part identifier yields itself.
func SplitIdentifier(id string) []string {
	var parts []string
	for _, piece := range strings.FieldsFunc(id, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		parts = appendCamelParts(parts, piece)
	}
	return parts
}

// appendCamelParts splits s at lower→Upper, Upper→Upper+lower (the end of an
// acronym), and letter↔digit boundaries.
func appendCamelParts(parts []string, s string) []string {
	runes := []rune(s)
	start := 0
	for i := 1; i < len(runes); i++ {
		prev, cur := runes[i-1], runes[i]
		boundary := false
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(cur):
			boundary = true
		case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			boundary = true
		case unicode.IsDigit(prev) != unicode.IsDigit(cur):
			boundary = true
		}
		if boundary {
			parts = append(parts, strings.ToLower(string(runes[start:i])))
			start = i
		}
	}
	if start < len(runes) {
		parts = append(parts, strings.ToLower(string(runes[start:])))
	}
	return parts
}

// Terms returns the index terms of text: for every identifier its
// lower-cased whole form (underscores kept) and, when it has several parts,
// each part. Order follows the text; duplicates are kept, since term
// frequency matters for ranking.
func Terms(text string) []string {
	out := AppendTerms(nil, text)
	if out == nil {
		out = []string{}
	}
	return out
}

// AppendTerms appends the terms of text, as Terms returns them, to dst
// and returns the extended slice: an indexer reuses one slice from chunk
// to chunk. The terms may share memory with text.
//
// It reads ASCII a byte at a time and splits an ASCII identifier by
// offsets into its lower-cased form, allocating at most that one string
// per identifier (none when it has no capital); other text goes the way
// of Identifiers and SplitIdentifier, with the same result.
func AppendTerms(dst []string, text string) []string {
	start := -1
	for i := 0; i < len(text); {
		c, size := text[i], 1
		var word bool
		if c < utf8.RuneSelf {
			word = asciiWord[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			word = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			dst = appendIdentTerms(dst, text[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		dst = appendIdentTerms(dst, text[start:])
	}
	return dst
}

// asciiWord marks the ASCII bytes an identifier is made of.
var asciiWord = func() (w [utf8.RuneSelf]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		w[c] = c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return w
}()

// appendIdentTerms appends the terms of one identifier-like run, trimmed
// of underscores as appendIdent does.
func appendIdentTerms(dst []string, id string) []string {
	id = strings.Trim(id, "_")
	if id == "" || len(id) > MaxTermLen {
		return dst
	}
	return appendTerms(dst, id)
}

func appendTerms(out []string, id string) []string {
	upper := false
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= utf8.RuneSelf {
			return appendTermsSlow(out, id)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	whole := id
	if upper {
		whole = strings.ToLower(id)
	}
	out = append(out, whole)
	// The parts, as SplitIdentifier finds them. The lower-cased id has the
	// same byte offsets, so a part is a slice of it.
	mark := len(out)
	for lo, hi, ok := NextPart(id, 0); ok; lo, hi, ok = NextPart(id, hi) {
		out = append(out, whole[lo:hi])
	}
	if len(out)-mark <= 1 {
		return out[:mark] // one part: the whole form says it
	}
	// Several parts: none is as long as the whole, so none repeats it.
	return out
}

// appendTermsSlow is appendTerms for an identifier with non-ASCII letters.
func appendTermsSlow(out []string, id string) []string {
	whole := strings.ToLower(id)
	out = append(out, whole)
	parts := SplitIdentifier(id)
	if len(parts) > 1 {
		for _, p := range parts {
			if p != whole && p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// NextPart returns the byte range [lo, hi) of the first part of an ASCII
// identifier at or after byte from, and ok false when there is none. The
// parts are SplitIdentifier's: the pieces between separators, each split
// at a lower-case letter followed by a capital, before the last capital of
// a run followed by a lower-case letter, and between digits and letters; a
// one-part identifier yields itself. The ranges hold for the lower-cased
// identifier too, so a caller slices the parts out of either without
// allocating:
//
//	for lo, hi, ok := NextPart(id, 0); ok; lo, hi, ok = NextPart(id, hi) { … }
func NextPart(id string, from int) (lo, hi int, ok bool) {
	lo = from
	for lo < len(id) && isSeparator(id[lo]) {
		lo++
	}
	if lo == len(id) {
		return 0, 0, false
	}
	for hi = lo + 1; hi < len(id); hi++ {
		prev, cur := id[hi-1], id[hi]
		if isSeparator(cur) ||
			isLowerASCII(prev) && isUpperASCII(cur) ||
			isUpperASCII(prev) && isUpperASCII(cur) && hi+1 < len(id) && isLowerASCII(id[hi+1]) ||
			isDigitASCII(prev) != isDigitASCII(cur) {
			break
		}
	}
	return lo, hi, true
}

func isSeparator(c byte) bool  { return c == '_' || c == '-' || c == '.' }
func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigitASCII(c byte) bool { return '0' <= c && c <= '9' }

// Join renders terms as the space-separated text lore stores in its
// full-text columns.
func Join(terms []string) string { return strings.Join(terms, " ") }

// IsIdentifierLike reports whether s looks like a single code identifier
// rather than a word of prose: it has an inner capital (camelCase,
// PascalCase with two humps, ALLCAPS), an underscore, a digit run after
// letters, or qualifier punctuation such as :: . -> or #.
func IsIdentifierLike(s string) bool {
	if strings.ContainsAny(s, "_:#") || strings.Contains(s, "->") {
		return true
	}
	if strings.Contains(strings.Trim(s, "."), ".") {
		return true
	}
	upper, lower := 0, 0
	for i, r := range s {
		switch {
		case unicode.IsUpper(r):
			upper++
			if i > 0 {
				return true // an inner capital: camelCase or PascalCase with humps
			}
		case unicode.IsLower(r):
			lower++
		}
	}
	// A single capitalised word ("Mux", "Router") is identifier-like too when
	// the query is that one word; the caller decides with the word count.
	return upper > 0 && lower == 0 && utf8.RuneCountInString(s) > 1
}
