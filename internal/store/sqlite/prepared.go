package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxPrepared bounds the prepared statements a DB keeps. Queries with
// IN lists have one text per list length; a search uses a handful of them.
const maxPrepared = 128

// preparedCache holds prepared statements by SQL text. A search runs a
// few small queries, and with SQLite preparing one costs about as much as
// running it, so the hot queries are prepared once per DB.
type preparedCache struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// query runs a read query through a cached prepared statement, or
// directly once the cache is full.
func (d *DB) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := d.prepared(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return d.db.QueryContext(ctx, query, args...)
}

// queryRow is query for a single row.
func (d *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if st := d.prepared(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return d.db.QueryRowContext(ctx, query, args...)
}

func (d *DB) prepared(ctx context.Context, query string) *sql.Stmt {
	d.cache.mu.Lock()
	defer d.cache.mu.Unlock()
	if st, ok := d.cache.stmts[query]; ok {
		return st
	}
	if len(d.cache.stmts) >= maxPrepared {
		return nil
	}
	st, err := d.db.PrepareContext(ctx, query)
	if err != nil {
		return nil // the direct query reports the error
	}
	if d.cache.stmts == nil {
		d.cache.stmts = map[string]*sql.Stmt{}
	}
	d.cache.stmts[query] = st
	return st
}

// closePrepared closes the cached statements.
func (d *DB) closePrepared() {
	d.cache.mu.Lock()
	defer d.cache.mu.Unlock()
	for _, st := range d.cache.stmts {
		st.Close()
	}
	d.cache.stmts = nil
}
