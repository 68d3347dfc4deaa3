package store

import (
	"context"
	"database/sql"
	"sync"
)

// maxPrepared bounds the prepared statements a Store keeps. Queries with
// IN lists have one text per list length; a search uses a handful of them.
const maxPrepared = 128

// preparedCache holds prepared statements by SQL text. A search runs a
// few small queries, and with SQLite preparing one costs about as much as
// running it, so the hot queries are prepared once per Store.
type preparedCache struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// query runs a read query through a cached prepared statement, or
// directly once the cache is full.
func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := s.prepared(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.db.QueryContext(ctx, query, args...)
}

// queryRow is query for a single row.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if st := s.prepared(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.db.QueryRowContext(ctx, query, args...)
}

func (s *Store) prepared(ctx context.Context, query string) *sql.Stmt {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if st, ok := s.cache.stmts[query]; ok {
		return st
	}
	if len(s.cache.stmts) >= maxPrepared {
		return nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil // the direct query reports the error
	}
	if s.cache.stmts == nil {
		s.cache.stmts = map[string]*sql.Stmt{}
	}
	s.cache.stmts[query] = st
	return st
}

// closePrepared closes the cached statements.
func (s *Store) closePrepared() {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	for _, st := range s.cache.stmts {
		st.Close()
	}
	s.cache.stmts = nil
}
