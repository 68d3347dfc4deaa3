// Package assist adds a language model's help to a search: query expansion
// (related terms to search for as well) and synthesis (a summary of the
// results with follow-up suggestions).
//
// It tries, in order: the MCP client's own model through sampling, an
// OpenAI-compatible chat endpoint when one is configured, and a built-in
// fallback that needs no model (an extractive summary; no expansion: the
// query is searched as given, and the answer says a model is needed).
// Every answer says which was used, so the caller can tell a model's
// words from lore's own.
package assist

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Source says what produced an expansion or a synthesis.
type Source string

const (
	Sampling Source = "sampling" // the MCP client's model
	OpenAI   Source = "openai"   // an OpenAI-compatible chat endpoint
	Builtin  Source = "builtin"  // lore itself, without a model
)

// Model is a language model that completes one prompt.
type Model interface {
	Complete(ctx context.Context, system, prompt string, maxTokens int) (string, error)
}

// Assistant picks the best available way to expand or synthesize.
type Assistant struct {
	Sampler Model // the client's model through MCP sampling; nil when not offered
	Chat    Model // an OpenAI-compatible endpoint; nil when not configured
}

// maxTerms bounds an expansion.
const maxTerms = 8

// Expansion is a query's expansion.
type Expansion struct {
	Source Source   `json:"source"`
	Terms  []string `json:"terms"`
	Query  string   `json:"query"`          // the query that was searched: the original plus the terms
	Note   string   `json:"note,omitempty"` // why a model was not used, when it failed
}

// Expand finds terms related to query with a model. Model failures fall
// through to the next source; without any, the query is left as it is
// (NeedsModel). Only cancellation is an error.
func (a *Assistant) Expand(ctx context.Context, query string) (Expansion, error) {
	var notes []string
	for _, m := range a.models() {
		text, err := m.model.Complete(ctx, expandSystem, fmt.Sprintf(expandPrompt, maxTerms, query), 200)
		if ctx.Err() != nil {
			return Expansion{}, ctx.Err()
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s failed: %v", m.source, err))
			continue
		}
		terms := newTerms(query, parseTerms(text))
		if len(terms) == 0 {
			notes = append(notes, fmt.Sprintf("%s gave no usable terms", m.source))
			continue
		}
		return expansion(m.source, query, terms, notes), nil
	}
	notes = append(notes, NeedsModel)
	return expansion(Builtin, query, nil, notes), nil
}

// NeedsModel is the note of an expansion made without a model: the query
// is searched as given. Expanding it from the index's own vocabulary (the
// names its top results define) lowered NDCG@10 on both development
// benchmarks: from 0.848 to 0.664 (shared) and from 0.721 to 0.571
// (bench/) with eight terms, to 0.784 and 0.676 with one. Lore does not
// guess.
const NeedsModel = "query expansion needs a model (the client's, through MCP sampling, or LORE_CHAT_*); without one the query was searched as given"

func expansion(src Source, query string, terms, notes []string) Expansion {
	if len(terms) > maxTerms {
		terms = terms[:maxTerms]
	}
	if terms == nil {
		terms = []string{}
	}
	q := query
	if len(terms) > 0 {
		q = query + " " + strings.Join(terms, " ")
	}
	return Expansion{Source: src, Terms: terms, Query: q, Note: strings.Join(notes, "; ")}
}

const expandSystem = "You help a code search engine. You answer with search terms only."

const expandPrompt = `List up to %d search terms that would find code relevant to this query: identifiers, synonyms, related API names. One term per line, no numbering, no explanations.

Query: %s`

// parseTerms reads a model's answer: one term per line, tolerating
// bullets, numbering, commas and quotes.
func parseTerms(text string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ',' }) {
		t := strings.Trim(stripBullet(line), "`'\" \t")
		if t == "" || len(t) > 60 || strings.Count(t, " ") > 3 {
			continue
		}
		out = append(out, t)
	}
	return out
}

