package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encodingJSONString is s as encoding/json writes it without HTML escaping.
func encodingJSONString(t testing.TB, s string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// checkJSONString fails unless appendJSONString writes s as encoding/json does.
func checkJSONString(t testing.TB, s string) {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString("x") // what is in the buffer already stays
	appendJSONString(&buf, s)
	if got, want := buf.String(), "x"+encodingJSONString(t, s); got != want {
		t.Fatalf("appendJSONString(%q)\n= %s\nwant %s", s, got, want)
	}
}

// TestAppendJSONString: the same bytes as encoding/json, for every escape it
// makes, at every position of the eight-byte words, and for what makes
// appendJSONString hand the string to encoding/json.
func TestAppendJSONString(t *testing.T) {
	cases := []string{
		"", "a", "plain ascii text, longer than eight bytes",
		`{"query":"a <b> & c","results":[{"content":"if a < b && c > d {\n\t\"q\" \\ }"}]}`,
		"quote \" backslash \\ newline \n tab \t cr \r bs \b ff \f nul \x00 unit sep \x1f del \x7f",
		"é ü 😀 日本語 and ascii", "line sep \u2028 para sep \u2029", "invalid \xff\xfe utf-8", "truncated \xe2\x80",
		"<html> & 'single' `back`", strings.Repeat("0123456789", 100) + "\"",
	}
	for c := byte(0); c < 0x80; c++ {
		for pad := range 17 {
			cases = append(cases, strings.Repeat("a", pad)+string(rune(c))+strings.Repeat("b", 16-pad))
		}
	}
	for _, s := range cases {
		checkJSONString(t, s)
	}
}

// FuzzAppendJSONString: the same bytes as encoding/json for any string.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c\n", "é\u2028\xff", strings.Repeat("x\"", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkJSONString(t, s) })
}

// BenchmarkAppendJSONString: a search answer's JSON as its text twin.
func BenchmarkAppendJSONString(b *testing.B) {
	hit := `{"path":"tokio/src/task/spawn.rs","start_line":8,"end_line":87,"relevance_percent":100,"kind":"function","language":"rust","symbols":["spawn"],"content":"pub fn spawn<F>(future: F) -> JoinHandle<F::Output>\n    where\n        F: Future + Send + 'static,\n    {\n        let fut_size = std::mem::size_of::<F>();\n        if fut_size > BOX_FUTURE_THRESHOLD {\n            spawn_inner(Box::pin(future), SpawnMeta::new_unnamed(fut_size))\n        } else {\n            spawn_inner(future, SpawnMeta::new_unnamed(fut_size))\n        }\n    }\n"}`
	s := `{"query":"spawn a background task","results":[` + strings.Repeat(hit+",", 40) + hit + `]}`
	for _, impl := range []struct {
		name string
		f    func(*bytes.Buffer, string)
	}{
		{"lore", appendJSONString},
		{"encoding_json", func(buf *bytes.Buffer, s string) {
			enc := json.NewEncoder(buf)
			enc.SetEscapeHTML(false)
			enc.Encode(s)
		}},
	} {
		b.Run(impl.name, func(b *testing.B) {
			var buf bytes.Buffer
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				buf.Reset()
				impl.f(&buf, s)
			}
		})
	}
}
