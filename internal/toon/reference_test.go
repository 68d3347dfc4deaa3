package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests check the encoder against material from outside this
// repository, when it is available on the machine; the golden tests in
// toon_test.go stand on their own.
//
//	LORE_TOON_SPEC_DIR: an unpacked @toon-format/spec npm package
//	    (cd /tmp && npm pack @toon-format/spec && tar xzf toon-format-spec-*.tgz)
//	LORE_TOON_REF_DIR: a directory where `npm install @toon-format/toon` ran
//	    (node must be on PATH)

// TestSpecEncodeFixtures runs the spec's language-agnostic encode fixtures.
func TestSpecEncodeFixtures(t *testing.T) {
	dir := os.Getenv("LORE_TOON_SPEC_DIR")
	if dir == "" {
		t.Skip("LORE_TOON_SPEC_DIR not set")
	}
	files, err := filepath.Glob(filepath.Join(dir, "tests", "fixtures", "encode", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no encode fixtures under %s (err %v)", dir, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var fixture struct {
			Tests []struct {
				Name     string          `json:"name"`
				Input    json.RawMessage `json:"input"`
				Expected string          `json:"expected"`
				Options  struct {
					Delimiter  string `json:"delimiter"`
					Indent     int    `json:"indent"`
					KeyFolding string `json:"keyFolding"`
				} `json:"options"`
				ShouldError bool `json:"shouldError"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(data, &fixture); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, tc := range fixture.Tests {
			t.Run(filepath.Base(file)+"/"+tc.Name, func(t *testing.T) {
				if tc.Options.KeyFolding == "safe" {
					t.Skip("key folding is not implemented (off is the spec default)")
				}
				enc := encoder{indentSize: 2, delimiter: ','}
				if tc.Options.Indent != 0 {
					enc.indentSize = tc.Options.Indent
				}
				if tc.Options.Delimiter != "" {
					enc.delimiter = tc.Options.Delimiter[0]
				}
				value, err := parseJSON(tc.Input)
				if err != nil {
					t.Fatal(err)
				}
				err = enc.root(value)
				if tc.ShouldError {
					if err == nil {
						t.Errorf("want error")
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Join(enc.lines, "\n"); got != tc.Expected {
					t.Errorf("input %s\n got:\n%s\nwant:\n%s", tc.Input, got, tc.Expected)
				}
			})
		}
	}
}

// TestAgainstReferenceImplementation encodes a corpus with Marshal and with
// the official TypeScript encoder, and decodes Marshal's output with the
// official decoder: outputs must match byte for byte (except for documented
// deviations), and decoding must give back the input.
func TestAgainstReferenceImplementation(t *testing.T) {
	refDir := os.Getenv("LORE_TOON_REF_DIR")
	if refDir == "" {
		t.Skip("LORE_TOON_REF_DIR not set")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not on PATH")
	}
	if _, err := os.Stat(filepath.Join(refDir, "node_modules", "@toon-format", "toon")); err != nil {
		t.Skipf("@toon-format/toon not installed in %s", refDir)
	}

	type refCase struct {
		Input string `json:"input"` // JSON text
		Ours  string `json:"ours"`
		Exact bool   `json:"-"`
	}
	var cases []refCase
	add := func(jsonText string, exact bool) {
		out, err := Marshal(json.RawMessage(jsonText))
		if err != nil {
			t.Fatalf("Marshal(%s): %v", jsonText, err)
		}
		cases = append(cases, refCase{Input: jsonText, Ours: string(out), Exact: exact})
	}
	for _, s := range []string{
		`{"items":[{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}],"status":"active"}]}`,
		`{"items":[{"matrix":[[1,2],[3,4]],"name":"grid"}],"e":{},"f":[],"g":[{}]}`,
		`[["a",[1,[2,[]]]],{"x":[{"a":{"b":[{"c":1},{"c":2}]}}]}]`,
		`{"s":["#x","+5","-","1.","0x10","True","a b","{","]","\u0001"]}`,
		`[1e21,1.5e-7,0.000001,-0,1.000,123456789.125]`,
		`"hello"`, `""`, `null`, `[]`, `{}`, `3`,
	} {
		add(s, true)
	}
	// Deviations that must still decode to the same value: extra quoting of
	// exotic leading whitespace, exact integers beyond 2^53 (JavaScript
	// rounds them, in both the encoder and the comparison).
	add(`{"a":"\u00a0x","b":"x\u3000"}`, false)
	add(`{"n":[9007199254740993]}`, false)

	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		raw, err := json.Marshal(randomValue(rng, 0))
		if err != nil {
			t.Fatal(err)
		}
		add(string(raw), true)
	}

	payload, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	const script = `
import { encode, decode } from '@toon-format/toon';
import { readFileSync } from 'node:fs';
const cases = JSON.parse(readFileSync(0, 'utf8'));
const results = cases.map(c => {
  const input = JSON.parse(c.input);
  let decoded, decodeError = '';
  try { decoded = JSON.stringify(decode(c.ours)); } catch (e) { decodeError = String(e); }
  return { reference: encode(input), roundTrip: decoded === JSON.stringify(input), decodeError };
});
process.stdout.write(JSON.stringify(results));
`
	cmd := exec.Command("node", "--input-type=module", "-e", script)
	cmd.Dir = refDir // bare import specifiers resolve from the working directory
	cmd.Stdin = bytes.NewReader(payload)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var results []struct {
		Reference   string `json:"reference"`
		RoundTrip   bool   `json:"roundTrip"`
		DecodeError string `json:"decodeError"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(cases) {
		t.Fatalf("reading node output (%d results for %d cases): %v", len(results), len(cases), err)
	}
	for i, r := range results {
		c := cases[i]
		if !r.RoundTrip {
			t.Errorf("case %d: reference decoder does not give back the input %s from\n%s\n(decode error: %s)", i, c.Input, c.Ours, r.DecodeError)
		}
		if c.Exact && r.Reference != c.Ours {
			t.Errorf("case %d: input %s\n ours:\n%s\n reference:\n%s", i, c.Input, c.Ours, r.Reference)
		}
	}
}

// randomValue builds a JSON-shaped value that exercises every encoding form:
// uniform object arrays (tables), mixed lists, nested arrays and awkward
// strings. Map keys are drawn from a small set so that tables occur often.
func randomValue(rng *rand.Rand, depth int) any {
	kind := rng.IntN(10)
	if depth >= 4 {
		kind = rng.IntN(4)
	}
	switch kind {
	case 0:
		return randomString(rng)
	case 1:
		return []any{nil, true, false}[rng.IntN(3)]
	case 2:
		return []any{0, -1, 42, 3.25, 1e-7, 2.5e21, 1.0 / 3, 1e20}[rng.IntN(8)]
	case 3:
		return randomString(rng)
	case 4, 5:
		return randomObject(rng, depth)
	case 6: // table candidate: same keys, primitive values
		keys := randomKeys(rng)
		rows := make([]any, 1+rng.IntN(3))
		for i := range rows {
			row := map[string]any{}
			for _, k := range keys {
				row[k] = randomValue(rng, 4)
			}
			rows[i] = row
		}
		return rows
	default:
		arr := make([]any, rng.IntN(4))
		for i := range arr {
			arr[i] = randomValue(rng, depth+1)
		}
		return arr
	}
}

func randomObject(rng *rand.Rand, depth int) map[string]any {
	obj := map[string]any{}
	for _, k := range randomKeys(rng) {
		obj[k] = randomValue(rng, depth+1)
	}
	return obj
}

func randomKeys(rng *rand.Rand) []string {
	pool := []string{"id", "name", "a.b", "my-key", "", "x y", "_z", "k:v"} // no integer-like keys: JavaScript reorders them
	n := rng.IntN(4)
	keys := make([]string, 0, n)
	for range n {
		keys = append(keys, pool[rng.IntN(len(pool))])
	}
	return keys
}

func randomString(rng *rand.Rand) string {
	pool := []string{"", "plain", "two words", " lead", "trail ", "true", "null", "42", "-3.5", "1e5",
		"05", "a,b", "a|b", "a:b", `q"uote`, `back\slash`, "line\nbreak", "tab\there", "-", "- x",
		"[x]", "{y}", "#tag", "café", "🚀", "\x01ctl", "x-y", "+7", "0.5.1"}
	if rng.IntN(5) == 0 {
		return fmt.Sprintf("%s%s", pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))])
	}
	return pool[rng.IntN(len(pool))]
}
