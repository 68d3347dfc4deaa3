package embed

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Normalizers and pre-tokenizers of tokenizer.json, with the character
// classes of the Rust tokenizers library (Rust's char::is_whitespace,
// is_alphanumeric, is_numeric and the Unicode general categories).

func parseNormalizer(raw json.RawMessage) (normalizer, error) {
	if isJSONNull(raw) {
		return nil, nil
	}
	var spec struct {
		Type               string            `json:"type"`
		CleanText          *bool             `json:"clean_text"`
		HandleChineseChars *bool             `json:"handle_chinese_chars"`
		StripAccents       *bool             `json:"strip_accents"`
		Lowercase          *bool             `json:"lowercase"`
		StripLeft          bool              `json:"strip_left"`
		StripRight         bool              `json:"strip_right"`
		Prepend            string            `json:"prepend"`
		Content            string            `json:"content"`
		Pattern            map[string]string `json:"pattern"`
		Normalizers        []json.RawMessage `json:"normalizers"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("malformed: %w", err)
	}
	orTrue := func(b *bool) bool { return b == nil || *b }
	switch spec.Type {
	case "BertNormalizer":
		return bertNormalizer{
			cleanText:          orTrue(spec.CleanText),
			handleChineseChars: orTrue(spec.HandleChineseChars),
			// strip_accents: null follows lowercase.
			stripAccents: spec.StripAccents != nil && *spec.StripAccents ||
				spec.StripAccents == nil && orTrue(spec.Lowercase),
			lowercase: orTrue(spec.Lowercase),
		}, nil
	case "Lowercase":
		return normalizerFunc(lowercase), nil
	case "StripAccents":
		return normalizerFunc(removeNonspacingMarks), nil
	case "NFD":
		return normalizerFunc(norm.NFD.String), nil
	case "NFKD":
		return normalizerFunc(norm.NFKD.String), nil
	case "NFC":
		return normalizerFunc(norm.NFC.String), nil
	case "NFKC":
		return normalizerFunc(norm.NFKC.String), nil
	case "Strip":
		left, right := spec.StripLeft, spec.StripRight
		return normalizerFunc(func(s string) string {
			if left {
				s = strings.TrimLeftFunc(s, isWhitespace)
			}
			if right {
				s = strings.TrimRightFunc(s, isWhitespace)
			}
			return s
		}), nil
	case "Prepend":
		prefix := spec.Prepend
		return normalizerFunc(func(s string) string {
			if s == "" {
				return s
			}
			return prefix + s
		}), nil
	case "Replace":
		content := spec.Content
		if literal, ok := spec.Pattern["String"]; ok {
			if literal == "" {
				return nil, fmt.Errorf("Replace with an empty pattern")
			}
			return normalizerFunc(func(s string) string { return strings.ReplaceAll(s, literal, content) }), nil
		}
		if expr, ok := spec.Pattern["Regex"]; ok {
			re, err := regexp.Compile(expr)
			if err != nil {
				return nil, fmt.Errorf("Replace regex %q is not supported: %w", expr, err)
			}
			return normalizerFunc(func(s string) string { return re.ReplaceAllLiteralString(s, content) }), nil
		}
		return nil, fmt.Errorf("Replace without a String or Regex pattern")
	case "Sequence":
		var seq normalizerSequence
		for i, part := range spec.Normalizers {
			n, err := parseNormalizer(part)
			if err != nil {
				return nil, fmt.Errorf("Sequence item %d: %w", i, err)
			}
			if n != nil {
				seq = append(seq, n)
			}
		}
		return seq, nil
	default:
		return nil, fmt.Errorf("normalizer type %q is not supported", spec.Type)
	}
}

type normalizerFunc func(string) string

func (f normalizerFunc) normalize(s string) string { return f(s) }

type normalizerSequence []normalizer

func (seq normalizerSequence) normalize(s string) string {
	for _, n := range seq {
		s = n.normalize(s)
	}
	return s
}

// bertNormalizer is BERT's normaliser, applied in its fixed order.
type bertNormalizer struct {
	cleanText          bool // drop control characters, map whitespace to ' '
	handleChineseChars bool // surround CJK ideographs with spaces
	stripAccents       bool // NFD, then drop nonspacing marks
	lowercase          bool
}

func (n bertNormalizer) normalize(s string) string {
	if n.cleanText {
		s = strings.Map(func(r rune) rune {
			switch {
			case r == 0 || r == unicode.ReplacementChar || isControl(r):
				return -1
			case isWhitespace(r):
				return ' '
			default:
				return r
			}
		}, s)
	}
	if n.handleChineseChars && strings.ContainsFunc(s, isChineseChar) {
		var b strings.Builder
		for _, r := range s {
			if isChineseChar(r) {
				b.WriteByte(' ')
				b.WriteRune(r)
				b.WriteByte(' ')
			} else {
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	if n.stripAccents {
		s = removeNonspacingMarks(norm.NFD.String(s))
	}
	if n.lowercase {
		s = lowercase(s)
	}
	return s
}

// lowercase maps each character to its full Unicode lowercase form, which
// differs from unicode.ToLower only for U+0130 (İ → i + combining dot).
func lowercase(s string) string {
	if !strings.ContainsRune(s, 'İ') {
		return strings.Map(unicode.ToLower, s)
	}
	var b strings.Builder
	for _, r := range s {
		if r == 'İ' {
			b.WriteString("i\u0307")
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func removeNonspacingMarks(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func parsePreTokenizer(raw json.RawMessage) (preTokenizer, error) {
	if isJSONNull(raw) {
		return nil, nil
	}
	var spec struct {
		Type             string            `json:"type"`
		Behavior         string            `json:"behavior"`
		IndividualDigits bool              `json:"individual_digits"`
		PreTokenizers    []json.RawMessage `json:"pretokenizers"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("malformed: %w", err)
	}
	switch spec.Type {
	case "BertPreTokenizer":
		return preTokenizerFunc(bertPreTokenize), nil
	case "Whitespace":
		return preTokenizerFunc(splitWordsAndSymbols), nil
	case "WhitespaceSplit":
		return preTokenizerFunc(func(s string) []string { return strings.FieldsFunc(s, isWhitespace) }), nil
	case "Punctuation":
		switch spec.Behavior {
		case "", "Isolated":
			return preTokenizerFunc(func(s string) []string { return splitOn(s, isBertPunctuation, true) }), nil
		case "Removed":
			return preTokenizerFunc(func(s string) []string { return splitOn(s, isBertPunctuation, false) }), nil
		default:
			return nil, fmt.Errorf("Punctuation behavior %q is not supported (supported: Isolated, Removed)", spec.Behavior)
		}
	case "Digits":
		individual := spec.IndividualDigits
		return preTokenizerFunc(func(s string) []string {
			if individual {
				return splitOn(s, isNumeric, true)
			}
			return splitRuns(s, isNumeric)
		}), nil
	case "Sequence":
		var seq preTokenizerSequence
		for i, part := range spec.PreTokenizers {
			p, err := parsePreTokenizer(part)
			if err != nil {
				return nil, fmt.Errorf("Sequence item %d: %w", i, err)
			}
			if p != nil {
				seq = append(seq, p)
			}
		}
		return seq, nil
	default:
		return nil, fmt.Errorf("pre-tokenizer type %q is not supported", spec.Type)
	}
}

