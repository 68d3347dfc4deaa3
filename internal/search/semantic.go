package search

import (
	"context"
	"fmt"
	"sort"

	"github.com/lore-dev/lore/internal/embed"
)

// semanticDepth is how many of the semantically closest chunks join the
// lexical candidates, so that a chunk sharing no word with the query can
// still be found.
const semanticDepth = 50

// fusionAlpha maps the user's semantic_weight w to the share of the
// calibrated semantic score in the fused score.
func fusionAlpha(w float64) float64 {
	if w <= 0 {
		return 0
	}
	if w >= 1 {
		return 1
	}
	c := weights.semanticCalibration
	return w * c / ((1 - w) + w*c)
}

// queryVector embeds the query with the index's embedder, or returns nil
// when the index has no vectors or no query word is known to the model.
func (e *Engine) queryVector(ctx context.Context, snap *snapshot, q Query, terms []queryTerm) (embed.Int8Vector, bool, error) {
	if snap.vectors == nil {
		return embed.Int8Vector{}, false, nil
	}
	var vec []float32
	if snap.embedderSpec == embed.Builtin {
		names := make([]string, len(terms))
		for i, t := range terms {
			names[i] = t.term
		}
		vecs, idfs, err := e.st.TermVectors(ctx, names)
		if err != nil {
			return embed.Int8Vector{}, false, err
		}
		sum := make([]float32, 0)
		for _, t := range terms {
			v, ok := vecs[t.term]
			if !ok {
				continue
			}
			f := v.Float32()
			if len(sum) == 0 {
				sum = make([]float32, len(f))
			}
			w := float32(t.weight) * idfs[t.term]
			for d := range f {
				sum[d] += w * f[d]
			}
		}
		if len(sum) == 0 {
			return embed.Int8Vector{}, false, nil
		}
		embed.Normalize(sum)
		vec = sum
	} else {
		emb, err := e.embedder(snap.embedderSpec)
		if err != nil {
			return embed.Int8Vector{}, false, err
		}
		out, err := emb.Embed(ctx, []string{q.Raw})
		if err != nil {
			return embed.Int8Vector{}, false, fmt.Errorf("embedding the query with %s: %w", snap.embedderSpec, err)
		}
		vec = out[0]
	}
	return embed.QuantizeInt8(vec), true, nil
}

// embedder returns the index's non-built-in embedder, loaded once.
func (e *Engine) embedder(spec string) (embed.Embedder, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.emb != nil && e.embSpec == spec {
		return e.emb, nil
	}
	emb, err := embed.Parse(spec)
	if err != nil {
		return nil, err
	}
	e.emb, e.embSpec = emb, spec
	return emb, nil
}

// semanticScores is the cosine of the query with every chunk that has a
// vector (0 for the others), by snapshot position.
func semanticScores(snap *snapshot, qv embed.Int8Vector, allowed func(pos int) bool) []float32 {
	scores := make([]float32, len(snap.vectors))
	for pos, v := range snap.vectors {
		if v.Data == nil || (allowed != nil && !allowed(pos)) {
			continue
		}
		scores[pos] = qv.Dot(v)
	}
	return scores
}

// topSemantic returns the positions of the n highest semantic scores,
// ties by position.
func topSemantic(scores []float32, n int) []int {
	pos := make([]int, 0, len(scores))
	for p, s := range scores {
		if s > 0 {
			pos = append(pos, p)
		}
	}
	sort.Slice(pos, func(i, j int) bool {
		if scores[pos[i]] != scores[pos[j]] {
			return scores[pos[i]] > scores[pos[j]]
		}
		return pos[i] < pos[j]
	})
	if len(pos) > n {
		pos = pos[:n]
	}
	return pos
}

// fuse blends each candidate's lexical pre-score with its semantic score,
// after adding the semantically closest chunks the lexical side missed.
// Both sides are normalised to the best candidate first.
func fuse(cands []*candidate, sem []float32, alpha float64) []*candidate {
	inCands := make(map[int]bool, len(cands))
	for _, c := range cands {
		inCands[c.pos] = true
	}
	for _, p := range topSemantic(sem, semanticDepth) {
		if !inCands[p] {
			cands = append(cands, &candidate{pos: p})
		}
	}
	maxLex, maxSem := 0.0, 0.0
	for _, c := range cands {
		maxLex = max(maxLex, c.score)
		maxSem = max(maxSem, float64(sem[c.pos]))
	}
	if maxLex == 0 {
		maxLex = 1
	}
	if maxSem == 0 {
		maxSem = 1
	}
	scale := maxLex // keep the fused score on the lexical scale the later signals expect
	for _, c := range cands {
		s := max(0, float64(sem[c.pos]))
		c.score = scale * ((1-alpha)*c.score/maxLex + alpha*s/maxSem)
	}
	return cands
}
