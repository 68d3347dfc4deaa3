package sqlite

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/store"
)

// firstRun writes two files into collection c of the index at path and
// commits when commit is set, else rolls back.
func firstRun(t *testing.T, db *DB, commit bool) {
	t.Helper()
	w, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stats := store.TermStats{Freqs: map[string][store.NumFields]uint16{"router": {store.FieldBody: 2}}, Lens: [store.NumFields]uint16{store.FieldBody: 2}}
	for _, p := range []string{"a.go", "b.go"} {
		chunks := []store.Chunk{{StartLine: 1, EndLine: 3, Kind: "block", Content: "router " + p, Stats: stats}}
		if err := w.PutFile(ctx, store.File{Path: p, Language: "go", Hash: p}, chunks); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetMeta(ctx, "k", string(make([]byte, 100000))); err != nil { // pages to spare
		t.Fatal(err)
	}
	if !commit {
		if err := w.Rollback(); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := w.Commit(ctx, fixedTime); err != nil {
		t.Fatal(err)
	}
}

// TestFirstBuild: a first build (no index file yet) writes the same tables
// as a run into an existing file, leaves a file in WAL mode and nothing
// beside it, and, rolled back or interrupted, leaves no index at all.
func TestFirstBuild(t *testing.T) {
	// The reference: the same run into an existing (empty) file, which is
	// updated in place through the write-ahead log.
	inPlace := filepath.Join(t.TempDir(), "index.db")
	if err := os.WriteFile(inPlace, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ref, err := Open(ctx, inPlace)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	firstRun(t, ref, true)
	want := dumpTables(t, ref)

	tests := []struct {
		name string
		// leftovers are files a crashed build or a deleted index left,
		// relative to the index's path.
		leftovers []string
		commit    bool
	}{
		{name: "committed", commit: true},
		{name: "rolled back", commit: false},
		{name: "after a crash", leftovers: []string{".build", ".build-journal", "-wal", "-shm"}, commit: true},
		{name: "crash then rolled back", leftovers: []string{".build", "-wal"}, commit: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "index.db")
			for _, suffix := range tt.leftovers {
				// A build file that is not a database fails the run if it
				// is opened; a log of another database, if SQLite applies
				// it to the new index, fails the checks below.
				data := []byte("half a build")
				if suffix == "-wal" {
					data = otherLog(t)
				}
				if err := os.WriteFile(path+suffix, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			firstRun(t, db, tt.commit)
			names := dirNames(t, dir)
			if !tt.commit {
				if _, err := OpenReadOnly(ctx, path); errs.KindOf(err) != errs.NoIndex {
					t.Errorf("after a first build rolled back: %v, want NoIndex", err)
				}
				for _, n := range names {
					if n != "index.db.lock" && n != "index.db-wal" && n != "index.db-shm" {
						t.Errorf("a rolled-back first build left %s", n)
					}
				}
				return
			}
			if got := dumpTables(t, db); got != want {
				t.Errorf("a first build's tables differ from a run in place:\n%s\nwant:\n%s", got, want)
			}
			if err := db.Check(ctx); err != nil {
				t.Error(err)
			}
			var mode string
			if err := db.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
				t.Errorf("journal mode of a first build = %q, %v; want wal", mode, err)
			}
			for _, n := range names {
				if n != "index.db" && n != "index.db.lock" {
					t.Errorf("a first build left %s beside the index", n)
				}
			}
			ro, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			if _, err := ro.Reader(ctx, "c"); err != nil {
				t.Errorf("Reader after a first build: %v", err)
			}
		})
	}
}

// TestFirstBuildThenUpdates: runs after a first build update the file in
// place, and a reader that opened it between them follows.
func TestFirstBuildThenUpdates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	firstRun(t, db, true)
	_, r := openReadOnlyReader(t, path)
	gen1, err := r.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := db.Write(ctx, "c", "/r", store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w.(*tx).fresh != nil {
		t.Fatal("a run over an existing index wrote a new file")
	}
	if err := w.PutFile(ctx, store.File{Path: "c.go", Language: "go", Hash: "c"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(ctx, fixedTime.Add(1)); err != nil {
		t.Fatal(err)
	}
	gen2, err := r.Generation(ctx)
	if err != nil || gen2 == gen1 {
		t.Fatalf("Generation after an update = %q, %v; want a new one (was %q)", gen2, err, gen1)
	}
	files, err := r.Files(ctx)
	if err != nil || len(files) != 3 {
		t.Errorf("the reader sees %d files, %v; want 3", len(files), err)
	}
}

// otherLog returns the write-ahead log of another database, holding
// committed pages not yet copied into it: what deleting an index while a
// process held it open can leave beside its name.
func otherLog(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{`PRAGMA wal_autocheckpoint=0`, `CREATE TABLE t(x)`, `INSERT INTO t VALUES(zeroblob(20000))`} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path + "-wal")
	if err != nil || len(data) < 4096 {
		t.Fatalf("the other database's log: %d bytes, %v", len(data), err)
	}
	return data
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
