package sqlite

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/store"
)

// fixedTime is the time of the runs: the generation it records is then
// the same in every file.
var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// spillWords are the terms of spillChunks' chunks.
var spillWords = strings.Fields(`router cache session token parser logger metrics queue handler buffer stream
	socket cursor ledger invoice payment tenant schema column widget render shader texture mesh camera`)

// spillChunks makes the chunks of a generated file: the same for the same
// rng state.
func spillChunks(rng *rand.Rand) []store.Chunk {
	chunks := make([]store.Chunk, 1+rng.IntN(4))
	for i := range chunks {
		st := store.TermStats{Freqs: map[string][store.NumFields]uint16{}}
		for range 2 + rng.IntN(8) {
			w := spillWords[rng.IntN(len(spillWords))]
			f := st.Freqs[w]
			field := rng.IntN(store.NumFields)
			f[field]++
			st.Freqs[w] = f
			st.Lens[field]++
		}
		chunks[i] = store.Chunk{StartLine: 10 * i, EndLine: 10*i + 9, Kind: "function", Symbols: []string{fmt.Sprintf("F%d", i)},
			Content: "text", Stats: st}
	}
	return chunks
}

// spillRuns writes, with a memory budget, the same two runs into a fresh
// file: a full build of 80 files, then a change of 20 of them, 10 new
// ones, and one file both added and removed by the run. It returns the
// file's tables as text, and the most parts either run spilled.
func spillRuns(t *testing.T, budget int64) (string, int) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir()) // where the spill files go
	db, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(7, 9))
	maxParts := 0
	put := func(w *tx, path string) {
		if err := w.PutFile(ctx, store.File{Path: path, Language: "go", Hash: path}, spillChunks(rng)); err != nil {
			t.Fatal(err)
		}
		maxParts = max(maxParts, w.delta.parts)
	}
	begin := func() *tx {
		w, err := db.Write(ctx, "c", "/r", store.WriteOptions{MemoryBudget: budget})
		if err != nil {
			t.Fatal(err)
		}
		return w.(*tx)
	}
	w := begin()
	for i := range 80 {
		put(w, fmt.Sprintf("f%03d.go", i))
	}
	if err := w.Commit(ctx, fixedTime); err != nil {
		t.Fatal(err)
	}
	w = begin()
	states, err := w.FileStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	put(w, "own.go") // added first, so that a small budget spills it, then removed
	for i := 0; i < 80; i += 4 {
		path := fmt.Sprintf("f%03d.go", i)
		if err := w.DeleteFile(ctx, states[path].ID); err != nil {
			t.Fatal(err)
		}
		put(w, path)
	}
	for i := range 10 {
		put(w, fmt.Sprintf("new%02d.go", i))
	}
	now, err := w.FileStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteFile(ctx, now["own.go"].ID); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(ctx, fixedTime); err != nil {
		t.Fatal(err)
	}
	if left := spillsLeft(t); left != 0 {
		t.Fatalf("%d spill files outlived the run", left)
	}
	return dumpTables(t, db), maxParts
}

