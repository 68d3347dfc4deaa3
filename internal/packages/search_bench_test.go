package packages

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// benchQuery is a query of n distinct words: "ui", which some packages
// match, then words none does, so Search runs both its AND query and its
// OR fallback, the most work a query of n words can cause.
func benchQuery(n int) string {
	words := []string{"ui"}
	for i := 1; i < n; i++ {
		words = append(words, fmt.Sprintf("nomatch%d", i))
	}
	return strings.Join(words, " ")
}

// BenchmarkSearchQueryLength times Search over the fixture monorepo for
// queries of 16, 64 and 256 distinct words (1×, 4×, 16×; 256 is
// querylimit.MaxTerms): the time per query should grow about linearly.
func BenchmarkSearchQueryLength(b *testing.B) {
	db, _ := fixtureDB(b)
	ctx := context.Background()
	for _, n := range []int{16, 64, 256} {
		query := benchQuery(n)
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Search(ctx, db, query, DefaultSearchLimit); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
