package packages

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The build scripts among manifests (Gradle's Groovy and Kotlin DSLs,
// Package.swift, gemspecs) are programs. lore does not evaluate them; it
// reads them as a token stream and recognises the few declarative shapes
// that name a package and its dependencies. Tokenizing first means strings
// and comments can never be mistaken for code, or the reverse.

type tokenKind int

const (
	tokIdent  tokenKind = iota // identifiers and keywords
	tokString                  // string literal; text is its content with simple escapes undone
	tokNumber
	tokPunct // a single punctuation character
)

type token struct {
	kind tokenKind
	text string
	line int
}

// tokenizerSyntax selects the comment and string forms of a language.
type tokenizerSyntax struct {
	hashComments  bool // Ruby: # to end of line
	slashComments bool // C family: // and /* */
	singleQuotes  bool // '…' is a string (Groovy, Ruby), not a character
	ruby          bool // strings span lines; heredocs (<<~ID) and %q{…} literals
}

var (
	groovySyntax = tokenizerSyntax{slashComments: true, singleQuotes: true}
	swiftSyntax  = tokenizerSyntax{slashComments: true}
	rubySyntax   = tokenizerSyntax{hashComments: true, singleQuotes: true, ruby: true}
)

// tokenize splits src into tokens. It never fails: an unterminated string
// or comment simply runs to the end of the input.
func tokenize(src string, syntax tokenizerSyntax) []token {
	var tokens []token
	line := 1
	heredocEnd := -1 // where the body of a pending heredoc ends
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			if heredocEnd > i { // the heredoc body was read already: skip it
				line += strings.Count(src[i:heredocEnd], "\n")
				i, heredocEnd = heredocEnd, -1
			}
		case syntax.ruby && strings.HasPrefix(src[i:], "<<") && heredocEnd < 0:
			if text, end, ok := readHeredoc(src, i); ok {
				tokens = append(tokens, token{kind: tokString, text: text, line: line})
				heredocEnd = end
				i = skipHeredocOpener(src, i)
				continue
			}
			tokens = append(tokens, token{kind: tokPunct, text: "<", line: line})
			i++
		case syntax.ruby && c == '%' && i+2 < len(src) && isPercentLiteral(src[i+1:]):
			text, next := readPercentLiteral(src, i+1)
			tokens = append(tokens, token{kind: tokString, text: text, line: line})
			line += strings.Count(src[i:next], "\n")
			i = next
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case syntax.hashComments && c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case syntax.slashComments && strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case syntax.slashComments && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += 2 + end + 2
		case c == '"' || (c == '\'' && syntax.singleQuotes):
			quote := src[i : i+1]
			if strings.HasPrefix(src[i:], strings.Repeat(quote, 3)) { // triple-quoted
				quote = strings.Repeat(quote, 3)
			}
			text, next := readString(src, i+len(quote), quote, syntax.ruby || len(quote) == 3)
			tokens = append(tokens, token{kind: tokString, text: text, line: line})
			line += strings.Count(src[i:next], "\n")
			i = next
		case c == '_' || c == '$' || c == '@' || isLetterAt(src, i):
			start := i
			for i < len(src) && (src[i] == '_' || src[i] == '$' || src[i] == '@' && i == start || isLetterAt(src, i) || isDigit(src[i])) {
				_, size := utf8.DecodeRuneInString(src[i:])
				i += size
			}
			tokens = append(tokens, token{kind: tokIdent, text: src[start:i], line: line})
		case isDigit(c):
			start := i
			for i < len(src) && (isDigit(src[i]) || src[i] == '.' || src[i] == '_' || isLetterAt(src, i)) {
				i++
			}
			tokens = append(tokens, token{kind: tokNumber, text: src[start:i], line: line})
		default:
			_, size := utf8.DecodeRuneInString(src[i:])
			tokens = append(tokens, token{kind: tokPunct, text: src[i : i+size], line: line})
			i += size
		}
	}
	return tokens
}

