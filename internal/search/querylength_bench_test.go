package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/testtree"
)

// BenchmarkSearchQueryLength times a ranked search over a generated
// repository (50 files of 20 functions, each naming its own word of
// word0 … word999) for queries of 16, 64 and 256 distinct words, every
// one of them in the index (1×, 4×, 16×; 256 is querylimit.MaxTerms): the
// time per query should grow about linearly.
func BenchmarkSearchQueryLength(b *testing.B) {
	root := b.TempDir()
	files := map[string]string{}
	for i := 0; i < 50; i++ {
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n\n", i)
		for j := 0; j < 20; j++ {
			fmt.Fprintf(&src, "// Handler%d_%d handles word%d and word%d of module %d.\nfunc Handler%d_%d(x int) int {\n\treturn x + %d\n}\n\n",
				i, j, i*20+j, j, i, i, j, j)
		}
		files[fmt.Sprintf("m%d/h.go", i)] = src.String()
	}
	testtree.Write(b, root, files)
	db := filepath.Join(b.TempDir(), "index.db")
	ctx := context.Background()
	indexAt(b, root, db)
	eng, err := openTestEngine(b, db)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{16, 64, 256} {
		words := make([]string, n)
		for i := range words {
			words[i] = fmt.Sprintf("word%d", i*3)
		}
		query := strings.Join(words, " ")
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := eng.Search(ctx, Options{Query: query}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
