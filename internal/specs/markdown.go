package specs

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The small subset of Markdown both spec formats need: ATX headings, list
// items, fenced code blocks (whose lines are never headings or clauses) and
// text blocks.

// splitLines normalises line endings and drops a byte-order mark.
func splitLines(content string) []string {
	content = strings.TrimPrefix(content, "\ufeff")
	content = strings.ReplaceAll(content, "\r\n", "\n")
	content = strings.ReplaceAll(content, "\r", "\n")
	return strings.Split(content, "\n")
}

var headingRE = lazyRegexp(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)

// heading parses an ATX heading: its level and text without the closing
// hashes. ok is false for any other line.
func heading(line string) (level int, text string, ok bool) {
	m := headingRE().FindStringSubmatch(line)
	if m == nil {
		return 0, "", false
	}
	text = strings.TrimSpace(m[2])
	// A closing sequence of hashes is not part of the text ("## Title ##").
	if trimmed := strings.TrimRight(text, "#"); trimmed != text && (trimmed == "" || strings.HasSuffix(trimmed, " ")) {
		text = strings.TrimSpace(trimmed)
	}
	return len(m[1]), text, true
}

// fence tracks fenced code blocks (``` or ~~~).
type fence struct{ marker string }

// update reports whether line is inside a code block or is one of its
// fence lines, and records an opening or closing fence.
func (f *fence) update(line string) bool {
	trimmed := strings.TrimLeft(line, " ")
	if f.marker != "" {
		if strings.HasPrefix(trimmed, f.marker) && strings.Trim(trimmed, f.marker[:1]+" \t") == "" {
			f.marker = ""
		}
		return true
	}
	if len(line)-len(trimmed) <= 3 {
		for _, m := range []string{"```", "~~~"} {
			if strings.HasPrefix(trimmed, m) {
				n := len(trimmed) - len(strings.TrimLeft(trimmed, m[:1]))
				f.marker = strings.Repeat(m[:1], n)
				return true
			}
		}
	}
	return false
}

var listItemRE = lazyRegexp(`^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$`)

// listItem parses a bullet or numbered list item: its indentation (in
// columns, tabs counting as four) and its text.
func listItem(line string) (indent int, text string, ok bool) {
	m := listItemRE().FindStringSubmatch(line)
	if m == nil {
		return 0, "", false
	}
	return columns(m[1]), strings.TrimSpace(m[2]), true
}

func columns(ws string) int {
	n := 0
	for _, r := range ws {
		if r == '\t' {
			n += 4
		} else {
			n++
		}
	}
	return n
}

func indentOf(line string) int {
	return columns(line[:len(line)-len(strings.TrimLeft(line, " \t"))])
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// isThematicBreak reports a horizontal rule (---, ***, ___), which spec-kit
// uses between user stories.
func isThematicBreak(line string) bool {
	s := strings.ReplaceAll(strings.TrimSpace(line), " ", "")
	if len(s) < 3 {
		return false
	}
	return strings.Trim(s, "-") == "" || strings.Trim(s, "*") == "" || strings.Trim(s, "_") == ""
}

// textBlock renders collected lines as Markdown text: trailing spaces and
// surrounding blank lines removed, runs of blank lines collapsed to one.
func textBlock(lines []string) string {
	var out []string
	blank := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// joinContinuation appends a wrapped line to a clause or item text.
func joinContinuation(text, more string) string {
	more = strings.TrimSpace(more)
	switch {
	case more == "":
		return text
	case text == "":
		return more
	default:
		return text + " " + more
	}
}

// clip shortens s to at most n runes, marking the cut with an ellipsis; it
// keeps warnings about long lines readable.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// stripEmphasis removes emphasis that wraps the whole text, and only when
// it is balanced: "**Login**" → "Login", "*__Login__*" → "Login". Anything
// else is kept as written, so a heading reads back exactly as its author
// typed it: "Git ignores `.codex/`", "`git status` is clean" and
// "Import from __init__" keep their backticks and underscores. Code spans
// are text, not emphasis; a dunder name such as "__init__" is not taken for
// bold underscores either.
func stripEmphasis(s string) string {
	s = strings.TrimSpace(s)
	for {
		t, ok := unwrapEmphasis(s)
		if !ok {
			return s
		}
		s = t
	}
}

// unwrapEmphasis removes one balanced emphasis marker around s.
func unwrapEmphasis(s string) (string, bool) {
	for _, marker := range []string{"***", "___", "**", "__", "*", "_"} {
		if len(s) <= 2*len(marker) || !strings.HasPrefix(s, marker) || !strings.HasSuffix(s, marker) {
			continue
		}
		inner := s[len(marker) : len(s)-len(marker)]
		// The markers must hug the text (CommonMark's flanking rule), and the
		// inner text must not close the emphasis early.
		if strings.TrimSpace(inner) != inner || strings.Contains(inner, marker) {
			return "", false
		}
		if marker[0] == '_' && isIdentifier(inner) {
			return "", false // __init__, _private_
		}
		return strings.TrimSpace(inner), true
	}
	return "", false
}

func isIdentifier(s string) bool {
	for _, r := range s {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// unemphasized drops every bold marker ("**", "__") and then balanced
// emphasis around the whole text. It is for recognising keywords in
// headings ("### **User Story 5 - Bold** (Priority: P3)"), never for the
// names lore stores.
func unemphasized(s string) string {
	return stripEmphasis(strings.NewReplacer("**", "", "__", "").Replace(s))
}

// stripCodeSpan removes one code span wrapping the whole text:
// "`### Requirement: Old`" → "### Requirement: Old".
func stripCodeSpan(s string) string {
	s = strings.TrimSpace(s)
	for _, fence := range []string{"``", "`"} {
		if len(s) > 2*len(fence) && strings.HasPrefix(s, fence) && strings.HasSuffix(s, fence) &&
			!strings.Contains(s[len(fence):len(s)-len(fence)], fence) {
			return strings.TrimSpace(s[len(fence) : len(s)-len(fence)])
		}
	}
	return s
}
