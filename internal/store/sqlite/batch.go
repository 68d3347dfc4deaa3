package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// batchRows is how many rows a batchInsert writes per statement: one
// statement's work in the driver and in database/sql, shared by many
// rows, costs less than a statement a row.
const batchRows = 64

// batchInsert inserts rows of a fixed width through statements of many
// rows each. Not safe for concurrent use; flush writes what is left.
type batchInsert struct {
	tx    *sql.Tx
	head  string // INSERT INTO t(cols) VALUES
	tail  string // what follows the rows, e.g. ON CONFLICT …
	width int    // values a row
	full  *sql.Stmt
	args  []any
}

// newBatchInsert prepares inserts of rows of width values into head
// ("INSERT INTO t(a, b) VALUES"), each statement ending with tail.
func newBatchInsert(ctx context.Context, tx *sql.Tx, head, tail string, width int) (*batchInsert, error) {
	b := &batchInsert{tx: tx, head: head, tail: tail, width: width, args: make([]any, 0, width*batchRows)}
	st, err := tx.PrepareContext(ctx, b.query(batchRows))
	if err != nil {
		return nil, fmt.Errorf("preparing %s: %w", head, err)
	}
	b.full = st
	return b, nil
}

// query is the statement of n rows.
func (b *batchInsert) query(n int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", b.width), ",") + ")"
	return b.head + " " + strings.TrimSuffix(strings.Repeat(row+",", n), ",") + " " + b.tail
}

// add queues a row, writing the queue once it holds a statement's rows.
func (b *batchInsert) add(ctx context.Context, row ...any) error {
	b.args = append(b.args, row...)
	if len(b.args) < b.width*batchRows {
		return nil
	}
	_, err := b.full.ExecContext(ctx, b.args...)
	clear(b.args)
	b.args = b.args[:0]
	return err
}

// flush writes the rows queued.
func (b *batchInsert) flush(ctx context.Context) error {
	if len(b.args) == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(ctx, b.query(len(b.args)/b.width), b.args...)
	clear(b.args)
	b.args = b.args[:0]
	return err
}

// close releases the prepared statement.
func (b *batchInsert) close() { b.full.Close() }
