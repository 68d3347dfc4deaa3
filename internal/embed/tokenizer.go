package embed

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file reads a Hugging Face tokenizer.json and reproduces the token ids
// the Rust `tokenizers` library gives for encode(text, add_special_tokens =
// false), for the components model2vec models use:
//
//	models:         WordPiece (BERT-style, exact), WordLevel
//	normalizers:    BertNormalizer, Lowercase, StripAccents, NFD, NFKD, NFC,
//	                NFKC, Strip, Replace, Prepend, Sequence
//	pre-tokenizers: BertPreTokenizer, Whitespace, WhitespaceSplit,
//	                Punctuation, Digits, Sequence
//	added tokens:   matched before normalisation (normalized: false) or after
//	                it (normalized: true), leftmost-longest, honouring
//	                single_word, lstrip and rstrip
//
// BPE, Unigram, byte-level and Metaspace pre-tokenizers, the Precompiled
// (SentencePiece) normalizer and regex Split are not supported: loading such
// a tokenizer fails with an error naming the unsupported component.

// tokenizer turns text into vocabulary ids.
type tokenizer struct {
	normalizer   normalizer   // nil: none
	preTokenizer preTokenizer // nil: the whole (normalised) piece is one word
	model        tokenModel
	rawAdded     addedTokenSet // matched on the raw text
	normAdded    addedTokenSet // matched on the normalised text
	special      map[int]bool  // ids of special added tokens
	unkID        int           // -1 when the model has no unknown token
	// allTokens maps every token string (model vocabulary and added
	// tokens) to its id; the model keeps its own vocabulary.
	allTokens map[string]int
}

type normalizer interface{ normalize(s string) string }

// preTokenizer splits a piece of normalised text into words.
type preTokenizer interface{ split(piece string) []string }

// tokenModel maps one word to ids, appending to out.
type tokenModel interface {
	tokenize(word string, out []int) []int
}

type tokenizerFile struct {
	AddedTokens  []addedTokenJSON `json:"added_tokens"`
	Normalizer   json.RawMessage  `json:"normalizer"`
	PreTokenizer json.RawMessage  `json:"pre_tokenizer"`
	Model        json.RawMessage  `json:"model"`
}

type addedTokenJSON struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

// parseTokenizer reads the contents of a tokenizer.json file.
func parseTokenizer(data []byte) (*tokenizer, error) {
	var file tokenizerFile
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if isJSONNull(file.Model) {
		return nil, fmt.Errorf("no \"model\" section")
	}
	tok := &tokenizer{special: map[int]bool{}, unkID: -1}
	var err error
	if tok.normalizer, err = parseNormalizer(file.Normalizer); err != nil {
		return nil, fmt.Errorf("normalizer: %w", err)
	}
	if tok.preTokenizer, err = parsePreTokenizer(file.PreTokenizer); err != nil {
		return nil, fmt.Errorf("pre_tokenizer: %w", err)
	}
	if err := tok.parseModel(file.Model); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	for _, a := range file.AddedTokens {
		if a.Content == "" {
			continue // can never match
		}
		if a.ID < 0 {
			return nil, fmt.Errorf("added token %q has negative id %d", a.Content, a.ID)
		}
		if a.Special {
			tok.special[a.ID] = true
		}
		if _, known := tok.allTokens[a.Content]; !known {
			tok.allTokens[a.Content] = a.ID
		}
		if a.Normalized && tok.normalizer != nil {
			// The token is matched against normalised text, so it is
			// normalised the same way.
			normalized := a
			normalized.Content = tok.normalizer.normalize(a.Content)
			if normalized.Content != "" {
				tok.normAdded.add(normalized)
			}
		} else {
			tok.rawAdded.add(a)
		}
	}
	return tok, nil
}

func (t *tokenizer) parseModel(raw json.RawMessage) error {
	var head struct {
		Type                    string         `json:"type"`
		Vocab                   map[string]int `json:"vocab"`
		UnkToken                *string        `json:"unk_token"`
		ContinuingSubwordPrefix *string        `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    *int           `json:"max_input_chars_per_word"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("malformed: %w", err)
	}
	if head.Type == "" && head.ContinuingSubwordPrefix != nil {
		head.Type = "WordPiece" // older files omit the type
	}
	switch head.Type {
	case "WordPiece", "WordLevel":
	case "":
		return fmt.Errorf("model has no \"type\"")
	default:
		return fmt.Errorf("tokenizer model type %q is not supported (supported: WordPiece, WordLevel)", head.Type)
	}
	if len(head.Vocab) == 0 {
		return fmt.Errorf("%s model has an empty vocabulary", head.Type)
	}
	for token, id := range head.Vocab {
		if id < 0 {
			return fmt.Errorf("vocabulary token %q has negative id %d", token, id)
		}
	}
	t.allTokens = maps.Clone(head.Vocab)
	if head.UnkToken != nil {
		id, ok := head.Vocab[*head.UnkToken]
		if !ok {
			return fmt.Errorf("unk_token %q is not in the vocabulary", *head.UnkToken)
		}
		t.unkID = id
	}
	if head.Type == "WordLevel" {
		t.model = wordLevel{vocab: head.Vocab, unkID: t.unkID}
		return nil
	}
	if t.unkID < 0 {
		return fmt.Errorf("WordPiece model needs an unk_token")
	}
	wp := wordPiece{vocab: head.Vocab, unkID: t.unkID, prefix: "##", maxChars: 100}
	if head.ContinuingSubwordPrefix != nil {
		wp.prefix = *head.ContinuingSubwordPrefix
	}
	if head.MaxInputCharsPerWord != nil {
		wp.maxChars = *head.MaxInputCharsPerWord
	}
	t.model = wp
	return nil
}

