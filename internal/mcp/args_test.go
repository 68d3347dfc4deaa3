package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/errs"
)

// testMode is a named string type, to check that named types decode.
type testMode string

// testTarget is embedded in testArgs: its fields are arguments at its place.
type testTarget struct {
	Repo string `arg:"repo,required" enum:"docs,code" code:"REPO_INVALID" desc:"Which root."`
}

// testArgs exercises every tag and type the decoder knows.
type testArgs struct {
	Query string `arg:"query,required" desc:"What to find."`
	testTarget
	Limit  int      `arg:"limit" default:"${files.DefaultSearchLimit}" min:"1" max:"${files.MaxSearchLimit}" code:"LIMIT_INVALID" desc:"At most this many."`
	Weight float64  `arg:"weight" default:"0.5" min:"0" max:"1" desc:"A weight."`
	Floor  int      `arg:"floor" min:"-2" desc:"At least -2."`
	Cap    float64  `arg:"cap" max:"10" desc:"At most 10."`
	Mode   testMode `arg:"mode" default:"fast" enum:"fast,slow" desc:"How."`
	Path   string   `arg:"path" default:"" desc:"Empty by default."`
	Exact  bool     `arg:"exact" default:"false" desc:"Match exactly."`
	Dry    bool     `arg:"dry" desc:"No default."`
}

