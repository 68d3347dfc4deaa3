package search

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
	"github.com/lore-dev/lore/internal/store"
)

// Payload is a chunk's metadata as the collections family exposes it: a
// flat object an agent can filter on.
type Payload struct {
	FilePath       string   `json:"filePath"` // relative to the collection's root, with a leading "/"
	Language       string   `json:"language"`
	Kind           string   `json:"kind"`
	Symbols        []string `json:"symbols"`
	Signature      string   `json:"signature"`
	Breadcrumb     string   `json:"breadcrumb"`
	StartLine      int      `json:"startLine"`
	EndLine        int      `json:"endLine"`
	CollectionName string   `json:"collectionName"`
	Code           string   `json:"code"`
}

// Hit is one result of a collections search.
type Hit struct {
	Score   float64 `json:"score"`
	Payload Payload `json:"payload"`
}

// PayloadKeys are the keys a payload filter may name, in the order
// messages list them.
var PayloadKeys = []string{"filePath", "language", "kind", "symbols", "signature", "breadcrumb", "startLine", "endLine", "collectionName", "code"}

// NewPayload is the payload of a chunk of the named collection.
func NewPayload(collection string, c *store.ChunkRecord) Payload {
	symbols := c.Symbols
	if symbols == nil {
		symbols = []string{}
	}
	return Payload{FilePath: "/" + c.Path, Language: c.Language, Kind: c.Kind, Symbols: symbols, Signature: c.Signature,
		Breadcrumb: c.Breadcrumb, StartLine: c.StartLine, EndLine: c.EndLine, CollectionName: collection, Code: c.Content}
}

// Filter is a parsed payload filter: every key must match. A string value
// matches exactly, except filePath, which is a glob ("/src/search/*", "**"
// crosses folders); a list matches when any of its values does; symbols
// matches when any of the chunk's symbols equals a value; startLine and
// endLine take numbers. The zero Filter matches everything.
type Filter struct {
	conds []condition
}

// condition is one key of a filter.
type condition struct {
	key   string
	texts []string       // the values, for string keys
	ints  []int          // the values, for line keys
	globs []*pathMatcher // the values, for filePath
}

// ParseFilter checks a payload filter and parses it. Unknown keys, wrong
// value types and bad globs are *errs.Error of kind Invalid naming the key.
func ParseFilter(raw map[string]any) (Filter, error) {
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic messages
	var f Filter
	for _, key := range keys {
		if !slices.Contains(PayloadKeys, key) {
			return Filter{}, invalidFilter(key, "unknown payload key %q (allowed: %s)", key, strings.Join(PayloadKeys, ", "))
		}
		values, ok := raw[key].([]any)
		if !ok {
			values = []any{raw[key]}
		}
		if len(values) == 0 {
			return Filter{}, invalidFilter(key, "payload key %q has an empty list of values", key)
		}
		c := condition{key: key}
		for _, v := range values {
			switch key {
			case "startLine", "endLine":
				n, ok := v.(float64)
				if !ok || n != math.Trunc(n) || math.Abs(n) > 1<<31 {
					return Filter{}, invalidFilter(key, "payload key %q takes whole numbers, got %v", key, v)
				}
				c.ints = append(c.ints, int(n))
			default:
				s, ok := v.(string)
				if !ok {
					return Filter{}, invalidFilter(key, "payload key %q takes strings, got %v", key, v)
				}
				if err := querylimit.CheckBytes("payload value", s); err != nil {
					return Filter{}, err
				}
				if key == "filePath" {
					m, err := compileGlob(strings.TrimPrefix(s, "/"))
					if err != nil {
						return Filter{}, invalidFilter(key, "payload key %q: %v", key, err)
					}
					c.globs = append(c.globs, m)
				}
				c.texts = append(c.texts, s)
			}
		}
		f.conds = append(f.conds, c)
	}
	return f, nil
}

func invalidFilter(key, format string, args ...any) error {
	return errs.New(errs.Invalid, errs.CodeInvalidArgument, format, args...).With("key", key)
}

// Empty reports whether the filter has no condition.
func (f Filter) Empty() bool { return len(f.conds) == 0 }

