package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
)

// field is one member of an ordered JSON object that lore writes.
type field struct {
	key   string
	value any // string, bool, []string, fields, or map[string]string
}

// fields is a JSON object whose members keep the order lore writes them in.
type fields []field

// jsonEditor edits one server entry (container path + name) in a JSON file
// that may hold comments and trailing commas (JSONC, as VS Code and Zed
// read). Every edit is textual: the bytes outside the edited member are
// kept as they are, comments and formatting included.
type jsonEditor struct {
	container []string // the object holding the servers, e.g. ["mcpServers"]
	name      string   // the server's key, "lore"
	entry     fields   // lore's entry; only these keys are owned by lore
}

// parseJSONC parses src, naming path in the error.
func parseJSONC(path string, src []byte) (hujson.Value, error) {
	v, err := hujson.Parse(src)
	if err != nil {
		return v, fmt.Errorf("%s is not valid JSON (comments and trailing commas allowed): %v; lore leaves it untouched, fix it or move it aside", path, strings.TrimPrefix(err.Error(), "hujson: "))
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return v, fmt.Errorf("%s does not hold a JSON object at its top; lore leaves it untouched", path)
	}
	return v, nil
}

// member returns the index of the member named name in obj, or -1.
func member(obj *hujson.Object, name string) int {
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
			return i
		}
	}
	return -1
}

// walk follows keys from the root object. It returns the deepest object
// reached, its value, and how many keys were found; a key whose value is
// not an object is an error.
func walk(path string, root *hujson.Value, keys []string) (*hujson.Value, int, error) {
	cur := root
	for i, k := range keys {
		obj := cur.Value.(*hujson.Object)
		j := member(obj, k)
		if j < 0 {
			return cur, i, nil
		}
		next := &obj.Members[j].Value
		if _, ok := next.Value.(*hujson.Object); !ok {
			return nil, 0, fmt.Errorf("%s: %q is not an object; lore leaves the file untouched", path, strings.Join(keys[:i+1], "."))
		}
		cur = next
	}
	return cur, len(keys), nil
}

// install returns src with lore's entry set: the container and the entry
// are created when missing, and the keys lore owns are set when they differ.
// Other keys of an existing entry, and everything else, are kept.
func (e *jsonEditor) install(path string, src []byte) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}" + newline(src))
	}
	// One edit at a time, parsing again after each: the files are small and
	// every offset stays exact.
	for range 64 {
		root, err := parseJSONC(path, src)
		if err != nil {
			return nil, err
		}
		obj, found, err := walk(path, &root, e.container)
		if err != nil {
			return nil, err
		}
		if found < len(e.container) {
			// Create the missing containers and the entry in one member.
			var value any = fields{{e.name, e.entry}}
			for i := len(e.container) - 1; i > found; i-- {
				value = fields{{e.container[i], value}}
			}
			return insertMember(src, obj, e.container[found], value), nil
		}
		cont := obj.Value.(*hujson.Object)
		i := member(cont, e.name)
		if i < 0 {
			return insertMember(src, obj, e.name, e.entry), nil
		}
		ent := &cont.Members[i].Value
		entObj, ok := ent.Value.(*hujson.Object)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not an object; lore leaves the file untouched", path, strings.Join(append(append([]string{}, e.container...), e.name), "."))
		}
		edited := false
		for _, f := range e.entry {
			j := member(entObj, f.key)
			if j < 0 {
				src = insertMember(src, ent, f.key, f.value)
				edited = true
				break
			}
			v := &entObj.Members[j].Value
			if m, ok := f.value.(map[string]string); ok {
				if sub, ok := v.Value.(*hujson.Object); ok {
					// A map (env) is merged key by key: the user's other
					// variables stay.
					if src, edited = setKeys(src, v, sub, m); edited {
						break
					}
					continue
				}
			}
			if !sameJSON(v, f.value) {
				indent := lineIndent(src, entObj.Members[j].Name.StartOffset)
				src = splice(src, v.StartOffset, v.EndOffset, renderJSON(f.value, indent, indentUnitOf(src), newline(src)))
				edited = true
				break
			}
		}
		if !edited {
			return src, nil
		}
	}
	return src, nil
}

