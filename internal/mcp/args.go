package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/files"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/research"
	"github.com/lore-dev/lore/internal/search"
	"github.com/lore-dev/lore/internal/specs"
)

// Typed tool arguments.
//
// Each tool declares its arguments as one Go struct, and that struct is the
// single source of both the tool's input schema (sent in tools/list) and
// the decoding of its tools/call arguments (see newTool). One field is one
// argument; struct tags say the rest:
//
//	arg:"name"            the argument's JSON name (every field needs one)
//	arg:"name,required"   … and it must be given: absent or null is
//	                      "Missing required argument: name"
//	desc:"…"              the schema's description
//	default:"v"           the value when absent or null, parsed as the
//	                      field's type and shown in the schema; an empty
//	                      tag (default:"") is the default "" of a string.
//	                      Without it an absent argument is the zero value
//	                      and the schema has no default.
//	enum:"a,b,c"          the values a string may take
//	min:"n", max:"n"      bounds of an int or float64, inclusive
//	code:"CODE"           the error code of a wrong value of this argument
//	                      (one of argErrorCodes); INVALID_ARGUMENT otherwise
//
// A tag value may name a Go value as ${name} (see argVars), so a limit or an
// enum is written once, where the rest of lore reads it:
// max:"${search.MaxLimit}".
//
// Field types and their JSON Schema types: string ("string"), bool
// ("boolean"), int ("integer"), float64 ("number"), map[string]any
// ("object", any JSON object; a schema:"name" tag adds the properties of
// argSchemas[name] to its schema); named types of those kinds too. An embedded struct's fields are arguments at the embedding's
// position, as encoding/json inlines them. A struct without fields is a
// tool that takes no arguments.
//
// The order of the fields is the order of the names in error messages
// ("this tool takes: …") and of the schema's "required"; the schema's
// "properties" is a JSON object, written with its keys sorted.
//
// Why not the SDK's AddTool[In, Out] with jsonschema-go: its validation
// answers with jsonschema-go's own wording in a text-only error result,
// where lore promises its messages, per-argument codes (REPO_INVALID, …)
// and a structured {"error": …}; JSON Schema rejects null where lore treats
// it as absent; "integer" accepts 1e300, which then fails to decode into an
// int with encoding/json's text; and jsonschema-go reads only descriptions
// from tags (no default, enum or bounds).

// argVars are the values a tag may name as ${name}.
var argVars = map[string]string{
	"search.MaxLimit":          strconv.Itoa(search.MaxLimit),
	"files.DefaultSearchLimit": strconv.Itoa(files.DefaultSearchLimit),
	"files.MaxSearchLimit":     strconv.Itoa(files.MaxSearchLimit),
	"specs.DefaultSearchLimit": strconv.Itoa(specs.DefaultSearchLimit),
	"maxSpecResults":           strconv.Itoa(maxSpecResults),
	"defaultGraphDepth":        strconv.Itoa(defaultGraphDepth),
	"packages.MinEdgeDepth":    strconv.Itoa(packages.MinEdgeDepth),
	"packages.MaxEdgeDepth":    strconv.Itoa(packages.MaxEdgeDepth),
	"packageKinds":             strings.Join(packageKinds, ","),
	"app.DefaultTopK":          strconv.Itoa(app.DefaultTopK),
	"app.MaxTopK":              strconv.Itoa(app.MaxTopK),
	"research.DefaultDepth":    strconv.Itoa(research.DefaultDepth),
	"research.MinDepth":        strconv.Itoa(research.MinDepth),
	"research.MaxDepth":        strconv.Itoa(research.MaxDepth),
	"research.Focuses":         strings.Join(research.Focuses, ","),
}

// argSchemas are the object schemas a schema tag may name.
var argSchemas = map[string]map[string]any{
	"payloadFilter": payloadFilterSchema(),
}

// argErrorCodes are the codes a code tag may name: a wrong argument is the
// caller's mistake, reported under the generic code or a more specific one
// that docs/errors.md lists for that argument.
var argErrorCodes = []string{errs.CodeInvalidArgument, errs.CodeRepoInvalid, errs.CodeLimitInvalid, errs.CodeInvalidRange}

// noArgs is the arguments of a tool that takes none.
type noArgs struct{}

// argSpec is what a tool's argument struct declares, read once by
// reflection: the struct type and its arguments in declaration order.
type argSpec struct {
	typ    reflect.Type
	fields []argField
}

// argField is one argument: where it sits in the struct and its rules.
type argField struct {
	index    []int  // the field, for reflect.Value.FieldByIndex
	name     string // the JSON name
	typ      string // the JSON Schema type: "string", "integer", "number" or "boolean"
	desc     string
	required bool
	def      any            // the default, of the field's Go kind (string, int, float64, bool); nil: none
	enum     []string       // allowed values of a string
	min, max *float64       // bounds of a number
	code     string         // the error code of a wrong value
	schema   map[string]any // more of an object's schema (its properties)
}

