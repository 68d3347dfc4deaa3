package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// A search answer's text content is its structured content's JSON, ~35 KB,
// written again as a JSON string: every quote and backslash escaped.
// encoding/json looks at each byte in turn and decodes each non-ASCII
// rune; appendJSONString looks at eight bytes at a time for the three
// kinds of byte that need work (a quote, a backslash, a control
// character) and copies the runs between them, once it knew that the text
// is valid UTF-8 without the two line separators encoding/json escapes.
// The bytes are exactly encoding/json's without HTML escaping (tested).

// appendJSONString writes s to buf as encoding/json writes a string with
// SetEscapeHTML(false).
func appendJSONString(buf *bytes.Buffer, s string) {
	if !utf8.ValidString(s) || strings.Contains(s, "\u2028") || strings.Contains(s, "\u2029") {
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		enc.Encode(s)               // a string always encodes
		buf.Truncate(buf.Len() - 1) // Encode's newline
		return
	}
	buf.Grow(len(s) + len(s)/8 + 2)
	dst := buf.AvailableBuffer()
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && !needsEscape8(load64(s, i)) {
			i += 8
			continue
		}
		b := s[i]
		if b >= 0x20 && b != '"' && b != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscape(dst, b)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	dst = append(dst, '"')
	buf.Write(dst) // in place when the room Grow made sufficed
}

// load64 is the eight bytes of s from i, the first the lowest.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// SWAR constants: a byte of 1s, and of high bits, in each of eight lanes.
const (
	lanes1    = 0x0101010101010101
	lanesHigh = 0x8080808080808080
)

// needsEscape8 reports whether any of the eight bytes of x is a quote, a
// backslash or below 0x20 (bytes of 0x80 and above never are).
func needsEscape8(x uint64) bool {
	quote := x ^ (lanes1 * '"')
	backslash := x ^ (lanes1 * '\\')
	// A lane is zero, or below 0x20, exactly when subtracting borrows into
	// its high bit while the lane's own high bit is clear.
	zeroQuote := (quote - lanes1) &^ quote
	zeroBackslash := (backslash - lanes1) &^ backslash
	control := (x - lanes1*0x20) &^ x
	return (zeroQuote|zeroBackslash|control)&lanesHigh != 0
}

// appendEscape appends the escape of an ASCII byte encoding/json escapes.
func appendEscape(dst []byte, b byte) []byte {
	const hex = "0123456789abcdef"
	switch b {
	case '"', '\\':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	default:
		return append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
	}
}
