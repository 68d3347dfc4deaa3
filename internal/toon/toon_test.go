package toon

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// goldenCase encodes either a Go value or, when jsonInput is set, a JSON
// document (as json.RawMessage, so its exact text reaches the encoder).
type goldenCase struct {
	name      string
	value     any
	jsonInput string
	want      string
}

func (c goldenCase) input() any {
	if c.jsonInput != "" {
		return json.RawMessage(c.jsonInput)
	}
	return c.value
}

func runGolden(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Marshal(c.input())
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if string(got) != c.want {
				t.Errorf("Marshal mismatch\n got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestPrimitivesAtRoot(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "safe string", value: "hello", want: "hello"},
		{name: "internal spaces", value: "hello big world", want: "hello big world"},
		{name: "unicode", value: "café 你好 🚀", want: "café 你好 🚀"},
		{name: "true", value: true, want: "true"},
		{name: "false", value: false, want: "false"},
		{name: "null", value: nil, want: "null"},
		{name: "nil slice is null", value: []int(nil), want: "null"},
		{name: "int", value: 42, want: "42"},
		{name: "negative int", value: -7, want: "-7"},
		{name: "float", value: 3.14, want: "3.14"},
		{name: "max uint64 stays exact", value: uint64(math.MaxUint64), want: "18446744073709551615"},
	})
}

func TestStringQuoting(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "empty", value: "", want: `""`},
		{name: "looks like true", value: "true", want: `"true"`},
		{name: "looks like false", value: "false", want: `"false"`},
		{name: "looks like null", value: "null", want: `"null"`},
		{name: "other case is safe", value: "True", want: `True`},
		{name: "integer", value: "42", want: `"42"`},
		{name: "leading zero", value: "05", want: `"05"`},
		{name: "negative decimal", value: "-3.14", want: `"-3.14"`},
		{name: "exponent", value: "1e-6", want: `"1e-6"`},
		{name: "upper exponent", value: "2E10", want: `"2E10"`},
		{name: "leading plus", value: "+5", want: `"+5"`},
		{name: "not numeric: trailing dot", value: "1.", want: `1.`},
		{name: "not numeric: hex", value: "0x10", want: `0x10`},
		{name: "not numeric: underscore", value: "1_000", want: `1_000`},
		{name: "colon", value: "a:b", want: `"a:b"`},
		{name: "comma", value: "a,b", want: `"a,b"`},
		{name: "pipe is not the delimiter", value: "a|b", want: `a|b`},
		{name: "brackets", value: "[3]: x", want: `"[3]: x"`},
		{name: "braces", value: "{key}", want: `"{key}"`},
		{name: "leading hyphen", value: "- item", want: `"- item"`},
		{name: "lone hyphen", value: "-", want: `"-"`},
		{name: "inner hyphen is safe", value: "a-b", want: `a-b`},
		{name: "leading hash", value: "#x", want: `"#x"`},
		{name: "leading space", value: " a", want: `" a"`},
		{name: "trailing space", value: "a ", want: `"a "`},
		{name: "only spaces", value: "  ", want: `"  "`},
		{name: "leading no-break space", value: "\u00a0a", want: "\"\u00a0a\""},
		{name: "backslash", value: `C:\path`, want: `"C:\\path"`},
		{name: "double quote", value: `say "hi"`, want: `"say \"hi\""`},
		{name: "newline", value: "a\nb", want: `"a\nb"`},
		{name: "carriage return", value: "a\rb", want: `"a\rb"`},
		{name: "tab", value: "a\tb", want: `"a\tb"`},
		{name: "other control", value: "a\x04b\x1fc", want: `"a\u0004b\u001fc"`},
		{name: "html characters are literal", value: "<a&b>", want: `<a&b>`},
	})
}

