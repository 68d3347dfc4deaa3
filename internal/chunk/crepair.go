package chunk

import (
	"bytes"
	"slices"
)

// cRepair rewrites C and C++ source whose parse has errors so that the
// grammar reads past the macros real code is full of. The grammars see
// code before the preprocessor, so a macro standing for an attribute,
// a keyword or a block ("SPDLOG_INLINE void logger::log(…)",
// "FMT_CONSTEXPR auto", "class ABSL_MUST_USE_RESULT Status",
// "ABSL_NAMESPACE_BEGIN", "SPDLOG_TRY { … } SPDLOG_LOGGER_CATCH(loc)",
// "void f() ABSL_LOCKS_EXCLUDED(mu_);") reads as an error that can take
// the definitions after it along. An upper-case identifier is taken for
// such a macro, and blanked with its arguments, where it stands:
//
//   - before a declaration: at the start of a line, or after specifiers
//     such as static, inline, friend or another such macro, when a
//     keyword or a type and a name follow ("FMT_API void", "SPDLOG_API
//     bool", "ABSL_MUST_USE_RESULT Status Foo");
//   - between class, struct or union and the name, or between a
//     declaration's type and its name ("void SPDLOG_INLINE f()");
//   - alone on a line without a semicolon, without arguments or before
//     a closing brace, or without arguments before a line's opening
//     brace ("ABSL_NAMESPACE_BEGIN", "SPDLOG_TRY {", then
//     "SPDLOG_LOGGER_CATCH(loc)" before "}");
//   - between if and its condition ("if FMT_CONSTEXPR20 (…)");
//   - after a function's parameters or a field's name, with arguments,
//     before the end of the declaration ("… ABSL_GUARDED_BY(mu_);").
//
// A macro call standing for a template parameter ("template <typename
// T, FMT_ENABLE_IF(std::is_integral<T>::value)>") becomes "int", an
// unnamed parameter. Preprocessor lines are left alone. Blanking keeps every byte offset,
// and the caller keeps whichever parse has fewer bytes in error, so a
// guess that makes things worse costs nothing.
func cRepair(src []byte) []byte {
	out := slices.Clone(src)
	repairTemplateParams(out)
	lines := bytes.Split(out, []byte("\n")) // slices of out: blanking writes through
	prev := lineEnd{char: ';'}
	directive := false // the line belongs to a preprocessor directive
	for i, line := range lines {
		trimmed := bytes.TrimRight(line, " \t\r")
		if start := skipSpace(trimmed, 0); directive || start < len(trimmed) && trimmed[start] == '#' {
			// A directive ends what came before; a backslash carries it
			// on to the next line.
			directive = bytes.HasSuffix(trimmed, []byte(`\`))
			prev = lineEnd{char: ';'}
			continue
		}
		// How the line ends as written, before its macros are blanked:
		// an attribute may go on on the next line.
		// A line left without code was a macro alone and does not count.
		end, _ := endOf(line)
		repairCLine(line, prev, nextCodeStart(lines[i+1:]))
		if _, code := endOf(line); code {
			prev = end
		}
	}
	return out
}

// lineEnd is how a line of code ends: its last character and, when it
// ends with an identifier, that identifier.
type lineEnd struct {
	char byte
	word string
}

// endOf returns how line ends, and whether it has code at all.
func endOf(line []byte) (lineEnd, bool) {
	trimmed := bytes.TrimRight(line, " \t\r")
	if skipSpace(trimmed, 0) == len(trimmed) {
		return lineEnd{}, false
	}
	end := lineEnd{char: trimmed[len(trimmed)-1]}
	start := len(trimmed)
	for start > 0 && (isIdentStart(trimmed[start-1]) || trimmed[start-1] >= '0' && trimmed[start-1] <= '9') {
		start--
	}
	if start < len(trimmed) && isIdentStart(trimmed[start]) {
		end.word = string(trimmed[start:])
	}
	return end, true
}

// declarationGoesOn reports whether a line starting with c continues a
// declaration whose line ended with an attribute: its body, its end, an
// initializer, or another attribute.
func declarationGoesOn(c byte) bool {
	return c == '{' || c == ';' || c == '=' || c == ':' || c >= 'A' && c <= 'Z'
}

// nextCodeStart returns the first character of the first of lines with
// anything but blanks, or 0.
func nextCodeStart(lines [][]byte) byte {
	for _, line := range lines {
		if i := skipSpace(line, 0); i < len(line) {
			return line[i]
		}
	}
	return 0
}

// statementBoundary reports whether a line after one ending in last
// starts a statement or declaration, rather than continuing an expression
// or a list ("FOO_B" after "FOO_A," is an enumerator, not a macro).
func statementBoundary(last byte) bool {
	switch last {
	case ';', '{', '}', ')', ':', '/':
		return true
	}
	return false
}

// cSpecifiers may come before an attribute macro at the start of a
// declaration.
var cSpecifiers = map[string]bool{
	"static": true, "inline": true, "constexpr": true, "consteval": true, "friend": true,
	"virtual": true, "explicit": true, "extern": true, "const": true, "typedef": true,
}

// cDeclKeywords may follow an attribute macro at the start of a
// declaration.
var cDeclKeywords = map[string]bool{
	"void": true, "bool": true, "char": true, "int": true, "long": true, "short": true,
	"unsigned": true, "signed": true, "float": true, "double": true, "auto": true,
	"static": true, "inline": true, "constexpr": true, "consteval": true, "const": true,
	"volatile": true, "virtual": true, "explicit": true, "friend": true, "extern": true,
	"class": true, "struct": true, "union": true, "enum": true, "template": true,
	"typename": true, "namespace": true, "typedef": true, "using": true, "operator": true,
}

// cNotDeclarators are identifiers after which an upper-case name is a
// value, not a trailing attribute ("return EOF;").
var cNotDeclarators = map[string]bool{
	"return": true, "case": true, "throw": true, "goto": true, "sizeof": true, "else": true,
	"co_return": true, "co_yield": true, "new": true, "delete": true,
}

// repairCLine blanks, in place, the macros of one line that cRepair
// describes; prev says how the previous line with code ended, nextStart
// is the first character of the next.
func repairCLine(line []byte, prev lineEnd, nextStart byte) {
	lineStarts := statementBoundary(prev.char)
	i := skipSpace(line, 0)
	if bytes.HasSuffix(bytes.TrimRight(line, " \t\r"), []byte(`\`)) {
		return // a line of a multi-line macro's body
	}
	atDeclStart := true           // only specifiers and blanked macros so far
	prevWord := prev.word         // the identifier before i, if the previous token was one
	prevClose := prev.char == ')' // the previous token was ')'
	first := i                    // where the line's code starts
	for i < len(line) {
		c := line[i]
		if !isIdentStart(c) {
			atDeclStart = false
			prevWord = ""
			prevClose = c == ')'
			i++
			i = skipSpace(line, i)
			continue
		}
		wordEnd := identEnd(line, i)
		word := string(line[i:wordEnd])
		if !isMacroName(word) {
			if !cSpecifiers[word] && !cDeclKeywords[word] {
				atDeclStart = false
			}
			if word == "if" {
				// "if FMT_CONSTEXPR20 (": the macro before the condition.
				j := skipSpace(line, wordEnd)
				if k := identEnd(line, j); k > j && isMacroName(string(line[j:k])) && skipSpace(line, k) < len(line) && line[skipSpace(line, k)] == '(' {
					blank(line[j:k])
				}
			}
			if word == "class" || word == "struct" || word == "union" {
				// "class SPDLOG_API logger", "class ABSL_LOCKABLE
				// ABSL_ATTRIBUTE_WARN_UNUSED Mutex": the macros before
				// the name.
				j := skipSpace(line, wordEnd)
				for k := identEnd(line, j); k > j && isMacroName(string(line[j:k])); k = identEnd(line, j) {
					n := skipSpace(line, k)
					if n == k || n >= len(line) || !isIdentStart(line[n]) {
						break
					}
					blank(line[j:k])
					j = n
				}
			}
			prevWord, prevClose = word, false
			i = skipSpace(line, wordEnd)
			continue
		}
		// An upper-case name, with its arguments when they close on this
		// line.
		callEnd := wordEnd
		hasArgs := false
		if j := skipSpace(line, wordEnd); j < len(line) && line[j] == '(' {
			if k := matchingParen(line, j, len(line)); k > 0 {
				callEnd, hasArgs = k+1, true
			}
		}
		next := skipSpace(line, callEnd)
		rest := bytes.TrimRight(line[next:], " \t\r")
		switch {
		case lineStarts && atDeclStart && len(rest) == 0 && prevWord == "" && (!hasArgs || nextStart == '}'):
			// Alone on its line, without a semicolon: "ABSL_NAMESPACE_BEGIN",
			// or a call closing a block, "SPDLOG_LOGGER_CATCH(loc)" before
			// "}". Other calls may go on on the next line
			// ("EXPECT_CALL(m, f())" then ".WillOnce(…)"), or be a
			// statement ("ASSERT_EQ(a, b)" under an if): they stay.
			blank(line[i:callEnd])
		case lineStarts && atDeclStart && !hasArgs && string(rest) == "{" && prevWord == "":
			// A block macro: "SPDLOG_TRY {". One with arguments stays: the
			// grammar reads "TEST(Suite, Name) {" as a function named TEST.
			blank(line[i:callEnd])
		case atDeclStart && declarationFollows(line, next):
			blank(line[i:callEnd])
		case hasArgs && (prevClose || prevWord != "" && !cNotDeclarators[prevWord] && !isMacroName(prevWord)) &&
			endsDeclaration(line, next) && (i != first || len(rest) > 0 || declarationGoesOn(nextStart)):
			// A trailing attribute: "void f() ABSL_LOCKS_EXCLUDED(mu_);",
			// "int n_ ABSL_GUARDED_BY(mu_);". First on its line and last,
			// it is one only if the next line goes on with the
			// declaration: "if (ok)" then "ASSERT_EQ(a, b)" is a statement.
			blank(line[i:callEnd])
		default:
			atDeclStart = false
			prevWord, prevClose = word, false
			i = next
			continue
		}
		i = next
	}
}

// declarationFollows reports whether what starts at i reads as the rest
// of a declaration: a keyword, or a type followed by a name (or by ::, <,
// * or &), or another attribute macro.
func declarationFollows(line []byte, i int) bool {
	end := identEnd(line, i)
	if end == i {
		return false
	}
	word := string(line[i:end])
	if cDeclKeywords[word] || isMacroName(word) {
		return true
	}
	j := skipSpace(line, end)
	if j == len(line) {
		return false
	}
	switch line[j] {
	case ':':
		return j+1 < len(line) && line[j+1] == ':'
	case '<', '*', '&':
		return true
	}
	return j > end && isIdentStart(line[j])
}

// endsDeclaration reports whether what starts at i ends a declaration or
// continues its trailing part: ;, {, =, a qualifier, or another macro.
func endsDeclaration(line []byte, i int) bool {
	if i == len(line) {
		return true
	}
	switch line[i] {
	case ';', '{', '=', ',':
		return true
	}
	end := identEnd(line, i)
	word := string(line[i:end])
	switch word {
	case "const", "override", "final", "noexcept":
		return true
	}
	return end > i && isMacroName(word)
}

// isMacroName reports an upper-case identifier of at least three
// characters with at least two letters: FMT_API, ABSL_NAMESPACE_BEGIN,
// WINAPI; not T, ID or a number.
func isMacroName(word string) bool {
	if len(word) < 3 {
		return false
	}
	letters := 0
	for i := 0; i < len(word); i++ {
		switch c := word[i]; {
		case c >= 'A' && c <= 'Z':
			letters++
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letters >= 2
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func identEnd(line []byte, i int) int {
	if i >= len(line) || !isIdentStart(line[i]) {
		return i
	}
	for i < len(line) && (isIdentStart(line[i]) || line[i] >= '0' && line[i] <= '9') {
		i++
	}
	return i
}

func skipSpace(line []byte, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
		i++
	}
	return i
}

func blank(b []byte) {
	for i := range b {
		b[i] = ' '
	}
}

// repairTemplateParams rewrites, in place, an upper-case macro call that
// stands for a template parameter (after "<" or "," and before ">" or ","
// of a template's parameters, its arguments possibly over several lines)
// into "int" and blanks, keeping line breaks.
func repairTemplateParams(src []byte) {
	const maxArgs = 1 << 10 // arguments longer than this are left alone
	for from := 0; ; {
		at := bytes.Index(src[from:], []byte("template"))
		if at < 0 {
			return
		}
		at += from
		from = at + len("template")
		open := skipSpaceAndBreaks(src, from)
		if open >= len(src) || src[open] != '<' || at > 0 && (isIdentStart(src[at-1]) || src[at-1] >= '0' && src[at-1] <= '9') {
			continue
		}
		// Walk the parameter list, one parameter at a time.
		for i := open; i < len(src) && (src[i] == '<' || src[i] == ','); {
			start := skipSpaceAndBreaks(src, i+1)
			end := identEnd(src, start)
			call := skipSpaceAndBreaks(src, end)
			if end > start && isMacroName(string(src[start:end])) && call < len(src) && src[call] == '(' {
				if closeAt := matchingParen(src, call, maxArgs); closeAt > 0 {
					after := skipSpaceAndBreaks(src, closeAt+1)
					if after < len(src) && (src[after] == '>' || src[after] == ',') {
						blankKeepingBreaks(src[start : closeAt+1])
						copy(src[start:], "int")
						i = after
						continue
					}
				}
			}
			i = nextTemplateParam(src, start, maxArgs)
		}
	}
}

// nextTemplateParam returns the index of the "," or the closing ">" after
// the template parameter that starts at i, nesting brackets, or len(src)
// when there is none within limit bytes.
func nextTemplateParam(src []byte, i, limit int) int {
	depth := 0
	for end := min(len(src), i+limit); i < end; i++ {
		switch src[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		case ';':
			return len(src)
		}
		if depth < 0 {
			return len(src)
		}
	}
	return len(src)
}

// matchingParen returns the index of the parenthesis closing the one at
// open within limit bytes, or -1.
func matchingParen(src []byte, open, limit int) int {
	depth := 0
	for i := open; i < len(src) && i < open+limit; i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func skipSpaceAndBreaks(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
		i++
	}
	return i
}

func blankKeepingBreaks(b []byte) {
	for i := range b {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}
