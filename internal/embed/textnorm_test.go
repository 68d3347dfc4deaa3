package embed

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestPreTokenizers(t *testing.T) {
	cases := []struct {
		spec string
		in   string
		want []string
	}{
		{`{"type":"BertPreTokenizer"}`, "Hello, world!! a_b\u00a0c$", []string{"Hello", ",", "world", "!", "!", "a", "_", "b", "c", "$"}},
		{`{"type":"BertPreTokenizer"}`, "«x»—y…", []string{"«", "x", "»", "—", "y", "…"}},
		{`{"type":"Whitespace"}`, "héllo, wörld!? x_1 中文 ①", []string{"héllo", ",", "wörld", "!?", "x_1", "中文", "①"}},
		{`{"type":"Whitespace"}`, "e\u0301t\u00e9 ++--", []string{"e\u0301t\u00e9", "++--"}},
		{`{"type":"WhitespaceSplit"}`, "  a,b \t c\u3000d ", []string{"a,b", "c", "d"}},
		{`{"type":"Punctuation"}`, "a((b)).c", []string{"a", "(", "(", "b", ")", ")", ".", "c"}},
		{`{"type":"Punctuation","behavior":"Removed"}`, "a((b)).c", []string{"a", "b", "c"}},
		{`{"type":"Digits","individual_digits":true}`, "ab123c²", []string{"ab", "1", "2", "3", "c", "²"}},
		{`{"type":"Digits","individual_digits":false}`, "ab123c٣٤x", []string{"ab", "123", "c", "٣٤", "x"}},
		{`{"type":"Sequence","pretokenizers":[{"type":"WhitespaceSplit"},{"type":"Digits","individual_digits":false}]}`,
			"a1 22b", []string{"a", "1", "22", "b"}},
		{`null`, "a b", nil}, // no pre-tokenizer: the caller keeps the piece whole
	}
	for _, c := range cases {
		p, err := parsePreTokenizer(json.RawMessage(c.spec))
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		var got []string
		if p != nil {
			got = p.split(c.in)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s split(%q) = %q, want %q", c.spec, c.in, got, c.want)
		}
	}
}

func TestNormalizers(t *testing.T) {
	cases := []struct {
		spec string
		in   string
		want string
	}{
		{`{"type":"BertNormalizer","lowercase":true}`, "Héllo\tWORLD\x00\u200b中x", "hello world 中 x"},
		{`{"type":"BertNormalizer","lowercase":false}`, "Héllo", "Héllo"},
		{`{"type":"BertNormalizer","lowercase":true,"strip_accents":false}`, "HÉllo", "héllo"},
		{`{"type":"BertNormalizer","lowercase":false,"strip_accents":true,"clean_text":false,"handle_chinese_chars":false}`, "Hé\x01中", "He\x01中"},
		{`{"type":"Lowercase"}`, "İSTANBUL ΣΑΣ", "i\u0307stanbul σασ"},
		{`{"type":"NFKC"}`, "ﬁ①ｈ", "fi1h"},
		{`{"type":"NFD"}`, "é", "e\u0301"},
		{`{"type":"NFC"}`, "e\u0301", "é"},
		{`{"type":"NFKD"}`, "ﬁé", "fie\u0301"},
		{`{"type":"StripAccents"}`, "e\u0301a", "ea"},
		{`{"type":"Strip","strip_left":true,"strip_right":false}`, "  a  ", "a  "},
		{`{"type":"Strip","strip_left":true,"strip_right":true}`, "\u3000a\n", "a"},
		{`{"type":"Prepend","prepend":"▁"}`, "a", "▁a"},
		{`{"type":"Replace","pattern":{"String":"  "},"content":" "}`, "a    b", "a  b"},
		{`{"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "}`, "a \t\n b", "a b"},
		{`{"type":"Sequence","normalizers":[{"type":"NFD"},{"type":"StripAccents"},{"type":"Lowercase"}]}`, "ÀÉ", "ae"},
	}
	for _, c := range cases {
		n, err := parseNormalizer(json.RawMessage(c.spec))
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if got := n.normalize(c.in); got != c.want {
			t.Errorf("%s normalize(%q) = %q, want %q", c.spec, c.in, got, c.want)
		}
	}
}