// dumpTables renders every row of the tables an index run writes.
func dumpTables(t *testing.T, db *DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT term, df, hex(data) FROM postings ORDER BY collection_id, term`,
		`SELECT term, seg, hex(data) FROM segment_postings ORDER BY collection_id, term, seg`,
		`SELECT seg, size, chunks, hex(doclens), hex(chunkmeta), hex(deleted), dirty FROM segments ORDER BY collection_id, seg`,
		`SELECT name, hex(data) FROM blobs ORDER BY collection_id, name`,
		`SELECT base_chunks, files FROM index_state ORDER BY collection_id`,
		`SELECT id, path, hash FROM files ORDER BY id`,
		`SELECT id, file_id, ord, start_line, end_line FROM chunks ORDER BY id`,
		`SELECT chunk_id, terms FROM chunk_terms ORDER BY chunk_id`,
	} {
		fmt.Fprintf(&b, "%s\n", q)
		if err := appendRows(ctx, &b, db.db, q); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestMemoryBudgetWritesTheSameIndex: a run that spills its postings
// after every file, in a full build and in an incremental run (a
// segment), leaves exactly the rows a run that never spills leaves.
func TestMemoryBudgetWritesTheSameIndex(t *testing.T) {
	want, parts := spillRuns(t, 1<<40)
	if parts != 0 {
		t.Fatalf("a run with a huge budget spilled %d parts", parts)
	}
	for _, budget := range []int64{1, 600, 5000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			got, parts := spillRuns(t, budget)
			if parts < 2 {
				t.Fatalf("budget %d: %d parts spilled, want several", budget, parts)
			}
			if got != want {
				t.Errorf("budget %d: the index differs from one written without spilling:\n%s\nwant:\n%s", budget, got, want)
			}
		})
	}
}

// TestSpilledRunRollsBack: a run that spilled and is rolled back leaves
// the previous generation as it was and no spill table.
func TestSpilledRunRollsBack(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // where the spill files go
	db, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	run := func(prefix string, n int, commit bool) {
		w, err := db.Write(ctx, "c", "/r", store.WriteOptions{MemoryBudget: 1})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if err := w.PutFile(ctx, store.File{Path: fmt.Sprintf("%s/%d.go", prefix, i), Hash: "h"}, spillChunks(rng)); err != nil {
				t.Fatal(err)
			}
		}
		if parts := w.(*tx).delta.parts; parts < 2 {
			t.Fatalf("%d parts spilled, want several", parts)
		}
		if left := spillsLeft(t); runtime.GOOS != "windows" && left != 0 {
			t.Fatalf("%d spill files can be seen during the run: a crash would leave them", left)
		}
		if commit {
			if err := w.Commit(ctx, fixedTime); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := w.Rollback(); err != nil {
			t.Fatal(err)
		}
	}
	run("a", 20, true)
	before := dumpTables(t, db)
	run("b", 30, false)
	if after := dumpTables(t, db); after != before {
		t.Errorf("a rolled back run changed the index:\n%s\nwas:\n%s", after, before)
	}
	if left := spillsLeft(t); left != 0 {
		t.Fatalf("%d spill files outlived the rolled back run", left)
	}
	run("c", 5, true) // and the next run spills again from scratch
}

// spillsLeft counts the files in the temporary folder, where the test
// sends the spill files.
func spillsLeft(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// TestJoinEncoded: lists split into parts at any point, joined encoded,
// are byte for byte the encoding of the whole list, whatever the gaps'
// widths (an id gap that needs one more byte once rebased, or one fewer).
func TestJoinEncoded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		var list []store.Posting
		id := int64(0)
		for range 1 + rng.IntN(40) {
			id += 1 + rng.Int64N([]int64{2, 200, 1 << 20}[rng.IntN(3)])
			var f [store.NumFields]uint16
			f[rng.IntN(store.NumFields)] = uint16(1 + rng.IntN(300))
			list = append(list, store.Posting{ChunkID: id, Freqs: f})
		}
		var group []*partReader
		for rest := list; len(rest) > 0; {
			n := 1 + rng.IntN(len(rest))
			group = append(group, &partReader{part: len(group), term: "t", last: rest[n-1].ChunkID, data: store.EncodePostings(rest[:n])})
			rest = rest[n:]
		}
		e, err := joinEncoded("t", group)
		if err != nil {
			t.Fatal(err)
		}
		if want := store.EncodePostings(list); e.df != len(list) || !slices.Equal(e.data, want) {
			t.Fatalf("%d parts of %d postings: joined %x (df %d), want %x", len(group), len(list), e.data, e.df, want)
		}
	}
	bad := []*partReader{{last: 9, data: store.EncodePostings([]store.Posting{{ChunkID: 9}})},
		{part: 1, last: 9, data: store.EncodePostings([]store.Posting{{ChunkID: 5}})}}
	if _, err := joinEncoded("t", bad); err == nil {
		t.Fatal("parts out of order joined without an error")
	}
}
