package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/specs"
	"github.com/lore-dev/lore/internal/store"
)

// The packages and specs of a collection are plain rows, written whole by
// every run and read whole by the services that rank and navigate them.

// SavePackages replaces the collection's packages, keeping their order.
func (t *tx) SavePackages(ctx context.Context, pkgs []packages.Package) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM packages WHERE collection_id = ?`, t.collection); err != nil {
		return fmt.Errorf("clearing packages: %w", err)
	}
	insPkg, err := t.tx.PrepareContext(ctx, `INSERT INTO packages(collection_id, ord, name, path, kind, version, description, manifest, metadata)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing package insert: %w", err)
	}
	defer insPkg.Close()
	insDep, err := t.tx.PrepareContext(ctx, `INSERT INTO package_deps(package_id, position, name, version_req, dep_kind, is_internal, target_kind, target_path)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing dependency insert: %w", err)
	}
	defer insDep.Close()
	for i, p := range pkgs {
		metadata := p.Metadata
		if metadata == nil {
			metadata = map[string]any{}
		}
		metadataJSON, err := json.Marshal(metadata)
		if err != nil {
			return fmt.Errorf("encoding metadata of package %s (%s): %w", p.Name, p.Manifest, err)
		}
		res, err := insPkg.ExecContext(ctx, t.collection, i, p.Name, p.Path, p.Kind, p.Version, p.Description, p.Manifest, string(metadataJSON))
		if err != nil {
			return fmt.Errorf("saving package %s (%s): %w", p.Name, p.Manifest, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for position, dep := range p.Dependencies {
			var targetKind, targetPath string
			if dep.Target != nil {
				targetKind, targetPath = dep.Target.Kind, dep.Target.Path
			}
			if _, err := insDep.ExecContext(ctx, id, position, dep.Name, dep.VersionReq, dep.DepKind, dep.IsInternal, targetKind, targetPath); err != nil {
				return fmt.Errorf("saving dependency %s of package %s: %w", dep.Name, p.Name, err)
			}
		}
	}
	return nil
}

// Packages returns every package of the collection, sorted by name, path,
// kind and manifest, each with its dependencies in declaration order.
func (r *reader) Packages(ctx context.Context) ([]packages.Package, error) {
	rows, err := r.d.db.QueryContext(ctx, `SELECT id, name, path, kind, version, description, manifest, metadata
		FROM packages WHERE collection_id = ? ORDER BY name, path, kind, manifest`, r.id)
	if err != nil {
		return nil, fmt.Errorf("reading packages: %w", err)
	}
	defer rows.Close()
	pkgs := []packages.Package{}
	index := map[int64]int{}
	for rows.Next() {
		var p packages.Package
		var id int64
		var metadataJSON string
		if err := rows.Scan(&id, &p.Name, &p.Path, &p.Kind, &p.Version, &p.Description, &p.Manifest, &metadataJSON); err != nil {
			return nil, fmt.Errorf("reading packages: %w", err)
		}
		p.Metadata = map[string]any{}
		if err := json.Unmarshal([]byte(metadataJSON), &p.Metadata); err != nil {
			return nil, fmt.Errorf("decoding metadata of package %s: %w", p.Name, err)
		}
		p.Dependencies = []packages.Dependency{}
		index[id] = len(pkgs)
		pkgs = append(pkgs, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading packages: %w", err)
	}
	rows.Close()
	targets := "d.target_kind, d.target_path"
	if r.d.noFactTargets {
		targets = "'', ''" // a schema before 9, read as it is
	}
	deps, err := r.d.db.QueryContext(ctx, `SELECT d.package_id, d.name, d.version_req, d.dep_kind, d.is_internal, `+targets+`
		FROM package_deps d JOIN packages p ON p.id = d.package_id WHERE p.collection_id = ?
		ORDER BY d.package_id, d.position`, r.id)
	if err != nil {
		return nil, fmt.Errorf("reading package dependencies: %w", err)
	}
	defer deps.Close()
	for deps.Next() {
		var id int64
		var dep packages.Dependency
		var targetKind, targetPath string
		if err := deps.Scan(&id, &dep.Name, &dep.VersionReq, &dep.DepKind, &dep.IsInternal, &targetKind, &targetPath); err != nil {
			return nil, fmt.Errorf("reading package dependencies: %w", err)
		}
		if targetKind != "" {
			dep.Target = &packages.Ref{Kind: targetKind, Path: targetPath}
		}
		if i, ok := index[id]; ok {
			pkgs[i].Dependencies = append(pkgs[i].Dependencies, dep)
		}
	}
	return pkgs, deps.Err()
}

// SaveSpecs replaces the collection's specs.
func (t *tx) SaveSpecs(ctx context.Context, all []specs.Spec) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM specs WHERE collection_id = ?`, t.collection); err != nil {
		return fmt.Errorf("clearing specs: %w", err)
	}
	insSpec, err := t.tx.PrepareContext(ctx, `INSERT INTO specs(collection_id, spec_id, title, purpose, kind, path, change, warnings, template)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing spec insert: %w", err)
	}
	defer insSpec.Close()
	insReq, err := t.tx.PrepareContext(ctx, `INSERT INTO spec_requirements(spec_row, ord, name, description, delta, line) VALUES(?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing requirement insert: %w", err)
	}
	defer insReq.Close()
	insScen, err := t.tx.PrepareContext(ctx, `INSERT INTO spec_scenarios(requirement_id, ord, name, given_clauses, when_clauses, then_clauses, line)
		VALUES(?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing scenario insert: %w", err)
	}
	defer insScen.Close()
	for _, s := range all {
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := insSpec.ExecContext(ctx, t.collection, s.ID, s.Title, s.Purpose, s.Kind, s.Path, s.Change, jsonList(s.Warnings), s.Template)
		if err != nil {
			return fmt.Errorf("saving spec %s: %w", s.ID, err)
		}
		specRow, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for ri, r := range s.Requirements {
			res, err := insReq.ExecContext(ctx, specRow, ri, r.Name, r.Description, r.Delta, r.Line)
			if err != nil {
				return fmt.Errorf("saving requirement %q of spec %s: %w", r.Name, s.ID, err)
			}
			reqID, err := res.LastInsertId()
			if err != nil {
				return err
			}
			for si, sc := range r.Scenarios {
				if _, err := insScen.ExecContext(ctx, reqID, si, sc.Name, jsonList(sc.Given), jsonList(sc.When), jsonList(sc.Then), sc.Line); err != nil {
					return fmt.Errorf("saving scenario %q of requirement %q in spec %s: %w", sc.Name, r.Name, s.ID, err)
				}
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

func fromJSONList(s string) ([]string, error) {
	out := []string{}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Specs returns every spec of the collection with its requirements and
// scenarios, by spec ID.
func (r *reader) Specs(ctx context.Context) ([]specs.Spec, error) {
	template := "s.template"
	if r.d.noFactTargets {
		template = "0" // a schema before 9, read as it is
	}
	rows, err := r.d.db.QueryContext(ctx, `SELECT s.id, s.spec_id, s.title, s.purpose, s.kind, s.path, s.change, s.warnings, `+template+`,
			coalesce(q.id, 0), coalesce(q.name, ''), coalesce(q.description, ''), coalesce(q.delta, ''), coalesce(q.line, 0)
		FROM specs s LEFT JOIN spec_requirements q ON q.spec_row = s.id
		WHERE s.collection_id = ? ORDER BY s.spec_id, q.ord`, r.id)
	if err != nil {
		return nil, fmt.Errorf("reading specs: %w", err)
	}
	defer rows.Close()
	out := []specs.Spec{}
	type at struct{ spec, req int }
	reqs := map[int64]at{}
	var lastRow int64 = -1
	for rows.Next() {
		var row, reqID int64
		var s specs.Spec
		var warnings string
		var q specs.Requirement
		if err := rows.Scan(&row, &s.ID, &s.Title, &s.Purpose, &s.Kind, &s.Path, &s.Change, &warnings, &s.Template,
			&reqID, &q.Name, &q.Description, &q.Delta, &q.Line); err != nil {
			return nil, fmt.Errorf("reading specs: %w", err)
		}
		if row != lastRow {
			if s.Warnings, err = fromJSONList(warnings); err != nil {
				return nil, fmt.Errorf("decoding the warnings of spec %s: %w", s.ID, err)
			}
			if len(s.Warnings) == 0 {
				s.Warnings = nil
			}
			s.Requirements = []specs.Requirement{}
			out = append(out, s)
			lastRow = row
		}
		if reqID != 0 {
			q.Scenarios = []specs.Scenario{}
			spec := &out[len(out)-1]
			reqs[reqID] = at{len(out) - 1, len(spec.Requirements)}
			spec.Requirements = append(spec.Requirements, q)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading specs: %w", err)
	}
	rows.Close()
	scen, err := r.d.db.QueryContext(ctx, `SELECT c.requirement_id, c.name, c.given_clauses, c.when_clauses, c.then_clauses, c.line
		FROM spec_scenarios c JOIN spec_requirements q ON q.id = c.requirement_id JOIN specs s ON s.id = q.spec_row
		WHERE s.collection_id = ? ORDER BY c.requirement_id, c.ord`, r.id)
	if err != nil {
		return nil, fmt.Errorf("reading scenarios: %w", err)
	}
	defer scen.Close()
	for scen.Next() {
		var reqID int64
		var sc specs.Scenario
		var given, when, then string
		if err := scen.Scan(&reqID, &sc.Name, &given, &when, &then, &sc.Line); err != nil {
			return nil, fmt.Errorf("reading scenarios: %w", err)
		}
		for _, c := range []struct {
			dst *[]string
			src string
		}{{&sc.Given, given}, {&sc.When, when}, {&sc.Then, then}} {
			if *c.dst, err = fromJSONList(c.src); err != nil {
				return nil, fmt.Errorf("decoding scenario %q: %w", sc.Name, err)
			}
		}
		if pos, ok := reqs[reqID]; ok {
			req := &out[pos.spec].Requirements[pos.req]
			req.Scenarios = append(req.Scenarios, sc)
		}
	}
	return out, scen.Err()
}

// ParsedFiles returns the collection's parsed files of one kind, by path.
func (t *tx) ParsedFiles(ctx context.Context, kind string) (map[string]store.ParsedFile, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT path, size, mtime_ns, hash, data FROM parsed_files
		WHERE collection_id = ? AND kind = ?`, t.collection, kind)
	if err != nil {
		return nil, fmt.Errorf("reading parsed %s files: %w", kind, err)
	}
	defer rows.Close()
	out := map[string]store.ParsedFile{}
	for rows.Next() {
		f := store.ParsedFile{Kind: kind}
		if err := rows.Scan(&f.Path, &f.Size, &f.MTimeNS, &f.Hash, &f.Data); err != nil {
			return nil, fmt.Errorf("reading parsed %s files: %w", kind, err)
		}
		if f.Data == nil {
			f.Data = []byte{}
		}
		out[f.Path] = f
	}
	return out, rows.Err()
}

// SaveParsedFiles replaces the collection's parsed files of one kind.
func (t *tx) SaveParsedFiles(ctx context.Context, kind string, files []store.ParsedFile) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM parsed_files WHERE collection_id = ? AND kind = ?`, t.collection, kind); err != nil {
		return fmt.Errorf("clearing parsed %s files: %w", kind, err)
	}
	ins, err := t.tx.PrepareContext(ctx, `INSERT INTO parsed_files(collection_id, kind, path, size, mtime_ns, hash, data)
		VALUES(?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("preparing parsed file insert: %w", err)
	}
	defer ins.Close()
	for _, f := range files {
		data := f.Data
		if data == nil {
			data = []byte{}
		}
		if _, err := ins.ExecContext(ctx, t.collection, kind, f.Path, f.Size, f.MTimeNS, f.Hash, data); err != nil {
			return fmt.Errorf("saving parsed file %s: %w", f.Path, err)
		}
	}
	return nil
}