// Match reports whether a chunk of the named collection passes the filter.
func (f Filter) Match(collection string, c *store.ChunkRecord) bool {
	for _, cond := range f.conds {
		if !cond.match(collection, c) {
			return false
		}
	}
	return true
}

func (c condition) match(collection string, r *store.ChunkRecord) bool {
	switch c.key {
	case "filePath":
		for _, g := range c.globs {
			if g.match(r.Path) {
				return true
			}
		}
		return false
	case "symbols":
		for _, s := range r.Symbols {
			if slices.Contains(c.texts, s) {
				return true
			}
		}
		return false
	case "startLine":
		return slices.Contains(c.ints, r.StartLine)
	case "endLine":
		return slices.Contains(c.ints, r.EndLine)
	}
	var v string
	switch c.key {
	case "language":
		v = r.Language
	case "kind":
		v = r.Kind
	case "signature":
		v = r.Signature
	case "breadcrumb":
		v = r.Breadcrumb
	case "collectionName":
		v = collection
	case "code":
		v = r.Content
	}
	return slices.Contains(c.texts, v)
}

// Scan is the chunks of one collection generation held for scans: the
// full-text and metadata searches, which read every chunk.
type Scan struct {
	collection string
	chunks     []store.ChunkRecord // by path, then start line
	lower      []string            // each chunk's text, lower-cased
}

// NewScan holds the chunks of a collection (as store.Reader.Chunks gives
// them, by path then line) for scanning.
func NewScan(collection string, chunks []store.ChunkRecord) *Scan {
	s := &Scan{collection: collection, chunks: chunks, lower: make([]string, len(chunks))}
	for i := range chunks {
		s.lower[i] = strings.ToLower(chunks[i].Content)
	}
	return s
}

// ByPayload returns the chunks that pass the filter, by path then line,
// at most topK, each with score 1.
func (s *Scan) ByPayload(f Filter, topK int) []Hit {
	out := []Hit{}
	for i := range s.chunks {
		if len(out) == topK {
			break
		}
		if f.Match(s.collection, &s.chunks[i]) {
			out = append(out, Hit{Score: 1, Payload: NewPayload(s.collection, &s.chunks[i])})
		}
	}
	return out
}

// Fulltext returns the chunks whose text contains text (ignoring case; a
// part of an identifier matches) and that pass the filter, best first, at
// most topK. A chunk scores by how often it contains the text, more when
// the case matches too and when a symbol or the signature contains it,
// divided by the log of its length so that a short exact chunk beats a
// long one that mentions the text in passing. Ties go by path, then line.
func (s *Scan) Fulltext(text string, f Filter, topK int) ([]Hit, error) {
	if strings.TrimSpace(text) == "" {
		return nil, errs.New(errs.Invalid, errs.CodeQueryEmpty, "Query cannot be empty")
	}
	if err := querylimit.CheckBytes("query", text); err != nil {
		return nil, err
	}
	needle := strings.ToLower(text)
	type match struct {
		i     int
		score float64
	}
	var found []match
	for i := range s.chunks {
		n := strings.Count(s.lower[i], needle)
		if n == 0 || !f.Match(s.collection, &s.chunks[i]) {
			continue
		}
		c := &s.chunks[i]
		score := float64(n) + 0.5*float64(strings.Count(c.Content, text))
		for _, sym := range c.Symbols {
			if strings.Contains(strings.ToLower(sym), needle) {
				score += 2
				break
			}
		}
		if strings.Contains(strings.ToLower(c.Signature), needle) {
			score++
		}
		score /= math.Log2(2 + float64(len(c.Content))/512)
		found = append(found, match{i, math.Round(score*1e6) / 1e6})
	}
	slices.SortFunc(found, func(a, b match) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.i, b.i) // the scan's order: path, then line
	})
	if len(found) > topK {
		found = found[:topK]
	}
	out := make([]Hit, len(found))
	for j, m := range found {
		out[j] = Hit{Score: m.score, Payload: NewPayload(s.collection, &s.chunks[m.i])}
	}
	return out, nil
}

// Len is the number of chunks held.
func (s *Scan) Len() int { return len(s.chunks) }
