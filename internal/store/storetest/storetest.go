// Package storetest is the conformance suite of store.DB: every storage
// implementation (store/sqlite, and PostgreSQL when it lands) runs it
// from its own tests, so that the index, search and services above the
// seam behave the same whatever holds the data.
package storetest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/specs"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/symbols"
)

// Backend makes databases for the suite.
type Backend struct {
	// New makes a new, empty database and returns a handle that can
	// write; the suite closes it.
	New func(t *testing.T) store.DB
	// Reopen returns another handle to the same database, for reading
	// while the first one writes; the suite closes it.
	Reopen func(t *testing.T, db store.DB) store.DB
}

// Run runs every conformance test against b.
func Run(t *testing.T, b Backend) {
	tests := []struct {
		name string
		run  func(*testing.T, Backend)
	}{
		{"EmptyDatabase", testEmptyDatabase},
		{"WriteAndRead", testWriteAndRead},
		{"IncrementalRuns", testIncrementalRuns},
		{"ManyRunsEqualARebuild", testManyRunsEqualARebuild},
		{"RollbackKeepsThePreviousGeneration", testRollback},
		{"ReadersSeeCommittedGenerations", testReadersDuringWrite},
		{"ForcedRebuild", testForcedRebuild},
		{"ChangesSinceAGeneration", testChanges},
		{"Meta", testMeta},
		{"PackagesRoundTrip", testPackages},
		{"SpecsRoundTrip", testSpecs},
		{"ParsedFiles", testParsedFiles},
		{"Symbols", testSymbols},
		{"SymbolsFollowTheirFiles", testSymbolsIncremental},
		{"Vectors", testVectors},
		{"CollectionsAreIndependent", testCollectionsIndependent},
		{"RemoveCollection", testRemoveCollection},
		{"AnyNumberOfValues", testManyValues},
		{"OneWriterPerCollection", testOneWriter},
		{"Grams", testGrams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, b) })
	}
}

var ctx = context.Background()

func newDB(t *testing.T, b Backend) store.DB {
	t.Helper()
	db := b.New(t)
	t.Cleanup(func() { db.Close() })
	return db
}

func reopen(t *testing.T, b Backend, db store.DB) store.DB {
	t.Helper()
	r := b.Reopen(t, db)
	t.Cleanup(func() { r.Close() })
	return r
}

// stats makes the term statistics of a chunk: each term once in the body,
// names also once in the symbols.
func stats(body []string, symbols ...string) store.TermStats {
	ts := store.TermStats{Freqs: map[string][store.NumFields]uint16{}}
	for _, w := range body {
		f := ts.Freqs[w]
		f[store.FieldBody]++
		ts.Freqs[w] = f
	}
	for _, s := range symbols {
		f := ts.Freqs[s]
		f[store.FieldSymbols]++
		ts.Freqs[s] = f
	}
	ts.Lens[store.FieldBody] = uint16(len(body))
	ts.Lens[store.FieldSymbols] = uint16(len(symbols))
	return ts
}

// chunk is a chunk whose body is words; the first symbol, if any, is its
// name.
func chunk(start int, body string, symbols ...string) store.Chunk {
	words := strings.Fields(body)
	return store.Chunk{StartLine: start, EndLine: start + 2, Kind: "function", Symbols: symbols,
		Signature: "func " + strings.Join(symbols, ""), Breadcrumb: "pkg", DocComment: "doc " + body,
		Content: body, Stats: stats(words, symbols...)}
}

// file is one file to write with its chunks.
type file struct {
	path   string
	chunks []store.Chunk
}

// write runs one committed index run over collection with files.
func write(t *testing.T, db store.DB, collection, root string, files ...file) {
	t.Helper()
	tx := begin(t, db, collection, root)
	for _, f := range files {
		put(t, tx, f)
	}
	commit(t, tx)
}

func begin(t *testing.T, db store.DB, collection, root string) store.WriteTx {
	t.Helper()
	tx, err := db.Write(ctx, collection, root, store.WriteOptions{})
	if err != nil {
		t.Fatalf("Write(%s): %v", collection, err)
	}
	return tx
}

func put(t *testing.T, tx store.WriteTx, f file) {
	t.Helper()
	err := tx.PutFile(ctx, store.File{Path: f.path, Language: language(f.path), Size: int64(len(f.path)), Hash: "h-" + f.path,
		MTimeNS: 1000, Lines: 10}, f.chunks)
	if err != nil {
		t.Fatalf("PutFile(%s): %v", f.path, err)
	}
}

