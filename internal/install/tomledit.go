package install

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// tomlEditor edits the [<table>.<name>] table of a TOML file (Codex's
// config.toml) by text: lore's table is appended, or its keys replaced in
// place, and every other byte, comments included, stays as it was.
type tomlEditor struct {
	table string // "mcp_servers"
	name  string // "lore"
	entry fields // keys and values lore owns: strings and string lists
}

// tomlExpr is one top-level expression of a TOML document: a table
// header, a key/value or a comment, with the byte range of its lines.
type tomlExpr struct {
	kind       unstable.Kind
	key        []string // the table's or the key's dotted path
	start, end int      // from its line's start to after its last line's newline
}

// scanTOML parses src into its expressions, naming path in the error.
func scanTOML(path string, src []byte) ([]tomlExpr, error) {
	var doc map[string]any
	if err := toml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("%s is not valid TOML: %v; lore leaves it untouched, fix it or move it aside", path, err)
	}
	p := unstable.Parser{KeepComments: true}
	p.Reset(src)
	var out []tomlExpr
	for p.NextExpression() {
		e := p.Expression()
		x := tomlExpr{kind: e.Kind}
		it := e.Children()
		first := -1
		last := e.Raw.Offset + e.Raw.Length
		for it.Next() {
			n := it.Node()
			if n.Kind == unstable.Key {
				x.key = append(x.key, string(n.Data))
				if first < 0 {
					first = int(n.Raw.Offset)
				}
				last = max(last, n.Raw.Offset+n.Raw.Length)
			}
		}
		if e.Kind == unstable.Comment || e.Kind == unstable.KeyValue {
			first = int(e.Raw.Offset)
		}
		if first < 0 {
			continue
		}
		x.start = bytes.LastIndexByte(src[:first], '\n') + 1
		end := bytes.IndexByte(src[last:], '\n')
		if end < 0 {
			x.end = len(src)
		} else {
			x.end = int(last) + end + 1
		}
		out = append(out, x)
	}
	if err := p.Error(); err != nil {
		return nil, fmt.Errorf("%s is not valid TOML: %v; lore leaves it untouched", path, err)
	}
	return out, nil
}

// region finds lore's table: the header's index and the end of its last
// key/value (its sub-tables included). ok is false when there is no
// [<table>.<name>] header; a definition lore did not write in that form
// (dotted keys, an inline table) is an error, as editing it could break it.
func (e *tomlEditor) region(path string, exprs []tomlExpr) (header, end int, ok bool, err error) {
	header = -1
	var current []string // the table the expressions belong to
	for i, x := range exprs {
		switch x.kind {
		case unstable.Table, unstable.ArrayTable:
			current = x.key
			if header >= 0 && !hasPrefix(x.key, []string{e.table, e.name}) {
				return header, end, true, nil
			}
			if header < 0 && reflect.DeepEqual(x.key, []string{e.table, e.name}) && x.kind == unstable.Table {
				header, end = i, x.end
			} else if header < 0 && hasPrefix(x.key, []string{e.table, e.name}) {
				return 0, 0, false, fmt.Errorf("%s defines %s.%s in a form lore does not edit (%s); edit it by hand", path, e.table, e.name, strings.Join(x.key, "."))
			}
		case unstable.KeyValue:
			full := append(append([]string{}, current...), x.key...)
			if header >= 0 {
				end = x.end
			} else if hasPrefix(full, []string{e.table, e.name}) {
				return 0, 0, false, fmt.Errorf("%s defines %s.%s in a form lore does not edit (%s = …); edit it by hand", path, e.table, e.name, strings.Join(full, "."))
			}
		}
	}
	return header, end, header >= 0, nil
}