// encode returns the ids of text: added tokens found in the text, then the
// model's tokens for the words around them, in text order.
func (t *tokenizer) encode(text string) []int {
	var ids []int
	t.rawAdded.split(text, func(piece string, added int) {
		if added >= 0 {
			ids = append(ids, added)
			return
		}
		if t.normalizer != nil {
			piece = t.normalizer.normalize(piece)
		}
		t.normAdded.split(piece, func(piece string, added int) {
			if added >= 0 {
				ids = append(ids, added)
				return
			}
			if t.preTokenizer == nil {
				if piece != "" {
					ids = t.model.tokenize(piece, ids)
				}
				return
			}
			for _, word := range t.preTokenizer.split(piece) {
				ids = t.model.tokenize(word, ids)
			}
		})
	})
	return ids
}

// tokens lists every token string of the vocabulary, for statistics.
func (t *tokenizer) tokens() []string {
	out := make([]string, 0, len(t.allTokens))
	for s := range t.allTokens {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// maxID returns the largest token id the tokenizer can produce.
func (t *tokenizer) maxID() int {
	m := -1
	for _, id := range t.allTokens {
		m = max(m, id)
	}
	return m
}

// wordPiece is BERT's greedy longest-match-first subword model.
type wordPiece struct {
	vocab    map[string]int
	unkID    int
	prefix   string // marks a piece that continues a word, usually "##"
	maxChars int    // longer words become a single unknown token
}

func (m wordPiece) tokenize(word string, out []int) []int {
	if utf8.RuneCountInString(word) > m.maxChars {
		return append(out, m.unkID)
	}
	start := len(out)
	for begin := 0; begin < len(word); {
		end := len(word)
		found := -1
		for end > begin {
			piece := word[begin:end]
			if begin > 0 {
				piece = m.prefix + piece
			}
			if id, ok := m.vocab[piece]; ok {
				found = id
				break
			}
			_, size := utf8.DecodeLastRuneInString(word[begin:end])
			end -= size
		}
		if found < 0 {
			// One unknown piece makes the whole word unknown.
			return append(out[:start], m.unkID)
		}
		out = append(out, found)
		begin = end
	}
	return out
}

// wordLevel maps whole words through the vocabulary.
type wordLevel struct {
	vocab map[string]int
	unkID int
}

func (m wordLevel) tokenize(word string, out []int) []int {
	if id, ok := m.vocab[word]; ok {
		return append(out, id)
	}
	if m.unkID >= 0 {
		return append(out, m.unkID)
	}
	return out
}

// addedTokenSet finds added tokens in text, leftmost-longest. A byte trie
// keeps the cost per text position at the length of the longest partial
// match, however many added tokens a model has (model2vec models can add
// thousands of multi-word tokens).
type addedTokenSet struct {
	// roots is indexed by first byte: most text positions start no token,
	// and an array answers that faster than a map.
	roots *[256]*trieNode
}

type trieNode struct {
	next  map[byte]*trieNode
	token *addedTokenJSON // set when a token ends here
}

func (s *addedTokenSet) add(a addedTokenJSON) {
	if s.roots == nil {
		s.roots = new([256]*trieNode)
	}
	n := s.roots[a.Content[0]]
	if n == nil {
		n = &trieNode{}
		s.roots[a.Content[0]] = n
	}
	for i := 1; i < len(a.Content); i++ {
		if n.next == nil {
			n.next = map[byte]*trieNode{}
		}
		child, ok := n.next[a.Content[i]]
		if !ok {
			child = &trieNode{}
			n.next[a.Content[i]] = child
		}
		n = child
	}
	if n.token == nil { // the first of duplicate contents wins
		n.token = &a
	}
}

// split calls emit for each stretch of text between added tokens (with
// added = -1; empty stretches are skipped) and for each added token found
// (with its id).
func (s *addedTokenSet) split(text string, emit func(piece string, added int)) {
	if s.roots == nil {
		emit(text, -1)
		return
	}
	last := 0 // end of the previous match
	for i := 0; i < len(text); {
		a := s.longestAt(text, i)
		if a == nil {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		start, end := i, i+len(a.Content)
		if a.SingleWord && (endsWithWordChar(text[:start]) || startsWithWordChar(text[end:])) {
			// Discarded; like the Rust library's non-overlapping search, the
			// scan resumes after it rather than trying shorter tokens here.
			i = end
			continue
		}
		if a.LStrip {
			start = max(last, len(strings.TrimRightFunc(text[:start], isWhitespace)))
		}
		if a.RStrip {
			end = len(text) - len(strings.TrimLeftFunc(text[end:], isWhitespace))
		}
		if start > last {
			emit(text[last:start], -1)
		}
		emit(text[start:end], a.ID)
		last, i = end, end
	}
	if last < len(text) {
		emit(text[last:], -1)
	}
}

// longestAt returns the longest added token that text has at byte i, or nil.
func (s *addedTokenSet) longestAt(text string, i int) *addedTokenJSON {
	n := s.roots[text[i]]
	if n == nil {
		return nil
	}
	longest := n.token
	for j := i + 1; j < len(text); j++ {
		n = n.next[text[j]]
		if n == nil {
			break
		}
		if n.token != nil {
			longest = n.token
		}
	}
	return longest
}

func endsWithWordChar(s string) bool {
	r, size := utf8.DecodeLastRuneInString(s)
	return size > 0 && isAlphanumeric(r)
}

func startsWithWordChar(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	return size > 0 && isAlphanumeric(r)
}

func isJSONNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}
