package specs

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// benchSpecsDB is a database holding 20 specs of 10 requirements, each
// naming a few of the words word0 … word199.
func benchSpecsDB(b *testing.B) *sql.DB {
	b.Helper()
	db, err := sql.Open("sqlite", filepath.Join(b.TempDir(), "index.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	for _, stmt := range strings.Split(Schema, ";\n") {
		if strings.TrimSpace(stmt) != "" {
			if _, err := db.Exec(stmt); err != nil {
				b.Fatal(err)
			}
		}
	}
	var specs []Spec
	for s := 0; s < 20; s++ {
		spec := Spec{ID: fmt.Sprintf("spec%d", s), Title: "T", Kind: KindOpenSpec}
		for r := 0; r < 10; r++ {
			k := s*10 + r
			spec.Requirements = append(spec.Requirements, Requirement{
				Name:        fmt.Sprintf("Requirement word%d", k),
				Description: fmt.Sprintf("The system handles word%d and word%d.", k, (k+1)%200),
				Scenarios: []Scenario{{Name: "s", When: []string{fmt.Sprintf("word%d arrives", (k+2)%200)},
					Then: []string{"it is handled"}}},
			})
		}
		specs = append(specs, spec)
	}
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	if err := Save(context.Background(), tx, specs); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return db
}

// BenchmarkSearchQueryLength times Search for queries of 16, 64 and 256
// distinct words that all occur in the specs (1×, 4×, 16×; 256 is
// querylimit.MaxTerms): the time per query should grow at most linearly.
func BenchmarkSearchQueryLength(b *testing.B) {
	db := benchSpecsDB(b)
	ctx := context.Background()
	for _, n := range []int{16, 64, 256} {
		words := make([]string, n)
		for i := range words {
			words[i] = fmt.Sprintf("word%d", i)
		}
		query := strings.Join(words, " ")
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Search(ctx, db, query, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