func TestNumbersAreCanonical(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "zero", jsonInput: `0`, want: "0"},
		{name: "negative zero", jsonInput: `-0`, want: "0"},
		{name: "negative zero float", jsonInput: `-0.0e5`, want: "0"},
		{name: "trailing fraction zeros", jsonInput: `1.5000`, want: "1.5"},
		{name: "integral float", jsonInput: `1.0`, want: "1"},
		{name: "exponent expanded", jsonInput: `1e6`, want: "1000000"},
		{name: "upper exponent expanded", jsonInput: `-1E+03`, want: "-1000"},
		{name: "small decimal", jsonInput: `1e-6`, want: "0.000001"},
		{name: "decimal with exponent", jsonInput: `12.34e-3`, want: "0.01234"},
		{name: "fraction times exponent", jsonInput: `0.00125e3`, want: "1.25"},
		{name: "largest plain", jsonInput: `999999999999999999999`, want: "999999999999999999999"},
		{name: "1e20 plain", jsonInput: `1e20`, want: "100000000000000000000"},
		{name: "1e21 exponent", jsonInput: `1e21`, want: "1e+21"},
		{name: "big exponent with fraction", jsonInput: `-12345e30`, want: "-1.2345e+34"},
		{name: "below plain range", jsonInput: `0.00000015`, want: "1.5e-7"},
		{name: "below plain range exponent", jsonInput: `1E-7`, want: "1e-7"},
		{name: "long integer exact", jsonInput: `123456789012345678901`, want: "123456789012345678901"},
		{name: "long integer beyond plain range stays exact", jsonInput: `1234567890123456789012`, want: "1.234567890123456789012e+21"},
		{name: "repeating decimal", value: 1.0 / 3, want: "0.3333333333333333"},
		{name: "go float exponent form", value: 1e-7, want: "1e-7"},
		{name: "go large float", value: 1e21, want: "1e+21"},
		{name: "go float32", value: float32(0.1), want: "0.1"},
	})
}

func TestObjects(t *testing.T) {
	type inner struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	type outer struct {
		Zeta  string            `json:"zeta"`
		Alpha int               `json:"alpha"`
		User  inner             `json:"user"`
		Empty struct{}          `json:"empty"`
		Tags  map[string]string `json:"tags"`
		Skip  string            `json:"skip,omitempty"`
	}
	runGolden(t, []goldenCase{
		{name: "empty object is empty document", value: map[string]int{}, want: ""},
		{name: "struct order and nesting", value: outer{
			Zeta: "z", Alpha: 1, User: inner{ID: 7, Name: "Ada"},
			Tags: map[string]string{"b": "2", "a": "1"},
		}, want: "zeta: z\nalpha: 1\nuser:\n  id: 7\n  name: Ada\nempty:\ntags:\n  a: \"1\"\n  b: \"2\""},
		{name: "json key order kept", jsonInput: `{"b":1,"a":2,"c":{"z":true,"y":null}}`,
			want: "b: 1\na: 2\nc:\n  z: true\n  y: null"},
		{name: "duplicate key keeps first position, last value", jsonInput: `{"a":1,"b":2,"a":3}`,
			want: "a: 3\nb: 2"},
		{name: "deep nesting", jsonInput: `{"a":{"b":{"c":"deep"}}}`, want: "a:\n  b:\n    c: deep"},
		{name: "dotted key bare", jsonInput: `{"user.name":"Ada"}`, want: "user.name: Ada"},
	})
}

func TestKeyQuoting(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "identifier", jsonInput: `{"_a1":1}`, want: "_a1: 1"},
		{name: "empty key", jsonInput: `{"":1}`, want: `"": 1`},
		{name: "numeric key", jsonInput: `{"123":"x"}`, want: `"123": x`},
		{name: "hyphen key", jsonInput: `{"my-key":1}`, want: `"my-key": 1`},
		{name: "space key", jsonInput: `{"full name":1}`, want: `"full name": 1`},
		{name: "colon key", jsonInput: `{"a:b":1}`, want: `"a:b": 1`},
		{name: "leading dot key", jsonInput: `{".a":1}`, want: `".a": 1`},
		{name: "escaped key", jsonInput: `{"a\n\"b\"\u0001":1}`, want: `"a\n\"b\"\u0001": 1`},
		{name: "quoted key on array header", jsonInput: `{"my-key":[1,2,3]}`, want: `"my-key"[3]: 1,2,3`},
		{name: "quoted key on empty array", jsonInput: `{"":[]}`, want: `"": []`},
	})
}

func TestPrimitiveArrays(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "strings", value: map[string][]string{"tags": {"a", "b"}}, want: "tags[2]: a,b"},
		{name: "mixed primitives", jsonInput: `{"data":["x",true,10,null,1.50]}`, want: "data[5]: x,true,10,null,1.5"},
		{name: "empty field array", value: map[string][]int{"items": {}}, want: "items: []"},
		{name: "quoting in cells", jsonInput: `{"items":["a","b,c","d:e","","true","42"," "]}`,
			want: `items[7]: a,"b,c","d:e","","true","42"," "`},
		{name: "root primitive array", jsonInput: `["x","y","true",true,10]`, want: `[5]: x,y,"true",true,10`},
		{name: "root empty array", value: []int{}, want: "[]"},
	})
}