// bullet matches list markers: "-", "*", "•", "1.", "2)".
var bullet = regexp.MustCompile(`^\s*(?:[-*•]|\d+[.)])\s*`)

// stripBullet removes the list markers in front of a line ("- 2. text").
func stripBullet(line string) string {
	for {
		loc := bullet.FindStringIndex(line)
		if loc == nil || loc[1] == 0 {
			return strings.TrimSpace(line)
		}
		line = line[loc[1]:]
	}
}

// newTerms drops terms already in the query and duplicates, keeping order.
func newTerms(query string, terms []string) []string {
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(query), notWordRune) {
		have[w] = true
	}
	var out []string
	for _, t := range terms {
		key := strings.ToLower(t)
		if key == "" || have[key] {
			continue
		}
		have[key] = true
		out = append(out, t)
	}
	return out
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }

type namedModel struct {
	source Source
	model  Model
}

// models lists the configured models in the order they are tried.
func (a *Assistant) models() []namedModel {
	var out []namedModel
	if a.Sampler != nil {
		out = append(out, namedModel{Sampling, a.Sampler})
	}
	if a.Chat != nil {
		out = append(out, namedModel{OpenAI, a.Chat})
	}
	return out
}

// Hit is one search result, as synthesis sees it.
type Hit struct {
	Path       string
	StartLine  int
	EndLine    int
	Kind       string
	Symbols    []string
	Signature  string
	DocComment string
	Content    string
}

// Synthesis is a summary of a search's results.
type Synthesis struct {
	Source    Source   `json:"source"`
	Summary   string   `json:"summary"`
	FollowUps []string `json:"follow_ups"`
	Note      string   `json:"note,omitempty"`
}

// Limits of what a model is shown.
const (
	synthHits         = 8
	synthContentBytes = 1500
)

// Synthesize summarizes hits as an answer to query, with follow-up
// suggestions. Model failures fall through to the next source; only
// cancellation is an error.
func (a *Assistant) Synthesize(ctx context.Context, query string, hits []Hit) (Synthesis, error) {
	var notes []string
	if len(hits) > 0 {
		prompt := synthesisPrompt(query, hits)
		for _, m := range a.models() {
			text, err := m.model.Complete(ctx, synthSystem, prompt, 600)
			if ctx.Err() != nil {
				return Synthesis{}, ctx.Err()
			}
			if err != nil {
				notes = append(notes, fmt.Sprintf("%s failed: %v", m.source, err))
				continue
			}
			summary, followUps := parseSynthesis(text)
			if summary == "" {
				notes = append(notes, fmt.Sprintf("%s gave an empty answer", m.source))
				continue
			}
			if len(followUps) == 0 {
				followUps = builtinFollowUps(query, hits)
			}
			return Synthesis{Source: m.source, Summary: summary, FollowUps: followUps, Note: strings.Join(notes, "; ")}, nil
		}
	}
	return Synthesis{Source: Builtin, Summary: extractiveSummary(query, hits), FollowUps: builtinFollowUps(query, hits),
		Note: strings.Join(notes, "; ")}, nil
}

const synthSystem = "You explain search results from a codebase to a developer. Be brief and concrete; cite file paths with line numbers; do not invent code that is not shown."

func synthesisPrompt(query string, hits []Hit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nSearch results:\n", query)
	for i, h := range hits[:min(len(hits), synthHits)] {
		fmt.Fprintf(&b, "\n[%d] %s:%d-%d", i+1, h.Path, h.StartLine, h.EndLine)
		if h.Signature != "" {
			fmt.Fprintf(&b, " %s", h.Signature)
		}
		content := h.Content
		if len(content) > synthContentBytes {
			content = content[:synthContentBytes] + "\n…"
		}
		fmt.Fprintf(&b, "\n%s\n", content)
	}
	b.WriteString("\nAnswer in this form:\nSUMMARY:\n<two to five sentences answering the question from these results>\nFOLLOW-UPS:\n- <a follow-up search or question>\n- <another>\n- <another>\n")
	return b.String()
}

