package index_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/index"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/store/sqlite"
)

// dumpIndex renders every table of the index file at path in key order,
// without the times of the runs, to compare two indexes.
func dumpIndex(t *testing.T, path string) string {
	t.Helper()
	dump, err := sqlite.Dump(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return dump
}

// TestFirstBuildSameAsInPlace: a first build, written into a new file
// without the write-ahead log, leaves the tables a build into an existing
// file leaves, and so do the runs after it: a forced rebuild and an
// update, both in place.
func TestFirstBuildSameAsInPlace(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeTree(t, root, fixture)
	first := filepath.Join(t.TempDir(), "index.db")
	inPlace := filepath.Join(t.TempDir(), "index.db")
	if err := os.WriteFile(inPlace, nil, 0o644); err != nil { // an empty database
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		change map[string]string
		force  bool
	}{
		{name: "first build"},
		{name: "forced rebuild", force: true},
		{name: "update", change: map[string]string{"cart/extra.py": "def extra_total():\n    return 1\n"}},
	}
	for _, step := range steps {
		writeTree(t, root, step.change)
		for _, path := range []string{first, inPlace} {
			if _, err := runAt(ctx, path, index.Options{Root: root, Force: step.force}); err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
		}
		if got, want := dumpIndex(t, first), dumpIndex(t, inPlace); got != want {
			t.Errorf("%s: the tables differ from a build in place:\n%s\nwant:\n%s", step.name, got, want)
		}
	}
}

// TestKillFirstBuild kills a first build at points of its run: what it
// leaves is no index or a whole one, never one lore opens half built, and
// the next run builds a whole index.
func TestKillFirstBuild(t *testing.T) {
	if os.Getenv("LORE_FIRST_BUILD_CHILD") != "" {
		return
	}
	ctx := context.Background()
	root := t.TempDir()
	writeTree(t, root, fixture)
	big := map[string]string{}
	for i := 0; i < 1500; i++ {
		big[fmt.Sprintf("gen/f%04d.go", i)] = fmt.Sprintf("package gen\n\n// Generated%04d is generated.\nfunc Generated%04d() int {\n\treturn %d\n}\n", i, i, i)
	}
	writeTree(t, root, big)
	total := len(big) + 4 // the fixture's indexed files

	tests := []struct {
		name string
		at   int  // the file whose progress report the child announces
		hold bool // the child stops there until it is killed
	}{
		{name: "first file", at: 1, hold: true},
		{name: "midway", at: total / 2, hold: true},
		{name: "after the last file", at: total},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			indexPath := filepath.Join(t.TempDir(), "index.db")
			cmd := exec.Command(os.Args[0], "-test.run=^TestFirstBuildChild$")
			cmd.Env = append(os.Environ(), "LORE_FIRST_BUILD_CHILD=1", "LORE_CHILD_ROOT="+root, "LORE_CHILD_INDEX="+indexPath,
				"LORE_CHILD_AT="+strconv.Itoa(tt.at), "LORE_CHILD_HOLD="+strconv.FormatBool(tt.hold))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(out)
			reached := false
			for lines.Scan() {
				if lines.Text() == "reached" {
					reached = true
					break
				}
			}
			cmd.Process.Kill()
			cmd.Wait()
			if !reached {
				t.Fatalf("the child never reached file %d", tt.at)
			}

			if _, err := os.Stat(indexPath + ".build"); tt.hold && err != nil {
				t.Errorf("the kill interrupted no first build's file: %v", err)
			}
			db, err := sqlite.OpenReadOnly(ctx, indexPath)
			switch {
			case errs.KindOf(err) == errs.NoIndex:
				if tt.hold {
					if _, err := os.Stat(indexPath); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("a build killed midway left a file at the index's name: %v", err)
					}
				}
			case err != nil:
				t.Fatalf("the index after the kill: %v", err)
			default:
				if tt.hold {
					t.Errorf("a build killed midway left an index")
				}
				checkWhole(t, ctx, db, total)
				db.Close()
			}

			if _, err := runAt(ctx, indexPath, index.Options{Root: root}); err != nil {
				t.Fatalf("the run after the kill: %v", err)
			}
			db, err = sqlite.OpenReadOnly(ctx, indexPath)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			checkWhole(t, ctx, db, total)
			if _, err := os.Stat(indexPath + ".build"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the killed build's file outlived the next run: %v", err)
			}
		})
	}
}

// checkWhole checks the index db is intact and holds all files files.
func checkWhole(t *testing.T, ctx context.Context, db *sqlite.DB, files int) {
	t.Helper()
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := db.Reader(ctx, store.DefaultCollection)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != files {
		t.Errorf("the index holds %d files, want %d", len(got), files)
	}
}

// TestFirstBuildChild is the process TestKillFirstBuild kills: it prints
// "reached" when the run reports the file LORE_CHILD_AT and, with
// LORE_CHILD_HOLD, waits there to be killed.
func TestFirstBuildChild(t *testing.T) {
	if os.Getenv("LORE_FIRST_BUILD_CHILD") == "" {
		t.Skip("helper process for TestKillFirstBuild")
	}
	at, _ := strconv.Atoi(os.Getenv("LORE_CHILD_AT"))
	hold := os.Getenv("LORE_CHILD_HOLD") == "true"
	_, err := runAt(context.Background(), os.Getenv("LORE_CHILD_INDEX"), index.Options{Root: os.Getenv("LORE_CHILD_ROOT"),
		Progress: func(p index.Progress) {
			if p.Done != at {
				return
			}
			fmt.Println("reached")
			if hold {
				select {} // until killed
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("reached") // a run with fewer files than at
}
