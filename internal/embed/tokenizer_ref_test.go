package embed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTokenizerAgainstReference compares token ids with Hugging Face's
// JavaScript port of tokenizers, for several tokenizer.json configurations
// and a few thousand tricky strings. It runs only when node is on PATH and
// LORE_HF_TOKENIZERS_DIR names a directory where
// `npm install @huggingface/tokenizers` ran; TestTokenizerEncode stands on
// its own.
func TestTokenizerAgainstReference(t *testing.T) {
	refDir := os.Getenv("LORE_HF_TOKENIZERS_DIR")
	if refDir == "" {
		t.Skip("LORE_HF_TOKENIZERS_DIR not set")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not on PATH")
	}
	if _, err := os.Stat(filepath.Join(refDir, "node_modules", "@huggingface", "tokenizers")); err != nil {
		t.Skipf("@huggingface/tokenizers not installed in %s", refDir)
	}

	texts := referenceTexts()
	variants := referenceTokenizers(t)
	for _, name := range slices.Sorted(maps.Keys(variants)) {
		tokJSON := variants[name]
		t.Run(name, func(t *testing.T) {
			tok, err := parseTokenizer(tokJSON)
			if err != nil {
				t.Fatal(err)
			}
			want := runReferenceTokenizer(t, refDir, tokJSON, texts)
			mismatches := 0
			for i, text := range texts {
				if got := tok.encode(text); !slices.Equal(got, want[i]) && !(len(got) == 0 && len(want[i]) == 0) {
					mismatches++
					if mismatches <= 10 {
						t.Errorf("encode(%q) = %v, reference %v", text, got, want[i])
					}
				}
			}
			if mismatches > 0 {
				t.Errorf("%d of %d texts differ", mismatches, len(texts))
			}
		})
	}
}

func runReferenceTokenizer(t *testing.T, refDir string, tokJSON []byte, texts []string) [][]int {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"tokenizer": json.RawMessage(tokJSON), "texts": texts})
	if err != nil {
		t.Fatal(err)
	}
	const script = `
import { Tokenizer } from '@huggingface/tokenizers';
import { readFileSync } from 'node:fs';
const { tokenizer, texts } = JSON.parse(readFileSync(0, 'utf8'));
const tok = new Tokenizer(tokenizer, {});
process.stdout.write(JSON.stringify(texts.map(t => tok.encode(t, { add_special_tokens: false }).ids)));
`
	cmd := exec.Command("node", "--input-type=module", "-e", script)
	cmd.Dir = refDir
	cmd.Stdin = bytes.NewReader(payload)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var ids [][]int
	if err := json.Unmarshal(out, &ids); err != nil || len(ids) != len(texts) {
		t.Fatalf("reading node output (%d results for %d texts): %v", len(ids), len(texts), err)
	}
	return ids
}

// referenceTokenizers returns tokenizer.json variants covering the
// supported components where the JavaScript port follows the Rust library.
// It does not for the Punctuation, Digits and Whitespace pre-tokenizers (it
// merges runs of punctuation, and its \d and \w are ASCII-only), which
// textnorm_test.go covers instead.
func referenceTokenizers(t *testing.T) map[string][]byte {
	base := testTokenizerJSON(t)
	variant := func(edit func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	wordLevelVocab := map[string]any{"[UNK]": 0}
	for i, tok := range testVocab[5:] {
		if !strings.HasPrefix(tok, "##") {
			wordLevelVocab[tok] = i + 1
		}
	}
	return map[string][]byte{
		"bert": base,
		"bert cased keeps accents": variant(func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "BertNormalizer", "clean_text": true,
				"handle_chinese_chars": false, "strip_accents": false, "lowercase": false}
		}),
		"bert lowercase with accents": variant(func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "BertNormalizer", "clean_text": false,
				"handle_chinese_chars": true, "strip_accents": false, "lowercase": true}
		}),
		"sequences": variant(func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{
				map[string]any{"type": "NFKC"},
				map[string]any{"type": "Replace", "pattern": map[string]any{"String": "ß"}, "content": "ss"},
				map[string]any{"type": "Lowercase"},
				map[string]any{"type": "NFD"},
				map[string]any{"type": "StripAccents"},
			}}
			m["pre_tokenizer"] = map[string]any{"type": "Sequence", "pretokenizers": []any{
				map[string]any{"type": "WhitespaceSplit"},
				map[string]any{"type": "BertPreTokenizer"},
			}}
		}),
		"word level": variant(func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Lowercase"}
			m["pre_tokenizer"] = map[string]any{"type": "WhitespaceSplit"}
			m["model"] = map[string]any{"type": "WordLevel", "unk_token": "[UNK]", "vocab": wordLevelVocab}
			m["added_tokens"] = []any{map[string]any{"id": 0, "content": "[UNK]", "single_word": false,
				"lstrip": false, "rstrip": false, "normalized": false, "special": true}}
		}),
	}
}

// referenceTexts builds fixed edge cases plus random mixtures of pieces
// chosen to hit every normalisation and splitting rule. It leaves out what
// the JavaScript port gets wrong: CJK ideographs outside the BMP (it does
// not isolate them), U+FEFF (its \s counts it as a space) and a raw added
// token whose normalised form equals its content (it matches "<CODE>" as
// "<code>").
func referenceTexts() []string {
	texts := []string{
		"", " ", "hello", "Hello, World!", "HELLO   world\n", "unaffable", "golang going",
		"Café", "NAÏVE", "naïve", "$1234", "a_x", "a-b", "ab", "xyz", "中的", "中 的x的",
		"hello\x00\tworld", "hel\u200blo", "hello\u00a0world", "runrunrunrunrun",
		"[CLS] hello [SEP]", "[cls]", "x<code>x", "I love New York.", "NEW YORK",
		"new  york", "İstanbul", "ǅemal", "Straße", "ﬁne", "①②", "x²", "½", "१२३",
		"e\u0301", "\u0301hello", "hello\u0301", "👋🏽 hello", "a\u2028b", "tab\there",
		"\x7f\x1b[31mred", "ｈｅｌｌｏ", "hello…world", "«hello»", "a—b",
		"123456", "١٢٣", "go_lang", "a.b,c!d$e", "((x))", "\uFFFDhello",
	}
	pieces := []string{
		"hello", "world", "s", "un", "aff", "able", "cafe", "café", "CAFÉ", ",", ".", "!", "$", "的",
		"中", "go", "lang", "ing", "run", "-", "a", "b", "x", "_", "123", "4", "naive", "naïve",
		" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u200b", "\u200d", "\x00", "\x01", "é", "e\u0301",
		"İ", "ß", "ﬁ", "²", "①", "٣", "👋", "🚀", "<code>", "New York", "new york", "[CLS]", "[SEP]",
		"[PAD]", "[MASK]", "[UNK]", "#", "&", "~", "\\", "\"", "'", "`", "|", "«", "»", "—", "…",
		"Ω", "ω", "Å", "ﬀ", "ｈ", "한", "ア",
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for i := range 20 {
		texts = append(texts, fmt.Sprintf("%s%d", strings.Repeat("ab", 3+i), i))
	}
	return texts
}