// uninstall returns src without lore's entry. A container that lore's
// removal leaves empty is removed too, unless keep (the backup's content, if
// any) has it, so that the file lore found comes back. del is true when
// nothing is left of the file but an empty object.
func (e *jsonEditor) uninstall(path string, src, keep []byte) (out []byte, del bool, err error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, false, nil
	}
	root, err := parseJSONC(path, src)
	if err != nil {
		return nil, false, err
	}
	obj, found, err := walk(path, &root, e.container)
	if err != nil {
		return nil, false, err
	}
	if found < len(e.container) {
		return src, false, nil
	}
	cont := obj.Value.(*hujson.Object)
	i := member(cont, e.name)
	if i < 0 {
		return src, false, nil
	}
	src = removeMember(src, obj, i)

	keptDepth := -1 // containers up to this depth were in the backup
	if keep != nil {
		if kv, err := hujson.Parse(keep); err == nil {
			if _, ok := kv.Value.(*hujson.Object); ok {
				if _, n, err := walk(path, &kv, e.container); err == nil {
					keptDepth = n - 1
				}
			}
		}
	}
	// Remove containers left empty, innermost first.
	for depth := len(e.container) - 1; depth >= 0; depth-- {
		root, err = parseJSONC(path, src)
		if err != nil {
			return nil, false, err
		}
		parent, _, err := walk(path, &root, e.container[:depth])
		if err != nil {
			return nil, false, err
		}
		pobj := parent.Value.(*hujson.Object)
		j := member(pobj, e.container[depth])
		if j < 0 {
			break
		}
		c := &pobj.Members[j].Value
		cobj := c.Value.(*hujson.Object)
		if len(cobj.Members) > 0 || hasComment(cobj.AfterExtra) {
			break
		}
		if depth <= keptDepth {
			// Keep it, as the backup has it, in its compact form.
			src = splice(src, c.StartOffset, c.EndOffset, "{}")
			break
		}
		src = removeMember(src, parent, j)
	}
	root, err = parseJSONC(path, src)
	if err != nil {
		return nil, false, err
	}
	robj := root.Value.(*hujson.Object)
	if len(robj.Members) == 0 && !hasComment(robj.AfterExtra) && !hasComment(root.BeforeExtra) && !hasComment(root.AfterExtra) {
		return src, true, nil
	}
	return src, false, nil
}

// has reports whether src holds lore's entry.
func (e *jsonEditor) has(path string, src []byte) (bool, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return false, nil
	}
	root, err := parseJSONC(path, src)
	if err != nil {
		return false, err
	}
	obj, found, err := walk(path, &root, e.container)
	if err != nil || found < len(e.container) {
		return false, err
	}
	return member(obj.Value.(*hujson.Object), e.name) >= 0, nil
}

// canonical is src without the whitespace outside strings and comments,
// and without trailing commas: two files with the same canonical form differ
// only in layout.
func (e *jsonEditor) canonical(src []byte) string {
	var b strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
			b.Write(src[i:j])
			i = j
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			j := i + 2
			if src[i+1] == '/' {
				for j < len(src) && src[j] != '\n' {
					j++
				}
			} else {
				for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
					j++
				}
				j = min(j+2, len(src))
			}
			b.WriteString(strings.TrimSpace(string(src[i:j])))
			b.WriteByte('\n')
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	s := b.String()
	for _, pair := range []string{",}", ",]"} {
		s = strings.ReplaceAll(s, pair, pair[1:])
	}
	return s
}

// setKeys makes the object value v (sub) hold want's keys with want's
// values, by one edit; edited is false when it already does.
func setKeys(src []byte, v *hujson.Value, sub *hujson.Object, want map[string]string) ([]byte, bool) {
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		j := member(sub, k)
		if j < 0 {
			return insertMember(src, v, k, want[k]), true
		}
		if mv := &sub.Members[j].Value; !sameJSON(mv, want[k]) {
			return splice(src, mv.StartOffset, mv.EndOffset, quote(want[k])), true
		}
	}
	return src, false
}

// insertMember inserts "name": value as the first member of the object
// value obj, on a line of its own. Inserting first keeps every other byte
// where it was and needs no comma before it, and removeMember undoes it
// exactly.
func insertMember(src []byte, obj *hujson.Value, name string, value any) []byte {
	o := obj.Value.(*hujson.Object)
	nl := newline(src)
	open := obj.StartOffset // the '{'
	var indent string
	if len(o.Members) > 0 && onOwnLine(src, o.Members[0].Name.StartOffset) {
		indent = lineIndent(src, o.Members[0].Name.StartOffset)
	} else {
		indent = lineIndent(src, open) + indentUnitOf(src)
	}
	text := nl + indent + quote(name) + ": " + renderJSON(value, indent, indentUnitOf(src), nl)
	if len(o.Members) > 0 {
		text += ","
	} else if len(o.AfterExtra) == 0 {
		text += nl + lineIndent(src, open)
	}
	return splice(src, open+1, open+1, text)
}