func TestTabularArrays(t *testing.T) {
	type row struct {
		SKU   string  `json:"sku"`
		Qty   int     `json:"qty"`
		Price float64 `json:"price"`
	}
	runGolden(t, []goldenCase{
		{name: "uniform structs", value: map[string][]row{"items": {{"A1", 2, 9.99}, {"B2", 1, 14.5}}},
			want: "items[2]{sku,qty,price}:\n  A1,2,9.99\n  B2,1,14.5"},
		{name: "key order from first object", jsonInput: `{"items":[{"a":1,"b":2},{"b":20,"a":10}]}`,
			want: "items[2]{a,b}:\n  1,2\n  10,20"},
		{name: "nulls and quoting in rows", jsonInput: `{"items":[{"id":1,"v":null},{"id":2,"v":"a,b"}]}`,
			want: "items[2]{id,v}:\n  1,null\n  2,\"a,b\""},
		{name: "quoted field names", jsonInput: `{"items":[{"order:id":1,"full name":"Ada"}]}`,
			want: "items[1]{\"order:id\",\"full name\"}:\n  1,Ada"},
		{name: "root table", jsonInput: `[{"id":1},{"id":2}]`, want: "[2]{id}:\n  1\n  2"},
		{name: "colon in cell", jsonInput: `{"links":[{"id":1,"url":"http://a:b"}]}`,
			want: "links[1]{id,url}:\n  1,\"http://a:b\""},
	})
}

func TestListArrays(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "different key sets", jsonInput: `{"items":[{"id":1},{"id":2,"name":"Ada"}]}`,
			want: "items[2]:\n  - id: 1\n  - id: 2\n    name: Ada"},
		{name: "same count different keys", jsonInput: `{"items":[{"a":1},{"b":2}]}`,
			want: "items[2]:\n  - a: 1\n  - b: 2"},
		{name: "nested value prevents table", jsonInput: `{"items":[{"id":1,"data":"s"},{"id":2,"data":{"nested":true}}]}`,
			want: "items[2]:\n  - id: 1\n    data: s\n  - id: 2\n    data:\n      nested: true"},
		{name: "mixed primitives and objects", jsonInput: `{"items":[1,{"a":1},"text","x,y"]}`,
			want: "items[4]:\n  - 1\n  - a: 1\n  - text\n  - \"x,y\""},
		{name: "empty objects", jsonInput: `{"items":["first",{},{}]}`,
			want: "items[3]:\n  - first\n  -\n  -"},
		{name: "arrays of arrays", jsonInput: `{"pairs":[["a","b"],["c,d"],[]]}`,
			want: "pairs[3]:\n  - [2]: a,b\n  - [1]: \"c,d\"\n  - [0]:"},
		{name: "array of objects inside list", jsonInput: `["summary",{"id":1,"name":"Ada"},[{"id":2},{"status":"draft"}]]`,
			want: "[3]:\n  - summary\n  - id: 1\n    name: Ada\n  - [2]:\n    - id: 2\n    - status: draft"},
		{name: "uniform objects inside list stay a list", jsonInput: `[[{"a":1},{"a":2}],[[1],[]]]`,
			want: "[2]:\n  - [2]:\n    - a: 1\n    - a: 2\n  - [2]:\n    - [1]: 1\n    - [0]:"},
	})
}

