package store

import (
	"context"
	"reflect"
	"testing"
)

func TestChunkMetaEncoding(t *testing.T) {
	tests := []struct {
		name string
		all  []ChunkMeta
	}{
		{"empty", nil},
		{"one chunk", []ChunkMeta{{ID: 7, FileID: 3, StartLine: 1, EndLine: 9, Kind: "function", Symbols: "Run"}}},
		{"files out of order, shared kinds, no symbols", []ChunkMeta{
			{ID: 1, FileID: 5, StartLine: 1, EndLine: 4, Kind: "block"},
			{ID: 2, FileID: 5, StartLine: 5, EndLine: 40, Kind: "class", Symbols: "Router\nRouter.Handle"},
			{ID: 9, FileID: 2, StartLine: 10, EndLine: 10, Kind: "block", Symbols: "x"},
			{ID: 300, FileID: 70000, StartLine: 1, EndLine: 2, Kind: "", Symbols: "ünïcode"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeChunkMeta(encodeChunkMeta(tt.all))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.all) || (len(got) > 0 && !reflect.DeepEqual(got, tt.all)) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.all)
			}
		})
	}
	good := encodeChunkMeta(tests[2].all)
	for _, bad := range [][]byte{good[:len(good)-1], good[:5], append(append([]byte{}, good...), 'x'), {0xff}} {
		if _, err := decodeChunkMeta(bad); err == nil {
			t.Errorf("decoding %d corrupt bytes succeeded", len(bad))
		}
	}
}

// TestChunkMetaFollowsWrites checks the blob against the chunks table
// through inserts, deletes and a first run on an index written before the
// blob existed.
func TestChunkMetaFollowsWrites(t *testing.T) {
	ctx := context.Background()
	st, coll := openTestStore(t)
	body := [NumFields]uint16{FieldBody: 1}
	put := func(path string, n int) {
		t.Helper()
		tx, err := st.Begin(ctx, coll)
		if err != nil {
			t.Fatal(err)
		}
		var chunks []Chunk
		for i := 0; i < n; i++ {
			c := chunkWith(map[string][NumFields]uint16{"word": body}, "word")
			c.StartLine, c.EndLine, c.Kind, c.Symbols = i*10+1, i*10+9, "function", []string{path, "f"}
			chunks = append(chunks, c)
		}
		if err := tx.PutFile(ctx, File{Path: path, Language: "go", Hash: path}, chunks); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		lens, err := st.DocLens(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.ChunkMetaAt(ctx, lens)
		if err != nil {
			t.Fatal(err)
		}
		table, err := readChunkMeta(ctx, st.db)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, alignChunkMeta(table, lens)) || len(got) != lens.Len() {
			t.Errorf("%s: blob %+v\ntable %+v", when, got, table)
		}
	}
	put("a.go", 3)
	put("b.go", 2)
	check("after inserts")

	states, _ := st.FileStates(ctx, coll)
	tx, _ := st.Begin(ctx, coll)
	if err := tx.DeleteFile(ctx, states["a.go"].ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	check("after a delete")

	// An index from before the blob: the next run writes it whole.
	if _, err := st.db.ExecContext(ctx, `DELETE FROM blobs WHERE name = 'chunkmeta'`); err != nil {
		t.Fatal(err)
	}
	check("without the blob")
	put("c.go", 1)
	check("after the first run with the blob")

	// A run that changes nothing still writes a missing blob.
	if _, err := st.db.ExecContext(ctx, `DELETE FROM blobs WHERE name = 'chunkmeta'`); err != nil {
		t.Fatal(err)
	}
	tx, _ = st.Begin(ctx, coll)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	st.db.QueryRowContext(ctx, `SELECT count(*) FROM blobs WHERE name = 'chunkmeta'`).Scan(&n)
	if n != 1 {
		t.Errorf("a run without changes did not write the missing blob")
	}
	check("after a run without changes")
}
