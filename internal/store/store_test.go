package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func chunkWith(terms map[string][NumFields]uint16, body string) Chunk {
	return Chunk{StartLine: 1, EndLine: 1, Kind: "function", Content: body,
		Terms: Terms{Body: body}, Stats: TermStats{Freqs: terms, Lens: [NumFields]uint16{1, 1, 1, 1, 1, len16(body)}}}
}

func len16(s string) uint16 { return uint16(len(s)) }

// openTestStore opens a new index with one collection, closed at the end
// of the test.
func openTestStore(t *testing.T) (*Store, int64) {
	t.Helper()
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	coll, err := st.EnsureCollection(ctx, "default", "/repo")
	if err != nil {
		t.Fatal(err)
	}
	return st, coll
}

func TestMigrateAndReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "index.db")
	if _, err := OpenReadOnly(ctx, path); errs.KindOf(err) != errs.NoIndex {
		t.Fatalf("read-only open of a missing index: %v, want NoIndex", err)
	}
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := st.SchemaVersion(ctx); v != SchemaVersion {
		t.Errorf("schema version %d, want %d", v, SchemaVersion)
	}
	st.Close()
	// Reopening runs no migration twice.
	st, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	var mode string
	st.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal mode %q, want wal", mode)
	}
	st.Close()
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.DB().Exec(`INSERT INTO meta(key, value) VALUES('x', 'y')`); err == nil {
		t.Error("a read-only connection accepted a write")
	}
}

func TestPostingsFollowWritesAndDeletes(t *testing.T) {
	ctx := context.Background()
	st, coll := openTestStore(t)
	tx, err := st.Begin(ctx, coll)
	if err != nil {
		t.Fatal(err)
	}
	body := [NumFields]uint16{FieldBody: 2}
	sym := [NumFields]uint16{FieldSymbols: 1, FieldBody: 1}
	if err := tx.PutFile(ctx, File{Path: "a.go", Language: "go", Hash: "h1"}, []Chunk{
		chunkWith(map[string][NumFields]uint16{"router": sym, "handl": body}, "router handle"),
	}); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutFile(ctx, File{Path: "b.go", Language: "go", Hash: "h2"}, []Chunk{
		chunkWith(map[string][NumFields]uint16{"handl": body}, "handle"),
	}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// postings reads the lists of terms as a search does, by term.
	postings := func(terms ...string) map[string][]PostingAt {
		t.Helper()
		lens, err := st.DocLens(ctx)
		if err != nil {
			t.Fatal(err)
		}
		lists, err := st.PostingsAt(ctx, terms, lens)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]PostingAt{}
		for i, term := range terms {
			out[term] = lists[i]
		}
		return out
	}
	got := postings("router", "handl", "absent")
	if len(got["router"]) != 1 || len(got["handl"]) != 2 || got["absent"] != nil {
		t.Fatalf("postings after insert: %+v", got)
	}
	if got["router"][0].Freqs != sym {
		t.Errorf("router freqs %v, want %v", got["router"][0].Freqs, sym)
	}
	lens, err := st.DocLens(ctx)
	if err != nil || lens.Len() != 2 {
		t.Fatalf("doc lens: %v, %v", lens, err)
	}

	// Deleting a.go removes its chunk from every list; an emptied list goes.
	states, _ := st.FileStates(ctx, coll)
	tx, _ = st.Begin(ctx, coll)
	if err := tx.DeleteFile(ctx, states["a.go"].ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	got = postings("router", "handl")
	if got["router"] != nil || len(got["handl"]) != 1 {
		t.Fatalf("postings after delete: %+v", got)
	}
	if lens, _ := st.DocLens(ctx); lens.Len() != 1 {
		t.Errorf("doc lens after delete: %d chunks", lens.Len())
	}

	// A rolled-back run changes nothing.
	tx, _ = st.Begin(ctx, coll)
	tx.DeleteAll(ctx)
	tx.Rollback()
	if got := postings("handl"); len(got["handl"]) != 1 {
		t.Errorf("a rollback lost postings: %+v", got)
	}
}

func TestPostingsEncoding(t *testing.T) {
	list := []Posting{{ChunkID: 3, Freqs: [NumFields]uint16{1, 0, 0, 0, 0, 7}}, {ChunkID: 900, Freqs: [NumFields]uint16{0, 0, 2, 0, 1, 1000}}}
	got, err := decodePostings(encodePostings(list))
	if err != nil || !reflect.DeepEqual(got, list) {
		t.Fatalf("round trip: %v, %v", got, err)
	}
	for _, bad := range [][]byte{{0xff}, {5, 1}, {200, 1, 1}} {
		if _, err := decodePostings(bad); err == nil {
			t.Errorf("decoding %v: no error", bad)
		}
	}
	lens := map[int64][NumFields]uint16{2: {1, 2, 3, 4, 5, 6}, 10: {0, 0, 0, 0, 0, 9}}
	d, err := decodeDocLens(encodeDocLens(lens))
	if err != nil || d.Len() != 2 || d.Lens[1][FieldBody] != 9 {
		t.Fatalf("doc lens round trip: %+v, %v", d, err)
	}
	if pos, ok := d.Pos(10); !ok || pos != 1 {
		t.Errorf("Pos(10) = %d, %v", pos, ok)
	}
	if _, ok := d.Pos(5); ok {
		t.Errorf("Pos(5) found a chunk that is not there")
	}
}

func TestFTS5OverCodeAwareTerms(t *testing.T) {
	ctx := context.Background()
	st, coll := openTestStore(t)
	tx, _ := st.Begin(ctx, coll)
	c := chunkWith(nil, "func RouteContext() {}")
	c.Terms = Terms{Symbols: "routecontext route context", Path: "mux go", Body: "func routecontext route context"}
	other := chunkWith(nil, "parse")
	other.Terms = Terms{Symbols: "parse_args parse args", Path: "cli py", Body: "def parse_args parse args"}
	if err := tx.PutFile(ctx, File{Path: "mux.go", Language: "go", Hash: "a"}, []Chunk{c}); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutFile(ctx, File{Path: "cli.py", Language: "python", Hash: "b"}, []Chunk{other}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for query, wantHits := range map[string]int{`"routecontext"`: 1, `"context"`: 1, `"parse_args"`: 1, `"args"`: 1, `"route" OR "args"`: 2, `"absent"`: 0} {
		hits, err := st.Match(ctx, query, Weights{8, 4, 3, 1.5, 1}, 10, nil)
		if err != nil {
			t.Fatalf("MATCH %s: %v", query, err)
		}
		if len(hits) != wantHits {
			t.Errorf("MATCH %s: %d hits, want %d", query, len(hits), wantHits)
		}
	}
}
