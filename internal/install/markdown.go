package install

import (
	"bytes"
	"fmt"
	"strings"
)

// Markers around the block lore writes in an agent's instructions file.
const (
	blockBegin = "<!-- lore:begin -->"
	blockEnd   = "<!-- lore:end -->"
)

// instructionsText tells an agent when to use which lore tool. It is the
// body of the marked block; the markers make it lore's to replace or
// remove, and nothing else in the file is touched.
const instructionsText = `## lore: code search over MCP

The ` + "`lore`" + ` MCP server indexes this machine's repositories for search. Prefer it over
grep, find or reading whole files when you look for code:

- ` + "`search_code`" + ` — ranked search by meaning or identifiers ("where is the retry policy
  configured"); answers with the functions and types that match, with their paths and lines.
- ` + "`search_docs`" + ` — the same over Markdown and other docs.
- ` + "`search`" + ` — exact keyword or regex matches, in a stable order, when you know the string.
- ` + "`open_file`" + `, ` + "`get_snippet`" + `, ` + "`list_dir`" + ` — read a file, a line range, a folder.
- ` + "`list_packages`" + `, ` + "`search_packages`" + `, ` + "`get_package`" + `, ` + "`package_dependencies`" + `,
  ` + "`package_dependents`" + `, ` + "`dependency_graph`" + ` — a monorepo's packages and how they depend
  on each other.
- ` + "`list_specs`" + `, ` + "`get_spec_requirements`" + `, ` + "`get_scenario`" + `, ` + "`search_specs`" + ` — OpenSpec and spec-kit
  requirements and their scenarios.
- ` + "`index_status`" + ` tells when the index was built; ` + "`index_codebase`" + ` builds or updates it (run
  it when a search answers that there is no index, or after large changes).`

// markdownEditor keeps lore's marked block in a Markdown file.
type markdownEditor struct {
	body string // the block's text between the markers
}

// block is the whole marked block, with line endings nl.
func (e *markdownEditor) block(nl string) string {
	return strings.ReplaceAll(blockBegin+"\n"+e.body+"\n"+blockEnd, "\n", nl)
}

// find returns the byte range of the marked block, end after its end
// marker; ok is false without one, and a begin marker without its end is
// an error.
func findBlock(path string, src []byte) (start, end int, ok bool, err error) {
	start = bytes.Index(src, []byte(blockBegin))
	if start < 0 {
		if bytes.Contains(src, []byte(blockEnd)) {
			return 0, 0, false, fmt.Errorf("%s has %s without %s; lore leaves it untouched, fix it by hand", path, blockEnd, blockBegin)
		}
		return 0, 0, false, nil
	}
	rel := bytes.Index(src[start:], []byte(blockEnd))
	if rel < 0 {
		return 0, 0, false, fmt.Errorf("%s has %s without %s; lore leaves it untouched, fix it by hand", path, blockBegin, blockEnd)
	}
	return start, start + rel + len(blockEnd), true, nil
}

// install returns src with lore's block: replaced where it is, or appended
// after a blank line.
func (e *markdownEditor) install(path string, src []byte) ([]byte, error) {
	nl := newline(src)
	start, end, ok, err := findBlock(path, src)
	if err != nil {
		return nil, err
	}
	if ok {
		return splice(src, start, end, e.block(nl)), nil
	}
	var b strings.Builder
	b.Write(src)
	if len(bytes.TrimSpace(src)) > 0 {
		if !bytes.HasSuffix(src, []byte("\n")) {
			b.WriteString(nl)
		}
		b.WriteString(nl)
	}
	b.WriteString(e.block(nl) + nl)
	return []byte(b.String()), nil
}

// uninstall returns src without lore's block, its line ending and the blank
// line install put before it.
func (e *markdownEditor) uninstall(path string, src, _ []byte) ([]byte, bool, error) {
	start, end, ok, err := findBlock(path, src)
	if err != nil || !ok {
		return src, false, err
	}
	nl := newline(src)
	if bytes.HasPrefix(src[end:], []byte(nl)) {
		end += len(nl)
	}
	before, after := src[:start], src[end:]
	if bytes.HasSuffix(before, []byte(nl+nl)) && (len(after) == 0 || bytes.HasPrefix(after, []byte(nl))) {
		before = before[:len(before)-len(nl)]
	}
	out := append(append([]byte{}, before...), after...)
	return out, len(bytes.TrimSpace(out)) == 0, nil
}

// has reports whether src holds lore's block.
func (e *markdownEditor) has(path string, src []byte) (bool, error) {
	_, _, ok, err := findBlock(path, src)
	return ok, err
}

// canonical is src without trailing whitespace at its end.
func (e *markdownEditor) canonical(src []byte) string {
	return strings.TrimRight(string(src), " \t\r\n")
}