func mustSpec[T any](t *testing.T) *argSpec {
	t.Helper()
	spec, err := argSpecFor(reflect.TypeFor[T]())
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

func TestArgsDecode(t *testing.T) {
	spec := mustSpec[testArgs](t)
	defaults := testArgs{Query: "q", testTarget: testTarget{Repo: "code"}, Limit: 200, Weight: 0.5, Mode: "fast"}
	tests := []struct {
		name     string
		raw      string
		want     *testArgs // nil: an error
		code     string
		message  string
		noArgsOK bool
	}{
		{name: "defaults filled in", raw: `{"query":"q","repo":"code"}`, want: &defaults},
		{name: "null counts as absent", raw: `{"query":"q","repo":"code","limit":null,"mode":null}`, want: &defaults},
		{name: "every value", raw: `{"query":"q","repo":"docs","limit":5,"weight":1,"floor":-2,"cap":-7.5,"mode":"slow","path":"a","exact":true,"dry":true}`,
			want: &testArgs{Query: "q", testTarget: testTarget{Repo: "docs"}, Limit: 5, Weight: 1, Floor: -2, Cap: -7.5, Mode: "slow", Path: "a", Exact: true, Dry: true}},
		{name: "whitespace around", raw: " \n{\"query\" : \"q\", \"repo\": \"code\"}\t", want: &defaults},
		{name: "missing", raw: `{"repo":"code"}`, code: errs.CodeInvalidArgument, message: "Missing required argument: query"},
		{name: "null required", raw: `{"query":null,"repo":"code"}`, code: errs.CodeInvalidArgument, message: "Missing required argument: query"},
		{name: "no arguments", raw: ``, code: errs.CodeInvalidArgument, message: "Missing required argument: query"},
		{name: "null arguments", raw: `null`, code: errs.CodeInvalidArgument, message: "Missing required argument: query"},
		{name: "missing embedded, in declaration order", raw: `{"query":"q"}`, code: errs.CodeInvalidArgument, message: "Missing required argument: repo"},
		{name: "unknown", raw: `{"query":"q","repo":"code","zeta":1,"alpha":2}`, code: errs.CodeInvalidArgument,
			message: "Unknown argument: alpha, zeta (this tool takes: query, repo, limit, weight, floor, cap, mode, path, exact, dry)"},
		{name: "an array", raw: `[1]`, code: errs.CodeInvalidArgument, message: "Arguments must be a JSON object"},
		{name: "a string", raw: `"q"`, code: errs.CodeInvalidArgument, message: "Arguments must be a JSON object"},
		{name: "broken", raw: `{"query":`, code: errs.CodeInvalidArgument, message: "Arguments must be a JSON object"},
		{name: "string type", raw: `{"query":1,"repo":"code"}`, code: errs.CodeInvalidArgument, message: "Argument query must be a string, got a number"},
		{name: "per-argument code", raw: `{"query":"q","repo":["code"]}`, code: errs.CodeRepoInvalid, message: "Argument repo must be a string, got an array"},
		{name: "enum", raw: `{"query":"q","repo":"src"}`, code: errs.CodeRepoInvalid, message: `Argument repo must be one of docs, code; got "src"`},
		{name: "enum of a named type", raw: `{"query":"q","repo":"code","mode":"warp"}`, code: errs.CodeInvalidArgument, message: `Argument mode must be one of fast, slow; got "warp"`},
		{name: "integer type", raw: `{"query":"q","repo":"code","limit":"5"}`, code: errs.CodeLimitInvalid, message: "Argument limit must be an integer, got a string"},
		{name: "fraction", raw: `{"query":"q","repo":"code","limit":2.5}`, code: errs.CodeLimitInvalid, message: "Argument limit must be an integer, got 2.5"},
		{name: "above 2^53", raw: `{"query":"q","repo":"code","floor":9007199254740994}`, code: errs.CodeInvalidArgument, message: "Argument floor must be an integer, got 9007199254740994"},
		{name: "2^53", raw: `{"query":"q","repo":"code","floor":9007199254740992}`,
			want: &testArgs{Query: "q", testTarget: testTarget{Repo: "code"}, Limit: 200, Weight: 0.5, Mode: "fast", Floor: 1 << 53}},
		{name: "1e300", raw: `{"query":"q","repo":"code","limit":1e300}`, code: errs.CodeLimitInvalid, message: "Argument limit must be an integer, got 1e300"},
		{name: "1e400 is no number", raw: `{"query":"q","repo":"code","weight":1e400}`, code: errs.CodeInvalidArgument, message: "Argument weight must be a number, got a number"},
		{name: "between", raw: `{"query":"q","repo":"code","limit":0}`, code: errs.CodeLimitInvalid, message: "Argument limit must be between 1 and 5000, got 0"},
		{name: "between, number", raw: `{"query":"q","repo":"code","weight":1.5}`, code: errs.CodeInvalidArgument, message: "Argument weight must be between 0 and 1, got 1.5"},
		{name: "at least", raw: `{"query":"q","repo":"code","floor":-3}`, code: errs.CodeInvalidArgument, message: "Argument floor must be at least -2, got -3"},
		{name: "at most", raw: `{"query":"q","repo":"code","cap":10.5}`, code: errs.CodeInvalidArgument, message: "Argument cap must be at most 10, got 10.5"},
		{name: "number type", raw: `{"query":"q","repo":"code","weight":"high"}`, code: errs.CodeInvalidArgument, message: "Argument weight must be a number, got a string"},
		{name: "boolean type", raw: `{"query":"q","repo":"code","exact":"yes"}`, code: errs.CodeInvalidArgument, message: "Argument exact must be a boolean, got a string"},
		{name: "boolean from a number", raw: `{"query":"q","repo":"code","dry":0}`, code: errs.CodeInvalidArgument, message: "Argument dry must be a boolean, got a number"},
		{name: "object", raw: `{"query":{},"repo":"code"}`, code: errs.CodeInvalidArgument, message: "Argument query must be a string, got an object"},
		{name: "boolean for a string", raw: `{"query":true,"repo":"code"}`, code: errs.CodeInvalidArgument, message: "Argument query must be a string, got a boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := spec.decode(json.RawMessage(tt.raw))
			if tt.want != nil {
				if err != nil {
					t.Fatalf("decode(%s): %v", tt.raw, err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("decode(%s) = %+v, want %+v", tt.raw, got, tt.want)
				}
				return
			}
			e, ok := errs.As(err)
			if !ok || e.Code != tt.code || e.Message != tt.message || e.Kind != errs.Invalid {
				t.Errorf("decode(%s) = %v (%+v), want %s %q", tt.raw, err, e, tt.code, tt.message)
			}
		})
	}
}

// An object argument takes any JSON object, and nothing else; its schema
// carries the properties a schema tag names.
func TestArgsObject(t *testing.T) {
	type objectArgs struct {
		Filter map[string]any `arg:"filter" schema:"payloadFilter" desc:"Filters."`
		Must   map[string]any `arg:"must,required" desc:"Required."`
	}
	spec := mustSpec[objectArgs](t)
	got, err := spec.decode(json.RawMessage(`{"must":{"a":[1,"x"],"b":{"c":null}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &objectArgs{Must: map[string]any{"a": []any{1.0, "x"}, "b": map[string]any{"c": nil}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decode = %#v, want %#v", got, want)
	}
	for raw, message := range map[string]string{
		`{"must":"a=1"}`:            "Argument must must be an object, got a string",
		`{"must":[{"a":1}]}`:        "Argument must must be an object, got an array",
		`{"must":{},"filter":7}`:    "Argument filter must be an object, got a number",
		`{"must":null}`:             "Missing required argument: must",
		`{"must":{},"filter":true}`: "Argument filter must be an object, got a boolean",
	} {
		_, err := spec.decode(json.RawMessage(raw))
		if e, ok := errs.As(err); !ok || e.Message != message || e.Kind != errs.Invalid {
			t.Errorf("decode(%s) = %v, want %q", raw, err, message)
		}
	}
	schema := spec.schema()["properties"].(map[string]any)
	filter := schema["filter"].(map[string]any)
	if filter["type"] != "object" || filter["additionalProperties"] != false || filter["properties"].(map[string]any)["filePath"] == nil {
		t.Errorf("filter schema = %v", filter)
	}
	if must := schema["must"].(map[string]any); must["type"] != "object" || must["properties"] != nil {
		t.Errorf("must schema = %v", must)
	}
}

func TestArgsNoArguments(t *testing.T) {
	spec := mustSpec[noArgs](t)
	for _, raw := range []string{``, `null`, `{}`, ` { } `} {
		if got, err := spec.decode(json.RawMessage(raw)); err != nil || got.(*noArgs) == nil {
			t.Errorf("decode(%q) = %v, %v", raw, got, err)
		}
	}
	_, err := spec.decode(json.RawMessage(`{"b":1,"a":2}`))
	if e, ok := errs.As(err); !ok || e.Message != "Unknown argument: a, b (this tool takes no arguments)" {
		t.Errorf("unknown arguments: %v", err)
	}
	if got := spec.schema(); !jsonEqual(got, map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}) {
		t.Errorf("schema = %v", got)
	}
}

func TestArgsSchema(t *testing.T) {
	got, err := json.Marshal(mustSpec[testArgs](t).schema())
	if err != nil {
		t.Fatal(err)
	}
	// Keys sorted (a Go map), "required" in declaration order, defaults
	// typed, the ${…} variables expanded.
	want := `{"additionalProperties":false,"properties":{` +
		`"cap":{"description":"At most 10.","maximum":10,"type":"number"},` +
		`"dry":{"description":"No default.","type":"boolean"},` +
		`"exact":{"default":false,"description":"Match exactly.","type":"boolean"},` +
		`"floor":{"description":"At least -2.","minimum":-2,"type":"integer"},` +
		`"limit":{"default":200,"description":"At most this many.","maximum":5000,"minimum":1,"type":"integer"},` +
		`"mode":{"default":"fast","description":"How.","enum":["fast","slow"],"type":"string"},` +
		`"path":{"default":"","description":"Empty by default.","type":"string"},` +
		`"query":{"description":"What to find.","type":"string"},` +
		`"repo":{"description":"Which root.","enum":["docs","code"],"type":"string"},` +
		`"weight":{"default":0.5,"description":"A weight.","maximum":1,"minimum":0,"type":"number"}` +
		`},"required":["query","repo"],"type":"object"}`
	if string(got) != want {
		t.Errorf("schema\n got  %s\n want %s", got, want)
	}
}

// Malformed argument structs are refused when the tool is built, naming
// the field and what is wrong.
func TestArgsSpecErrors(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"not a struct", reflect.TypeFor[string](), "is not a struct"},
		{"no arg tag", reflect.TypeFor[struct {
			Query string `desc:"x"`
		}](), "field Query: no arg tag"},
		{"empty name", reflect.TypeFor[struct {
			Query string `arg:",required"`
		}](), "the arg tag has no name"},
		{"unknown option", reflect.TypeFor[struct {
			Query string `arg:"query,optional"`
		}](), `unknown arg tag option "optional"`},
		{"unsupported type", reflect.TypeFor[struct {
			Paths []string `arg:"paths"`
		}](), "type []string is not string, bool, int, float64 or map[string]any"},
		{"int64", reflect.TypeFor[struct {
			N int64 `arg:"n"`
		}](), "type int64 is not"},
		{"unexported", reflect.TypeFor[struct {
			query string `arg:"query"`
		}](), "field query is not exported"},
		{"twice", reflect.TypeFor[struct {
			testTarget
			Repo string `arg:"repo"`
		}](), `argument "repo" is declared twice`},
		{"enum on an int", reflect.TypeFor[struct {
			N int `arg:"n" enum:"1,2"`
		}](), "enum needs a string field"},
		{"min on a string", reflect.TypeFor[struct {
			S string `arg:"s" min:"1"`
		}](), "min needs an int or float64 field"},
		{"max not a number", reflect.TypeFor[struct {
			N int `arg:"n" max:"ten"`
		}](), `max "ten" is not a number`},
		{"unknown code", reflect.TypeFor[struct {
			S string `arg:"s" code:"NOPE"`
		}](), `code "NOPE" is not one of INVALID_ARGUMENT, REPO_INVALID, LIMIT_INVALID, INVALID_RANGE`},
		{"unknown variable", reflect.TypeFor[struct {
			N int `arg:"n" max:"${nope}"`
		}](), "unknown tag variable ${nope}"},
		{"unclosed variable", reflect.TypeFor[struct {
			N int `arg:"n" max:"${search.MaxLimit"`
		}](), "unknown tag variable"},
		{"default outside the enum", reflect.TypeFor[struct {
			S string `arg:"s" default:"c" enum:"a,b"`
		}](), `default "c": Argument s must be one of a, b; got "c"`},
		{"default out of range", reflect.TypeFor[struct {
			N int `arg:"n" default:"0" min:"1"`
		}](), `default "0": Argument n must be at least 1, got 0`},
		{"default of the wrong type", reflect.TypeFor[struct {
			B bool `arg:"b" default:"yes"`
		}](), `default "yes"`},
		{"map of the wrong kind", reflect.TypeFor[struct {
			M map[string]int `arg:"m"`
		}](), "type map[string]int is not map[string]any"},
		{"schema on a string", reflect.TypeFor[struct {
			S string `arg:"s" schema:"payloadFilter"`
		}](), `schema "payloadFilter" needs a map field`},
		{"unknown schema", reflect.TypeFor[struct {
			M map[string]any `arg:"m" schema:"nope"`
		}](), `schema "nope" needs a map field and an entry of argSchemas`},
		{"default of a required argument", reflect.TypeFor[struct {
			S string `arg:"s,required" default:"x"`
		}](), "a required argument cannot have a default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := argSpecFor(tt.typ)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("argSpecFor = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// newTool refuses a malformed argument struct at once, naming the tool.
func TestNewToolPanicsOnBadArgs(t *testing.T) {
	type bad struct {
		N []int `arg:"n"`
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "tool zz_bad: arguments type") {
			t.Errorf("recover() = %v", r)
		}
	}()
	newTool(&tool{def: &sdk.Tool{Name: "zz_bad"}}, func(context.Context, *call, *bad) (*outcome, error) { return nil, nil })
}
