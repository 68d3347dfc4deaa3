package specs

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// Schema creates the spec tables. Every statement ends with ";\n" and no
// literal or comment holds a semicolon, so a migration runner may split it
// there. spec_fts has one row per requirement (rowid = spec_requirements.id)
// with the requirement's name, its description and the text of all its
// scenarios; the porter stemmer lets "searching" find "search".
const Schema = `
CREATE TABLE IF NOT EXISTS specs (
	id       TEXT PRIMARY KEY,
	title    TEXT NOT NULL,
	purpose  TEXT NOT NULL,
	kind     TEXT NOT NULL,
	path     TEXT NOT NULL,
	change   TEXT NOT NULL,
	warnings TEXT NOT NULL -- JSON array of strings
);
CREATE TABLE IF NOT EXISTS spec_requirements (
	id          INTEGER PRIMARY KEY,
	spec_id     TEXT NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
	ord         INTEGER NOT NULL,
	name        TEXT NOT NULL,
	description TEXT NOT NULL,
	delta       TEXT NOT NULL,
	line        INTEGER NOT NULL,
	UNIQUE (spec_id, ord)
);
CREATE TABLE IF NOT EXISTS spec_scenarios (
	id             INTEGER PRIMARY KEY,
	requirement_id INTEGER NOT NULL REFERENCES spec_requirements(id) ON DELETE CASCADE,
	ord            INTEGER NOT NULL,
	name           TEXT NOT NULL,
	given_clauses  TEXT NOT NULL, -- JSON arrays of strings
	when_clauses   TEXT NOT NULL,
	then_clauses   TEXT NOT NULL,
	line           INTEGER NOT NULL,
	UNIQUE (requirement_id, ord)
);
CREATE VIRTUAL TABLE IF NOT EXISTS spec_fts USING fts5(
	name, description, scenarios,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
`

// Save replaces every stored spec with specs, inside the caller's
// transaction.
func Save(ctx context.Context, tx *sql.Tx, specs []Spec) error {
	for _, table := range []string{"spec_fts", "spec_scenarios", "spec_requirements", "specs"} {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("clearing %s: %w", table, err)
		}
	}
	insSpec, err := tx.PrepareContext(ctx, `INSERT INTO specs(id, title, purpose, kind, path, change, warnings) VALUES(?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing spec insert: %w", err)
	}
	defer insSpec.Close()
	insReq, err := tx.PrepareContext(ctx, `INSERT INTO spec_requirements(spec_id, ord, name, description, delta, line) VALUES(?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing requirement insert: %w", err)
	}
	defer insReq.Close()
	insScen, err := tx.PrepareContext(ctx, `INSERT INTO spec_scenarios(requirement_id, ord, name, given_clauses, when_clauses, then_clauses, line) VALUES(?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing scenario insert: %w", err)
	}
	defer insScen.Close()
	insFTS, err := tx.PrepareContext(ctx, `INSERT INTO spec_fts(rowid, name, description, scenarios) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing spec search insert: %w", err)
	}
	defer insFTS.Close()

	for _, s := range specs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := insSpec.ExecContext(ctx, s.ID, s.Title, s.Purpose, s.Kind, s.Path, s.Change, jsonList(s.Warnings)); err != nil {
			return fmt.Errorf("saving spec %s: %w", s.ID, err)
		}
		for ri, r := range s.Requirements {
			res, err := insReq.ExecContext(ctx, s.ID, ri, r.Name, r.Description, r.Delta, r.Line)
			if err != nil {
				return fmt.Errorf("saving requirement %q of spec %s: %w", r.Name, s.ID, err)
			}
			reqID, err := res.LastInsertId()
			if err != nil {
				return fmt.Errorf("saving requirement %q of spec %s: %w", r.Name, s.ID, err)
			}
			for si, sc := range r.Scenarios {
				if _, err := insScen.ExecContext(ctx, reqID, si, sc.Name, jsonList(sc.Given), jsonList(sc.When), jsonList(sc.Then), sc.Line); err != nil {
					return fmt.Errorf("saving scenario %q of requirement %q in spec %s: %w", sc.Name, r.Name, s.ID, err)
				}
			}
			if _, err := insFTS.ExecContext(ctx, reqID, r.Name, r.Description, scenarioText(r.Scenarios)); err != nil {
				return fmt.Errorf("indexing requirement %q of spec %s: %w", r.Name, s.ID, err)
			}
		}
	}
	return nil
}

func jsonList(list []string) string {
	if len(list) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(list) // a []string always marshals
	return string(b)
}

// scenarioText is the searchable text of a requirement's scenarios, one
// line per scenario name and clause; Search takes its snippets from these
// lines.
func scenarioText(scenarios []Scenario) string {
	var b strings.Builder
	line := func(prefix, text string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(prefix)
		b.WriteString(strings.ReplaceAll(text, "\n", " "))
	}
	for _, s := range scenarios {
		line("Scenario: ", s.Name)
		for _, c := range s.Given {
			line("GIVEN ", c)
		}
		for _, c := range s.When {
			line("WHEN ", c)
		}
		for _, c := range s.Then {
			line("THEN ", c)
		}
	}
	return b.String()
}
