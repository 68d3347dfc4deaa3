package search

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/tokenize"
)

// TestNamesOnlyLists checks that reading a synonym's list cut to the
// chunks that name it (namesOnlyLists) ranks exactly as reading its whole
// list: the top 20, scores included, of random prose queries made of this
// package's own words and the synonym table's, over an index of this
// package's source.
func TestNamesOnlyLists(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes this package's source")
	}
	ctx := context.Background()
	idx := filepath.Join(t.TempDir(), "index.db")
	indexAt(t, ".", idx)
	eng, err := openTestEngine(t, idx)
	if err != nil {
		t.Fatal(err)
	}
	vocab := namesOnlyVocabulary(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		words := make([]string, 1+rng.IntN(5))
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		opts := Options{Query: strings.Join(words, " "), Limit: 20}
		namesOnlyLists = true
		fast, err := eng.Search(ctx, opts)
		namesOnlyLists = false
		if err != nil {
			t.Fatal(err)
		}
		plain, err := eng.Search(ctx, opts)
		namesOnlyLists = true
		if err != nil {
			t.Fatal(err)
		}
		fast.TookMS, plain.TookMS = 0, 0
		if !reflect.DeepEqual(fast, plain) {
			t.Fatalf("%q: the names-only lists rank differently:\n%+v\nagainst\n%+v", opts.Query, fast.Results, plain.Results)
		}
	}
}

// namesOnlyVocabulary is every word of the synonym table and the
// lower-cased words of this package's Go files, without repeats.
func namesOnlyVocabulary(t *testing.T) []string {
	seen := map[string]bool{}
	var vocab []string
	add := func(w string) {
		if len(w) > 2 && !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	for _, group := range synonyms {
		for _, w := range group {
			add(w)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range tokenize.Identifiers(string(src)) {
			for _, part := range tokenize.SplitIdentifier(id) {
				add(strings.ToLower(part))
			}
		}
	}
	return vocab
}
