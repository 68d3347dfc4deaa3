package store

import (
	"context"
	"fmt"
	"testing"
)

// TestInListsTakeAnyNumberOfValues reads posting lists, term vectors and
// chunk details for far more values than SQLite takes host parameters in
// one statement (32766): every reader must answer, not fail with "too many
// SQL variables", and find the values wherever they fall in the list.
func TestInListsTakeAnyNumberOfValues(t *testing.T) {
	ctx := context.Background()
	st, coll := openTestStore(t)
	tx, err := st.Begin(ctx, coll)
	if err != nil {
		t.Fatal(err)
	}
	body := [NumFields]uint16{FieldBody: 1}
	if err := tx.PutFile(ctx, File{Path: "a.go", Language: "go", Hash: "h1"}, []Chunk{
		chunkWith(map[string][NumFields]uint16{"router": body, "handl": body}, "router handle"),
	}); err != nil {
		t.Fatal(err)
	}
	if err := tx.ReplaceTermVectors(ctx, []string{"router", "handl"},
		func(string) []float32 { return []float32{1, 0} }, func(string) float32 { return 1 }); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	lens, err := st.DocLens(ctx)
	if err != nil || lens.Len() != 1 {
		t.Fatalf("doc lens: %v, %v", lens, err)
	}
	chunkID := lens.IDs[0]

	const n = 40000
	// The known values sit first, on a batch boundary and last.
	terms := make([]string, n)
	ids := make([]int64, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("absent%d", i)
		ids[i] = chunkID + 1 + int64(i)
	}
	terms[0], terms[maxInList], terms[n-1] = "router", "handl", "router"
	ids[n-1] = chunkID

	tests := []struct {
		name string
		run  func() error
	}{
		{"PostingsAt", func() error {
			lists, err := st.PostingsAt(ctx, terms, lens)
			if err != nil {
				return err
			}
			// A repeated term fills one of its slots; absent terms none.
			found := 0
			for _, l := range lists {
				found += len(l)
			}
			if len(lists[maxInList]) != 1 || found != 2 {
				return fmt.Errorf("found %d postings (handl: %d), want 2 (1)", found, len(lists[maxInList]))
			}
			return nil
		}},
		{"TermVectors", func() error {
			vecs, idfs, err := st.TermVectors(ctx, terms)
			if err != nil {
				return err
			}
			if len(vecs) != 2 || len(idfs) != 2 {
				return fmt.Errorf("got %d vectors, %d idfs, want 2", len(vecs), len(idfs))
			}
			return nil
		}},
		{"ChunkDetails", func() error {
			details, err := st.ChunkDetails(ctx, ids)
			if err != nil {
				return err
			}
			if len(details) != 1 || details[chunkID].Content != "router handle" {
				return fmt.Errorf("details = %v", details)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); err != nil {
				t.Errorf("%s with %d values: %v", tt.name, n, err)
			}
		})
	}
}