func commit(t *testing.T, tx store.WriteTx) {
	t.Helper()
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

func language(path string) string {
	if strings.HasSuffix(path, ".md") {
		return "markdown"
	}
	return "go"
}

func reader(t *testing.T, db store.DB, collection string) store.Reader {
	t.Helper()
	r, err := db.Reader(ctx, collection)
	if err != nil {
		t.Fatalf("Reader(%s): %v", collection, err)
	}
	return r
}

// postings reads the lists of terms as a search does.
func postings(t *testing.T, r store.Reader, terms ...string) map[string][]store.PostingAt {
	t.Helper()
	lens, err := r.DocLens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lists, err := r.Postings(ctx, terms, lens)
	if err != nil {
		t.Fatal(err)
	}
	if len(lists) != len(terms) {
		t.Fatalf("Postings returned %d lists for %d terms", len(lists), len(terms))
	}
	out := map[string][]store.PostingAt{}
	for i, term := range terms {
		out[term] = lists[i]
	}
	return out
}

// paths lists the reader's files.
func paths(t *testing.T, r store.Reader) []string {
	t.Helper()
	files, err := r.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func requireNoIndex(t *testing.T, err error, what string) {
	t.Helper()
	if errs.KindOf(err) != errs.NoIndex {
		t.Fatalf("%s: %v, want a NoIndex error", what, err)
	}
}

func testEmptyDatabase(t *testing.T, b Backend) {
	db := newDB(t, b)
	colls, err := db.Collections(ctx)
	if err != nil || len(colls) != 0 {
		t.Fatalf("Collections of a new database = %v, %v", colls, err)
	}
	_, err = db.Reader(ctx, store.DefaultCollection)
	requireNoIndex(t, err, "Reader of a new database")
	if db.Location() == "" {
		t.Error("Location is empty")
	}
}

func testWriteAndRead(t *testing.T, b Backend) {
	db := newDB(t, b)
	before := time.Now().Add(-time.Second)
	write(t, db, "web", "/repo/web",
		file{"router.go", []store.Chunk{chunk(1, "router handle request", "Router"), chunk(5, "handle route", "Handle")}},
		file{"README.md", []store.Chunk{chunk(1, "readme router")}},
	)
	r := reader(t, db, "web")
	c, err := r.Collection(ctx)
	if err != nil || c.Name != "web" || c.Root != "/repo/web" || c.IndexedAt.Before(before.Truncate(time.Second)) {
		t.Errorf("Collection = %+v, %v", c, err)
	}
	if g, err := r.Generation(ctx); err != nil || g == "" {
		t.Errorf("Generation = %q, %v", g, err)
	}
	if got := paths(t, r); !slices.Equal(got, []string{"README.md", "router.go"}) {
		t.Errorf("Files = %v, want sorted by path", got)
	}
	states, err := r.FileStates(ctx)
	if err != nil || len(states) != 2 || states["router.go"].Hash != "h-router.go" || states["router.go"].Size != int64(len("router.go")) ||
		states["router.go"].ID == 0 || states["router.go"].MTimeNS == 0 {
		t.Errorf("FileStates = %+v, %v; want what PutFile wrote, by path", states, err)
	}
	files, _ := r.Files(ctx)
	fileIDs := map[int64]string{}
	for _, f := range files {
		fileIDs[f.ID] = f.Path
		if f.Lines != 10 || f.Language != language(f.Path) {
			t.Errorf("file %+v lost its lines or language", f)
		}
	}

	lens, err := r.DocLens(ctx)
	if err != nil || lens.Len() != 3 || !slices.IsSorted(lens.IDs) {
		t.Fatalf("DocLens = %+v, %v", lens, err)
	}
	meta, err := r.ChunkMeta(ctx, lens)
	if err != nil || len(meta) != 3 {
		t.Fatalf("ChunkMeta = %+v, %v", meta, err)
	}
	bySymbol := map[string]store.ChunkMeta{}
	for i, m := range meta {
		if m.ID != lens.IDs[i] {
			t.Errorf("ChunkMeta[%d] is chunk %d, DocLens says %d", i, m.ID, lens.IDs[i])
		}
		bySymbol[m.Symbols] = m
	}
	if m := bySymbol["Handle"]; fileIDs[m.FileID] != "router.go" || m.StartLine != 5 || m.EndLine != 7 || m.Kind != "function" {
		t.Errorf("chunk Handle = %+v", m)
	}
	pos, _ := lens.Pos(bySymbol["Router"].ID)
	if got := lens.Lens[pos]; got[store.FieldBody] != 3 || got[store.FieldSymbols] != 1 {
		t.Errorf("lengths of Router = %v", got)
	}

	got := postings(t, r, "router", "handle", "absent", "Router")
	if len(got["router"]) != 2 || len(got["handle"]) != 2 || got["absent"] != nil || len(got["Router"]) != 1 {
		t.Fatalf("Postings = %+v", got)
	}
	if p := got["Router"][0]; p.Freqs[store.FieldSymbols] != 1 || int(p.Pos) != pos {
		t.Errorf("posting of Router = %+v, want position %d with one symbol", p, pos)
	}

	details, err := r.ChunkDetails(ctx, []int64{bySymbol["Handle"].ID, 999999})
	if err != nil || len(details) != 1 {
		t.Fatalf("ChunkDetails = %v, %v", details, err)
	}
	if d := details[bySymbol["Handle"].ID]; d.Content != "handle route" || d.Signature != "func Handle" || d.Breadcrumb != "pkg" || d.DocComment != "doc handle route" {
		t.Errorf("details of Handle = %+v", d)
	}
	var records []store.ChunkRecord
	if err := r.Chunks(ctx, func(c store.ChunkRecord) error { records = append(records, c); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(records) != 3 || records[0].Path != "README.md" || records[1].StartLine != 1 || records[2].StartLine != 5 {
		t.Fatalf("Chunks order = %+v", records)
	}
	if c := records[2]; c.Path != "router.go" || c.Language != "go" || c.EndLine != 7 || c.Kind != "function" ||
		!slices.Equal(c.Symbols, []string{"Handle"}) || c.Signature != "func Handle" || c.Breadcrumb != "pkg" ||
		c.DocComment != "doc handle route" || c.Content != "handle route" || c.ID != bySymbol["Handle"].ID {
		t.Errorf("Chunks record of Handle = %+v", c)
	}
	if c := records[0]; c.Symbols == nil || len(c.Symbols) != 0 {
		t.Errorf("a chunk without symbols has Symbols %#v, want empty", c.Symbols)
	}
	langs, err := r.LanguageCounts(ctx)
	want := []store.LanguageCount{{Language: "go", Files: 1, Chunks: 2}, {Language: "markdown", Files: 1, Chunks: 1}}
	if err != nil || !reflect.DeepEqual(langs, want) {
		t.Errorf("LanguageCounts = %+v, %v; want %+v", langs, err, want)
	}
	colls, err := db.Collections(ctx)
	if err != nil || len(colls) != 1 || colls[0].Name != "web" || colls[0].Root != "/repo/web" {
		t.Errorf("Collections = %+v, %v", colls, err)
	}
}

func testIncrementalRuns(t *testing.T, b Backend) {
	db := newDB(t, b)
	write(t, db, "c", "/r",
		file{"a.go", []store.Chunk{chunk(1, "alpha shared", "A")}},
		file{"b.go", []store.Chunk{chunk(1, "beta shared", "B")}},
	)
	r := reader(t, db, "c")
	gen1, _ := r.Generation(ctx)

	tx := begin(t, db, "c", "/r")
	states, err := tx.FileStates(ctx)
	if err != nil || len(states) != 2 || states["a.go"].Hash != "h-a.go" || states["a.go"].MTimeNS != 1000 {
		t.Fatalf("FileStates = %+v, %v", states, err)
	}
	if err := tx.DeleteFile(ctx, states["a.go"].ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.TouchFile(ctx, states["b.go"].ID, 2000); err != nil {
		t.Fatal(err)
	}
	put(t, tx, file{"c.go", []store.Chunk{chunk(1, "gamma shared", "C")}})
	if got := tx.ChangedChunks(); got != 2 {
		t.Errorf("ChangedChunks = %d, want 2 (one added, one removed)", got)
	}
	if files, chunks, err := tx.Counts(ctx); err != nil || files != 2 || chunks != 2 {
		t.Errorf("Counts = %d files, %d chunks, %v", files, chunks, err)
	}
	commit(t, tx)

	if gen2, _ := r.Generation(ctx); gen2 == gen1 {
		t.Error("a commit did not change the generation")
	}
	if got := paths(t, r); !slices.Equal(got, []string{"b.go", "c.go"}) {
		t.Errorf("Files after the run = %v", got)
	}
	got := postings(t, r, "alpha", "shared", "gamma", "A")
	if got["alpha"] != nil || got["A"] != nil || len(got["shared"]) != 2 || len(got["gamma"]) != 1 {
		t.Errorf("Postings after the run = %+v", got)
	}
	lens, _ := r.DocLens(ctx)
	meta, _ := r.ChunkMeta(ctx, lens)
	var names []string
	for _, m := range meta {
		names = append(names, m.Symbols)
	}
	if lens.Len() != 2 || !slices.Equal(names, []string{"B", "C"}) {
		t.Errorf("after the run: %d lengths, chunks %v", lens.Len(), names)
	}
	tx = begin(t, db, "c", "/r")
	defer tx.Rollback()
	states, _ = tx.FileStates(ctx)
	if states["b.go"].MTimeNS != 2000 {
		t.Errorf("TouchFile was lost: %+v", states["b.go"])
	}
}

func testRollback(t *testing.T, b Backend) {
	db := newDB(t, b)
	write(t, db, "c", "/r", file{"a.go", []store.Chunk{chunk(1, "alpha", "A")}})
	r := reader(t, db, "c")
	gen, _ := r.Generation(ctx)
	tx := begin(t, db, "c", "/r")
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	put(t, tx, file{"z.go", []store.Chunk{chunk(1, "zulu", "Z")}})
	if err := tx.SetMeta(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Errorf("a second Rollback: %v", err)
	}
	if got := paths(t, r); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("files after a rollback = %v", got)
	}
	if got := postings(t, r, "alpha", "zulu"); len(got["alpha"]) != 1 || got["zulu"] != nil {
		t.Errorf("postings after a rollback = %+v", got)
	}
	if g, _ := r.Generation(ctx); g != gen {
		t.Error("a rollback changed the generation")
	}
	if meta, _ := r.Meta(ctx); meta["k"] != "" {
		t.Error("a rollback kept metadata")
	}
}

func testReadersDuringWrite(t *testing.T, b Backend) {
	db := newDB(t, b)
	write(t, db, "c", "/r", file{"a.go", []store.Chunk{chunk(1, "alpha", "A")}})
	other := reopen(t, b, db)
	r := reader(t, other, "c")
	gen, _ := r.Generation(ctx)
	tx := begin(t, db, "c", "/r")
	put(t, tx, file{"b.go", []store.Chunk{chunk(1, "beta", "B")}})
	// While the run is open, readers see the last committed generation.
	if got := paths(t, r); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("a reader saw an uncommitted run: %v", got)
	}
	commit(t, tx)
	if g, _ := r.Generation(ctx); g == gen {
		t.Error("the reader does not see the new generation")
	}
	if got := paths(t, r); !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Errorf("after the commit the reader sees %v", got)
	}
}

func testForcedRebuild(t *testing.T, b Backend) {
	db := newDB(t, b)
	write(t, db, "c", "/r", file{"a.go", []store.Chunk{chunk(1, "alpha shared", "A")}})
	tx := begin(t, db, "c", "/r")
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	put(t, tx, file{"b.go", []store.Chunk{chunk(1, "beta shared", "B")}})
	commit(t, tx)
	r := reader(t, db, "c")
	if got := paths(t, r); !slices.Equal(got, []string{"b.go"}) {
		t.Errorf("files after a rebuild = %v", got)
	}
	got := postings(t, r, "alpha", "shared")
	if got["alpha"] != nil || len(got["shared"]) != 1 {
		t.Errorf("postings after a rebuild = %+v", got)
	}
	lens, _ := r.DocLens(ctx)
	if meta, _ := r.ChunkMeta(ctx, lens); lens.Len() != 1 || len(meta) != 1 || meta[0].Symbols != "B" {
		t.Errorf("after a rebuild: %d lengths, metadata %+v", lens.Len(), meta)
	}
}

// testChanges checks the change log: what a run changed, since the
// generation a reader holds, and no answer across a forced rebuild or
// from a generation the log does not know.
func testChanges(t *testing.T, b Backend) {
	db := newDB(t, b)
	write(t, db, "c", "/r",
		file{"a.go", []store.Chunk{chunk(1, "alpha shared", "A")}},
		file{"b.go", []store.Chunk{chunk(1, "beta shared", "B")}},
	)
	r := reader(t, db, "c")
	gen1, _ := r.Generation(ctx)
	before, _ := r.DocLens(ctx)
	tx := begin(t, db, "c", "/r")
	states, _ := tx.FileStates(ctx)
	if err := tx.DeleteFile(ctx, states["a.go"].ID); err != nil {
		t.Fatal(err)
	}
	put(t, tx, file{"c.go", []store.Chunk{chunk(1, "gamma shared", "C1"), chunk(5, "delta", "C2")}})
	commit(t, tx)
	gen2, _ := r.Generation(ctx)
	files, _ := r.Files(ctx)
	after, _ := r.DocLens(ctx)

	changes, ok, err := r.Changes(ctx, gen1)
	if err != nil || !ok || len(changes) != 1 {
		t.Fatalf("Changes(first generation) = %d changes, %v, %v; want 1", len(changes), ok, err)
	}
	c := changes[0]
	var cRow store.FileRow
	for _, f := range files {
		if f.Path == "c.go" {
			cRow = f
		}
	}
	if c.Generation != gen2 || !slices.Equal(c.RemovedFiles, []int64{states["a.go"].ID}) ||
		!reflect.DeepEqual(c.Files, []store.FileRow{cRow}) {
		t.Errorf("change = generation %s (want %s), removed files %v (want %d), files %+v (want %+v)",
			c.Generation, gen2, c.RemovedFiles, states["a.go"].ID, c.Files, cRow)
	}
	// The chunks: a.go's left, c.go's two came, above every earlier id.
	var gone []int64
	for _, id := range before.IDs {
		if _, live := after.Pos(id); !live {
			gone = append(gone, id)
		}
	}
	added := after.IDs[len(after.IDs)-2:]
	if !slices.Equal(c.RemovedChunks, gone) || len(gone) != 1 || c.Lens == nil || !slices.Equal(c.Lens.IDs, added) ||
		len(c.Meta) != 2 || c.Meta[0].Symbols != "C1" || c.Meta[1].Symbols != "C2" || c.Meta[1].StartLine != 5 {
		t.Errorf("change of chunks = removed %v (want %v), added %+v (want ids %v), meta %+v", c.RemovedChunks, gone, c.Lens, added, c.Meta)
	}
	if changes, ok, err := r.Changes(ctx, gen2); err != nil || !ok || len(changes) != 0 {
		t.Errorf("Changes(current generation) = %+v, %v, %v; want none, ok", changes, ok, err)
	}
	for _, since := range []string{"", "not-a-generation"} {
		if changes, ok, err := r.Changes(ctx, since); err != nil || ok {
			t.Errorf("Changes(%q) = %+v, %v, %v; want not ok", since, changes, ok, err)
		}
	}

	tx = begin(t, db, "c", "/r")
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	put(t, tx, file{"d.go", []store.Chunk{chunk(1, "epsilon", "D")}})
	commit(t, tx)
	gen3, _ := r.Generation(ctx)
	if changes, ok, err := r.Changes(ctx, gen2); err != nil || ok {
		t.Errorf("Changes across a forced rebuild = %+v, %v, %v; want not ok", changes, ok, err)
	}
	write(t, db, "c", "/r", file{"e.go", []store.Chunk{chunk(1, "zeta", "E")}})
	write(t, db, "c", "/r", file{"f.go", []store.Chunk{chunk(1, "eta", "F")}})
	changes, ok, err = r.Changes(ctx, gen3)
	if err != nil || !ok || len(changes) != 2 || len(changes[0].Files) != 1 || changes[0].Files[0].Path != "e.go" ||
		changes[1].Files[0].Path != "f.go" {
		t.Errorf("Changes after the rebuild = %+v, %v, %v; want e.go's run then f.go's", changes, ok, err)
	}
}

func testMeta(t *testing.T, b Backend) {
	db := newDB(t, b)
	tx := begin(t, db, "c", "/r")
	if meta, err := tx.Meta(ctx); err != nil || meta["a"] != "" {
		t.Fatalf("Meta of a new collection = %v, %v", meta, err)
	}
	for _, kv := range [][2]string{{"a", "1"}, {"b", "2"}, {"a", "3"}} {
		if err := tx.SetMeta(ctx, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	commit(t, tx)
	tx = begin(t, db, "c", "/r")
	meta, err := tx.Meta(ctx)
	if err != nil || meta["a"] != "3" || meta["b"] != "2" {
		t.Fatalf("Meta seen by the next run = %v, %v", meta, err)
	}
	if err := tx.DeleteMeta(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	meta, err = reader(t, db, "c").Meta(ctx)
	if err != nil || meta["a"] != "3" || meta["b"] != "" || meta[store.MetaGeneration] == "" {
		t.Errorf("Meta = %v, %v", meta, err)
	}
}

func testPackages(t *testing.T, b Backend) {
	db := newDB(t, b)
	pkgs := []packages.Package{
		{Name: "web", Path: "apps/web", Kind: packages.KindNPM, Version: "1.0.0", Description: "the site", Manifest: "apps/web/package.json",
			Metadata: map[string]any{"private": true, "bin": []any{"web"}, "workspace": ".", "n": 2.5},
			Dependencies: []packages.Dependency{
				{Name: "ui", VersionReq: "workspace:*", DepKind: packages.DepRuntime, IsInternal: true,
					Target: &packages.Ref{Kind: packages.KindNPM, Path: "packages/ui"}},
				{Name: "react", VersionReq: "^18", DepKind: packages.DepPeer},
			}},
		{Name: "ui", Path: "packages/ui", Kind: packages.KindNPM, Manifest: "packages/ui/package.json"},
		{Name: "api", Path: ".", Kind: packages.KindGo, Manifest: "go.mod", Dependencies: []packages.Dependency{{Name: "x", DepKind: packages.DepRuntime}}},
	}
	tx := begin(t, db, "c", "/r")
	if err := tx.SavePackages(ctx, pkgs); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	got, err := reader(t, db, "c").Packages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []packages.Package{pkgs[2], pkgs[1], pkgs[0]} // by name
	want[1].Metadata = map[string]any{}
	want[1].Dependencies = []packages.Dependency{}
	want[0].Metadata = map[string]any{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Packages =\n%+v\nwant\n%+v", got, want)
	}
	// A later run replaces them whole.
	tx = begin(t, db, "c", "/r")
	if err := tx.SavePackages(ctx, pkgs[1:2]); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	if got, _ := reader(t, db, "c").Packages(ctx); len(got) != 1 || got[0].Name != "ui" {
		t.Errorf("Packages after a second run = %+v", got)
	}
}

func testSpecs(t *testing.T, b Backend) {
	db := newDB(t, b)
	all := []specs.Spec{
		{ID: "auth", Title: "Auth", Purpose: "log in", Kind: specs.KindOpenSpec, Path: "openspec/specs/auth/spec.md",
			Requirements: []specs.Requirement{
				{Name: "Password Login", Description: "with a password", Line: 9, Scenarios: []specs.Scenario{
					{Name: "Good", Given: []string{}, When: []string{"the password is right"}, Then: []string{"a session opens", "it lasts"}, Line: 12},
					{Name: "Bad", Given: []string{"a user"}, When: []string{"wrong"}, Then: []string{"refused"}, Line: 18},
				}},
				{Name: "Logout", Description: "", Line: 25, Scenarios: []specs.Scenario{}},
			}},
		{ID: "add-2fa/auth", Title: "", Kind: specs.KindOpenSpecChange, Path: "openspec/changes/add-2fa/specs/auth/spec.md", Change: "add-2fa",
			Requirements: []specs.Requirement{{Name: "TOTP", Delta: specs.DeltaAdded, Line: 3, Scenarios: []specs.Scenario{}}},
			Warnings:     []string{"line 1: no title"}},
		{ID: "empty", Title: "Empty", Kind: specs.KindSpecKit, Path: "specs/empty/spec.md", Requirements: []specs.Requirement{}},
		{ID: "new", Kind: specs.KindSpecKit, Path: "specs/new/spec.md", Template: true, Requirements: []specs.Requirement{},
			Warnings: []string{"unfilled spec-kit template"}},
	}
	tx := begin(t, db, "c", "/r")
	if err := tx.SaveSpecs(ctx, all); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	got, err := reader(t, db, "c").Specs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []specs.Spec{all[1], all[0], all[2], all[3]} // by ID
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Specs =\n%+v\nwant\n%+v", got, want)
	}
}

// testParsedFiles: parsed files are kept per kind and collection, replaced
// whole, and cleared by a forced rebuild.
func testParsedFiles(t *testing.T, b Backend) {
	db := newDB(t, b)
	manifests := []store.ParsedFile{
		{Kind: store.ParsedManifest, Path: "go.mod", Size: 10, MTimeNS: 1, Hash: "h1", Data: []byte(`{"a":1}`)},
		{Kind: store.ParsedManifest, Path: "web/package.json", Size: 20, MTimeNS: 2, Hash: "h2", Data: []byte{}},
	}
	spec := []store.ParsedFile{{Kind: store.ParsedSpec, Path: "openspec/specs/a/spec.md", Size: 3, MTimeNS: 4, Hash: "h3", Data: []byte("x")}}
	tx := begin(t, db, "c", "/r")
	if got, err := tx.ParsedFiles(ctx, store.ParsedManifest); err != nil || len(got) != 0 {
		t.Fatalf("ParsedFiles of a new collection = %v, %v", got, err)
	}
	if err := tx.SaveParsedFiles(ctx, store.ParsedManifest, manifests); err != nil {
		t.Fatal(err)
	}
	if err := tx.SaveParsedFiles(ctx, store.ParsedSpec, spec); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	other := begin(t, db, "other", "/o")
	if got, err := other.ParsedFiles(ctx, store.ParsedManifest); err != nil || len(got) != 0 {
		t.Errorf("another collection sees %v, %v", got, err)
	}
	commit(t, other)

	tx = begin(t, db, "c", "/r")
	got, err := tx.ParsedFiles(ctx, store.ParsedManifest)
	want := map[string]store.ParsedFile{"go.mod": manifests[0], "web/package.json": manifests[1]}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParsedFiles =\n%+v\nwant\n%+v (%v)", got, want, err)
	}
	if err := tx.SaveParsedFiles(ctx, store.ParsedManifest, manifests[:1]); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	tx = begin(t, db, "c", "/r")
	if got, _ := tx.ParsedFiles(ctx, store.ParsedManifest); len(got) != 1 {
		t.Errorf("after replacing: %v", got)
	}
	if got, _ := tx.ParsedFiles(ctx, store.ParsedSpec); len(got) != 1 {
		t.Errorf("replacing manifests touched specs: %v", got)
	}
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	tx = begin(t, db, "c", "/r")
	defer tx.Rollback()
	for _, kind := range []string{store.ParsedManifest, store.ParsedSpec} {
		if got, _ := tx.ParsedFiles(ctx, kind); len(got) != 0 {
			t.Errorf("%s files after a forced rebuild: %v", kind, got)
		}
	}
}

func testVectors(t *testing.T, b Backend) {
	db := newDB(t, b)
	tx := begin(t, db, "c", "/r")
	put(t, tx, file{"a.go", []store.Chunk{chunk(1, "alpha beta beta", "A"), chunk(5, "gamma", "G")}})
	added := tx.AddedChunks()
	if len(added) != 2 || !slices.IsSorted(added) {
		t.Fatalf("AddedChunks = %v", added)
	}
	all, err := tx.AllChunkIDs(ctx)
	if err != nil || !slices.Equal(all, added) {
		t.Fatalf("AllChunkIDs = %v, %v; want %v", all, err, added)
	}
	freqs, err := tx.ChunkTermFreqs(ctx, nil)
	if err != nil || freqs[added[0]]["beta"] != 2 || freqs[added[0]]["A"] != 1 || freqs[added[1]]["gamma"] != 1 {
		t.Fatalf("ChunkTermFreqs = %v, %v", freqs, err)
	}
	if only, _ := tx.ChunkTermFreqs(ctx, map[int64]bool{added[1]: true}); len(only) != 1 {
		t.Errorf("ChunkTermFreqs(only one) = %v", only)
	}
	texts, err := tx.ChunkTexts(ctx, added)
	if err != nil || texts[added[1]] != "a.go\ngamma" {
		t.Fatalf("ChunkTexts = %v, %v", texts, err)
	}
	vec := func(term string) []float32 {
		if term == "alpha" {
			return []float32{1, 0}
		}
		return []float32{0, 1}
	}
	if err := tx.ReplaceTermVectors(ctx, []string{"alpha", "gamma"}, vec, func(string) float32 { return 2 }); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutChunkVectors(ctx, map[int64][]float32{added[0]: {1, 0}, added[1]: {0.6, 0.8}}); err != nil {
		t.Fatal(err)
	}
	vecs, idfs, err := tx.TermVectors(ctx)
	if err != nil || len(vecs) != 2 || idfs["gamma"] != 2 || vecs["alpha"][0] < 0.9 {
		t.Fatalf("TermVectors in the run = %v, %v, %v", vecs, idfs, err)
	}
	commit(t, tx)
	r := reader(t, db, "c")
	rv, ridf, err := r.TermVectors(ctx, []string{"alpha", "absent"})
	if err != nil || len(rv) != 1 || ridf["alpha"] != 2 || rv["alpha"].Float32()[0] < 0.9 {
		t.Errorf("TermVectors = %v, %v, %v", rv, ridf, err)
	}
	cv, err := r.ChunkVectors(ctx)
	if err != nil || len(cv) != 2 || cv[added[1]].Float32()[1] < 0.7 {
		t.Errorf("ChunkVectors = %v, %v", cv, err)
	}
	tx = begin(t, db, "c", "/r")
	if err := tx.ClearChunkVectors(ctx); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	if cv, err := r.ChunkVectors(ctx); err != nil || len(cv) != 0 {
		t.Errorf("ChunkVectors after clearing = %v, %v", cv, err)
	}
}

func testCollectionsIndependent(t *testing.T, b Backend) {
	db := newDB(t, b)
	write(t, db, "one", "/r/one", file{"a.go", []store.Chunk{chunk(1, "alpha shared", "A")}})
	tx := begin(t, db, "two", "/r/two")
	put(t, tx, file{"a.go", []store.Chunk{chunk(1, "beta shared", "B")}})
	put(t, tx, file{"b.go", []store.Chunk{chunk(1, "beta", "B2")}})
	if err := tx.SetMeta(ctx, "only", "two"); err != nil {
		t.Fatal(err)
	}
	if err := tx.SavePackages(ctx, []packages.Package{{Name: "two", Path: ".", Kind: packages.KindGo, Manifest: "go.mod"}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.SaveSpecs(ctx, []specs.Spec{{ID: "s", Kind: specs.KindOpenSpec, Path: "s.md", Requirements: []specs.Requirement{}}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.ReplaceTermVectors(ctx, []string{"beta"}, func(string) []float32 { return []float32{1} }, func(string) float32 { return 1 }); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)

	one, two := reader(t, db, "one"), reader(t, db, "two")
	if got := paths(t, one); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("collection one holds %v", got)
	}
	if got := paths(t, two); !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Errorf("collection two holds %v", got)
	}
	p1, p2 := postings(t, one, "alpha", "beta", "shared"), postings(t, two, "alpha", "beta", "shared")
	if len(p1["alpha"]) != 1 || p1["beta"] != nil || len(p1["shared"]) != 1 {
		t.Errorf("postings of one = %+v", p1)
	}
	if p2["alpha"] != nil || len(p2["beta"]) != 2 || len(p2["shared"]) != 1 {
		t.Errorf("postings of two = %+v", p2)
	}
	if l1, _ := one.DocLens(ctx); l1.Len() != 1 {
		t.Errorf("one has %d chunk lengths", l1.Len())
	}
	m1, _ := one.Meta(ctx)
	m2, _ := two.Meta(ctx)
	if m1["only"] != "" || m2["only"] != "two" {
		t.Errorf("metadata leaks between collections: %v / %v", m1, m2)
	}
	if pk, _ := one.Packages(ctx); len(pk) != 0 {
		t.Errorf("one has packages %v", pk)
	}
	if sp, _ := one.Specs(ctx); len(sp) != 0 {
		t.Errorf("one has specs %v", sp)
	}
	if tv, _, _ := one.TermVectors(ctx, []string{"beta"}); len(tv) != 0 {
		t.Errorf("one has term vectors %v", tv)
	}
	if langs, _ := one.LanguageCounts(ctx); len(langs) != 1 || langs[0].Files != 1 {
		t.Errorf("language counts of one = %+v", langs)
	}
	// A run over one collection leaves the other as it was.
	gen2, _ := two.Generation(ctx)
	tx = begin(t, db, "one", "/r/one")
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	if g, _ := two.Generation(ctx); g != gen2 {
		t.Error("a run over one changed two's generation")
	}
	if got := postings(t, two, "shared"); len(got["shared"]) != 1 {
		t.Errorf("a rebuild of one changed two's postings: %+v", got)
	}
	colls, err := db.Collections(ctx)
	if err != nil || len(colls) != 2 || colls[0].Name != "one" || colls[1].Name != "two" || colls[1].Root != "/r/two" {
		t.Errorf("Collections = %+v, %v", colls, err)
	}
}

func testRemoveCollection(t *testing.T, b Backend) {
	db := newDB(t, b)
	write(t, db, "one", "/r/one", file{"a.go", []store.Chunk{chunk(1, "alpha", "A")}})
	write(t, db, "two", "/r/two", file{"a.go", []store.Chunk{chunk(1, "alpha", "A")}})
	if err := db.RemoveCollection(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	_, err := db.Reader(ctx, "one")
	requireNoIndex(t, err, "Reader of a removed collection")
	if got := postings(t, reader(t, db, "two"), "alpha"); len(got["alpha"]) != 1 {
		t.Errorf("removing one changed two: %+v", got)
	}
	if err := db.RemoveCollection(ctx, "one"); errs.KindOf(err) != errs.NotFound {
		t.Errorf("removing a missing collection: %v, want NotFound", err)
	}
	// The name can be used again, from scratch.
	write(t, db, "one", "/r/again", file{"b.go", []store.Chunk{chunk(1, "beta", "B")}})
	if got := paths(t, reader(t, db, "one")); !slices.Equal(got, []string{"b.go"}) {
		t.Errorf("a recreated collection holds %v", got)
	}
}

func testManyValues(t *testing.T, b Backend) {
	db := newDB(t, b)
	tx := begin(t, db, "c", "/r")
	put(t, tx, file{"a.go", []store.Chunk{chunk(1, "router handle", "R")}})
	if err := tx.ReplaceTermVectors(ctx, []string{"router", "handle"},
		func(string) []float32 { return []float32{1, 0} }, func(string) float32 { return 1 }); err != nil {
		t.Fatal(err)
	}
	commit(t, tx)
	r := reader(t, db, "c")
	lens, _ := r.DocLens(ctx)
	id := lens.IDs[0]
	const n = 40000
	terms := make([]string, n)
	ids := make([]int64, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("absent%d", i)
		ids[i] = id + 1 + int64(i)
	}
	terms[0], terms[n/2], terms[n-1] = "router", "handle", "router"
	ids[n-1] = id
	lists, err := r.Postings(ctx, terms, lens)
	found := 0
	for _, l := range lists {
		found += len(l)
	}
	// A repeated term fills one of its slots; absent terms none.
	if err != nil || len(lists[n/2]) != 1 || found != 2 {
		t.Errorf("Postings of %d terms: %d found, %v", n, found, err)
	}
	if vecs, _, err := r.TermVectors(ctx, terms); err != nil || len(vecs) != 2 {
		t.Errorf("TermVectors of %d terms: %d, %v", n, len(vecs), err)
	}
	if details, err := r.ChunkDetails(ctx, ids); err != nil || details[id].Content != "router handle" {
		t.Errorf("ChunkDetails of %d ids: %v", n, err)
	}
}

func testOneWriter(t *testing.T, b Backend) {
	db := newDB(t, b)
	tx := begin(t, db, "c", "/r")
	_, err := db.Write(ctx, "c", "/r", store.WriteOptions{NoWait: true})
	if e, ok := errs.As(err); !ok || e.Kind != errs.Busy || e.Code != errs.CodeIndexBusy {
		t.Fatalf("a second writer with NoWait: %v, want INDEX_BUSY", err)
	}
	commit(t, tx)
	tx, err = db.Write(ctx, "c", "/r", store.WriteOptions{NoWait: true})
	if err != nil {
		t.Fatalf("a writer after the first committed: %v", err)
	}
	tx.Rollback()
	// A waiting writer waits until the first is done, and can be cancelled.
	tx = begin(t, db, "c", "/r")
	waiting := make(chan struct{})
	cancelCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := db.Write(cancelCtx, "c", "/r", store.WriteOptions{OnWait: func(int) { close(waiting) }})
		done <- err
	}()
	<-waiting
	cancel()
	if err := <-done; errs.KindOf(err) != errs.Cancelled {
		t.Errorf("a cancelled wait: %v, want Cancelled", err)
	}
	tx.Rollback()
}

// fileSymbols is what a file named name defines and refers to: a function
// name calling callee, with a Go method and interface.
func fileSymbols(name, callee string) symbols.File {
	return symbols.File{
		Definitions: []symbols.Definition{
			{Name: name, Kind: symbols.KindFunction, Parent: -1, Signature: "func " + name + "()", StartLine: 3, EndLine: 9, NameLine: 3},
			{Name: "Run", Kind: symbols.KindMethod, Container: "T", Parent: -1, Signature: "func (t *T) Run(x int)", StartLine: 11, EndLine: 12, NameLine: 11},
		},
		References: []symbols.Reference{
			{Name: "fmt", Kind: symbols.RefImport, Target: "fmt", Line: 1, Enclosing: -1},
			{Name: callee, Kind: symbols.RefCall, Qualifier: "pkg", Line: 4, Enclosing: 0},
		},
		GoMethods:    []symbols.GoMethod{{Receiver: "T", Pointer: true, Name: "Run", Arity: 1, Line: 11}},
		GoInterfaces: []symbols.GoInterface{{Name: "Runner", Methods: []symbols.GoMethodSpec{{Name: "Run", Arity: 1}}, Embeds: []string{"io.Closer"}, Line: 14}},
		GoTypes:      []symbols.GoType{{Name: "T", Embeds: []symbols.GoEmbed{{Name: "Base", Pointer: true}}, Line: 10}},
	}
}

// putSymbols writes a file with one chunk and the given symbols.
func putSymbols(t *testing.T, tx store.WriteTx, path string, syms symbols.File) {
	t.Helper()
	err := tx.PutFile(ctx, store.File{Path: path, Language: language(path), Size: 10, Hash: "h-" + path, MTimeNS: 1000,
		Lines: 12, Symbols: syms}, []store.Chunk{chunk(1, "body of "+path, path)})
	if err != nil {
		t.Fatalf("PutFile(%s): %v", path, err)
	}
}

// readSymbols reads a collection's symbols by path.
func readSymbols(t *testing.T, r store.Reader) ([]string, map[string]store.FileSymbols) {
	t.Helper()
	var order []string
	all := map[string]store.FileSymbols{}
	if err := r.Symbols(ctx, func(fs store.FileSymbols) error {
		order = append(order, fs.Path)
		all[fs.Path] = fs
		return nil
	}); err != nil {
		t.Fatalf("Symbols: %v", err)
	}
	return order, all
}

// testSymbols: a file's symbols come back as written, with the file's id
// and language, in path order; files without symbols are not listed, and
// collections do not see each other's.
func testSymbols(t *testing.T, b Backend) {
	db := newDB(t, b)
	tx := begin(t, db, "c", "/r")
	putSymbols(t, tx, "b.go", fileSymbols("Beta", "alpha"))
	putSymbols(t, tx, "a.go", fileSymbols("Alpha", "beta"))
	putSymbols(t, tx, "README.md", symbols.File{})
	commit(t, tx)
	tx = begin(t, db, "other", "/o")
	putSymbols(t, tx, "a.go", fileSymbols("Other", "x"))
	commit(t, tx)

	r := reader(t, db, "c")
	order, got := readSymbols(t, r)
	if !slices.Equal(order, []string{"a.go", "b.go"}) {
		t.Fatalf("Symbols listed %v, want a.go and b.go (the Markdown file has none)", order)
	}
	files, _ := r.Files(ctx)
	for _, f := range files {
		if fs, ok := got[f.Path]; ok && (fs.FileID != f.ID || fs.Language != f.Language) {
			t.Errorf("%s: file id %d, language %q; Files says %d, %q", f.Path, fs.FileID, fs.Language, f.ID, f.Language)
		}
	}
	if want := fileSymbols("Alpha", "beta"); !reflect.DeepEqual(got["a.go"].Symbols, want) {
		t.Errorf("a.go's symbols\n got: %+v\nwant: %+v", got["a.go"].Symbols, want)
	}
	if _, other := readSymbols(t, reader(t, db, "other")); len(other) != 1 || other["a.go"].Symbols.Definitions[0].Name != "Other" {
		t.Errorf("the other collection's symbols: %+v", other)
	}
	stop := fmt.Errorf("stop")
	calls := 0
	if err := r.Symbols(ctx, func(store.FileSymbols) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("an error from fn: %v after %d calls, want it returned after 1", err, calls)
	}
	if err := db.RemoveCollection(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	if order, _ := readSymbols(t, r); len(order) != 2 {
		t.Errorf("removing another collection changed this one's symbols: %v", order)
	}
}

// testSymbolsIncremental: a changed file's symbols are replaced, a deleted
// file's removed, in the run's commit and not before; a rolled-back run
// and a forced rebuild leave what they should.
func testSymbolsIncremental(t *testing.T, b Backend) {
	db := newDB(t, b)
	tx := begin(t, db, "c", "/r")
	putSymbols(t, tx, "a.go", fileSymbols("Alpha", "x"))
	putSymbols(t, tx, "b.go", fileSymbols("Beta", "x"))
	commit(t, tx)
	r := reader(t, reopen(t, b, db), "c")

	tx = begin(t, db, "c", "/r")
	states, _ := tx.FileStates(ctx)
	if err := tx.DeleteFile(ctx, states["a.go"].ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.DeleteFile(ctx, states["b.go"].ID); err != nil {
		t.Fatal(err)
	}
	putSymbols(t, tx, "b.go", fileSymbols("BetaTwo", "y"))
	putSymbols(t, tx, "c.go", fileSymbols("Gamma", "z"))
	if order, got := readSymbols(t, r); !slices.Equal(order, []string{"a.go", "b.go"}) || got["b.go"].Symbols.Definitions[0].Name != "Beta" {
		t.Errorf("a reader saw an uncommitted run's symbols: %v", order)
	}
	commit(t, tx)
	order, got := readSymbols(t, r)
	if !slices.Equal(order, []string{"b.go", "c.go"}) || got["b.go"].Symbols.Definitions[0].Name != "BetaTwo" ||
		got["b.go"].Symbols.References[1].Name != "y" {
		t.Errorf("after the run: %v, b.go %+v", order, got["b.go"].Symbols.Definitions)
	}

	tx = begin(t, db, "c", "/r")
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	putSymbols(t, tx, "z.go", fileSymbols("Zulu", "z"))
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if order, _ := readSymbols(t, r); !slices.Equal(order, []string{"b.go", "c.go"}) {
		t.Errorf("after a rollback: %v", order)
	}

	tx = begin(t, db, "c", "/r")
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	putSymbols(t, tx, "z.go", fileSymbols("Zulu", "z"))
	commit(t, tx)
	if order, _ := readSymbols(t, r); !slices.Equal(order, []string{"z.go"}) {
		t.Errorf("after a forced rebuild: %v", order)
	}
}