// removeMember removes member i of obj from src. A member on lines of its
// own goes with its lines; the comma after it goes with it, or, for the last
// member, the comma before it, so the file stays standard JSON if it was.
func removeMember(src []byte, objVal *hujson.Value, i int) []byte {
	obj := objVal.Value.(*hujson.Object)
	m := obj.Members[i]
	start, end := m.Name.StartOffset, m.Value.EndOffset
	hasComma := false
	if j := skipExtra(src, end); j < len(src) && src[j] == ',' {
		end, hasComma = j+1, true
	}
	// Whole lines when the member has its lines to itself.
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	le := end
	for le < len(src) && (src[le] == ' ' || src[le] == '\t' || src[le] == '\r') {
		le++
	}
	switch {
	case (ls == 0 || src[ls-1] == '\n') && le < len(src) && src[le] == '\n':
		start, end = ls, le+1
	case hasComma:
		// On a line with others: the space after the comma goes too.
		end = le
	default:
		// The last member: the space before it goes, with the comma.
		start = ls
	}
	var prevComma = -1
	if !hasComma && i > 0 {
		if j := skipExtra(src, obj.Members[i-1].Value.EndOffset); j < len(src) && src[j] == ',' {
			prevComma = j
		}
	}
	src = splice(src, start, end, "")
	if prevComma >= 0 {
		src = splice(src, prevComma, prevComma+1, "")
	}
	if len(obj.Members) == 1 {
		// The object is empty now: with only whitespace left in it, it
		// becomes {} (as it was before insertMember, most often).
		open := objVal.StartOffset
		if j := skipExtra(src, open+1); j < len(src) && src[j] == '}' && !hasComment(src[open+1:j]) {
			src = splice(src, open+1, j, "")
		}
	}
	return src
}

// skipExtra returns the offset of the first byte at or after i that is
// not whitespace or a comment.
func skipExtra(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case bytes.HasPrefix(src[i:], []byte("//")):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case bytes.HasPrefix(src[i:], []byte("/*")):
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return len(src)
			}
			i += 2 + j + 2
		default:
			return i
		}
	}
	return i
}

// hasComment reports whether extra holds a comment.
func hasComment(extra hujson.Extra) bool {
	return bytes.Contains(extra, []byte("//")) || bytes.Contains(extra, []byte("/*"))
}

// sameJSON reports whether the JSON value v equals want.
func sameJSON(v *hujson.Value, want any) bool {
	c := v.Clone()
	c.Standardize()
	var got any
	if err := json.Unmarshal(c.Pack(), &got); err != nil {
		return false
	}
	wb, err := json.Marshal(toPlain(want))
	if err != nil {
		return false
	}
	var w any
	if err := json.Unmarshal(wb, &w); err != nil {
		return false
	}
	return reflect.DeepEqual(got, w)
}

// toPlain turns fields into maps, for comparisons.
func toPlain(v any) any {
	if fs, ok := v.(fields); ok {
		m := make(map[string]any, len(fs))
		for _, f := range fs {
			m[f.key] = toPlain(f.value)
		}
		return m
	}
	return v
}

// renderJSON renders v as lore writes it: objects one member a line,
// indented from indent by unit; arrays of strings on one line.
func renderJSON(v any, indent, unit, nl string) string {
	switch v := v.(type) {
	case fields:
		if len(v) == 0 {
			return "{}"
		}
		var b strings.Builder
		b.WriteString("{")
		for i, f := range v {
			b.WriteString(nl + indent + unit + quote(f.key) + ": " + renderJSON(f.value, indent+unit, unit, nl))
			if i < len(v)-1 {
				b.WriteString(",")
			}
		}
		b.WriteString(nl + indent + "}")
		return b.String()
	case map[string]string:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fs := make(fields, 0, len(keys))
		for _, k := range keys {
			fs = append(fs, field{k, v[k]})
		}
		return renderJSON(fs, indent, unit, nl)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = quote(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return quote(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

// quote is s as a JSON string, without HTML escaping.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// splice replaces src[start:end] with text, in a new slice.
func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}

// newline is the file's line ending: CRLF if it has one, else LF.
func newline(src []byte) string {
	if bytes.Contains(src, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// lineIndent is the whitespace that starts the line holding offset.
func lineIndent(src []byte, offset int) string {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// onOwnLine reports whether only whitespace precedes offset on its line.
func onOwnLine(src []byte, offset int) bool {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	return len(bytes.Trim(src[start:offset], " \t")) == 0
}

// indentUnitOf guesses the file's indentation step from its first indented
// line: a tab, or that many spaces; two spaces when nothing is indented.
func indentUnitOf(src []byte) string {
	for _, line := range bytes.Split(src, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == 0 || len(trimmed) == len(line) {
			continue
		}
		ws := line[:len(line)-len(trimmed)]
		if ws[0] == '\t' {
			return "\t"
		}
		return strings.Repeat(" ", len(ws))
	}
	return "  "
}