type preTokenizerFunc func(string) []string

func (f preTokenizerFunc) split(s string) []string { return f(s) }

type preTokenizerSequence []preTokenizer

func (seq preTokenizerSequence) split(s string) []string {
	pieces := []string{s}
	for _, p := range seq {
		var next []string
		for _, piece := range pieces {
			next = append(next, p.split(piece)...)
		}
		pieces = next
	}
	return pieces
}

// bertPreTokenize splits on whitespace (dropped) and punctuation (each mark
// its own word).
func bertPreTokenize(s string) []string {
	var words []string
	for _, field := range strings.FieldsFunc(s, isWhitespace) {
		words = append(words, splitOn(field, isBertPunctuation, true)...)
	}
	return words
}

// splitOn splits s around every character for which isSep holds, keeping
// each such character as its own piece when keep is set.
func splitOn(s string, isSep func(rune) bool, keep bool) []string {
	var out []string
	start := 0
	for i, r := range s {
		if !isSep(r) {
			continue
		}
		if i > start {
			out = append(out, s[start:i])
		}
		end := i + len(string(r))
		if keep {
			out = append(out, s[i:end])
		}
		start = end
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// splitRuns splits s into maximal runs of characters that agree on in.
func splitRuns(s string, in func(rune) bool) []string {
	var out []string
	start, prev := 0, false
	for i, r := range s {
		cur := in(r)
		if i > start && cur != prev {
			out = append(out, s[start:i])
			start = i
		}
		prev = cur
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// splitWordsAndSymbols finds the matches of the regex \w+|[^\w\s]+ (the
// Whitespace pre-tokenizer): runs of word characters and runs of symbols.
func splitWordsAndSymbols(s string) []string {
	const (
		space = iota
		word
		symbol
	)
	class := func(r rune) int {
		switch {
		case isWordChar(r):
			return word
		case isWhitespace(r):
			return space
		default:
			return symbol
		}
	}
	var out []string
	start, prev := 0, space
	for i, r := range s {
		cur := class(r)
		if cur != prev {
			if prev != space {
				out = append(out, s[start:i])
			}
			start = i
		}
		prev = cur
	}
	if prev != space {
		out = append(out, s[start:])
	}
	return out
}

// isWhitespace is Unicode White_Space, as Rust's char::is_whitespace.
func isWhitespace(r rune) bool { return unicode.IsSpace(r) }

// isControl is BERT's notion of a control character: general category
// Other (Cc, Cf, Co, Cs, Cn) except tab, newline and carriage return.
func isControl(r rune) bool {
	if r < 0x80 { // the common case, without table lookups
		return (r < 0x20 || r == 0x7f) && r != '\t' && r != '\n' && r != '\r'
	}
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) {
		return true
	}
	// Unassigned code points (Cn) belong to no category table.
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}

func isChineseChar(r rune) bool {
	switch {
	case r < 0x3400:
		return false
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF,
		r >= 0x20000 && r <= 0x2A6DF, r >= 0x2A700 && r <= 0x2B73F,
		r >= 0x2B740 && r <= 0x2B81F, r >= 0x2B920 && r <= 0x2CEAF,
		r >= 0xF900 && r <= 0xFAFF, r >= 0x2F800 && r <= 0x2FA1F:
		return true
	}
	return false
}

// isBertPunctuation is ASCII punctuation (which includes symbols such as $
// and +) or any Unicode punctuation (category P).
func isBertPunctuation(r rune) bool {
	if r < 0x80 {
		return r > ' ' && r < 0x7f && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}
	return unicode.IsPunct(r)
}

// isNumeric is Rust's char::is_numeric: categories Nd, Nl and No.
func isNumeric(r rune) bool { return unicode.IsNumber(r) }

// isAlphanumeric approximates Rust's char::is_alphanumeric (Alphabetic or
// Numeric).
func isAlphanumeric(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Other_Alphabetic, r)
}

// isWordChar is the regex class \w: Alphabetic, marks, decimal digits,
// connector punctuation and join controls.
func isWordChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
		unicode.IsMark(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r) ||
		unicode.Is(unicode.Join_Control, r)
}