// argSpecFor reads the argument struct t. An error names the field and
// the tag at fault: it is a programming error, found when the tool is
// built.
func argSpecFor(t reflect.Type) (*argSpec, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("arguments type %s is not a struct", t)
	}
	spec := &argSpec{typ: t}
	if err := spec.addFields(t, nil); err != nil {
		return nil, fmt.Errorf("arguments type %s: %w", t, err)
	}
	return spec, nil
}

// addFields appends the arguments of struct t, whose fields sit at index
// prefix in the outer struct.
func (a *argSpec) addFields(t reflect.Type, prefix []int) error {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(slices.Clone(prefix), i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			if _, tagged := sf.Tag.Lookup("arg"); !tagged {
				if err := a.addFields(sf.Type, index); err != nil {
					return err
				}
				continue
			}
		}
		if !sf.IsExported() {
			return fmt.Errorf("field %s is not exported", sf.Name)
		}
		f, err := parseArgField(sf)
		if err != nil {
			return fmt.Errorf("field %s: %w", sf.Name, err)
		}
		if slices.ContainsFunc(a.fields, func(g argField) bool { return g.name == f.name }) {
			return fmt.Errorf("field %s: argument %q is declared twice", sf.Name, f.name)
		}
		f.index = index
		a.fields = append(a.fields, f)
	}
	return nil
}

// parseArgField reads one field's tags.
func parseArgField(sf reflect.StructField) (argField, error) {
	tag := func(key string) (string, bool, error) {
		v, ok := sf.Tag.Lookup(key)
		if !ok {
			return "", false, nil
		}
		v, err := expandArgVars(v)
		return v, true, err
	}
	var f argField
	arg, ok, err := tag("arg")
	if err != nil {
		return f, err
	}
	if !ok {
		return f, errors.New(`no arg tag (arg:"name" or arg:"name,required")`)
	}
	name, flags, _ := strings.Cut(arg, ",")
	switch {
	case name == "":
		return f, errors.New("the arg tag has no name")
	case flags == "required":
		f.required = true
	case flags != "":
		return f, fmt.Errorf("unknown arg tag option %q (only required)", flags)
	}
	f.name = name
	switch sf.Type.Kind() {
	case reflect.String:
		f.typ = "string"
	case reflect.Bool:
		f.typ = "boolean"
	case reflect.Int:
		f.typ = "integer"
	case reflect.Float64:
		f.typ = "number"
	case reflect.Map:
		if sf.Type.Key().Kind() != reflect.String || sf.Type.Elem().Kind() != reflect.Interface {
			return f, fmt.Errorf("type %s is not map[string]any", sf.Type)
		}
		f.typ = "object"
	default:
		return f, fmt.Errorf("type %s is not string, bool, int, float64 or map[string]any", sf.Type)
	}
	if name, ok := sf.Tag.Lookup("schema"); ok {
		if f.typ != "object" || argSchemas[name] == nil {
			return f, fmt.Errorf("schema %q needs a map field and an entry of argSchemas", name)
		}
		f.schema = argSchemas[name]
	}
	if f.desc, _, err = tag("desc"); err != nil {
		return f, err
	}
	f.code = errs.CodeInvalidArgument
	if code, ok, err := tag("code"); err != nil {
		return f, err
	} else if ok {
		if !slices.Contains(argErrorCodes, code) {
			return f, fmt.Errorf("code %q is not one of %s", code, strings.Join(argErrorCodes, ", "))
		}
		f.code = code
	}
	if enum, ok, err := tag("enum"); err != nil {
		return f, err
	} else if ok {
		if f.typ != "string" || enum == "" {
			return f, errors.New("enum needs a string field and at least one value")
		}
		f.enum = strings.Split(enum, ",")
	}
	for _, b := range []struct {
		key string
		dst **float64
	}{{"min", &f.min}, {"max", &f.max}} {
		v, ok, err := tag(b.key)
		if err != nil {
			return f, err
		}
		if !ok {
			continue
		}
		if f.typ != "integer" && f.typ != "number" {
			return f, fmt.Errorf("%s needs an int or float64 field", b.key)
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return f, fmt.Errorf("%s %q is not a number", b.key, v)
		}
		*b.dst = &n
	}
	if def, ok, err := tag("default"); err != nil {
		return f, err
	} else if ok {
		if f.required {
			return f, errors.New("a required argument cannot have a default")
		}
		if f.def, err = f.check(json.RawMessage(defaultJSON(f.typ, def))); err != nil {
			return f, fmt.Errorf("default %q: %w", def, err)
		}
	}
	return f, nil
}

// defaultJSON is a default tag's value as the JSON a client would send,
// so the default is checked by the same rules as an argument.
func defaultJSON(typ, v string) string {
	if typ == "string" {
		data, _ := json.Marshal(v)
		return string(data)
	}
	return v
}

// expandArgVars replaces every ${name} of v by argVars[name].
func expandArgVars(v string) (string, error) {
	var b strings.Builder
	for {
		before, rest, found := strings.Cut(v, "${")
		b.WriteString(before)
		if !found {
			return b.String(), nil
		}
		name, after, closed := strings.Cut(rest, "}")
		value, known := argVars[name]
		if !closed || !known {
			return "", fmt.Errorf("unknown tag variable ${%s} (known: argVars)", name)
		}
		b.WriteString(value)
		v = after
	}
}