// install returns src with lore's table set.
func (e *tomlEditor) install(path string, src []byte) ([]byte, error) {
	nl := newline(src)
	for range len(e.entry) + 1 {
		exprs, err := scanTOML(path, src)
		if err != nil {
			return nil, err
		}
		h, end, ok, err := e.region(path, exprs)
		if err != nil {
			return nil, err
		}
		if !ok {
			var b strings.Builder
			b.Write(src)
			if len(bytes.TrimSpace(src)) > 0 {
				if !bytes.HasSuffix(src, []byte("\n")) {
					b.WriteString(nl)
				}
				b.WriteString(nl)
			}
			b.WriteString("[" + e.table + "." + e.name + "]" + nl)
			for _, f := range e.entry {
				b.WriteString(f.key + " = " + tomlValue(f.value) + nl)
			}
			return []byte(b.String()), nil
		}
		var doc map[string]any
		_ = toml.Unmarshal(src, &doc)
		have := lookupTOML(doc, e.table, e.name)
		edited := false
		for _, f := range e.entry {
			if sameTOML(have[f.key], f.value) {
				continue
			}
			line := f.key + " = " + tomlValue(f.value) + nl
			// Replace the key's own line(s) in lore's table, or add it
			// under the header.
			at := -1
			for i := h + 1; i < len(exprs) && exprs[i].start < end; i++ {
				if exprs[i].kind == unstable.Table || exprs[i].kind == unstable.ArrayTable {
					break
				}
				if exprs[i].kind == unstable.KeyValue && reflect.DeepEqual(exprs[i].key, []string{f.key}) {
					at = i
					break
				}
			}
			if at >= 0 {
				src = splice(src, exprs[at].start, exprs[at].end, line)
			} else {
				src = splice(src, exprs[h].end, exprs[h].end, line)
			}
			edited = true
			break
		}
		if !edited {
			return src, nil
		}
	}
	return src, nil
}

// uninstall returns src without lore's table (and its sub-tables), and
// without the blank line install put before it. del is true when nothing
// but whitespace is left.
func (e *tomlEditor) uninstall(path string, src, _ []byte) ([]byte, bool, error) {
	exprs, err := scanTOML(path, src)
	if err != nil {
		return nil, false, err
	}
	h, end, ok, err := e.region(path, exprs)
	if err != nil || !ok {
		return src, false, err
	}
	start := exprs[h].start
	before, after := src[:start], src[end:]
	if bytes.HasSuffix(before, []byte("\n\n")) || bytes.HasSuffix(before, []byte("\r\n\r\n")) {
		if len(bytes.TrimSpace(after)) == 0 || after[0] == '\n' || after[0] == '\r' {
			before = before[:len(before)-len(newline(src))]
		}
	}
	if len(before) == 0 && bytes.HasPrefix(after, []byte(newline(src))) {
		after = after[len(newline(src)):]
	}
	out := append(append([]byte{}, before...), after...)
	return out, len(bytes.TrimSpace(out)) == 0, nil
}

// has reports whether src defines lore's server.
func (e *tomlEditor) has(path string, src []byte) (bool, error) {
	var doc map[string]any
	if err := toml.Unmarshal(src, &doc); err != nil {
		return false, fmt.Errorf("%s is not valid TOML: %v", path, err)
	}
	return lookupTOML(doc, e.table, e.name) != nil, nil
}

// lookupTOML returns the table at doc[keys[0]][keys[1]]…, or nil.
func lookupTOML(doc map[string]any, keys ...string) map[string]any {
	cur := doc
	for _, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

// canonical is src's lines without surrounding whitespace, blank lines
// dropped: files with the same canonical form differ only in layout.
func (e *tomlEditor) canonical(src []byte) string {
	var lines []string
	for _, l := range strings.Split(string(src), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// tomlValue renders a string or a list of strings as TOML.
func tomlValue(v any) string {
	switch v := v.(type) {
	case string:
		return tomlString(v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case bool:
		return fmt.Sprint(v)
	}
	panic(fmt.Sprintf("install: no TOML form for %T", v))
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// sameTOML reports whether a decoded TOML value equals want.
func sameTOML(have, want any) bool {
	switch w := want.(type) {
	case []string:
		list, ok := have.([]any)
		if !ok || len(list) != len(w) {
			return false
		}
		for i := range w {
			if s, ok := list[i].(string); !ok || s != w[i] {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(have, want)
	}
}

// hasPrefix reports whether key starts with prefix.
func hasPrefix(key, prefix []string) bool {
	return len(key) >= len(prefix) && reflect.DeepEqual(key[:len(prefix)], prefix)
}
