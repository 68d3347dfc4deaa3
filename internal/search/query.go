package search

import (
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// Query is a query after analysis.
type Query struct {
	Raw string
	// Symbolic is true for queries that name code (RouteContext, parse_args,
	// fmt::format) rather than describe it in prose.
	Symbolic bool
	// Words are the meaningful words of the query, in order, without stop
	// words (unless the query has nothing else) and without repeats.
	Words []Word
	// docsOnly is set for documentation searches (search_docs), where
	// prose is what is wanted.
	docsOnly bool
	// runTogether are adjacent words written as one ("hash map" →
	// "hashmap"), the way a file or identifier may name them.
	runTogether []string
	// subjectShare is the share of chunks in which the first word occurs,
	// known once its posting list is read.
	subjectShare float64
	// places is the number of written words holding the words of Words.
	places int
	// wantsTests is set when the query asks for tests, examples or
	// benchmarks (asksForTests), known once its posting lists are read.
	wantsTests bool
}

// Word is one identifier or word of the query.
type Word struct {
	Raw   string   // as typed
	Text  string   // lower-cased
	Stem  string   // the whole word, stemmed: what the index stores for it
	Parts []string // stems of its camelCase/snake_case parts when it has several
	Ident bool     // it looks like a code identifier
	// longForms are expansions[Stem], looked up once by Analyze rather
	// than for every candidate a file name is compared for (names);
	// longFormsSet says they were.
	longForms    []string
	longFormsSet bool
	// family are the index stems of the word's relatives the stemmer
	// keeps apart (familyStems).
	family []string
	// place is the index, among the query's written words that hold a
	// word of Words, of the one this word was written in: the parts of
	// "real-time" or "join/leave" share one place (numberPlaces).
	place int
}

// familyStems are the index stems (tokenize.Stem) of the word's relatives
// that share its family stem (tokenize.FamilyStem) but not its own stem:
// "validators" reads validat (validate, validation), "validate" reads
// validator, "aliases" reads alia (alias). The stemmer keeps them apart on
// purpose, since a family joined in the index dilutes its rarer member;
// read here at a lower weight, the relative is found without the word
// losing its own.
func familyStems(text, stem string) []string {
	f := tokenize.FamilyStem(text)
	if f == "" {
		return nil
	}
	var out []string
	try := func(form string) {
		if tokenize.FamilyStem(form) != f {
			return
		}
		if s := tokenize.Stem(form); s != stem && !contains(out, s) {
			out = append(out, s)
		}
	}
	// The relatives are the family stem itself (validators → validat),
	// its plural when it ends in s (alias → aliases), and its forms with
	// the endings of tokenize.FamilyRules (validat → validator).
	try(f)
	if strings.HasSuffix(f, "s") {
		try(f + "es")
	}
	for _, r := range tokenize.FamilyRules() {
		base := strings.TrimSuffix(r.Replace, "e")
		if base != "" && strings.HasSuffix(f, base) {
			try(f[:len(f)-len(base)] + r.Suffix)
		}
	}
	return out
}

// abbreviations are the word's abbreviations and long forms
// (expansions[w.Stem]).
func (w *Word) abbreviations() []string {
	if w.longFormsSet {
		return w.longForms
	}
	return expansions[w.Stem]
}

// stopWords are words of prose that carry no meaning in a code search.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"on": true, "for": true, "with": true, "by": true, "from": true, "at": true, "as": true, "is": true,
	"are": true, "be": true, "it": true, "its": true, "this": true, "that": true, "these": true,
	"how": true, "what": true, "where": true, "which": true, "who": true, "why": true, "when": true,
	"does": true, "do": true, "did": true, "can": true, "i": true, "we": true, "you": true,
	"into": true, "via": true, "using": true, "use": true, "used": true, "about": true,
	"find": true, "show": true, "me": true, "code": true, "implementation": true, "implement": true,
	"implements": true, "implemented": true, "logic": true, "all": true, "any": true, "some": true,
	"work": true, "works": true, "mechanism": true, "way": true, "ways": true, "between": true, "across": true,
	"within": true, "their": true, "them": true, "they": true, "there": true, "so": true, "each": true,
	"other": true, "per": true, "like": true, "such": true, "given": true, "various": true, "based": true,
	"my": true, "our": true, "your": true, "he": true, "him": true, "his": true, "she": true, "her": true,
	"whom": true, "those": true, "am": true, "was": true, "were": true, "been": true, "being": true,
	"have": true, "has": true, "had": true, "having": true, "doing": true, "but": true, "because": true, "here": true,
}

// Analyze splits a raw query into words and decides whether it names code.
func Analyze(raw string) Query {
	q := Query{Raw: raw}
	fields := strings.Fields(raw)
	identLike := 0
	for _, w := range fields {
		if tokenize.IsIdentifierLike(strings.Trim(w, "`'\"()[]{},;")) {
			identLike++
		}
	}
	// One word is a symbol lookup when it looks like code or is capitalised
	// like a type name ("Mux"); several words are when all of them look like code.
	switch {
	case len(fields) == 1:
		w := strings.Trim(fields[0], "`'\"()[]{},;")
		q.Symbolic = identLike == 1 || (w != "" && w[0] >= 'A' && w[0] <= 'Z')
	case len(fields) > 1:
		q.Symbolic = identLike == len(fields)
	}
	seen := map[string]bool{}
	var stops []Word
	for _, id := range tokenize.Identifiers(raw) {
		lower := strings.ToLower(id)
		if seen[lower] {
			continue
		}
		seen[lower] = true
		w := Word{Raw: id, Text: lower, Stem: tokenize.Stem(lower), Ident: tokenize.IsIdentifierLike(id)}
		w.longForms, w.longFormsSet = expansions[w.Stem], true
		if !q.Symbolic && !w.Ident {
			w.family = familyStems(lower, w.Stem)
		}
		if parts := tokenize.SplitIdentifier(id); len(parts) > 1 {
			for _, p := range parts {
				w.Parts = append(w.Parts, tokenize.Stem(p))
			}
		}
		if !q.Symbolic && !w.Ident && stopWords[lower] {
			stops = append(stops, w)
			continue
		}
		q.Words = append(q.Words, w)
	}
	if len(q.Words) == 0 { // a query of stop words only: search them anyway
		q.Words = stops
	}
	q.numberPlaces(fields)
	for i := 0; i+1 < len(q.Words); i++ {
		q.runTogether = append(q.runTogether, q.Words[i].Text+q.Words[i+1].Text)
	}
	return q
}

