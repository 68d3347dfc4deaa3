package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Dump renders every table of the index file at path, in key order,
// leaving out what two runs over the same files may write differently
// (the generation, run times, the change log's entries): two indexes with
// equal dumps hold the same data. It is for tests and diagnostics, which
// compare indexes built in different ways; it opens the file read-only.
func Dump(ctx context.Context, path string) (string, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return "", fmt.Errorf("opening %s: %w", path, err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return "", fmt.Errorf("listing the tables of %s: %w", path, err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return "", err
		}
		tables = append(tables, name)
	}
	rows.Close()
	var b strings.Builder
	for _, name := range tables {
		q := fmt.Sprintf(`SELECT * FROM %q ORDER BY 1, 2`, name)
		switch name {
		case "collections":
			q = `SELECT id, name, root FROM collections ORDER BY id`
		case "collection_meta":
			q = `SELECT * FROM collection_meta WHERE key NOT IN ('generation', 'indexed_at') ORDER BY 1, 2`
		case "change_log":
			q = `SELECT count(*) FROM change_log`
		}
		fmt.Fprintf(&b, "%s\n", name)
		if err := appendRows(ctx, &b, db, q); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// appendRows writes the rows query returns to b, a line each.
func appendRows(ctx context.Context, b *strings.Builder, db *sql.DB, query string) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("%s: %w", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("%s: %w", query, err)
		}
		fmt.Fprintln(b, vals...)
	}
	return rows.Err()
}
