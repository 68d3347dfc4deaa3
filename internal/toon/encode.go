package toon

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// encoder renders the JSON model as TOON lines.
type encoder struct {
	indentSize int
	delimiter  byte // ',', '\t' or '|'; one delimiter serves the whole document
	lines      []string
}

func (e *encoder) emit(depth int, text string) {
	e.lines = append(e.lines, strings.Repeat(" ", depth*e.indentSize)+text)
}

func (e *encoder) root(v any) error {
	switch t := v.(type) {
	case object:
		return e.fields(t, 0) // an empty object yields no lines at all
	case []any:
		if len(t) == 0 {
			e.emit(0, "[]")
			return nil
		}
		return e.array("", t, 0)
	default:
		s, err := e.primitive(v)
		if err != nil {
			return err
		}
		e.emit(0, s)
		return nil
	}
}

// fields writes the members of obj at depth.
func (e *encoder) fields(obj object, depth int) error {
	for _, m := range obj {
		key := encodeKey(m.key)
		switch t := m.value.(type) {
		case object:
			e.emit(depth, key+":")
			if err := e.fields(t, depth+1); err != nil {
				return err
			}
		case []any:
			if len(t) == 0 {
				e.emit(depth, key+": []")
				continue
			}
			if err := e.array(key, t, depth); err != nil {
				return err
			}
		default:
			s, err := e.primitive(t)
			if err != nil {
				return fmt.Errorf("field %q: %w", m.key, err)
			}
			e.emit(depth, key+": "+s)
		}
	}
	return nil
}

// array writes a non-empty array whose header line, prefixed by key (already
// encoded; empty at the root), sits at depth. It picks the most compact form
// the spec allows: inline primitives, a table, or list items.
func (e *encoder) array(key string, arr []any, depth int) error {
	if allPrimitive(arr) {
		line, err := e.inlineArray(arr)
		if err != nil {
			return err
		}
		e.emit(depth, key+line)
		return nil
	}
	if fields, ok := tabularFields(arr); ok {
		return e.table(key, fields, arr, depth)
	}
	e.emit(depth, key+e.header(len(arr), nil)+":")
	return e.listItems(arr, depth+1)
}

// inlineArray renders "[N]: v1,v2,…", or "[0]:" for an empty array.
func (e *encoder) inlineArray(arr []any) (string, error) {
	header := e.header(len(arr), nil) + ":"
	if len(arr) == 0 {
		return header, nil
	}
	cells := make([]string, len(arr))
	for i, v := range arr {
		s, err := e.primitive(v)
		if err != nil {
			return "", fmt.Errorf("item %d: %w", i, err)
		}
		cells[i] = s
	}
	return header + " " + strings.Join(cells, string(e.delimiter)), nil
}

// table writes "key[N]{f1,f2}:" and one delimiter-separated row per object.
func (e *encoder) table(key string, fields []string, arr []any, depth int) error {
	e.emit(depth, key+e.header(len(arr), fields)+":")
	cells := make([]string, len(fields))
	for i, item := range arr {
		obj := item.(object)
		for j, field := range fields {
			s, err := e.primitive(obj.get(field))
			if err != nil {
				return fmt.Errorf("row %d, field %q: %w", i, field, err)
			}
			cells[j] = s
		}
		e.emit(depth+1, strings.Join(cells, string(e.delimiter)))
	}
	return nil
}

// header renders the bracket segment "[N]" (with the delimiter symbol for
// tab and pipe) and, for tables, the field list "{f1,f2}".
func (e *encoder) header(length int, fields []string) string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(strconv.Itoa(length))
	if e.delimiter != ',' {
		b.WriteByte(e.delimiter)
	}
	b.WriteByte(']')
	if fields != nil {
		b.WriteByte('{')
		for i, f := range fields {
			if i > 0 {
				b.WriteByte(e.delimiter)
			}
			b.WriteString(encodeKey(f))
		}
		b.WriteByte('}')
	}
	return b.String()
}

// listItems writes each element of arr as a "- " item at depth.
func (e *encoder) listItems(arr []any, depth int) error {
	for i, item := range arr {
		if err := e.listItem(item, depth); err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
	}
	return nil
}

func (e *encoder) listItem(v any, depth int) error {
	switch t := v.(type) {
	case object:
		if len(t) == 0 {
			e.emit(depth, "-")
			return nil
		}
		// The object's fields belong at depth+1, with the first one moved
		// onto the hyphen line. Rendering them at depth+1 and then swapping
		// the first line's indentation for "- " gives exactly the layout the
		// spec requires, including a leading table whose rows sit at depth+2.
		first := len(e.lines)
		if err := e.fields(t, depth+1); err != nil {
			return err
		}
		fieldIndent := strings.Repeat(" ", (depth+1)*e.indentSize)
		e.lines[first] = strings.Repeat(" ", depth*e.indentSize) + "- " +
			strings.TrimPrefix(e.lines[first], fieldIndent)
		return nil
	case []any:
		if allPrimitive(t) {
			line, err := e.inlineArray(t)
			if err != nil {
				return err
			}
			e.emit(depth, "- "+line)
			return nil
		}
		// Tables have no place for a field list here, so nested non-primitive
		// arrays always use list items.
		e.emit(depth, "- "+e.header(len(t), nil)+":")
		return e.listItems(t, depth+1)
	default:
		s, err := e.primitive(t)
		if err != nil {
			return err
		}
		e.emit(depth, "- "+s)
		return nil
	}
}

func (e *encoder) primitive(v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "null", nil
	case bool:
		return strconv.FormatBool(t), nil
	case json.Number:
		return canonicalNumber(string(t))
	case string:
		return encodeString(t, e.delimiter), nil
	default:
		return "", fmt.Errorf("unexpected value of type %T", v)
	}
}

func allPrimitive(arr []any) bool {
	for _, v := range arr {
		if !isPrimitive(v) {
			return false
		}
	}
	return true
}

// tabularFields reports whether arr can be a table (spec §9.3): every item
// is a non-empty object with the same key set and only primitive values.
// The fields come in the first object's key order.
func tabularFields(arr []any) ([]string, bool) {
	first, ok := arr[0].(object)
	if !ok || len(first) == 0 {
		return nil, false
	}
	fields := make([]string, len(first))
	for i, m := range first {
		fields[i] = m.key
	}
	for _, item := range arr {
		obj, ok := item.(object)
		if !ok || len(obj) != len(fields) {
			return nil, false
		}
		for _, m := range obj {
			if !isPrimitive(m.value) {
				return nil, false
			}
		}
		for _, f := range fields {
			if !obj.has(f) {
				return nil, false
			}
		}
	}
	return fields, true
}

func (o object) has(key string) bool {
	for _, m := range o {
		if m.key == key {
			return true
		}
	}
	return false
}

func (o object) get(key string) any {
	for _, m := range o {
		if m.key == key {
			return m.value
		}
	}
	return nil
}
