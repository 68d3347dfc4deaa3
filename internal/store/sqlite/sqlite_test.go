package sqlite

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/storetest"
	"github.com/lore-dev/lore/internal/symbols"
)

var ctx = context.Background()

// TestConformance runs the store suite against SQLite files.
func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		New: func(t *testing.T) store.DB {
			db, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"))
			if err != nil {
				t.Fatal(err)
			}
			return db
		},
		Reopen: func(t *testing.T, db store.DB) store.DB {
			r, err := OpenReadOnly(ctx, db.Location())
			if err != nil {
				t.Fatal(err)
			}
			return r
		},
	})
}

// written makes an index file with one committed run over collection c.
func written(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sub", "index.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tx, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stats := store.TermStats{Freqs: map[string][store.NumFields]uint16{"router": {store.FieldBody: 1}}, Lens: [store.NumFields]uint16{store.FieldBody: 1}}
	if err := tx.PutFile(ctx, store.File{Path: "a.go", Language: "go", Hash: "h"}, []store.Chunk{{StartLine: 1, EndLine: 1, Kind: "block", Content: "router", Stats: stats}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	return db, path
}

func TestReadOnly(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	if _, err := OpenReadOnly(ctx, missing); errs.KindOf(err) != errs.NoIndex {
		t.Fatalf("read-only open of a missing index: %v, want NoIndex", err)
	}
	_, path := written(t)
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.db.Exec(`INSERT INTO meta(key, value) VALUES('x', 'y')`); err == nil {
		t.Error("a read-only connection accepted a write")
	}
	if _, err := ro.Write(ctx, "c", "/r", store.WriteOptions{}); err == nil {
		t.Error("a read-only database started a run")
	}
}

// TestUnbuiltFile: a file whose first run never committed holds no index.
func TestUnbuiltFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	db.Close()
	if _, err := OpenReadOnly(ctx, path); errs.KindOf(err) != errs.NoIndex {
		t.Errorf("a first build rolled back: %v, want NoIndex", err)
	}
	// A file with a committed collection and one whose run rolled back.
	w, path := written(t)
	tx, err = w.Write(ctx, "other", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Reader(ctx, "other"); errs.KindOf(err) != errs.NoIndex {
		t.Errorf("Reader of a never-committed collection: %v, want NoIndex", err)
	}
	empty := filepath.Join(t.TempDir(), "empty.db")
	os.WriteFile(empty, nil, 0o644)
	if _, err := OpenReadOnly(ctx, empty); errs.KindOf(err) != errs.NoIndex {
		t.Errorf("an empty file: %v, want NoIndex", err)
	}
}

// TestWALTruncatedAfterCommit: each run leaves the write-ahead log empty,
// even while a reader keeps the file open (lore serve).
func TestWALTruncatedAfterCommit(t *testing.T) {
	db, path := written(t)
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Reader(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.SetMeta(ctx, "k", string(make([]byte, 100000))); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path + "-wal"); err == nil && info.Size() != 0 {
		t.Errorf("the write-ahead log holds %d bytes after a run", info.Size())
	}
}

// oldIndex writes the gzipped index testdata/name.gz to a temporary file
// and returns its path.
func oldIndex(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	gz, err := os.Open(filepath.Join("testdata", name+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMigrateFromVersion5 opens an index written by lore with schema 5
// (one global collection, FTS5 tables): the first run migrates it in
// place and keeps its files and posting lists; the step to version 7 marks
// it to be rebuilt, for its symbols.
func TestMigrateFromVersion5(t *testing.T) {
	path := oldIndex(t, "v5.db")

	if _, err := OpenReadOnly(ctx, path); errs.KindOf(err) != errs.NoIndex {
		t.Fatalf("reading a version 5 index: %v, want INDEX_OUTDATED", err)
	} else if e, _ := errs.As(err); e.Code != errs.CodeIndexOutdated {
		t.Fatalf("reading a version 5 index: code %s, want INDEX_OUTDATED", e.Code)
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Write(ctx, store.DefaultCollection, "/tmp/v5repo", store.WriteOptions{})
	if err != nil {
		t.Fatalf("migrating: %v", err)
	}
	states, err := tx.FileStates(ctx)
	if err != nil || len(states) != 4 {
		t.Fatalf("files kept by the migration: %v, %v", states, err)
	}
	meta, err := tx.Meta(ctx)
	if err != nil || meta[store.MetaSchemaVersion] != strconv.Itoa(SchemaVersion) || meta[store.MetaFileCount] != "4" ||
		meta[store.MetaAnalyzerVersion] == "" || meta[store.MetaRebuildRequired] != "1" {
		t.Fatalf("metadata after the migration: %v, %v", meta, err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	lens, err := r.DocLens(ctx)
	if err != nil || lens.Len() != 5 {
		t.Fatalf("chunk lengths kept: %v, %v", lens, err)
	}
	chunks, err := r.ChunkMeta(ctx, lens)
	if err != nil || len(chunks) != 5 {
		t.Fatalf("chunk metadata kept: %v, %v", chunks, err)
	}
	lists, err := r.Postings(ctx, []string{"rout", "handl"}, lens)
	if err != nil || len(lists[0]) == 0 || len(lists[1]) == 0 {
		t.Fatalf("posting lists kept: %v, %v", lists, err)
	}
	for _, table := range []string{"chunks_fts", "packages_fts", "spec_fts"} {
		var n int
		db.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = ?`, table).Scan(&n)
		if n != 0 {
			t.Errorf("%s survived the migration", table)
		}
	}
}

// TestMigrateFromVersion6 opens an index written by lore with schema 6
// (no symbols): a reader is told to re-run lore index; the first run adds
// the symbols table in place, keeps the files, and is told to rebuild
// (store.MetaRebuildRequired) so that every file's symbols get extracted.
func TestMigrateFromVersion6(t *testing.T) {
	path := oldIndex(t, "v6.db")
	if _, err := OpenReadOnly(ctx, path); errs.KindOf(err) != errs.NoIndex {
		t.Fatalf("reading a version 6 index: %v, want INDEX_OUTDATED", err)
	} else if e, _ := errs.As(err); e.Code != errs.CodeIndexOutdated {
		t.Fatalf("reading a version 6 index: code %s, want INDEX_OUTDATED", e.Code)
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Write(ctx, store.DefaultCollection, "/tmp/h11/v6repo", store.WriteOptions{})
	if err != nil {
		t.Fatalf("migrating: %v", err)
	}
	states, err := tx.FileStates(ctx)
	if err != nil || len(states) != 3 {
		t.Fatalf("files kept by the migration: %v, %v", states, err)
	}
	meta, err := tx.Meta(ctx)
	if err != nil || meta[store.MetaSchemaVersion] != strconv.Itoa(SchemaVersion) || meta[store.MetaRebuildRequired] != "1" ||
		meta[store.MetaFileCount] != "3" {
		t.Fatalf("metadata after the migration: %v, %v", meta, err)
	}
	// The run that rebuilds writes symbols into the new table.
	if err := tx.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	syms := symbols.File{Definitions: []symbols.Definition{{Name: "Authenticate", Kind: symbols.KindFunction, Parent: -1, StartLine: 4, EndLine: 4, NameLine: 4}}}
	if err := tx.PutFile(ctx, store.File{Path: "auth/login.go", Language: "go", Hash: "h", Symbols: syms},
		[]store.Chunk{{StartLine: 1, EndLine: 12, Kind: "function", Content: "package auth"}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("reading the migrated index: %v", err)
	}
	defer ro.Close()
	r, err := ro.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := r.Symbols(ctx, func(fs store.FileSymbols) error {
		got = append(got, fs.Path+":"+fs.Symbols.Definitions[0].Name)
		return nil
	}); err != nil || !slices.Equal(got, []string{"auth/login.go:Authenticate"}) {
		t.Errorf("symbols after the migration: %v, %v", got, err)
	}
}

// TestOlderSchemasAreRecreated: an index older than version 5 is a cache
// too old to migrate; the next run starts it afresh.
func TestOlderSchemasAreRecreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{
		`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`INSERT INTO meta VALUES ('schema_version', '3')`,
		`CREATE TABLE collections (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, root TEXT NOT NULL, created_at TEXT NOT NULL, indexed_at TEXT)`,
		`CREATE TABLE postings (term TEXT PRIMARY KEY, df INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID`,
		`CREATE VIRTUAL TABLE chunks_fts USING fts5(body)`,
	} {
		if _, err := db.db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatalf("recreating: %v", err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	if v, _ := schemaVersion(ctx, db.db); v != SchemaVersion {
		t.Errorf("schema version %d, want %d", v, SchemaVersion)
	}
}

// TestChunkMetaFallsBackToTheTable: an index whose metadata blob is
// missing is read from the chunks table, and the next run writes the blob.
func TestChunkMetaFallsBackToTheTable(t *testing.T) {
	db, _ := written(t)
	if _, err := db.db.Exec(`DELETE FROM blobs WHERE name = 'chunkmeta'`); err != nil {
		t.Fatal(err)
	}
	r, err := db.Reader(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	lens, _ := r.DocLens(ctx)
	meta, err := r.ChunkMeta(ctx, lens)
	if err != nil || len(meta) != 1 || meta[0].Kind != "block" {
		t.Fatalf("metadata without the blob: %+v, %v", meta, err)
	}
	tx, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	var n int
	db.db.QueryRow(`SELECT count(*) FROM blobs WHERE name = 'chunkmeta'`).Scan(&n)
	if n != 1 {
		t.Error("a run without changes did not write the missing blob")
	}
}

// TestReadVersion7: an index of the previous schema (symbols, no n-gram
// index) stays readable, its n-gram index empty; the first run adds the
// table in place and keeps the files.
func TestReadVersion7(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v7.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Write(ctx, store.DefaultCollection, "/repo", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.PutFile(ctx, store.File{Path: "a.go", Language: "go", Hash: "h"},
		[]store.Chunk{{StartLine: 1, EndLine: 1, Kind: "function", Content: "package a"}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	// Back to version 7: no n-gram index (version 8), no dependency
	// targets, template marks or parsed files (version 9), no segments
	// (version 10) and no change log (version 11).
	for _, stmt := range []string{`DROP TABLE file_grams`, `ALTER TABLE package_deps DROP COLUMN target_kind`,
		`ALTER TABLE package_deps DROP COLUMN target_path`, `ALTER TABLE specs DROP COLUMN template`, `DROP TABLE parsed_files`,
		`DROP TABLE segment_postings`, `DROP TABLE segments`, `DROP TABLE index_state`, `DROP TABLE change_log`, `DELETE FROM meta WHERE key = 'chunk_seq'`,
		`UPDATE meta SET value = '7' WHERE key = 'schema_version'`} {
		if _, err := db.db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("reading a version 7 index: %v", err)
	}
	r, err := ro.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	states, err := r.GramStates(ctx)
	if err != nil || len(states) != 0 {
		t.Errorf("n-gram index of a version 7 index: %v, %v; want empty", states, err)
	}
	if pkgs, err := r.Packages(ctx); err != nil || len(pkgs) != 0 {
		t.Errorf("packages of a version 7 index: %v, %v; want none", pkgs, err)
	}
	if found, err := r.Specs(ctx); err != nil || len(found) != 0 {
		t.Errorf("specs of a version 7 index: %v, %v; want none", found, err)
	}
	if err := r.Grams(ctx, func(store.GramFile) error { return errors.New("a file in a table that does not exist") }); err != nil {
		t.Error(err)
	}
	gen, _ := r.Generation(ctx)
	if changes, ok, err := r.Changes(ctx, gen); err != nil || ok {
		t.Errorf("changes of an index without a change log: %v, %v, %v; want not ok", changes, ok, err)
	}
	ro.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err = db.Write(ctx, store.DefaultCollection, "/repo", store.WriteOptions{})
	if err != nil {
		t.Fatalf("migrating: %v", err)
	}
	defer tx.Rollback()
	if files, err := tx.FileStates(ctx); err != nil || len(files) != 1 {
		t.Fatalf("files kept by the migration: %v, %v", files, err)
	}
	if err := tx.PutGrams(ctx, store.GramFile{Path: "a.go", Size: 9, Grams: []byte{1}}); err != nil {
		t.Errorf("writing the n-gram index after the migration: %v", err)
	}
}

// TestMigrateFactTargets opens an index written by lore with schema 6 that
// holds packages and specs (testdata/v6-facts.db.gz: a small npm workspace
// with OpenSpec specs) and brings it through every step to the current
// schema: the packages and specs stay readable, the facts of schema 9
// (dependency targets, parsed files) start empty, and no record says how
// the packages and specs were made, so the next run reads them again.
func TestMigrateFactTargets(t *testing.T) {
	path := oldIndex(t, "v6-facts.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Write(ctx, store.DefaultCollection, "/tmp/v6repo", store.WriteOptions{})
	if err != nil {
		t.Fatalf("migrating: %v", err)
	}
	states, err := tx.FileStates(ctx)
	if err != nil || len(states) != 13 {
		t.Fatalf("files kept by the migration: %d, %v", len(states), err)
	}
	for _, kind := range []string{store.ParsedManifest, store.ParsedSpec} {
		if parsed, err := tx.ParsedFiles(ctx, kind); err != nil || len(parsed) != 0 {
			t.Fatalf("parsed %s files after the migration: %v, %v", kind, parsed, err)
		}
	}
	meta, err := tx.Meta(ctx)
	if err != nil || meta["packages_state"] != "" || meta["specs_state"] != "" {
		t.Fatalf("metadata after the migration: %v, %v", meta, err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := r.Packages(ctx)
	if err != nil || len(pkgs) != 3 {
		t.Fatalf("packages kept: %+v, %v", pkgs, err)
	}
	for _, p := range pkgs {
		for _, d := range p.Dependencies {
			if d.Target != nil {
				t.Errorf("%s → %s has a target before any run resolved it", p.Name, d.Name)
			}
		}
	}
	found, err := r.Specs(ctx)
	if err != nil || len(found) != 6 {
		t.Fatalf("specs kept: %d, %v", len(found), err)
	}
	if v, _ := schemaVersion(ctx, db.db); v != SchemaVersion || SchemaVersion != 11 {
		t.Errorf("schema version %d (SchemaVersion %d), want 11", v, SchemaVersion)
	}
}

// TestSegmentsStayFew: small runs over a large base write segments that
// are merged while of similar size and folded into the base once they
// weigh an eighth of it, so a collection never holds many.
func TestSegmentsStayFew(t *testing.T) {
	db, err := Open(ctx, filepath.Join(t.TempDir(), "seg.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run := func(each func(tx store.WriteTx, states map[string]store.FileState)) {
		tx, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		states, err := tx.FileStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		each(tx, states)
		if err := tx.Commit(ctx, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	putFile := func(tx store.WriteTx, path, word string) {
		ts := store.TermStats{Freqs: map[string][store.NumFields]uint16{word: {5: 1}, "common": {5: 1}}}
		ts.Lens[5] = 2
		if err := tx.PutFile(ctx, store.File{Path: path, Language: "go", Hash: word}, []store.Chunk{{StartLine: 1, EndLine: 1, Stats: ts}}); err != nil {
			t.Fatal(err)
		}
	}
	run(func(tx store.WriteTx, _ map[string]store.FileState) {
		for i := range 400 {
			putFile(tx, fmt.Sprintf("f%03d.go", i), fmt.Sprintf("w%d", i))
		}
	})
	most, folded := 0, false
	for round := range 60 {
		run(func(tx store.WriteTx, states map[string]store.FileState) {
			path := fmt.Sprintf("f%03d.go", round*7%400)
			if err := tx.DeleteFile(ctx, states[path].ID); err != nil {
				t.Fatal(err)
			}
			putFile(tx, path, fmt.Sprintf("r%d", round))
		})
		var n int
		if err := db.db.QueryRow(`SELECT count(*) FROM segments`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		most = max(most, n)
		folded = folded || (n == 0 && round > 0)
	}
	if most < 2 || most > maxSegments || !folded {
		t.Errorf("at most %d segments, folded into the base: %v; want 2 to %d, and folded", most, folded, maxSegments)
	}

	// Runs that defer their merges leave segments for Maintain, which
	// brings them back within the bound.
	segments := func() int {
		var n int
		if err := db.db.QueryRow(`SELECT count(*) FROM segments`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for round := range 2 * maxSegments {
		tx, err := db.Write(ctx, "c", "/r", store.WriteOptions{DeferMerges: true})
		if err != nil {
			t.Fatal(err)
		}
		states, err := tx.FileStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf("f%03d.go", round*11%400)
		if err := tx.DeleteFile(ctx, states[path].ID); err != nil {
			t.Fatal(err)
		}
		putFile(tx, path, fmt.Sprintf("d%d", round))
		if err := tx.Commit(ctx, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if n := segments(); n < 2*maxSegments {
		t.Errorf("%d segments after %d deferred runs, want one each", n, 2*maxSegments)
	}
	if err := db.Maintain(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	if n := segments(); n > maxSegments {
		t.Errorf("%d segments after Maintain, want at most %d", n, maxSegments)
	}
	r, err := db.Reader(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	lens, err := r.DocLens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lists, err := r.Postings(ctx, []string{"common", "r59", "w0"}, lens)
	if err != nil || lens.Len() != 400 || len(lists[0]) != 400 || len(lists[1]) != 1 || len(lists[2]) != 0 {
		t.Errorf("%d chunks, postings %d %d %d, %v; want 400 chunks, 400 1 0", lens.Len(), len(lists[0]), len(lists[1]), len(lists[2]), err)
	}
}

// TestReadOnlyFollowsCommits checks what a read-only DB remembers between
// requests (version.go): the collection's id and generation stay current
// through commits and removals made by another connection, and asking
// many times at once answers alike.
func TestReadOnlyFollowsCommits(t *testing.T) {
	w, path := written(t)
	ro, r := openReadOnlyReader(t, path)
	gen1, err := r.Generation(ctx)
	if err != nil || gen1 == "" {
		t.Fatalf("Generation = %q, %v", gen1, err)
	}
	for range 3 { // answered from memory: the same
		if g, err := r.Generation(ctx); g != gen1 || err != nil {
			t.Fatalf("Generation again = %q, %v; want %q", g, err, gen1)
		}
	}
	if _, err := ro.Reader(ctx, "other"); errs.KindOf(err) != errs.NoIndex {
		t.Fatalf("Reader of a collection not written yet: %v, want NoIndex", err)
	}

	// Another connection commits: a new generation, and a new collection.
	for _, name := range []string{"c", "other"} {
		tx, err := w.Write(ctx, name, "/r", store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.PutFile(ctx, store.File{Path: "b.go", Language: "go", Hash: "h2"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(ctx, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	gen2, err := r.Generation(ctx)
	if err != nil || gen2 == gen1 {
		t.Fatalf("Generation after a commit = %q, %v; want a new one (was %q)", gen2, err, gen1)
	}
	if _, err := ro.Reader(ctx, "other"); err != nil {
		t.Fatalf("Reader of a collection committed since: %v", err)
	}

	// Many at once agree.
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if g, err := r.Generation(ctx); g != gen2 || err != nil {
				t.Errorf("concurrent Generation = %q, %v; want %q", g, err, gen2)
			}
		})
	}
	wg.Wait()

	// A removed collection is gone at once.
	if err := w.RemoveCollection(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	if _, err := ro.Reader(ctx, "other"); errs.KindOf(err) != errs.NoIndex {
		t.Fatalf("Reader of a removed collection: %v, want NoIndex", err)
	}
	if g, err := r.Generation(ctx); g != gen2 || err != nil {
		t.Fatalf("Generation of the collection kept = %q, %v; want %q", g, err, gen2)
	}
}

// BenchmarkReaderGeneration measures what a server asks of a read-only DB
// on every request: the collection and its generation.
func BenchmarkReaderGeneration(b *testing.B) {
	path := filepath.Join(b.TempDir(), "index.db")
	w, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	tx, err := w.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(ctx, time.Now()); err != nil {
		b.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer ro.Close()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, err := ro.Reader(ctx, "c")
			if err != nil {
				b.Error(err)
				return
			}
			if _, err := r.Generation(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// openReadOnlyReader opens the index at path read-only, as a server does,
// and returns it with a reader of its collection "c"; the DB is closed
// when the test ends.
func openReadOnlyReader(t *testing.T, path string) (*DB, store.Reader) {
	t.Helper()
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	r, err := ro.Reader(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	return ro, r
}
