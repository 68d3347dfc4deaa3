package sqlite

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/lore-dev/lore/internal/store"
)

// changeLogSchema records what each of a collection's latest runs changed
// (store.Change), so that a reader keeping the collection in memory
// applies a run instead of reading everything again. Each row names the
// generation its run committed and the one it replaced; a forced rebuild
// or a run over store.MaxChangeChunks clears the log, and only the latest
// keptChanges rows stay.
const changeLogSchema = `
CREATE TABLE change_log (
	collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
	generation    TEXT NOT NULL, -- what the run committed
	previous      TEXT NOT NULL, -- what it replaced
	data          BLOB NOT NULL, -- store.EncodeChange
	PRIMARY KEY (collection_id, generation)
) WITHOUT ROWID;
`

// addChangeLog brings a version 10 database to version 11: the log starts
// empty, so readers read everything once more.
const addChangeLog = changeLogSchema

// keptChanges is how many runs the log remembers: a reader that missed
// more reads everything.
const keptChanges = 16

// runChange collects what a run changes of what readers keep in memory,
// for the change log; full means it is not recorded (a rebuild, or too
// large), and the log is cleared.
type runChange struct {
	full          bool
	removedFiles  []int64
	files         []store.FileRow
	removedChunks []int64
	lens          map[int64][store.NumFields]uint16
	meta          []store.ChunkMeta
	grams         map[string]*store.GramFile // written (grams left out), or nil: removed
	gramsReset    bool                       // the n-gram index was emptied first
}

// tooLarge marks the change as not worth recording once it passes
// store.MaxChangeChunks, and drops what it held.
func (c *runChange) tooLarge() bool {
	if !c.full && len(c.removedChunks)+len(c.lens)+len(c.grams) > store.MaxChangeChunks {
		*c = runChange{full: true}
	}
	return c.full
}

func (c *runChange) removeFile(id int64) {
	if !c.full {
		c.removedFiles = append(c.removedFiles, id)
	}
}

func (c *runChange) removeChunk(id int64) {
	if !c.tooLarge() {
		c.removedChunks = append(c.removedChunks, id)
	}
}

func (c *runChange) addFile(f store.FileRow) {
	if !c.full {
		c.files = append(c.files, f)
	}
}

func (c *runChange) addChunk(lens [store.NumFields]uint16, m store.ChunkMeta) {
	if c.tooLarge() {
		return
	}
	if c.lens == nil {
		c.lens = map[int64][store.NumFields]uint16{}
	}
	c.lens[m.ID] = lens
	c.meta = append(c.meta, m)
}

// resetGrams records that the n-gram index was emptied.
func (c *runChange) resetGrams() {
	c.gramsReset, c.grams = true, nil
}

// putGrams records that the n-gram index has f written; nil f: removed.
func (c *runChange) putGrams(path string, f *store.GramFile) {
	if c.gramsReset || c.tooLarge() {
		return // readers of the n-gram index read it whole
	}
	if c.grams == nil {
		c.grams = map[string]*store.GramFile{}
	}
	if f != nil {
		f = &store.GramFile{Path: f.Path, Size: f.Size, MTimeNS: f.MTimeNS, Binary: f.Binary}
	}
	c.grams[path] = f
}

// logChange records the run's change at commit, from generation previous
// to generation: before the new generation is set.
func (t *tx) logChange(ctx context.Context, generation string) error {
	if t.d.noChangeLog {
		return nil
	}
	c := &t.change
	if c.full {
		if _, err := t.tx.ExecContext(ctx, `DELETE FROM change_log WHERE collection_id = ?`, t.collection); err != nil {
			return fmt.Errorf("clearing the change log: %w", err)
		}
		return nil
	}
	var previous string
	err := t.tx.QueryRowContext(ctx, `SELECT value FROM collection_meta WHERE collection_id = ? AND key = 'generation'`, t.collection).Scan(&previous)
	if noRows(err) {
		return nil // the first run: no reader holds an earlier generation
	}
	if err != nil {
		return fmt.Errorf("reading the generation: %w", err)
	}
	ch := &store.Change{RemovedFiles: slices.Sorted(slices.Values(c.removedFiles)), Files: slices.Clone(c.files),
		RemovedChunks: slices.Sorted(slices.Values(c.removedChunks)), Lens: docLensOf(c.lens), Meta: slices.Clone(c.meta),
		GramsReset: c.gramsReset}
	slices.SortFunc(ch.Files, func(a, b store.FileRow) int { return cmpID(a.ID, b.ID) })
	slices.SortFunc(ch.Meta, func(a, b store.ChunkMeta) int { return cmpID(a.ID, b.ID) })
	for _, path := range slices.Sorted(maps.Keys(c.grams)) {
		if f := c.grams[path]; f != nil {
			ch.Grams = append(ch.Grams, *f)
		} else {
			ch.RemovedGrams = append(ch.RemovedGrams, path)
		}
	}
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO change_log(collection_id, generation, previous, data) VALUES(?, ?, ?, ?)
		ON CONFLICT(collection_id, generation) DO UPDATE SET previous = excluded.previous, data = excluded.data`,
		t.collection, generation, previous, store.EncodeChange(ch)); err != nil {
		return fmt.Errorf("recording the change log: %w", err)
	}
	_, err = t.tx.ExecContext(ctx, `DELETE FROM change_log WHERE collection_id = ?1 AND generation NOT IN
		(SELECT generation FROM change_log WHERE collection_id = ?1 ORDER BY length(generation) DESC, generation DESC LIMIT ?2)`,
		t.collection, keptChanges)
	if err != nil {
		return fmt.Errorf("trimming the change log: %w", err)
	}
	return nil
}

// Changes returns the logged changes since generation since, following
// each row's previous generation from since; ok is false when since is
// not in the log.
func (r *reader) Changes(ctx context.Context, since string) ([]store.Change, bool, error) {
	if r.d.noChangeLog || since == "" {
		return nil, false, nil
	}
	rows, err := r.d.query(ctx, `SELECT generation, previous, data FROM change_log WHERE collection_id = ?
		UNION ALL SELECT value, NULL, NULL FROM collection_meta WHERE collection_id = ? AND key = 'generation'`, r.id, r.id)
	if err != nil {
		return nil, false, fmt.Errorf("reading the change log: %w", err)
	}
	defer rows.Close()
	type entry struct {
		generation string
		data       []byte
	}
	next := map[string]entry{} // previous → its run's entry
	current := ""
	for rows.Next() {
		var generation string
		var previous *string
		var data []byte
		if err := rows.Scan(&generation, &previous, &data); err != nil {
			return nil, false, fmt.Errorf("reading the change log: %w", err)
		}
		if previous == nil {
			current = generation
			continue
		}
		next[*previous] = entry{generation, data}
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("reading the change log: %w", err)
	}
	var out []store.Change
	for g := since; g != current; {
		e, ok := next[g]
		if !ok || len(out) > keptChanges {
			return nil, false, nil
		}
		c, err := store.DecodeChange(e.data)
		if err != nil {
			return nil, false, fmt.Errorf("reading the change log: %w", err)
		}
		c.Generation = e.generation
		out = append(out, *c)
		g = e.generation
	}
	return out, true, nil
}