func TestUnsupportedComponents(t *testing.T) {
	cases := []struct {
		normalizer, preTokenizer string
		wantErr                  string
	}{
		{normalizer: `{"type":"Precompiled","precompiled_charsmap":"AAA"}`, wantErr: `normalizer type "Precompiled" is not supported`},
		{normalizer: `{"type":"Replace","pattern":{"Regex":"(?<=a)b"},"content":""}`, wantErr: "Replace regex"},
		{normalizer: `{"type":"Replace","content":""}`, wantErr: "without a String or Regex pattern"},
		{normalizer: `{"type":"Sequence","normalizers":[{"type":"Nope"}]}`, wantErr: `Sequence item 0: normalizer type "Nope"`},
		{normalizer: `[1]`, wantErr: "malformed"},
		{preTokenizer: `{"type":"ByteLevel"}`, wantErr: `pre-tokenizer type "ByteLevel" is not supported`},
		{preTokenizer: `{"type":"Punctuation","behavior":"Contiguous"}`, wantErr: `Punctuation behavior "Contiguous"`},
		{preTokenizer: `{"type":"Sequence","pretokenizers":[{"type":"Split"}]}`, wantErr: `Sequence item 0: pre-tokenizer type "Split"`},
	}
	for _, c := range cases {
		var err error
		if c.normalizer != "" {
			_, err = parseNormalizer(json.RawMessage(c.normalizer))
		} else {
			_, err = parsePreTokenizer(json.RawMessage(c.preTokenizer))
		}
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s%s: error %v, want %q", c.normalizer, c.preTokenizer, err, c.wantErr)
		}
	}
}

func TestAddedTokenOptions(t *testing.T) {
	tokJSON := `{
	  "added_tokens": [
	    {"id": 10, "content": "<mask>", "lstrip": true, "rstrip": false, "single_word": false, "normalized": false, "special": false},
	    {"id": 11, "content": "<eos>", "lstrip": false, "rstrip": true, "single_word": false, "normalized": false, "special": false},
	    {"id": 12, "content": "ab", "lstrip": false, "rstrip": false, "single_word": true, "normalized": false, "special": false},
	    {"id": 13, "content": "abc", "lstrip": false, "rstrip": false, "single_word": false, "normalized": false, "special": false},
	    {"id": 14, "content": "b", "lstrip": false, "rstrip": false, "single_word": false, "normalized": false, "special": false}
	  ],
	  "pre_tokenizer": {"type": "WhitespaceSplit"},
	  "model": {"type": "WordLevel", "vocab": {"x": 0, "y": 1, "[UNK]": 2}, "unk_token": "[UNK]"}
	}`
	tok, err := parseTokenizer([]byte(tokJSON))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in   string
		want []int
	}{
		{"x  <mask> y", []int{0, 10, 1}}, // lstrip swallows the spaces before
		{"x <eos>   y", []int{0, 11, 1}}, // rstrip swallows the spaces after
		{"x ab y", []int{0, 12, 1}},      // single word
		{"xab", []int{2}},                // not a word of its own: discarded, and the "b" inside is skipped too
		{"xb", []int{0, 14}},
		{"abc", []int{13}},    // longest match wins
		{"ab,", []int{12, 2}}, // punctuation is a word boundary
		{"<mask><eos><mask>", []int{10, 11, 10}},
		{"q", []int{2}},
	}
	for _, c := range cases {
		if got := tok.encode(c.in); !slices.Equal(got, c.want) {
			t.Errorf("encode(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestWordLevelWithoutUnknownDropsWords(t *testing.T) {
	tok, err := parseTokenizer([]byte(`{"pre_tokenizer":{"type":"WhitespaceSplit"},"model":{"type":"WordLevel","vocab":{"x":0}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.encode("x q x"); !slices.Equal(got, []int{0, 0}) {
		t.Errorf("encode = %v, want [0 0]", got)
	}
}
