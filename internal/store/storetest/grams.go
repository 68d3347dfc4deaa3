package storetest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

// grams reads a collection's n-gram index as "path size mtime binary grams"
// lines, in the order the reader gives them.
func grams(t *testing.T, r store.Reader) []string {
	t.Helper()
	var out []string
	err := r.Grams(ctx, func(f store.GramFile) error {
		out = append(out, fmt.Sprintf("%s %d %d %v %x", f.Path, f.Size, f.MTimeNS, f.Binary, f.Grams))
		return nil
	})
	if err != nil {
		t.Fatalf("Grams: %v", err)
	}
	return out
}

func testGrams(t *testing.T, b Backend) {
	db := newDB(t, b)
	tx := begin(t, db, "a", "/repo/a")
	for _, f := range []store.GramFile{
		{Path: "src/b.go", Size: 10, MTimeNS: 5, Grams: []byte{1, 2}},
		{Path: "logo.png", Size: 99, MTimeNS: 6, Binary: true, Grams: []byte{7}},
		{Path: "src.txt", Size: 3, MTimeNS: 7, Grams: []byte{0}},
		{Path: "src/a.go", Size: 4, MTimeNS: 8, Grams: []byte{3}},
	} {
		if err := tx.PutGrams(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	states, err := tx.GramStates(ctx)
	if err != nil || len(states) != 4 || states["src/b.go"] != (store.GramState{Size: 10, MTimeNS: 5}) {
		t.Fatalf("GramStates in the run: %v, %v", states, err)
	}
	commit(t, tx)
	if states, err := reader(t, db, "a").GramStates(ctx); err != nil || len(states) != 4 || states["logo.png"] != (store.GramState{Size: 99, MTimeNS: 6}) {
		t.Fatalf("GramStates of the reader: %v, %v", states, err)
	}
	// Byte order of paths: "src.txt" < "src/a.go" ('.' < '/'); a binary
	// file's grams are not kept.
	want := []string{"logo.png 99 6 true ", "src.txt 3 7 false 00", "src/a.go 4 8 false 03", "src/b.go 10 5 false 0102"}
	if got := grams(t, reader(t, db, "a")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Grams = %q, want %q", got, want)
	}
	// A later run replaces and deletes; a rolled-back one changes nothing.
	tx = begin(t, db, "a", "/repo/a")
	if err := tx.PutGrams(ctx, store.GramFile{Path: "src/a.go", Size: 5, MTimeNS: 9, Grams: []byte{4, 5}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.DeleteGrams(ctx, "logo.png"); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	want = []string{"src.txt 3 7 false 00", "src/a.go 5 9 false 0405", "src/b.go 10 5 false 0102"}
	if got := grams(t, reader(t, db, "a")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after a second run: %q, want %q", got, want)
	}
	tx = begin(t, db, "a", "/repo/a")
	if err := tx.DeleteAllGrams(ctx); err != nil {
		t.Fatal(err)
	}
	if states, err := tx.GramStates(ctx); err != nil || len(states) != 0 {
		t.Fatalf("GramStates after DeleteAllGrams: %v, %v", states, err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := grams(t, reader(t, db, "a")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after a rolled-back run: %q, want %q", got, want)
	}

	// Another collection has its own index; removing one leaves the other.
	tx = begin(t, db, "b", "/repo/b")
	if err := tx.PutGrams(ctx, store.GramFile{Path: "src/a.go", Size: 1, MTimeNS: 1, Grams: bytes.Repeat([]byte{9}, 3000)}); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	if got := grams(t, reader(t, db, "b")); len(got) != 1 || len(got[0]) != len("src/a.go 1 1 false ")+6000 {
		t.Fatalf("collection b: %q", got)
	}
	if err := db.RemoveCollection(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if got := grams(t, reader(t, db, "a")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("collection a after removing b: %q, want %q", got, want)
	}
	db = reopen(t, b, db)
	if got := grams(t, reader(t, db, "a")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after reopening: %q, want %q", got, want)
	}
}
