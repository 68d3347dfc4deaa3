package sqlite

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

// BenchmarkCommitBuild times the commit of a full build whose postings
// were spilled in parts: joining the parts and writing the inverted
// index, the tail of a large cold build. The files are written with the
// timer stopped.
//
//	go test ./internal/store/sqlite -run '^$' -bench CommitBuild -benchtime 5x
func BenchmarkCommitBuild(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	vocab := make([]string, 150_000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%x", rng.Uint64()&0xffffffffff)
	}
	const files, chunksPerFile, termsPerChunk = 1500, 8, 50
	chunks := make([][]store.Chunk, files)
	for f := range chunks {
		chunks[f] = make([]store.Chunk, chunksPerFile)
		for c := range chunks[f] {
			st := store.TermStats{Freqs: map[string][store.NumFields]uint16{}}
			for range termsPerChunk {
				// Zipf-like: a few terms in most chunks, most in few.
				w := vocab[int(float64(len(vocab))*rng.Float64()*rng.Float64()*rng.Float64())]
				fr := st.Freqs[w]
				fr[store.FieldBody]++
				st.Freqs[w] = fr
				st.Lens[store.FieldBody]++
			}
			chunks[f][c] = store.Chunk{StartLine: c * 10, EndLine: c*10 + 9, Kind: "function", Content: "x", Stats: st}
		}
	}
	for b.Loop() {
		b.StopTimer()
		db, err := Open(ctx, filepath.Join(b.TempDir(), "index.db"))
		if err != nil {
			b.Fatal(err)
		}
		w, err := db.Write(ctx, "c", "/r", store.WriteOptions{MemoryBudget: 2 << 20})
		if err != nil {
			b.Fatal(err)
		}
		for f := range chunks {
			if err := w.PutFile(ctx, store.File{Path: fmt.Sprintf("f%05d.go", f), Hash: "h"}, chunks[f]); err != nil {
				b.Fatal(err)
			}
		}
		if w.(*tx).delta.parts < 2 {
			b.Fatalf("%d parts spilled, want several", w.(*tx).delta.parts)
		}
		b.StartTimer()
		if err := w.Commit(ctx, fixedTime); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
}
