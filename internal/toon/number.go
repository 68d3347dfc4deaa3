package toon

import (
	"fmt"
	"strconv"
	"strings"
)

// Exponent range (of the leading digit, scientific notation) that the spec
// requires in plain decimal form: 1e-6 <= |n| < 1e21.
const (
	minPlainExponent = -6
	maxPlainExponent = 20
)

// canonicalNumber rewrites a JSON number literal in TOON's canonical form:
// no exponent inside the plain range, no leading or trailing zeros, integral
// values without a fraction, -0 as 0. It works on the decimal digits
// themselves, so no precision is lost for numbers float64 cannot hold.
func canonicalNumber(literal string) (string, error) {
	s := literal
	negative := strings.HasPrefix(s, "-")
	if negative {
		s = s[1:]
	}
	mantissa, exponentText, hasExponent := strings.Cut(strings.ToLower(s), "e")
	intPart, fracPart, hasPoint := strings.Cut(mantissa, ".")
	if intPart == "" || (hasPoint && fracPart == "") || !allDigits(intPart) || !allDigits(fracPart) {
		return "", fmt.Errorf("malformed number %q", literal)
	}
	exponent := 0
	if hasExponent {
		e, err := strconv.Atoi(exponentText)
		if err != nil || exponentText == "" || !allDigits(strings.TrimLeft(exponentText, "+-")) {
			return "", fmt.Errorf("number %q: exponent out of range or malformed", literal)
		}
		exponent = e
	}

	// value = digits × 10^(exponent - len(fracPart))
	digits := strings.TrimLeft(intPart+fracPart, "0")
	if digits == "" {
		return "0", nil // also turns -0 into 0
	}
	trimmed := strings.TrimRight(digits, "0")
	scale := exponent - len(fracPart) + (len(digits) - len(trimmed))
	digits = trimmed

	// pointPos counts the digits before the decimal point; the leading digit
	// has decimal exponent pointPos-1.
	pointPos := len(digits) + scale
	leadExponent := pointPos - 1

	var b strings.Builder
	if negative {
		b.WriteByte('-')
	}
	switch {
	case leadExponent < minPlainExponent || leadExponent > maxPlainExponent:
		b.WriteByte(digits[0])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if leadExponent >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(leadExponent))
	case pointPos >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", pointPos-len(digits)))
	case pointPos > 0:
		b.WriteString(digits[:pointPos])
		b.WriteByte('.')
		b.WriteString(digits[pointPos:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -pointPos))
		b.WriteString(digits)
	}
	return b.String(), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