// names lists the arguments in declaration order.
func (a *argSpec) names() []string {
	names := make([]string, len(a.fields))
	for i, f := range a.fields {
		names[i] = f.name
	}
	return names
}

// schema is the JSON Schema of the arguments, the tool's input schema.
func (a *argSpec) schema() map[string]any {
	props := map[string]any{}
	var required []string
	for _, f := range a.fields {
		s := map[string]any{"type": f.typ, "description": f.desc}
		for k, v := range f.schema {
			s[k] = v
		}
		if f.def != nil {
			s["default"] = f.def
		}
		if len(f.enum) > 0 {
			s["enum"] = f.enum
		}
		if f.min != nil {
			s["minimum"] = *f.min
		}
		if f.max != nil {
			s["maximum"] = *f.max
		}
		props[f.name] = s
		if f.required {
			required = append(required, f.name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema
}

// decode checks raw tool arguments against the spec and returns a pointer
// to a new argument struct holding them, defaults filled in. null, for the
// whole arguments or one of them, counts as absent.
func (a *argSpec) decode(raw json.RawMessage) (any, error) {
	fields := map[string]json.RawMessage{}
	if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && !isNull(trimmed) {
		if trimmed[0] != '{' || json.Unmarshal(trimmed, &fields) != nil {
			return nil, invalidArg("", "Arguments must be a JSON object")
		}
	}
	names := a.names()
	var unknown []string
	for k := range fields {
		if !slices.Contains(names, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		if len(names) == 0 {
			return nil, invalidArg("", "Unknown argument: %s (this tool takes no arguments)", strings.Join(unknown, ", "))
		}
		return nil, invalidArg("", "Unknown argument: %s (this tool takes: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	out := reflect.New(a.typ)
	for _, f := range a.fields {
		var val any
		if v, ok := fields[f.name]; ok && !isNull(v) {
			var err error
			if val, err = f.check(v); err != nil {
				return nil, err
			}
		} else if f.required {
			return nil, invalidArg("", "Missing required argument: %s", f.name)
		} else if val = f.def; val == nil {
			continue // the zero value
		}
		dst := out.Elem().FieldByIndex(f.index)
		dst.Set(reflect.ValueOf(val).Convert(dst.Type()))
	}
	return out.Interface(), nil
}

// check decodes one argument's JSON value v and checks it against the
// field's rules. The value is a string, int, float64, bool or
// map[string]any.
func (f argField) check(v json.RawMessage) (any, error) {
	switch f.typ {
	case "object":
		var m map[string]any
		if t := bytes.TrimSpace(v); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &m) != nil {
			return nil, invalidArg(f.code, "Argument %s must be an object, got %s", f.name, jsonKind(v))
		}
		return m, nil
	case "string":
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, invalidArg(f.code, "Argument %s must be a string, got %s", f.name, jsonKind(v))
		}
		if len(f.enum) > 0 && !slices.Contains(f.enum, s) {
			return nil, invalidArg(f.code, "Argument %s must be one of %s; got %q", f.name, strings.Join(f.enum, ", "), s)
		}
		return s, nil
	case "boolean":
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return nil, invalidArg(f.code, "Argument %s must be a boolean, got %s", f.name, jsonKind(v))
		}
		return b, nil
	default: // "integer", "number"
		var n float64
		if json.Unmarshal(v, &n) != nil {
			return nil, invalidArg(f.code, "Argument %s must be %s, got %s", f.name, article(f.typ), jsonKind(v))
		}
		if f.typ == "integer" && (n != math.Trunc(n) || math.Abs(n) > 1<<53) {
			return nil, invalidArg(f.code, "Argument %s must be an integer, got %s", f.name, string(bytes.TrimSpace(v)))
		}
		if (f.min != nil && n < *f.min) || (f.max != nil && n > *f.max) {
			return nil, invalidArg(f.code, "Argument %s must be %s, got %s", f.name, bounds(f.min, f.max), string(bytes.TrimSpace(v)))
		}
		if f.typ == "integer" {
			return int(n), nil
		}
		return n, nil
	}
}

// invalidArg is the error of a wrong argument, under code
// (INVALID_ARGUMENT when empty).
func invalidArg(code, format string, args ...any) error {
	if code == "" {
		code = errs.CodeInvalidArgument
	}
	return errs.New(errs.Invalid, code, format, args...)
}

// article is "an integer" or "a number", as a message says it.
func article(typ string) string {
	if typ == "integer" {
		return "an integer"
	}
	return "a number"
}

// bounds words a range: "between 1 and 5", "at least 1", "at most 5".
func bounds(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("between %g and %g", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("at least %g", *lo)
	default:
		return fmt.Sprintf("at most %g", *hi)
	}
}

// jsonKind names the JSON type of v, for error messages.
func jsonKind(v json.RawMessage) string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
