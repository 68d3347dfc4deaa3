package chunk

import (
	"bytes"
	"strings"
)

// heading is a documentation heading found by one of the markup scanners.
type heading struct {
	line  int // first line of the heading (an RST overline, a setext title)
	level int // 1 is the outermost
	title string
}

// sectionsFrom turns headings into section spans: one per heading up to the
// next heading, plus the text before the first one. Big sections are cut at
// paragraphs that do not break a literal block (literal[i] marks lines
// inside fenced or delimited blocks); small neighbours are merged.
func sectionsFrom(d *text, heads []heading, literal []bool) []span {
	n := d.lineCount()
	var sections []span
	if len(heads) == 0 || heads[0].line > 0 {
		end := n - 1
		if len(heads) > 0 {
			end = heads[0].line - 1
		}
		sections = append(sections, span{start: 0, end: end, kind: KindSection})
	}
	type open struct {
		level int
		title string
	}
	var path []open
	for i, h := range heads {
		for len(path) > 0 && path[len(path)-1].level >= h.level {
			path = path[:len(path)-1]
		}
		path = append(path, open{h.level, h.title})
		titles := make([]string, len(path))
		for j, p := range path {
			titles[j] = p.title
		}
		end := n - 1
		if i+1 < len(heads) {
			end = heads[i+1].line - 1
		}
		if end < h.line {
			continue
		}
		sections = append(sections, span{
			start:     h.line,
			end:       end,
			kind:      KindSection,
			signature: clip(h.title, maxSignature),
			crumb:     strings.Join(titles, " > "),
		})
	}

	var out []span
	runSmall := false // every section of the last chunk is small
	runEmpty := false // the last chunk has headings but no text
	for _, s := range sections {
		if d.fits(s.start, s.end, maxChunkLines, maxChunkBytes) {
			small := s.lines() < smallSectionLines
			empty := s.crumb != "" && sectionIsEmpty(d, s)
			// Consecutive small sections merge while the run stays within
			// bounds, and a heading with no text of its own joins what
			// follows it. The run is named by its first section with text:
			// "Install" with nothing but a "From source" subsection is
			// better named by the subsection's path.
			if len(out) > 0 {
				last := &out[len(out)-1]
				if !last.fixed && !empty && ((runSmall && small) || runEmpty) && last.end+1 == s.start &&
					d.fits(last.start, s.end, mergeMaxLines, mergeMaxBytes) {
					last.end = s.end
					if last.crumb == "" || runEmpty {
						last.crumb, last.signature = s.crumb, s.signature
					}
					runSmall = runSmall && small
					runEmpty = runEmpty && empty
					continue
				}
			}
			out = append(out, s)
			runSmall, runEmpty = small, empty
			continue
		}
		// Headings with no text of their own lead into the first piece.
		lead := -1
		if len(out) > 0 && runEmpty && !out[len(out)-1].fixed && out[len(out)-1].end+1 == s.start {
			lead = out[len(out)-1].start
			out = out[:len(out)-1]
		}
		runSmall, runEmpty = false, false
		for i, p := range d.pack(markupBlocks(d, s.start, s.end, literal), maxChunkLines, maxChunkBytes) {
			piece := s
			piece.start, piece.end, piece.fixed = p[0], p[1], true
			if i == 0 && lead >= 0 {
				piece.start = lead
			}
			out = append(out, piece)
		}
	}
	for i := range out {
		out[i].symbols = []string{}
	}
	return out
}

// sectionIsEmpty reports a section with nothing but its heading (and any
// underline or overline): every line after the heading's is blank or
// markup.
func sectionIsEmpty(d *text, s span) bool {
	for i := s.start + 1; i <= s.end; i++ {
		line := bytes.TrimSpace(d.line(i))
		if len(line) == 0 {
			continue
		}
		if _, adorned := rstAdornment(line); adorned && i <= s.start+2 {
			continue
		}
		return false
	}
	return true
}

// markupBlocks is paragraphs() that never cuts inside a literal block.
func markupBlocks(d *text, start, end int, literal []bool) [][2]int {
	var out [][2]int
	for _, p := range d.paragraphs(start, end) {
		if len(out) > 0 && literal[p[0]] {
			out[len(out)-1][1] = p[1]
			continue
		}
		out = append(out, p)
	}
	return out
}

