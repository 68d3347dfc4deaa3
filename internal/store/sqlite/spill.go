package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sort"

	"github.com/lore-dev/lore/internal/store"
)

// A run's memory budget. A run gathers the posting lists of the chunks it
// writes in memory (postingsDelta.added); once they are estimated to
// exceed the run's budget they are spilled: encoded, term by term, into a
// temporary table of the writer's connection as one part, and memory
// starts afresh. At commit the run's lists are read back term by term, in
// term order, each term's parts joined oldest first. Chunk ids grow
// through the run, so every part holds higher ids than the one before:
// joining concatenates, and a term's joined list is exactly the list a run
// without a budget writes. Only one term's list is in memory at a time.
//
// The temporary table lives in SQLite's temporary database, a file of its
// own outside the index (and outside any indexed root) whose pages are
// cached like the main file's; it is never part of the index and never
// seen by readers. It is created inside the run's transaction, so a
// rollback takes it away; it is dropped once read.
const spillSchema = `CREATE TEMP TABLE IF NOT EXISTS run_parts (
	term TEXT NOT NULL,
	part INTEGER NOT NULL,
	data BLOB NOT NULL, -- store.EncodePostings
	PRIMARY KEY (term, part)
) WITHOUT ROWID`

// spillPostings moves the run's gathered lists into a new part.
func (t *tx) spillPostings(ctx context.Context) error {
	d := t.delta
	if len(d.added) == 0 {
		return nil
	}
	if d.parts == 0 {
		if _, err := t.tx.ExecContext(ctx, spillSchema); err != nil {
			return fmt.Errorf("creating the run's spill table: %w", err)
		}
	}
	put, err := t.tx.PrepareContext(ctx, `INSERT INTO temp.run_parts(term, part, data) VALUES(?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("spilling postings: %w", err)
	}
	defer put.Close()
	for _, term := range sortedTerms(d.added) {
		if err := ctx.Err(); err != nil {
			return err
		}
		list := d.added[term]
		sortPostings(list)
		if _, err := put.ExecContext(ctx, term, d.parts, store.EncodePostings(list)); err != nil {
			return fmt.Errorf("spilling postings of %q: %w", term, err)
		}
	}
	d.parts++
	d.added = map[string][]store.Posting{}
	d.spillChunks()
	d.size = 0
	return nil
}

// eachList calls put with each term's list of the run, in term order,
// leaving out the chunks in own (added and removed by the run); terms
// left with no posting are skipped. The list passed is reused after put
// returns.
func (t *tx) eachList(ctx context.Context, own store.IDSet, put func(term string, list []store.Posting) error) error {
	d := t.delta
	if d.parts == 0 {
		for _, term := range sortedTerms(d.added) {
			if err := ctx.Err(); err != nil {
				return err
			}
			list := d.added[term]
			sortPostings(list)
			if len(list) > 0 {
				if err := put(term, list); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := t.spillPostings(ctx); err != nil {
		return err
	}
	if err := t.joinParts(ctx, own, put); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(ctx, `DROP TABLE temp.run_parts`); err != nil {
		return fmt.Errorf("dropping the run's spill table: %w", err)
	}
	d.parts = 0
	return nil
}

// joinParts reads the spilled parts back in term order and calls put with
// each term's joined list.
func (t *tx) joinParts(ctx context.Context, own store.IDSet, put func(term string, list []store.Posting) error) error {
	rows, err := t.tx.QueryContext(ctx, `SELECT term, data FROM temp.run_parts ORDER BY term, part`)
	if err != nil {
		return fmt.Errorf("reading spilled postings: %w", err)
	}
	defer rows.Close()
	var cur string
	var list []store.Posting
	flush := func() error {
		if len(list) == 0 {
			return nil
		}
		return put(cur, list)
	}
	for rows.Next() {
		var term string
		var data sql.RawBytes
		if err := rows.Scan(&term, &data); err != nil {
			return fmt.Errorf("reading spilled postings: %w", err)
		}
		if term != cur {
			if err := flush(); err != nil {
				return err
			}
			cur, list = term, list[:0]
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		n := len(list)
		if list, err = store.AppendPostings(list, data); err != nil {
			return fmt.Errorf("spilled postings of %q: %w", term, err)
		}
		if len(own) > 0 {
			list = append(list[:n], dropChunks(list[n:], own)...)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading spilled postings: %w", err)
	}
	return flush()
}

// dropChunks filters list in place, keeping the postings whose chunk is
// not in dead.
func dropChunks(list []store.Posting, dead store.IDSet) []store.Posting {
	out := list[:0]
	for _, p := range list {
		if !dead.Has(p.ChunkID) {
			out = append(out, p)
		}
	}
	return out
}

// dropSpill removes the spill table after a rollback (which normally
// took it away with the transaction).
func (t *tx) dropSpill() {
	if t.delta.parts > 0 {
		t.d.db.ExecContext(context.Background(), `DROP TABLE IF EXISTS temp.run_parts`)
	}
}

// sortedTerms returns the terms of lists in order.
func sortedTerms(lists map[string][]store.Posting) []string {
	terms := make([]string, 0, len(lists))
	for term := range lists {
		terms = append(terms, term)
	}
	sort.Strings(terms)
	return terms
}
