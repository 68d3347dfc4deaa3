package search

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// chunkPrior rates how likely a chunk, among the chunks of its own file,
// is the one that answers the query, from what it is rather than from how
// many query words it holds: a function or method answers a question about
// behaviour better than the table, preamble, loose block or class body
// that mentions the same words more often (window_copy_search rather than
// the command table listing "search-forward" and "search-backward").
// (Query words in the chunk's own name were tried as a second prior and
// lowered both development sets.)
func chunkPrior(q Query, row *store.ChunkMeta) float64 {
	if q.Symbolic || !callableKind(row.Kind) {
		return 0
	}
	p := weights.pickCallable
	if isConstructor(row) && !q.mentions(constructionWords) {
		// A constructor mentions every field and parameter of its type
		// and wins its file on words alone; it sets things up and rarely
		// is what a question about behaviour asks for, unless the
		// question is how things are set up.
		p *= weights.pickConstructor
	}
	if weights.pickLength > 0 {
		lines := float64(row.EndLine - row.StartLine + 1)
		p += weights.pickLength * min(1, math.Log(max(lines, 1))/log200)
	}
	if weights.pickOwnName > 0 && namedAfterWord(q, row) {
		p += weights.pickOwnName
	}
	return p
}

// namedAfterWord reports a chunk whose own (first) symbol is exactly a
// query word, or stems to one: push for "push a job onto a queue", not
// atomic_push.
func namedAfterWord(q Query, row *store.ChunkMeta) bool {
	if row.Symbols == "" {
		return false
	}
	first, _, _ := strings.Cut(row.Symbols, "\n")
	name := strings.ToLower(lastSegment(first))
	stem := "" // the name's stem, made once for all the query's words
	for _, w := range q.Words {
		if name == w.Text {
			return true
		}
		if !mayStemTo(name, w.Stem) {
			continue
		}
		if stem == "" {
			stem = tokenize.Stem(name)
		}
		if stem == w.Stem {
			return true
		}
	}
	return false
}

// log200 is math.Log(200), the length in lines (as a logarithm) at which
// chunkPrior's length prior is full, computed once.
var log200 = math.Log(200)

// pickSubject is the symbol share (preScore) a chunk owes to query words
// that its file's name also holds (hits: those words among the chunk's
// symbols), to be discounted when choosing among the file's
// chunks. Those words (DFA in dfa.cc, table in table.rs) are evidence
// that the file answers, and they already rank it; inside the file the
// chunk that defines a name made of them, often the type or constructor
// named after the file, would otherwise win on that name over the chunk
// that holds the question's other words. The file's own rank does not
// move: pickRepresentative keeps its scores.
func pickSubject(q Query, hits uint16) float64 {
	if q.Symbolic || weights.pickSubject == 0 || hits == 0 {
		return 0
	}
	return weights.pickSubject * weights.symbolField * wordShare(q, hits)
}

// fileConstructor takes the callable prior back from a method named after
// its own file (DFA in dfa.cc, Logger in Logger.cs): where a class is
// named after its file, as C++, Java and C# code usually is, that method
// is the class's constructor, which isConstructor cannot tell by name.
func fileConstructor(q Query, row *store.ChunkMeta, base string) float64 {
	if !weights.pickFileCtor || q.Symbolic || row.Kind != "method" || row.Symbols == "" || base == "" {
		return 0
	}
	first, _, _ := strings.Cut(row.Symbols, "\n")
	name := lastSegment(first)
	if len(name) != len(base) || !strings.EqualFold(name, base) || isConstructor(row) || q.mentions(constructionWords) {
		return 0
	}
	return weights.pickCallable * (1 - weights.pickConstructor)
}

// docHeavy is what a chunk most of whose words are its doc comment (lens,
// the chunk's field lengths: the body holds the doc comment it starts
// with) gives back when its file's chunks are ordered for a prose query.
// Such a chunk says what the code does in the query's own prose, densely,
// and wins its file on words: the doc-only first piece of a long method
// cut in two (ratatui's draw, seventy lines of doc comment), a block of
// documented properties, a class whose doc comment lists the steps its
// methods take (sidekiq's Processor). The chunk beside it that does the
// work uses fewer of the words in more code. A chunk named after a query
// word keeps its place (namedAfterWord): the query names it, and its doc
// comment describes it, not code elsewhere (sidekiq's push for "push a
// job … onto a queue"). The file's own rank does not move:
// pickRepresentative keeps its scores.
func docHeavy(q Query, row *store.ChunkMeta, lens *[store.NumFields]uint16) float64 {
	if q.Symbolic || weights.pickDocHeavy == 0 {
		return 0
	}
	if float64(lens[store.FieldDoc]) <= weights.pickDocShare*float64(lens[store.FieldBody]) || namedAfterWord(q, row) {
		return 0
	}
	return weights.pickDocHeavy
}

// callableKind reports chunks that do something: functions and methods.
func callableKind(kind string) bool {
	switch kind {
	case "function", "method", "constructor":
		return true
	}
	return false
}

// pickRepresentative reorders one file's chunks, given best first, so
// that the one most likely to answer comes first, without changing what
// the file scores: the file keeps its scores, best first, and the chunks
// take them in the order of score plus chunkPrior. The file still ranks
// by its best chunk; what it shows is its likeliest answer.
func pickRepresentative(chunks []scored) {
	key := func(s scored) float64 { return s.score + s.prior }
	byKey := func(a, b scored) int { return cmp.Compare(key(b), key(a)) }
	if slices.IsSortedFunc(chunks, byKey) {
		return
	}
	var small [32]float64 // most files have few candidates: no allocation
	scores := small[:0]
	for i := range chunks {
		scores = append(scores, chunks[i].score)
	}
	slices.SortStableFunc(chunks, byKey)
	for i := range chunks {
		chunks[i].score = scores[i]
	}
}

// constructorNames are the names constructors and initialisers take by
// language convention: Python's __init__ and __new__, PHP's __construct,
// JavaScript's constructor, Ruby's initialize, Swift's and Kotlin's init,
// Rust's new.
var constructorNames = []string{"__init__", "__new__", "__construct", "constructor", "initialize", "init", "new"}

// constructionWords ask how an object is made, which a constructor answers.
var constructionWords = stemSet("construct", "constructor", "constructed", "initialize", "initialise", "initialized",
	"initialization", "init", "instantiate", "instance", "create", "created", "creates", "new", "setup")

// isConstructor reports a chunk that constructs or initialises an object:
// of the constructor kind, or a function or method named like one.
func isConstructor(row *store.ChunkMeta) bool {
	if row.Kind == "constructor" {
		return true
	}
	first, _, _ := strings.Cut(row.Symbols, "\n")
	name := lastSegment(first)
	for _, c := range constructorNames { // without lower-casing: no allocation per candidate
		if strings.EqualFold(name, c) {
			return true
		}
	}
	return false
}

// mayStemTo reports whether word's stem can be stem: a stem begins with
// its word's first tokenize.KeptPrefix bytes, so most names of a file
// need no stemming to be told apart from the query's words.
func mayStemTo(word, stem string) bool {
	k := min(tokenize.KeptPrefix, len(word))
	return len(stem) >= k && stem[:k] == word[:k]
}
