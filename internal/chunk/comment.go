package chunk

import "strings"

// stripComment removes comment markers from a comment's text: the line
// markers // /// //! # -- ---, the block delimiters /* /** */ --[[ ]] and
// =begin =end, and the leading * of block comment lines. Surrounding blank
// lines go; the common indentation of what is left goes too.
func stripComment(raw string) string {
	raw = strings.ReplaceAll(raw, "\r\n", "\n")
	lines := strings.Split(strings.TrimRight(raw, "\n"), "\n")
	block := isBlockComment(raw)
	for i, line := range lines {
		t := strings.TrimLeft(line, " \t")
		stripped := false
		if block {
			if i == 0 {
				for _, open := range []string{"/**", "/*!", "/*", "--[[", "=begin", "<!--", "{-", "(*"} {
					if strings.HasPrefix(t, open) {
						t, stripped = strings.TrimPrefix(t, open), true
						break
					}
				}
			}
			if i == len(lines)-1 {
				trimmed := strings.TrimRight(t, " \t")
				for _, closer := range []string{"*/", "]]", "=end", "-->", "-}", "*)"} {
					if strings.HasSuffix(trimmed, closer) {
						t = strings.TrimSuffix(trimmed, closer)
						break
					}
				}
			}
			if i > 0 && strings.HasPrefix(t, "*") {
				t, stripped = strings.TrimPrefix(t, "*"), true
			}
		} else {
			for _, marker := range []string{"///", "//!", "//", "---", "--", "##", "#", ";;", "%"} {
				if strings.HasPrefix(t, marker) {
					t, stripped = strings.TrimPrefix(t, marker), true
					break
				}
			}
		}
		if !stripped && i > 0 {
			// Block comment text without a leading "*" keeps its
			// indentation; dedent evens it out below.
			t = line
			if i == len(lines)-1 {
				t = closeBlock(line)
			}
		} else {
			t = strings.TrimPrefix(t, " ")
		}
		lines[i] = strings.TrimRight(t, " \t")
	}
	var text string
	if block {
		// Like a docstring: the opening line is not indented, the rest
		// share the comment's indentation.
		text = trimBlankLines(append([]string{strings.TrimSpace(lines[0])}, dedent(lines[1:])...))
	} else {
		text = trimBlankLines(dedent(lines))
	}
	// C# XML documentation wraps its summary in tags that say nothing.
	if strings.Contains(text, "<summary>") {
		text = strings.TrimSpace(summaryTags.Replace(text))
	}
	return text
}

var summaryTags = strings.NewReplacer("<summary>\n", "", "\n</summary>", "", "<summary>", "", "</summary>", "")

// closeBlock removes a block comment's closing delimiter from its last line.
func closeBlock(line string) string {
	trimmed := strings.TrimRight(line, " \t")
	for _, closer := range []string{"*/", "]]", "=end", "-->", "-}", "*)"} {
		if strings.HasSuffix(trimmed, closer) {
			return strings.TrimSuffix(trimmed, closer)
		}
	}
	return line
}

// stripDocstring removes the quotes (and string prefixes such as r or b)
// from a Python or Elixir docstring and its common indentation.
func stripDocstring(raw string) string {
	s := strings.TrimSpace(strings.ReplaceAll(raw, "\r\n", "\n"))
	s = strings.TrimLeft(s, "rRuUbBfF")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) && strings.HasSuffix(s, q) && len(s) >= 2*len(q) {
			s = s[len(q) : len(s)-len(q)]
			break
		}
	}
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \t")
	}
	// The first line of a docstring is not indented; the rest share the
	// indentation of the code.
	first := strings.TrimSpace(lines[0])
	rest := dedent(lines[1:])
	return trimBlankLines(append([]string{first}, rest...))
}

// dedent strips the indentation common to all non-empty lines, after a
// single space that most comment styles put after their marker.
func dedent(lines []string) []string {
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || indent < common {
			common = indent
		}
	}
	if common <= 0 {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= common {
			out[i] = l[common:]
		} else {
			out[i] = strings.TrimLeft(l, " \t")
		}
	}
	return out
}

func trimBlankLines(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// isBlockComment reports a comment that opens with a block delimiter.
func isBlockComment(raw string) bool {
	t := strings.TrimSpace(raw)
	for _, open := range []string{"/*", "--[[", "=begin", "<!--", "{-", "(*"} {
		if strings.HasPrefix(t, open) {
			return true
		}
	}
	return false
}