// parseSynthesis splits a model's answer into summary and follow-ups; an
// answer without the markers is all summary.
func parseSynthesis(text string) (string, []string) {
	text = strings.TrimSpace(text)
	upper := strings.ToUpper(text)
	summary, rest := text, ""
	if i := strings.Index(upper, "FOLLOW-UPS:"); i >= 0 {
		summary, rest = text[:i], text[i+len("FOLLOW-UPS:"):]
	} else if i := strings.Index(upper, "FOLLOW-UP:"); i >= 0 {
		summary, rest = text[:i], text[i+len("FOLLOW-UP:"):]
	}
	if i := strings.Index(strings.ToUpper(summary), "SUMMARY:"); i >= 0 {
		summary = summary[i+len("SUMMARY:"):]
	}
	var followUps []string
	for _, line := range strings.Split(rest, "\n") {
		if line = stripBullet(line); line != "" {
			followUps = append(followUps, line)
		}
	}
	return strings.TrimSpace(summary), followUps
}

// extractiveSummary describes the results without a model: where the
// matches are and what they define.
func extractiveSummary(query string, hits []Hit) string {
	if len(hits) == 0 {
		return fmt.Sprintf("No results for %q.", query)
	}
	var b strings.Builder
	files := distinctPaths(hits)
	fmt.Fprintf(&b, "%d result(s) for %q in %d file(s).", len(hits), query, len(files))
	top := hits[0]
	fmt.Fprintf(&b, " Best match: %s lines %d-%d", top.Path, top.StartLine, top.EndLine)
	if what := describe(top); what != "" {
		fmt.Fprintf(&b, " (%s)", what)
	}
	b.WriteString(".")
	if first := firstSentence(top.DocComment); first != "" {
		fmt.Fprintf(&b, " It is documented as: %q.", first)
	}
	var others []string
	for _, h := range hits[1:min(len(hits), 5)] {
		s := fmt.Sprintf("%s:%d", h.Path, h.StartLine)
		if what := describe(h); what != "" {
			s += " (" + what + ")"
		}
		others = append(others, s)
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, " Also relevant: %s.", strings.Join(others, "; "))
	}
	return b.String()
}

// describe names what a hit defines: its signature, else kind and symbols.
func describe(h Hit) string {
	if h.Signature != "" {
		return strings.TrimSpace(h.Signature)
	}
	if len(h.Symbols) > 0 {
		if h.Kind != "" {
			return h.Kind + " " + strings.Join(h.Symbols[:min(len(h.Symbols), 3)], ", ")
		}
		return strings.Join(h.Symbols[:min(len(h.Symbols), 3)], ", ")
	}
	return h.Kind
}

func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.TrimSuffix(doc, ".")
	if len(doc) > 160 {
		doc = doc[:160] + "…"
	}
	return doc
}

func distinctPaths(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.Path) {
			out = append(out, h.Path)
		}
	}
	return out
}

// builtinFollowUps suggests next steps from the results themselves.
func builtinFollowUps(query string, hits []Hit) []string {
	if len(hits) == 0 {
		return []string{
			"Rephrase the query with identifiers you expect in the code",
			"Retry with expand_query: true",
			fmt.Sprintf("Search the documentation: search_docs %q", query),
		}
	}
	top := hits[0]
	out := []string{fmt.Sprintf("Read %s lines %d-%d (get_snippet)", top.Path, top.StartLine, top.EndLine)}
	for _, h := range hits {
		if len(h.Symbols) > 0 {
			out = append(out, fmt.Sprintf("Find the callers of %s: search_code %q", h.Symbols[0], h.Symbols[0]))
			break
		}
	}
	if files := distinctPaths(hits); len(files) > 1 {
		out = append(out, fmt.Sprintf("Compare with %s", files[1]))
	}
	out = append(out, fmt.Sprintf("Search the documentation: search_docs %q", query))
	return out
}
