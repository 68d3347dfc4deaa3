package chunk

import (
	"bytes"
)

// Single-file components (Vue, Svelte) and Astro pages hold their code in
// <script> elements (and Astro in a frontmatter between "---" lines) among
// markup no grammar here reads. componentScript blanks everything but the
// scripts' contents, keeping every offset and line break, so that the
// JavaScript or TypeScript grammar reads the code where it stands; the
// markup between, left out of the parse, is chunked as blocks and stays
// searchable.

// componentScript returns the grammar a component's scripts are written in
// ("typescript" when one of them says lang="ts", "tsx" for lang="tsx",
// else "javascript") and src with everything outside the scripts blanked;
// "" when src has no script.
func componentScript(language string, src []byte) (grammar string, masked []byte) {
	var spans [][2]int // script contents, in order
	grammar = "javascript"
	if language == "astro" {
		if start, end, ok := frontmatter(src); ok {
			spans = append(spans, [2]int{start, end})
			grammar = "typescript" // Astro's frontmatter is TypeScript
		}
	}
	for from := 0; ; {
		open := indexFold(src[from:], []byte("<script"))
		if open < 0 {
			break
		}
		open += from
		tagEnd := bytes.IndexByte(src[open:], '>')
		if tagEnd < 0 {
			break
		}
		tagEnd += open
		after := open + len("<script")
		if after < len(src) && !isTagBreak(src[after]) {
			from = after // <scripts…>, not a script element
			continue
		}
		tag := src[open:tagEnd]
		if bytes.HasSuffix(tag, []byte("/")) { // <script … />
			from = tagEnd + 1
			continue
		}
		closeAt := indexFold(src[tagEnd:], []byte("</script"))
		if closeAt < 0 {
			break
		}
		closeAt += tagEnd
		switch scriptLang(tag) {
		case "ts", "typescript":
			if grammar != "tsx" {
				grammar = "typescript"
			}
		case "tsx":
			grammar = "tsx"
		}
		spans = append(spans, [2]int{tagEnd + 1, closeAt})
		from = closeAt + len("</script")
	}
	if len(spans) == 0 {
		return "", nil
	}
	masked = make([]byte, len(src))
	for i, c := range src {
		if c == '\n' {
			masked[i] = '\n'
		} else {
			masked[i] = ' '
		}
	}
	for _, s := range spans {
		copy(masked[s[0]:s[1]], src[s[0]:s[1]])
	}
	return grammar, masked
}

// frontmatter returns the bounds of the text between a leading "---" line
// and the next "---" line.
func frontmatter(src []byte) (start, end int, ok bool) {
	if !bytes.HasPrefix(src, []byte("---\n")) && !bytes.HasPrefix(src, []byte("---\r\n")) {
		return 0, 0, false
	}
	start = bytes.IndexByte(src, '\n') + 1
	for i := start; i < len(src); {
		lineEnd := bytes.IndexByte(src[i:], '\n')
		line := src[i:]
		if lineEnd >= 0 {
			line = src[i : i+lineEnd]
		}
		if string(bytes.TrimRight(line, "\r \t")) == "---" {
			return start, i, true
		}
		if lineEnd < 0 {
			break
		}
		i += lineEnd + 1
	}
	return 0, 0, false
}

// scriptLang returns the value of a script tag's lang attribute, lower-cased.
func scriptLang(tag []byte) string {
	i := indexFold(tag, []byte("lang="))
	if i < 0 || (i > 0 && !isTagBreak(tag[i-1])) {
		return ""
	}
	v := tag[i+len("lang="):]
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		quote := v[0]
		v = v[1:]
		if end := bytes.IndexByte(v, quote); end >= 0 {
			v = v[:end]
		}
	} else if end := bytes.IndexFunc(v, func(r rune) bool { return r == ' ' || r == '>' || r == '\t' || r == '\n' }); end >= 0 {
		v = v[:end]
	}
	return string(bytes.ToLower(v))
}

func isTagBreak(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/'
}

// indexFold is bytes.Index for an ASCII lower-case sep, ignoring case.
func indexFold(s, sep []byte) int {
	for i := 0; i+len(sep) <= len(s); i++ {
		j := 0
		for j < len(sep) && lowerASCII(s[i+j]) == sep[j] {
			j++
		}
		if j == len(sep) {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
