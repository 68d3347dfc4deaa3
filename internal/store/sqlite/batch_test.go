package sqlite

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestBatchInsert: rows added one by one, in full statements and a last
// partial one, are all written, in order, with their values.
func TestBatchInsert(t *testing.T) {
	for _, n := range []int{0, 1, batchRows - 1, batchRows, 2*batchRows + 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			db, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			tx, err := db.db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE rows (k INTEGER PRIMARY KEY, s TEXT, b BLOB)`); err != nil {
				t.Fatal(err)
			}
			ins, err := newBatchInsert(ctx, tx, `INSERT INTO temp.rows(k, s, b) VALUES`, "", 3)
			if err != nil {
				t.Fatal(err)
			}
			defer ins.close()
			for i := range n {
				if err := ins.add(ctx, i, fmt.Sprintf("s%d", i), []byte{byte(i), 0, byte(i >> 8)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := ins.flush(ctx); err != nil {
				t.Fatal(err)
			}
			rows, err := tx.QueryContext(ctx, `SELECT k, s, b FROM temp.rows ORDER BY k`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			got := 0
			for ; rows.Next(); got++ {
				var k int
				var s string
				var b []byte
				if err := rows.Scan(&k, &s, &b); err != nil {
					t.Fatal(err)
				}
				if k != got || s != fmt.Sprintf("s%d", got) || string(b) != string([]byte{byte(got), 0, byte(got >> 8)}) {
					t.Fatalf("row %d: %d %q %x", got, k, s, b)
				}
			}
			if got != n {
				t.Fatalf("%d rows written, want %d", got, n)
			}
		})
	}
}