func TestObjectsAsListItems(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "nested object field", jsonInput: `{"items":[{"id":1,"nested":{"x":1}}]}`,
			want: "items[1]:\n  - id: 1\n    nested:\n      x: 1"},
		{name: "nested object first", jsonInput: `{"items":[{"nested":{"x":1},"id":1}]}`,
			want: "items[1]:\n  - nested:\n      x: 1\n    id: 1"},
		{name: "primitive array first", jsonInput: `{"items":[{"nums":[1,2,3],"name":"Ada"}]}`,
			want: "items[1]:\n  - nums[3]: 1,2,3\n    name: Ada"},
		{name: "empty array first", jsonInput: `{"items":[{"data":[],"name":"x"}]}`,
			want: "items[1]:\n  - data: []\n    name: x"},
		{name: "empty object field", jsonInput: `{"items":[{"a":{}},{"a":[],"b":1}]}`,
			want: "items[2]:\n  - a:\n  - a: []\n    b: 1"},
		{name: "array of arrays first", jsonInput: `{"items":[{"matrix":[[1,2],[3,4]],"name":"grid"}]}`,
			want: "items[1]:\n  - matrix[2]:\n      - [2]: 1,2\n      - [2]: 3,4\n    name: grid"},
		{name: "table first", jsonInput: `{"items":[{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}],"status":"active"}]}`,
			want: "items[1]:\n  - users[2]{id,name}:\n      1,Ada\n      2,Bob\n    status: active"},
		{name: "list first", jsonInput: `{"items":[{"users":[{"id":1,"name":"Ada"},{"id":2}],"status":"active"}]}`,
			want: "items[1]:\n  - users[2]:\n      - id: 1\n        name: Ada\n      - id: 2\n    status: active"},
		{name: "quoted first key", jsonInput: `{"items":[{" a ":1,"b":{"c":2}}]}`,
			want: "items[1]:\n  - \" a \": 1\n    b:\n      c: 2"},
	})
}

func TestOutputShape(t *testing.T) {
	inputs := []any{
		map[string]any{"a": []any{map[string]any{"b": []any{1, map[string]any{}}, "c": ""}}, "d": map[string]any{}},
		[]any{[]any{}, map[string]any{}, "", []any{[]any{}}},
	}
	for i, in := range inputs {
		out, err := Marshal(in)
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		s := string(out)
		if strings.HasSuffix(s, "\n") || strings.Contains(s, "\r") || strings.Contains(s, "\t") {
			t.Errorf("input %d: trailing newline, CR or tab in output %q", i, s)
		}
		for _, line := range strings.Split(s, "\n") {
			if strings.HasSuffix(line, " ") {
				t.Errorf("input %d: trailing space on line %q", i, line)
			}
			if indent := len(line) - len(strings.TrimLeft(line, " ")); indent%2 != 0 {
				t.Errorf("input %d: odd indentation on line %q", i, line)
			}
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	cases := []struct {
		name    string
		value   any
		wantErr string
	}{
		{name: "NaN", value: math.NaN(), wantErr: "unsupported value: NaN"},
		{name: "infinity in a struct", value: struct{ X float64 }{math.Inf(1)}, wantErr: "unsupported value: +Inf"},
		{name: "function", value: func() {}, wantErr: "unsupported type"},
		{name: "channel", value: map[string]any{"c": make(chan int)}, wantErr: "unsupported type"},
		{name: "invalid raw JSON", value: json.RawMessage(`{"a":`), wantErr: "json.RawMessage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Marshal(c.value)
			if err == nil {
				t.Fatalf("Marshal succeeded with %q, want error", out)
			}
			if !strings.HasPrefix(err.Error(), "toon: ") || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %q, want prefix %q and %q", err, "toon: ", c.wantErr)
			}
		})
	}
}

func TestCanonicalNumberRejectsMalformed(t *testing.T) {
	for _, in := range []string{"", "-", "1.", ".5", "1e", "1e+", "0x10", "1e99999999999999999999"} {
		if got, err := canonicalNumber(in); err == nil {
			t.Errorf("canonicalNumber(%q) = %q, want error", in, got)
		}
	}
}

func TestTabDelimiterOption(t *testing.T) {
	// Marshal always uses commas; the encoder itself supports the other
	// delimiters, which the spec fixtures exercise (spec_fixture_test.go).
	value, err := parseJSON([]byte(`{"items":[{"id":1,"note":"a,b"},{"id":2,"note":"c\td"}],"tags":["x|y","z"],"note":"a,b"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		delimiter byte
		want      string
	}{
		{'\t', "items[2\t]{id\tnote}:\n  1\ta,b\n  2\t\"c\\td\"\ntags[2\t]: x|y\tz\nnote: a,b"},
		{'|', "items[2|]{id|note}:\n  1|a,b\n  2|\"c\\td\"\ntags[2|]: \"x|y\"|z\nnote: a,b"},
	} {
		enc := encoder{indentSize: 2, delimiter: c.delimiter}
		if err := enc.root(value); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(enc.lines, "\n"); got != c.want {
			t.Errorf("delimiter %q:\n got: %q\nwant: %q", c.delimiter, got, c.want)
		}
	}
}
