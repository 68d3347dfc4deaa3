package index

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/lore-dev/lore/internal/embed"
	"github.com/lore-dev/lore/internal/semantic"
	"github.com/lore-dev/lore/internal/store"
)

// NoEmbedder is the embedder spec of an index without a semantic side:
// the default, because the built-in corpus-derived vectors did not raise
// the development benchmark (see docs/ranking.md).
const NoEmbedder = "none"

// refitShare is the share of chunks that must change before the built-in
// model is learned again; below it, new chunks are embedded with the
// model as it is, which keeps re-indexing one file cheap.
const refitShare = 0.2

// updateVectors brings the semantic side up to date with the run's
// changes: the built-in model is refitted on large changes and new chunks
// are embedded; another embedder embeds the new chunks' text (every
// chunk's, when the embedder changed).
func updateVectors(ctx context.Context, tx store.WriteTx, spec string, prev map[string]string, stats *Stats) error {
	if spec == "" {
		spec = prev[store.MetaEmbedderSpec]
	}
	if spec == "" {
		spec = NoEmbedder
	}
	if spec == NoEmbedder {
		if prev[store.MetaEmbedder] != NoEmbedder {
			if err := tx.ClearChunkVectors(ctx); err != nil {
				return err
			}
		}
		return recordEmbedder(ctx, tx, NoEmbedder, NoEmbedder)
	}
	added := tx.AddedChunks()
	changed := tx.ChangedChunks()
	all, err := tx.AllChunkIDs(ctx)
	if err != nil {
		return err
	}
	if spec == embed.Builtin {
		return updateBuiltin(ctx, tx, prev, added, changed, len(all), stats)
	}
	emb, err := embed.Parse(spec)
	if err != nil {
		return err
	}
	todo := added
	if prev[store.MetaEmbedder] != emb.ID() {
		if err := tx.ClearChunkVectors(ctx); err != nil {
			return err
		}
		todo = all // never mix vectors of two embedders
	}
	if len(todo) > 0 {
		texts, err := tx.ChunkTexts(ctx, todo)
		if err != nil {
			return err
		}
		batch := make([]string, len(todo))
		for i, id := range todo {
			batch[i] = texts[id]
		}
		vecs, err := emb.Embed(ctx, batch)
		if err != nil {
			return fmt.Errorf("embedding with %s: %w", spec, err)
		}
		byID := make(map[int64][]float32, len(todo))
		for i, id := range todo {
			byID[id] = vecs[i]
		}
		if err := tx.PutChunkVectors(ctx, byID); err != nil {
			return err
		}
	}
	return recordEmbedder(ctx, tx, spec, emb.ID())
}

func updateBuiltin(ctx context.Context, tx store.WriteTx, prev map[string]string, added []int64, changed, total int, stats *Stats) error {
	refit := prev[store.MetaEmbedder] != embed.Builtin || float64(changed) > refitShare*float64(total)
	var only map[int64]bool
	if !refit {
		if len(added) == 0 {
			return nil
		}
		only = make(map[int64]bool, len(added))
		for _, id := range added {
			only[id] = true
		}
	}
	freqs, err := tx.ChunkTermFreqs(ctx, only)
	if err != nil {
		return err
	}
	var model *semantic.Model
	if refit {
		model = fitBuiltin(freqs)
		if err := tx.ReplaceTermVectors(ctx, model.Terms(), model.Vector, model.IDF); err != nil {
			return err
		}
		if err := tx.ClearChunkVectors(ctx); err != nil {
			return err
		}
	} else {
		vecs, idfs, err := tx.TermVectors(ctx)
		if err != nil {
			return err
		}
		model = semantic.FromVectors(vecs, idfs)
	}
	out := make(map[int64][]float32, len(freqs))
	for id, terms := range freqs {
		weighted := make(map[string]float32, len(terms))
		for t, f := range terms {
			weighted[t] = float32(math.Log1p(float64(f)))
		}
		if v := model.Embed(weighted); v != nil {
			out[id] = v
		}
	}
	if err := tx.PutChunkVectors(ctx, out); err != nil {
		return err
	}
	return recordEmbedder(ctx, tx, embed.Builtin, embed.Builtin)
}

// fitBuiltin learns the built-in model from every chunk's terms.
func fitBuiltin(freqs map[int64]map[string]float32) *semantic.Model {
	dense := make(map[int64]int, len(freqs))
	ids := make([]int64, 0, len(freqs))
	for id := range freqs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i, id := range ids {
		dense[id] = i
	}
	lists := map[string][]semantic.Posting{}
	for _, id := range ids {
		for t, f := range freqs[id] {
			lists[t] = append(lists[t], semantic.Posting{Chunk: dense[id], Freq: f})
		}
	}
	return semantic.Fit(len(ids), func(emit func(string, []semantic.Posting)) {
		for t, l := range lists {
			emit(t, l)
		}
	})
}

func recordEmbedder(ctx context.Context, tx store.WriteTx, spec, id string) error {
	if err := tx.SetMeta(ctx, store.MetaEmbedderSpec, spec); err != nil {
		return err
	}
	return tx.SetMeta(ctx, store.MetaEmbedder, id)
}