// splitMarkdown finds ATX ("## Title") and setext (underlined) headings
// outside front matter and fenced code blocks.
func splitMarkdown(d *text) []span {
	n := d.lineCount()
	literal := make([]bool, n)
	var heads []heading
	start := 0
	// YAML or TOML front matter.
	if first := string(bytes.TrimSpace(d.line(0))); first == "---" || first == "+++" {
		for i := 1; i < n; i++ {
			l := string(bytes.TrimSpace(d.line(i)))
			if l == first || (first == "---" && l == "...") {
				for j := 0; j <= i; j++ {
					literal[j] = true
				}
				start = i + 1
				break
			}
		}
	}
	var fence []byte // the opening fence while inside a fenced block
	for i := start; i < n; i++ {
		line := d.line(i)
		body, indent := trimIndent(line)
		if fence != nil {
			literal[i] = true
			if indent <= 3 && isFenceClose(body, fence) {
				fence = nil
			}
			continue
		}
		if indent <= 3 {
			if f := fenceOpen(body); f != nil {
				fence = f
				literal[i] = true
				continue
			}
			if level, title, ok := atxHeading(body); ok {
				heads = append(heads, heading{line: i, level: level, title: title})
				continue
			}
			if level := setextUnderline(body); level > 0 && i > start && !literal[i-1] {
				prev := d.line(i - 1)
				prevBody, prevIndent := trimIndent(prev)
				if prevIndent <= 3 && len(bytes.TrimSpace(prev)) > 0 && !isBlockStart(prevBody) &&
					(len(heads) == 0 || heads[len(heads)-1].line != i-1) {
					heads = append(heads, heading{line: i - 1, level: level, title: string(bytes.TrimSpace(prev))})
				}
			}
		}
	}
	return sectionsFrom(d, heads, literal)
}

// trimIndent strips leading spaces and tabs, reporting the indent width.
func trimIndent(line []byte) ([]byte, int) {
	width := 0
	for i, b := range line {
		switch b {
		case ' ':
			width++
		case '\t':
			width += 4 - width%4
		default:
			return line[i:], width
		}
	}
	return nil, width
}

// fenceOpen returns the fence (``` or ~~~, three or more) that body opens.
func fenceOpen(body []byte) []byte {
	if len(body) < 3 || (body[0] != '`' && body[0] != '~') {
		return nil
	}
	c := body[0]
	k := 0
	for k < len(body) && body[k] == c {
		k++
	}
	if k < 3 {
		return nil
	}
	// A backtick fence's info string may not contain backticks.
	if c == '`' && bytes.IndexByte(body[k:], '`') >= 0 {
		return nil
	}
	return body[:k]
}

func isFenceClose(body, fence []byte) bool {
	t := bytes.TrimRight(body, " \t\r")
	if len(t) < len(fence) {
		return false
	}
	for _, b := range t {
		if b != fence[0] {
			return false
		}
	}
	return true
}

// atxHeading parses "## Title ##".
func atxHeading(body []byte) (int, string, bool) {
	level := 0
	for level < len(body) && body[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest := body[level:]
	if len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\r' {
		return 0, "", false
	}
	title := strings.TrimSpace(string(rest))
	// An optional closing sequence of #s after a space.
	if t := strings.TrimRight(title, "#"); t != title && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		title = strings.TrimSpace(t)
	}
	return level, title, true
}

// setextUnderline returns 1 for "===" and 2 for "---" underlines, else 0.
func setextUnderline(body []byte) int {
	t := bytes.TrimRight(body, " \t\r")
	if len(t) == 0 {
		return 0
	}
	c := t[0]
	if c != '=' && c != '-' {
		return 0
	}
	for _, b := range t {
		if b != c {
			return 0
		}
	}
	if c == '=' {
		return 1
	}
	return 2
}