// readString reads a string body starting at i up to the closing quote and
// returns its content and the index after the quote. Unless multiline, an
// unterminated string ends at the end of its line, which keeps one stray
// quote from swallowing the rest of the file.
func readString(src string, i int, quote string, multiline bool) (string, int) {
	var b strings.Builder
	for i < len(src) {
		if strings.HasPrefix(src[i:], quote) {
			return b.String(), i + len(quote)
		}
		if src[i] == '\\' && i+1 < len(src) {
			switch src[i+1] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(src[i+1])
			}
			i += 2
			continue
		}
		if src[i] == '\n' && !multiline {
			return b.String(), i
		}
		b.WriteByte(src[i])
		i++
	}
	return b.String(), i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetterAt(src string, i int) bool {
	if src[i] < utf8.RuneSelf {
		c := src[i]
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	r, _ := utf8.DecodeRuneInString(src[i:])
	return unicode.IsLetter(r)
}

// tokenStream is a cursor over tokens with small matching helpers.
type tokenStream struct {
	tokens []token
	pos    int
}

func (s *tokenStream) done() bool { return s.pos >= len(s.tokens) }

// peek returns the token offset ahead of the cursor, or a zero token.
func (s *tokenStream) peek(offset int) token {
	if i := s.pos + offset; i >= 0 && i < len(s.tokens) {
		return s.tokens[i]
	}
	return token{kind: -1}
}

func (s *tokenStream) isPunct(offset int, p string) bool {
	t := s.peek(offset)
	return t.kind == tokPunct && t.text == p
}

func (s *tokenStream) isIdent(offset int, name string) bool {
	t := s.peek(offset)
	return t.kind == tokIdent && t.text == name
}

// skipBalanced moves the cursor, which must be on an opening bracket, past
// its matching closing bracket (or to the end).
func (s *tokenStream) skipBalanced() {
	open := s.peek(0).text
	closing := map[string]string{"(": ")", "[": "]", "{": "}"}[open]
	depth := 0
	for ; !s.done(); s.pos++ {
		t := s.peek(0)
		if t.kind != tokPunct {
			continue
		}
		switch t.text {
		case open:
			depth++
		case closing:
			depth--
			if depth == 0 {
				s.pos++
				return
			}
		}
	}
}

// readHeredoc reads a Ruby heredoc opened at i ("<<~ID", "<<-ID", "<<ID",
// with ID optionally quoted): its body is the lines after the opener's line
// up to the line holding only ID. end is the index after that line.
func readHeredoc(src string, i int) (text string, end int, ok bool) {
	id, _, ok := heredocID(src, i)
	if !ok {
		return "", 0, false
	}
	bodyStart := strings.IndexByte(src[i:], '\n')
	if bodyStart < 0 {
		return "", 0, false
	}
	bodyStart += i + 1
	var body []string
	for pos := bodyStart; pos < len(src); {
		eol := strings.IndexByte(src[pos:], '\n')
		next := len(src)
		if eol >= 0 {
			next = pos + eol + 1
		}
		line := strings.TrimRight(src[pos:next], "\r\n")
		if strings.TrimSpace(line) == id {
			return strings.Join(body, "\n"), next, true
		}
		body = append(body, strings.TrimSpace(line))
		pos = next
	}
	return strings.Join(body, "\n"), len(src), true
}

// heredocID parses the opener at i and returns the terminator and the
// index after the opener.
func heredocID(src string, i int) (id string, next int, ok bool) {
	j := i + 2
	if j < len(src) && (src[j] == '~' || src[j] == '-') {
		j++
	}
	if j < len(src) && (src[j] == '\'' || src[j] == '"') {
		end := strings.IndexByte(src[j+1:], src[j])
		if end <= 0 {
			return "", 0, false
		}
		return src[j+1 : j+1+end], j + 1 + end + 1, true
	}
	start := j
	for j < len(src) && (src[j] == '_' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= 'a' && src[j] <= 'z' || j > start && isDigit(src[j])) {
		j++
	}
	// Only upper-case terminators: "<<lower" is far more often a shift or
	// an append to a variable than a heredoc.
	if j == start || strings.ToUpper(src[start:j]) != src[start:j] {
		return "", 0, false
	}
	return src[start:j], j, true
}

func skipHeredocOpener(src string, i int) int {
	_, next, _ := heredocID(src, i)
	return next
}

// isPercentLiteral reports whether s (after a "%") starts a Ruby
// %q/%Q/%w/%W/%i/%I literal.
func isPercentLiteral(s string) bool {
	if len(s) < 2 || !strings.ContainsRune("qQwWiI", rune(s[0])) {
		return false
	}
	return strings.ContainsRune("({[<|!/", rune(s[1]))
}

// readPercentLiteral reads %q{…} and friends starting at the type letter;
// bracket delimiters nest.
func readPercentLiteral(src string, i int) (string, int) {
	open := src[i+1]
	closing := map[byte]byte{'(': ')', '{': '}', '[': ']', '<': '>'}[open]
	if closing == 0 {
		closing = open
	}
	depth := 1
	start := i + 2
	for j := start; j < len(src); j++ {
		switch {
		case src[j] == '\\':
			j++
		case src[j] == closing:
			depth--
			if depth == 0 {
				return src[start:j], j + 1
			}
		case src[j] == open && closing != open:
			depth++
		}
	}
	return src[start:], len(src)
}
