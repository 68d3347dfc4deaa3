package files

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/testtree"
)

// BenchmarkSearchQueryLength times a search of 100 files of 200 lines for
// queries of 1×, 4× and 16× a base length, within the limits: a literal
// that occurs in every file as its first 512 bytes (512, 2048, 8192
// bytes), and a regex whose program grows the same way (16, 64, 256
// repetitions of [a-z]\d?, about 48 to 768 instructions) that no line
// matches and no literal prefilters, so every line goes through it. The
// time per search should grow at most linearly with the query.
func BenchmarkSearchQueryLength(b *testing.B) {
	dir := b.TempDir()
	prefix := strings.Repeat("handleRequest ", 8192/14+1)
	files := map[string]string{}
	for i := 0; i < 100; i++ {
		var src strings.Builder
		for j := 0; j < 200; j++ {
			fmt.Fprintf(&src, "\tresult%d := handler%d(ctx, request) // returns the value when err is nil\n", j, i)
		}
		files[fmt.Sprintf("p%d/f.go", i)] = src.String() + prefix[:8192] + "\n"
	}
	testtree.Write(b, dir, files)
	svc := New(nil, openRoot(b, dir))
	for _, n := range []int{1, 4, 16} {
		for _, q := range []SearchQuery{
			{Query: prefix[:512*n]},
			{Query: strings.Repeat(`[a-z]\d?`, 16*n) + `[#@]`, Regex: true},
		} {
			kind := "literal"
			if q.Regex {
				kind = "regex"
			}
			b.Run(fmt.Sprintf("%s/x%d", kind, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := svc.Search(context.Background(), q); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
