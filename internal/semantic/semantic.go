// Package semantic builds lore's built-in semantic signal: term and chunk
// vectors learned from the indexed corpus itself, with no downloaded
// weights.
//
// The method is reflective random indexing. Every term gets a fixed sparse
// random "index vector"; a chunk's signature is the idf-weighted sum of its
// terms' index vectors; a term's context vector is the sum of the
// signatures of the chunks it occurs in. Terms used in the same chunks —
// "throttle", "limit", "concurrency" in a rate limiter — end up with
// similar context vectors even when they never occur together with a query
// word, and a chunk's vector, the weighted sum of its terms' context
// vectors, lands near the chunks that talk about the same things.
package semantic

import (
	"hash/fnv"
	"math"
	"sort"

	"github.com/lore-dev/lore/internal/embed"
)

// Dim is the size of the vectors.
const Dim = 128

// indexNonZeros is how many ±1 entries an index vector has.
const indexNonZeros = 8

// Vocabulary bounds: a term must occur in at least minDF chunks to carry
// co-occurrence information, and in at most maxDFShare of them to carry any
// meaning (language keywords occur everywhere).
const (
	minDF      = 2
	maxDFShare = 0.25
)

// Posting is one chunk a term occurs in, with how often.
type Posting struct {
	Chunk int // dense chunk number, 0..nChunks-1
	Freq  float32
}

// Model holds the context vector of every vocabulary term.
type Model struct {
	vectors map[string][]float32
	idf     map[string]float32
}

// Fit learns term vectors from the corpus's posting lists; postings is
// called once and must call emit for every term with its postings.
func Fit(nChunks int, postings func(emit func(term string, list []Posting))) *Model {
	type termList struct {
		term string
		list []Posting
	}
	var vocab []termList
	postings(func(term string, list []Posting) {
		df := len(list)
		if df >= minDF && float64(df) <= maxDFShare*float64(nChunks)+1 && len(term) > 1 {
			vocab = append(vocab, termList{term, list})
		}
	})
	sort.Slice(vocab, func(i, j int) bool { return vocab[i].term < vocab[j].term })
	m := &Model{vectors: make(map[string][]float32, len(vocab)), idf: make(map[string]float32, len(vocab))}
	for _, v := range vocab {
		m.idf[v.term] = idf(len(v.list), nChunks)
	}
	// Chunk signatures: idf-weighted sums of index vectors.
	sigs := make([][Dim]float32, nChunks)
	for _, v := range vocab {
		pos, sign := indexVector(v.term)
		w := m.idf[v.term]
		for _, p := range v.list {
			for k := range pos {
				sigs[p.Chunk][pos[k]] += sign[k] * w
			}
		}
	}
	// Term context vectors: sums of the signatures of their chunks.
	for _, v := range vocab {
		vec := make([]float32, Dim)
		for _, p := range v.list {
			s := &sigs[p.Chunk]
			for d := 0; d < Dim; d++ {
				vec[d] += s[d]
			}
		}
		embed.Normalize(vec)
		m.vectors[v.term] = vec
	}
	return m
}

// idf is the inverse document frequency of a term in df of n chunks.
func idf(df, n int) float32 {
	return float32(math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5)))
}

// indexVector is the fixed sparse random vector of a term: positions and
// signs drawn from a hash of the term, so it is the same in every run.
func indexVector(term string) (pos [indexNonZeros]int, sign [indexNonZeros]float32) {
	h := fnv.New64a()
	h.Write([]byte(term))
	x := h.Sum64()
	for k := 0; k < indexNonZeros; k++ {
		x ^= x << 13 // xorshift: cheap, deterministic
		x ^= x >> 7
		x ^= x << 17
		pos[k] = int(x % Dim)
		if x&(1<<40) == 0 {
			sign[k] = 1
		} else {
			sign[k] = -1
		}
	}
	return pos, sign
}

// Vector returns a term's context vector, or nil for a term outside the
// vocabulary.
func (m *Model) Vector(term string) []float32 { return m.vectors[term] }

// IDF returns a vocabulary term's idf, or 0.
func (m *Model) IDF(term string) float32 { return m.idf[term] }

// Terms returns the vocabulary, sorted.
func (m *Model) Terms() []string {
	out := make([]string, 0, len(m.vectors))
	for t := range m.vectors {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// FromVectors rebuilds a model from stored term vectors and idfs.
func FromVectors(vectors map[string][]float32, idfs map[string]float32) *Model {
	return &Model{vectors: vectors, idf: idfs}
}

// Embed is the normalised, weighted sum of the context vectors of terms
// (term → weight, e.g. log term frequency); nil when no term is known.
func (m *Model) Embed(terms map[string]float32) []float32 {
	vec := make([]float32, Dim)
	any := false
	// Sorted iteration keeps float sums identical from run to run.
	keys := make([]string, 0, len(terms))
	for t := range terms {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	for _, t := range keys {
		tv := m.vectors[t]
		if tv == nil {
			continue
		}
		w := terms[t] * m.idf[t]
		for d := range vec {
			vec[d] += w * tv[d]
		}
		any = true
	}
	if !any {
		return nil
	}
	embed.Normalize(vec)
	return vec
}