// isBlockStart reports lines that cannot be the text of a setext heading:
// list items, quotes, headings, fences, tables and HTML.
func isBlockStart(body []byte) bool {
	if len(body) == 0 {
		return true
	}
	switch body[0] {
	case '#', '>', '<', '|', '`', '~':
		return true
	case '-', '*', '+':
		return len(body) == 1 || body[1] == ' ' || body[1] == '\t' || setextUnderline(body) > 0
	}
	return setextUnderline(body) > 0
}

// splitRST finds reStructuredText section titles: a title line underlined
// (and optionally overlined) by a repeated punctuation character. Levels
// follow the order in which adornment styles first appear.
func splitRST(d *text) []span {
	n := d.lineCount()
	literal := make([]bool, n)
	var heads []heading
	styles := map[string]int{}
	for i := 1; i < n; i++ {
		under := d.line(i)
		c, ok := rstAdornment(under)
		if !ok {
			continue
		}
		title := d.line(i - 1)
		trimmed := bytes.TrimSpace(title)
		if len(trimmed) == 0 || title[0] == ' ' || title[0] == '\t' {
			continue
		}
		if _, isAdorn := rstAdornment(title); isAdorn {
			continue
		}
		if len(bytes.TrimRight(under, " \t\r")) < min(len(trimmed), 3) {
			continue
		}
		start := i - 1
		over := false
		if i >= 2 {
			if oc, ok := rstAdornment(d.line(i - 2)); ok && oc == c {
				over, start = true, i-2
			}
		}
		// A title starts a paragraph: the line above it is blank.
		if start > 0 && !d.blank(start-1) {
			continue
		}
		style := string(c)
		if over {
			style += "/over"
		}
		level, seen := styles[style]
		if !seen {
			level = len(styles) + 1
			styles[style] = level
		}
		heads = append(heads, heading{line: start, level: level, title: string(trimmed)})
	}
	return sectionsFrom(d, heads, literal)
}

// rstAdornment reports whether line is one punctuation character repeated
// (at least twice, no spaces), returning that character.
func rstAdornment(line []byte) (byte, bool) {
	t := bytes.TrimRight(line, " \t\r")
	if len(t) < 2 {
		return 0, false
	}
	c := t[0]
	if !strings.ContainsRune("=-`:'\"~^_*+#<>.!$%&(),/;?@[\\]{|}", rune(c)) {
		return 0, false
	}
	for _, b := range t {
		if b != c {
			return 0, false
		}
	}
	return c, true
}

// splitAsciiDoc finds "== Title" (and Markdown-style "## Title") headings
// outside delimited blocks such as ---- listings and //// comments.
func splitAsciiDoc(d *text) []span {
	n := d.lineCount()
	literal := make([]bool, n)
	var heads []heading
	var delim string // the open block delimiter, if any
	for i := 0; i < n; i++ {
		line := strings.TrimRight(string(d.line(i)), " \t\r")
		if delim != "" {
			literal[i] = true
			if line == delim {
				delim = ""
			}
			continue
		}
		if isAsciiDocDelimiter(line) {
			delim = line
			if strings.HasPrefix(line, "```") {
				delim = "```" // a fence with a language closes with a bare fence
			}
			literal[i] = true
			continue
		}
		if len(line) < 2 || (line[0] != '=' && line[0] != '#') {
			continue
		}
		c := line[0]
		level := 0
		for level < len(line) && line[level] == c {
			level++
		}
		if level > 6 || level >= len(line) || line[level] != ' ' {
			continue
		}
		title := strings.TrimSpace(strings.TrimRight(line[level:], string(c)))
		if title == "" {
			continue
		}
		heads = append(heads, heading{line: i, level: level, title: title})
	}
	return sectionsFrom(d, heads, literal)
}

// isAsciiDocDelimiter reports block delimiters: four or more of - . = * + _
// / repeated, or a ``` fence.
func isAsciiDocDelimiter(line string) bool {
	if strings.HasPrefix(line, "```") {
		return true
	}
	if len(line) < 4 || !strings.ContainsRune("-.=*+_/", rune(line[0])) {
		return false
	}
	return strings.Count(line, line[:1]) == len(line)
}

// clip shortens s to at most max bytes without cutting a UTF-8 sequence.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
