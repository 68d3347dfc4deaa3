package index

import (
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/tokenize"
)

// TestWorkerTermsAsFirstWritten: a worker's reused term buffers and the
// byte-wise tokenizer count exactly the terms the first indexer did (each
// field through tokenize.Terms, the symbols joined by spaces), on the
// chunker's fixtures of every language, one worker going through them all
// in turn and then again, so that what one file leaves in the buffers
// cannot show in the next.
func TestWorkerTermsAsFirstWritten(t *testing.T) {
	dir := filepath.Join("..", "chunk", "testdata")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []fsroot.File
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		abs, err := filepath.Abs(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(abs)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fsroot.File{Rel: "src/pkg/" + e.Name(), Abs: abs, Size: info.Size(), ModTime: time.Unix(1, 0)})
	}
	if len(files) < 18 {
		t.Fatalf("%d fixtures, want one of each language at least", len(files))
	}
	w := newWorker()
	chunks := 0
	for round := 0; round < 2; round++ {
		for _, f := range files {
			r := w.processFile(f, store.FileState{}, false, gramJob{})
			if r.outcome != outChanged {
				t.Fatalf("%s: outcome %v, %v", f.Rel, r.outcome, r.err)
			}
			name := tokenize.Terms(strings.TrimSuffix(path.Base(f.Rel), path.Ext(f.Rel)))
			dir := tokenize.Terms(path.Dir(f.Rel))
			for i, c := range r.chunks {
				var fields [store.NumFields][]string
				fields[store.FieldSymbols] = referenceTerms(strings.Join(c.Symbols, " "))
				fields[store.FieldName] = name
				fields[store.FieldPath] = dir
				fields[store.FieldSignature] = referenceTerms(c.Signature)
				fields[store.FieldDoc] = referenceTerms(c.DocComment)
				fields[store.FieldBody] = referenceTerms(c.Content)
				want := referenceTermStats(fields)
				if !reflect.DeepEqual(c.Stats.InOrder(), want.InOrder()) || c.Stats.Lens != want.Lens {
					t.Errorf("%s chunk %d (round %d): term stats differ from the first indexer's", f.Rel, i, round)
				}
				chunks++
			}
		}
	}
	if chunks == 0 {
		t.Fatal("no chunks compared")
	}
}

// referenceTerms is tokenize.Terms as first written: identifiers, then
// each one's whole lower-cased form and, when it has several, its parts.
func referenceTerms(text string) []string {
	var out []string
	for _, id := range tokenize.Identifiers(text) {
		whole := strings.ToLower(id)
		out = append(out, whole)
		if parts := tokenize.SplitIdentifier(id); len(parts) > 1 {
			for _, p := range parts {
				if p != whole && p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}
