package toon

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// encodeKey renders an object key or tabular field name: bare when it is an
// identifier-like token (spec §7.3), quoted and escaped otherwise.
func encodeKey(key string) string {
	if isBareKey(key) {
		return key
	}
	return quote(key)
}

// isBareKey reports whether key matches ^[A-Za-z_][A-Za-z0-9_.]*$.
func isBareKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || isASCIILetter(c):
		case i > 0 && (c == '.' || isASCIIDigit(c)):
		default:
			return false
		}
	}
	return true
}

// encodeString renders a string value, quoting it when a decoder could
// otherwise read it as something else (spec §7.2). delimiter is the one in
// force where the value appears.
func encodeString(s string, delimiter byte) string {
	if needsQuotes(s, delimiter) {
		return quote(s)
	}
	return s
}

func needsQuotes(s string, delimiter byte) bool {
	if s == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if unicode.IsSpace(first) || unicode.IsSpace(last) {
		return true
	}
	if s == "true" || s == "false" || s == "null" || isNumericLike(s) {
		return true
	}
	// '-' would read as a list marker; '#' is quoted as the reference
	// encoder does.
	if s[0] == '-' || s[0] == '#' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == delimiter:
			return true
		case strings.IndexByte(`:"\[]{}`, c) >= 0:
			return true
		}
	}
	return false
}

// isNumericLike reports whether s matches /^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i,
// the strings a decoder could take for a number (the spec's pattern, widened
// to a leading '+' like the reference encoder).
func isNumericLike(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digitsFrom := func() bool {
		start := i
		for i < len(s) && isASCIIDigit(s[i]) {
			i++
		}
		return i > start
	}
	if !digitsFrom() {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digitsFrom() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if !digitsFrom() {
			return false
		}
	}
	return i == len(s)
}

// quote wraps s in double quotes with the escapes of spec §7.1: \\ \" \n \r
// \t, \u00xx (lowercase hex) for other C0 controls, everything else literal.
func quote(s string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(c) // UTF-8 continuation bytes are >= 0x80
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isASCIIDigit(c byte) bool  { return c >= '0' && c <= '9' }