// lookupTerms are the index terms the query reads, each with its weight
// and the index of the word it comes from: a word's whole stem at full
// weight, its parts at partWeight each.
func (q Query) lookupTerms() []queryTerm {
	var out []queryTerm
	seen := map[string]int{}
	add := func(term string, weight float64, word int) {
		if i, ok := seen[term]; ok {
			if weight > out[i].weight {
				out[i].weight = weight
			}
			return
		}
		seen[term] = len(out)
		out = append(out, queryTerm{term: term, weight: weight, word: word})
	}
	for i, w := range q.Words {
		add(w.Stem, 1, i)
		for _, p := range w.Parts {
			add(p, weights.partTerm, i)
		}
		for _, e := range expansions[w.Stem] {
			if _, ok := seen[e]; !ok {
				add(e, weights.abbreviation, i)
				out[len(out)-1].abbrev = true
			}
		}
		if weights.family > 0 {
			for _, e := range w.family {
				if _, ok := seen[e]; !ok {
					add(e, weights.family, i)
				}
			}
		}
		// Two prose words may name one identifier: "route context" is
		// RouteContext, indexed whole as "routecontext".
		if i+1 < len(q.Words) && !w.Ident && !q.Words[i+1].Ident {
			add(tokenize.Stem(w.Text+q.Words[i+1].Text), weights.compound, i)
		}
	}
	return out
}

// queryTerm is one index term a query reads.
type queryTerm struct {
	term   string
	weight float64
	word   int  // index into Query.Words
	abbrev bool // an abbreviation or long form of its word (weighAbbreviations)
}

// weighAbbreviations weighs each abbreviation term by how much the code
// prefers it to the word as typed: when weights.abbrevByUse holds, its
// weight is scaled by its share of the document frequency of the two
// together. In a codebase that writes req, "request" reads req at nearly
// the full abbreviation weight; in one that writes options everywhere,
// "option" barely reads opt. A short form
// the code writes in fewer than weights.abbrevMinShare of the chunks
// holding it or the word is not read at all: there it is seldom the
// code's name for the word, and its few chunks are as likely to use it
// for another (num in a codebase that writes number, gen where generate
// is written out, ptr read for "point" since pointer stems to point).
// The cut applies whether or not the weight is scaled. hits are the
// terms' posting lists.
func weighAbbreviations(q Query, terms []queryTerm, hits [][]store.PostingAt) {
	// A term's document frequency is the length of its list; the terms
	// are distinct and few, so the word's own is found by a scan rather
	// than a map made per search.
	df := func(term string) int {
		for ti, t := range terms {
			if t.term == term {
				return len(hits[ti])
			}
		}
		return 0
	}
	for ti := range terms {
		t := &terms[ti]
		if !t.abbrev {
			continue
		}
		own, alt := df(q.Words[t.word].Stem), len(hits[ti])
		if own+alt == 0 {
			continue
		}
		share := float64(alt) / float64(own+alt)
		if weights.abbrevByUse {
			t.weight *= share
		}
		if share < weights.abbrevMinShare && !isWordStem(q, t.term) {
			t.weight = 0
		}
	}
}

// isWordStem reports whether term is the stem of one of the query's
// words: a query that writes both forms ("environment … .env") reads the
// short one as a word of its own, whatever its share.
func isWordStem(q Query, term string) bool {
	for i := range q.Words {
		if q.Words[i].Stem == term {
			return true
		}
	}
	return false
}

// numberPlaces sets each word's place and the query's number of places:
// a description's length and a word's position in it are counted in the
// words as written, so that a compound written with a hyphen or a slash
// ("real-time", "long-poll", "join/leave", "URL-encoded") is one word of
// the description, not two. Only a query long enough for the count to
// matter (namedAfterQueryAt) is read again; a shorter one numbers its
// words in order.
func (q *Query) numberPlaces(fields []string) {
	q.places = len(q.Words)
	for i := range q.Words {
		q.Words[i].place = i
	}
	if !weights.writtenPlaces || float64(len(q.Words)) <= weights.namePositionWords {
		return
	}
	// Words keeps Identifiers(raw)'s order, so the fields' identifiers,
	// read in turn, meet the words in order.
	next, place := 0, -1
	for _, f := range fields {
		counted := false
		for _, id := range tokenize.Identifiers(f) {
			if next < len(q.Words) && q.Words[next].Raw == id {
				if !counted {
					place++
					counted = true
				}
				q.Words[next].place = place
				next++
			}
		}
	}
	if next == len(q.Words) {
		q.places = place + 1
		return
	}
	for i := range q.Words { // not met in order: count as split
		q.Words[i].place = i
	}
}
