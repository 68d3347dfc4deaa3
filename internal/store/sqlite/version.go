package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// A server asks, on every request, which collection a name is and which
// generation it holds: two queries that return the same answer until a run
// commits. A read-only DB remembers those answers together with the file's
// data version (PRAGMA data_version, read on a connection of its own),
// which changes whenever any connection, of this process or another,
// commits to the file; the answers are read again only when it changed.
//
// An answer read after the version was read and remembered under it is
// never stale: if the version is still the same later, nothing committed
// since it was read, so nothing committed since the answer was read
// either. A commit in between only makes the answer newer than the
// version, and the next check sees a new version and reads it again.

// versionCheck is a read-only DB's data version connection and what it
// remembers under the last version read.
//
// Reading the version costs a read transaction (two file-lock system
// calls), so concurrent requests share reads: callers that arrive while
// a read runs wait for the next one, which starts after all of them
// arrived and so answers each of them, and one read serves them all.
type versionCheck struct {
	mu      sync.Mutex // guards pending
	pending *versionRead

	run    sync.Mutex // held by the read under way; guards what follows
	conn   *sql.Conn  // nil until first needed, and after a failure
	stmt   *sql.Stmt
	closed bool // set by Close: no connection is taken after it

	// What was read under a version: collection name -> knownID,
	// collection id -> knownGeneration. Only committed collections are
	// remembered, so they stay as few as the file's collections.
	ids, generations sync.Map
}

// versionRead is one read of the data version, shared by the callers
// that joined it before it started.
type versionRead struct {
	done chan struct{} // closed once v and ok are set
	v    int64
	ok   bool
}

// knownID is a collection's id as read under a data version.
type knownID struct {
	version int64
	id      int64
}

// knownGeneration is a collection's generation as read under a data
// version.
type knownGeneration struct {
	version    int64
	generation string
}

// dataVersion reads the file's data version, as of a moment after the
// call began; ok is false when it cannot (a DB open for writing, or a
// failure), and the caller reads its answer from the database instead.
func (d *DB) dataVersion(ctx context.Context) (v int64, ok bool) {
	if !d.readOnly {
		// A writing DB has one connection: the version check would hold
		// it, and its own transaction sees its writes anyway.
		return 0, false
	}
	vc := &d.version
	vc.mu.Lock()
	r, lead := vc.pending, false
	if r == nil {
		r, lead = &versionRead{done: make(chan struct{})}, true
		vc.pending = r
	}
	vc.mu.Unlock()
	if !lead {
		<-r.done
		return r.v, r.ok
	}
	vc.run.Lock()
	// Callers arriving from now on join the next read: this one may have
	// started before they arrived.
	vc.mu.Lock()
	vc.pending = nil
	vc.mu.Unlock()
	// The read is every waiting caller's, not only this one's: a request
	// that ends must not fail the others.
	r.v, r.ok = vc.read(context.WithoutCancel(ctx), d.db)
	vc.run.Unlock()
	close(r.done)
	return r.v, r.ok
}

// read reads the data version on the check's own connection, opening it
// when needed. vc.run is held.
func (vc *versionCheck) read(ctx context.Context, db *sql.DB) (v int64, ok bool) {
	if vc.closed {
		return 0, false
	}
	if vc.conn == nil {
		conn, err := db.Conn(ctx)
		if err != nil {
			return 0, false
		}
		stmt, err := conn.PrepareContext(ctx, `PRAGMA data_version`)
		if err != nil {
			conn.Close()
			return 0, false
		}
		vc.conn, vc.stmt = conn, stmt
	}
	if err := vc.stmt.QueryRowContext(ctx).Scan(&v); err != nil {
		vc.release()
		return 0, false
	}
	return v, true
}

// release closes the version connection; the next check opens another.
// vc.run is held.
func (vc *versionCheck) release() {
	if vc.stmt != nil {
		vc.stmt.Close()
	}
	if vc.conn != nil {
		vc.conn.Close()
	}
	vc.conn, vc.stmt = nil, nil
}

// close releases the version connection for good.
func (vc *versionCheck) close() {
	vc.run.Lock()
	defer vc.run.Unlock()
	vc.closed = true
	vc.release()
}

// collectionID returns the id of a committed collection, from memory when
// nothing committed since it was read; read runs the query.
func (d *DB) collectionID(ctx context.Context, name string, read func() (int64, error)) (int64, error) {
	v, ok := d.dataVersion(ctx)
	if ok {
		if k, found := d.version.ids.Load(name); found && k.(knownID).version == v {
			return k.(knownID).id, nil
		}
	}
	id, err := read()
	if err == nil && ok {
		d.version.ids.Store(name, knownID{version: v, id: id})
	}
	return id, err
}

// generation returns a collection's generation, from memory when nothing
// committed since it was read; read runs the query.
func (d *DB) generation(ctx context.Context, id int64, read func() (string, error)) (string, error) {
	v, ok := d.dataVersion(ctx)
	if ok {
		if k, found := d.version.generations.Load(id); found && k.(knownGeneration).version == v {
			return k.(knownGeneration).generation, nil
		}
	}
	g, err := read()
	if err == nil && ok {
		d.version.generations.Store(id, knownGeneration{version: v, generation: g})
	}
	return g, err
}
