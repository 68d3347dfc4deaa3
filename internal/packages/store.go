package packages

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/querylimit"
)

// Schema creates the package tables. Statements end with ";\n" and contain
// no semicolons or "--" inside literals, so a migration runner may split
// them; db.Exec runs the whole string as well.
//
// packages_fts is a standalone FTS5 table whose rowid is packages.id; its
// name_parts column holds the name split at case changes and punctuation
// ("MyLib.Core" → "my lib core") so that parts of a name find it.
const Schema = `CREATE TABLE IF NOT EXISTS packages (
	id          INTEGER PRIMARY KEY,
	name        TEXT NOT NULL,
	path        TEXT NOT NULL,
	kind        TEXT NOT NULL,
	version     TEXT NOT NULL DEFAULT '',
	description TEXT NOT NULL DEFAULT '',
	manifest    TEXT NOT NULL,
	metadata    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS packages_name ON packages(name);
CREATE TABLE IF NOT EXISTS package_deps (
	package_id  INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
	position    INTEGER NOT NULL,
	name        TEXT NOT NULL,
	version_req TEXT NOT NULL DEFAULT '',
	dep_kind    TEXT NOT NULL,
	is_internal INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (package_id, position)
);
CREATE INDEX IF NOT EXISTS package_deps_name ON package_deps(name);
CREATE VIRTUAL TABLE IF NOT EXISTS packages_fts USING fts5(
	name, description, path, name_parts,
	tokenize = 'unicode61 remove_diacritics 2'
);
`

// DefaultSearchLimit is the number of results Search returns when the
// caller passes no positive limit; MaxSearchLimit caps any limit.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 1000
)

// Save replaces every stored package with pkgs, inside the caller's
// transaction.
func Save(ctx context.Context, tx *sql.Tx, pkgs []Package) error {
	for _, table := range []string{"package_deps", "packages_fts", "packages"} {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("clearing %s: %w", table, err)
		}
	}
	insertPackage, err := tx.PrepareContext(ctx, `INSERT INTO packages(id, name, path, kind, version, description, manifest, metadata) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing package insert: %w", err)
	}
	defer insertPackage.Close()
	insertDep, err := tx.PrepareContext(ctx, `INSERT INTO package_deps(package_id, position, name, version_req, dep_kind, is_internal) VALUES(?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing dependency insert: %w", err)
	}
	defer insertDep.Close()
	insertFTS, err := tx.PrepareContext(ctx, `INSERT INTO packages_fts(rowid, name, description, path, name_parts) VALUES(?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing package search insert: %w", err)
	}
	defer insertFTS.Close()

	for i, p := range pkgs {
		id := int64(i + 1)
		metadata := p.Metadata
		if metadata == nil {
			metadata = map[string]any{}
		}
		metadataJSON, err := json.Marshal(metadata)
		if err != nil {
			return fmt.Errorf("encoding metadata of package %s (%s): %w", p.Name, p.Manifest, err)
		}
		if _, err := insertPackage.ExecContext(ctx, id, p.Name, p.Path, p.Kind, p.Version, p.Description, p.Manifest, string(metadataJSON)); err != nil {
			return fmt.Errorf("saving package %s (%s): %w", p.Name, p.Manifest, err)
		}
		if _, err := insertFTS.ExecContext(ctx, id, p.Name, p.Description, p.Path, strings.Join(nameParts(p.Name), " ")); err != nil {
			return fmt.Errorf("indexing package %s (%s) for search: %w", p.Name, p.Manifest, err)
		}
		for position, dep := range p.Dependencies {
			if _, err := insertDep.ExecContext(ctx, id, position, dep.Name, dep.VersionReq, dep.DepKind, dep.IsInternal); err != nil {
				return fmt.Errorf("saving dependency %s of package %s: %w", dep.Name, p.Name, err)
			}
		}
	}
	return nil
}

// LoadAll returns every stored package, sorted by name then path.
func LoadAll(ctx context.Context, db *sql.DB) ([]Package, error) {
	pkgs, err := queryPackages(ctx, db, `SELECT id, name, path, kind, version, description, manifest, metadata
		FROM packages ORDER BY name, path, kind, manifest`)
	if err != nil {
		return nil, err
	}
	return pkgs, nil
}

// Search finds packages whose name, description or path match query,
// best first (BM25, the name weighted most), at most limit of them
// (DefaultSearchLimit when limit <= 0). Every term must match; the last
// one may be a prefix. If no package matches every term, packages matching
// any term are returned instead. Query syntax characters have no special
// meaning.
//
// CheckQuery validates a package search query without touching an index:
// a query over querylimit.MaxBytes or with more than querylimit.MaxTerms
// distinct terms is QUERY_TOO_LONG, a blank one QUERY_EMPTY.
func CheckQuery(query string) error {
	if err := querylimit.CheckBytes("query", query); err != nil {
		return err
	}
	if strings.TrimSpace(query) == "" {
		return errs.New(errs.Invalid, "QUERY_EMPTY", "Search query must not be empty")
	}
	return querylimit.CheckTerms("query", len(searchTerms(query)))
}

// A blank query is QUERY_EMPTY; one over querylimit.MaxBytes or with more
// than querylimit.MaxTerms distinct terms is QUERY_TOO_LONG, refused
// before any index work, so a query's cost is linear in its length.
// These and cancellation are *errs.Error; any other error is an internal
// failure (the index cannot be read), wrapped with what was being done.
func Search(ctx context.Context, db *sql.DB, query string, limit int) ([]Package, error) {
	if err := CheckQuery(query); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	terms := searchTerms(query)
	if len(terms) == 0 {
		return []Package{}, nil // only punctuation: nothing can match
	}
	pkgs, err := searchFTS(ctx, db, ftsExpression(terms, " AND "), limit)
	if err == nil && len(pkgs) == 0 && len(terms) > 1 {
		pkgs, err = searchFTS(ctx, db, ftsExpression(terms, " OR "), limit)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, errs.New(errs.Cancelled, "CANCELLED", "Package search was cancelled").Wrap(err)
		}
		// Not an *errs.Error: the driver's message is for the log (and a
		// person at a terminal), never for an MCP client.
		return nil, fmt.Errorf("searching packages: %w", err)
	}
	return pkgs, nil
}

func searchFTS(ctx context.Context, db *sql.DB, expression string, limit int) ([]Package, error) {
	return queryPackages(ctx, db, `SELECT p.id, p.name, p.path, p.kind, p.version, p.description, p.manifest, p.metadata
		FROM packages_fts JOIN packages p ON p.id = packages_fts.rowid
		WHERE packages_fts MATCH ?
		ORDER BY bm25(packages_fts, 10.0, 2.0, 1.0, 5.0), p.name, p.path, p.kind, p.manifest
		LIMIT ?`, expression, limit)
}

// searchTerms splits a query into terms FTS5 can tokenise: control
// characters and invalid UTF-8 become spaces, and terms without a letter or
// digit (which the tokenizer would drop entirely) are discarded. A term
// repeated (ignoring case, as the tokenizer does) is kept once, at its
// last place, so the last term, the one that may be a prefix, stays last.
// The terms are distinct: each costs a phrase of the FTS5 expression.
func searchTerms(query string) []string {
	query = strings.ToValidUTF8(query, " ")
	query = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, query)
	fields := strings.Fields(query)
	var terms []string
	seen := make(map[string]bool, len(fields))
	for i := len(fields) - 1; i >= 0; i-- {
		field := fields[i]
		key := strings.ToLower(field)
		if seen[key] || strings.IndexFunc(field, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			continue
		}
		seen[key] = true
		terms = append(terms, field)
	}
	slices.Reverse(terms)
	return terms
}

// ftsExpression quotes every term as an FTS5 string (a phrase of the tokens
// in it), so that quotes, *, -, :, ^, +, parentheses and the words AND, OR,
// NOT and NEAR are plain text, and lets the last term match as a prefix.
func ftsExpression(terms []string, joiner string) string {
	quoted := make([]string, len(terms))
	for i, term := range terms {
		quoted[i] = `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
	}
	quoted[len(quoted)-1] += "*"
	return strings.Join(quoted, joiner)
}

