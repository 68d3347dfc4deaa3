package storetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

// testManyRunsEqualARebuild replaces and removes files over many runs,
// which an implementation may keep as segments, merged and folded as it
// likes, and checks after every few runs that a reader sees exactly what
// one run writing the same files gives: the same chunks with their
// lengths and metadata, the same average lengths (BM25's statistics), the
// same postings, and the same counts.
func testManyRunsEqualARebuild(t *testing.T, b Backend) {
	for _, deferred := range []bool{false, true} {
		t.Run(fmt.Sprintf("deferMerges=%v", deferred), func(t *testing.T) { testManyRuns(t, b, deferred) })
	}
}

// testManyRuns makes 48 incremental runs and compares what a reader sees
// with one run writing the same files, every sixth run. With deferred,
// the runs leave their merges to Maintain, called every third run, which
// must change nothing a reader sees, nor the generation.
func testManyRuns(t *testing.T, b Backend, deferred bool) {
	db := newDB(t, b)
	rng := rand.New(rand.NewPCG(10, 13))
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma")
	makeFile := func(path string, round int) file {
		var chunks []store.Chunk
		for i := range 1 + rng.IntN(4) {
			var body []string
			for range 2 + rng.IntN(8) {
				body = append(body, words[rng.IntN(len(words))])
			}
			chunks = append(chunks, chunk(1+10*i, strings.Join(body, " "), fmt.Sprintf("S%d_%d_%s", round, i, words[rng.IntN(len(words))])))
		}
		return file{path, chunks}
	}
	current := map[string]file{}
	tx := begin(t, db, "inc", "/r")
	for i := range 200 {
		f := makeFile(fmt.Sprintf("f%03d.go", i), 0)
		current[f.path] = f
		put(t, tx, f)
	}
	commit(t, tx)
	for round := 1; round <= 48; round++ {
		tx, err := db.Write(ctx, "inc", "/r", store.WriteOptions{DeferMerges: deferred})
		if err != nil {
			t.Fatal(err)
		}
		states, err := tx.FileStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		touched := map[string]bool{}
		for range 1 + rng.IntN(3) {
			path := fmt.Sprintf("f%03d.go", rng.IntN(220))
			if touched[path] {
				continue
			}
			touched[path] = true
			if st, ok := states[path]; ok {
				if err := tx.DeleteFile(ctx, st.ID); err != nil {
					t.Fatal(err)
				}
				delete(states, path)
				delete(current, path)
			}
			if rng.IntN(5) > 0 {
				f := makeFile(path, round)
				put(t, tx, f)
				current[path] = f
			}
		}
		commit(t, tx)
		if deferred && round%3 == 0 {
			r := reader(t, db, "inc")
			gen, _ := r.Generation(ctx)
			before := CollectionView(t, r, words)
			if err := db.Maintain(ctx, "inc"); err != nil {
				t.Fatalf("round %d: Maintain: %v", round, err)
			}
			if after := CollectionView(t, r, words); after != before {
				t.Fatalf("round %d: Maintain changed what a reader sees:\n%s\nwas\n%s", round, after, before)
			}
			if g, _ := r.Generation(ctx); g != gen {
				t.Fatalf("round %d: Maintain changed the generation", round)
			}
		}
		if round%6 != 0 {
			continue
		}
		name := fmt.Sprintf("full%d", round)
		tx = begin(t, db, name, "/r")
		var ps []string
		for p := range current {
			ps = append(ps, p)
		}
		slices.Sort(ps)
		for _, p := range ps {
			put(t, tx, current[p])
		}
		commit(t, tx)
		got, want := CollectionView(t, reader(t, db, "inc"), words), CollectionView(t, reader(t, db, name), words)
		if got != want {
			t.Fatalf("round %d: after incremental runs a reader sees\n%s\nwhere one run writing the same files gives\n%s", round, got, want)
		}
		tx = begin(t, db, "inc", "/r")
		files, chunks, err := tx.Counts(ctx)
		tx.Rollback()
		if n := countChunks(current); err != nil || files != len(current) || chunks != n {
			t.Errorf("round %d: Counts = %d files, %d chunks, %v; want %d, %d", round, files, chunks, err, len(current), n)
		}
	}
}

func countChunks(files map[string]file) int {
	n := 0
	for _, f := range files {
		n += len(f.chunks)
	}
	return n
}

// CollectionView renders what ranking reads of a collection (its chunks
// with their lengths and metadata, the average lengths and the postings
// of terms) by path and line instead of chunk ids, so that two indexes of
// the same files can be compared however their runs went.
func CollectionView(t testing.TB, r store.Reader, terms []string) string {
	t.Helper()
	lens, err := r.DocLens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := r.ChunkMeta(ctx, lens)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pathOf := map[int64]string{}
	for _, f := range rows {
		pathOf[f.ID] = f.Path
	}
	if len(meta) != lens.Len() {
		t.Fatalf("%d metadata for %d lengths", len(meta), lens.Len())
	}
	key := func(pos int32) string {
		m := meta[pos]
		return fmt.Sprintf("%s:%d-%d %s %q %v", pathOf[m.FileID], m.StartLine, m.EndLine, m.Kind, m.Symbols, lens.Lens[pos])
	}
	var chunks []string
	for pos := range meta {
		if meta[pos].ID != lens.IDs[pos] {
			t.Fatalf("metadata of chunk %d at the position of %d", meta[pos].ID, lens.IDs[pos])
		}
		chunks = append(chunks, key(int32(pos)))
	}
	slices.Sort(chunks)
	var b strings.Builder
	fmt.Fprintf(&b, "%d chunks, average lengths %v\n%s\n", lens.Len(), lens.Avg, strings.Join(chunks, "\n"))
	lists, err := r.Postings(ctx, terms, lens)
	if err != nil {
		t.Fatal(err)
	}
	for i, term := range terms {
		var ps []string
		for j, p := range lists[i] {
			if j > 0 && p.Pos <= lists[i][j-1].Pos {
				t.Errorf("postings of %q out of order", term)
			}
			ps = append(ps, fmt.Sprintf("%s %v", key(p.Pos), p.Freqs))
		}
		slices.Sort(ps)
		fmt.Fprintf(&b, "%s: %s\n", term, strings.Join(ps, "; "))
	}
	return b.String()
}