// queryPackages runs a package query and attaches each package's
// dependencies.
func queryPackages(ctx context.Context, db *sql.DB, query string, args ...any) ([]Package, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("querying packages: %w", err)
	}
	defer rows.Close()
	pkgs := []Package{}
	var ids []int64
	for rows.Next() {
		var p Package
		var id int64
		var metadataJSON string
		if err := rows.Scan(&id, &p.Name, &p.Path, &p.Kind, &p.Version, &p.Description, &p.Manifest, &metadataJSON); err != nil {
			return nil, fmt.Errorf("reading package row: %w", err)
		}
		p.Metadata = map[string]any{}
		if err := json.Unmarshal([]byte(metadataJSON), &p.Metadata); err != nil {
			return nil, fmt.Errorf("decoding metadata of package %s: %w", p.Name, err)
		}
		p.Dependencies = []Dependency{}
		pkgs = append(pkgs, p)
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading packages: %w", err)
	}
	rows.Close()
	if len(pkgs) == 0 {
		return pkgs, nil
	}
	index := make(map[int64]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	// Reading all dependencies beats an IN list for the small tables this is.
	depRows, err := db.QueryContext(ctx, `SELECT package_id, name, version_req, dep_kind, is_internal
		FROM package_deps ORDER BY package_id, position`)
	if err != nil {
		return nil, fmt.Errorf("querying package dependencies: %w", err)
	}
	defer depRows.Close()
	for depRows.Next() {
		var id int64
		var dep Dependency
		if err := depRows.Scan(&id, &dep.Name, &dep.VersionReq, &dep.DepKind, &dep.IsInternal); err != nil {
			return nil, fmt.Errorf("reading dependency row: %w", err)
		}
		if i, ok := index[id]; ok {
			pkgs[i].Dependencies = append(pkgs[i].Dependencies, dep)
		}
	}
	if err := depRows.Err(); err != nil {
		return nil, fmt.Errorf("reading package dependencies: %w", err)
	}
	return pkgs, nil
}

// nameParts splits a package name into lower-cased words at punctuation,
// case changes and letter/digit boundaries: "@acme/HTTPServer2" → acme http
// server 2.
func nameParts(name string) []string {
	var parts []string
	runes := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, strings.ToLower(string(runes[start:end])))
		}
		start = -1
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := runes[i-1]
		boundary := unicode.IsDigit(r) != unicode.IsDigit(prev) ||
			unicode.IsUpper(r) && unicode.IsLower(prev) ||
			// the last capital of an acronym starts the next word: HTTPServer → HTTP Server
			unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1])
		if boundary {
			flush(i)
			start = i
		}
	}
	flush(len(runes))
	return parts
}
