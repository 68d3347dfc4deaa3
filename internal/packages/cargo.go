package packages

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// cargoExtra keeps what Cargo workspace inheritance needs after parsing.
type cargoExtra struct {
	isWorkspaceRoot  bool
	workspaceDeps    map[string]any    // [workspace.dependencies]
	workspacePackage map[string]any    // [workspace.package]
	inheritedFields  []string          // [package] fields written `field.workspace = true`
	patches          map[string]string // [patch.<registry>] name → folder it is patched to
}

// cargoDependencySections maps Cargo.toml dependency tables to kinds; the
// underscore spellings are Cargo's legacy aliases.
var cargoDependencySections = []struct{ table, kind string }{
	{"dependencies", DepRuntime},
	{"dev-dependencies", DepDev},
	{"dev_dependencies", DepDev},
	{"build-dependencies", DepBuild},
	{"build_dependencies", DepBuild},
}

// parseCargo reads a Cargo.toml. A virtual manifest (only [workspace]) is
// no package but still declares workspace membership.
func parseCargo(m Manifest, dir string) (*draft, error) {
	doc, err := decodeTOML(m.Data)
	if err != nil {
		return nil, err
	}
	d := &draft{cargo: &cargoExtra{}}
	// [patch.crates-io] foo = { path = "foo" } makes every dependency on
	// foo in the workspace use that folder ([replace] is its old form).
	if patch, ok := doc["patch"].(map[string]any); ok {
		for _, registry := range sortedKeys(patch) {
			entries, _ := patch[registry].(map[string]any)
			for _, key := range sortedKeys(entries) {
				spec, _ := entries[key].(map[string]any)
				if local := stringValue(spec["path"]); local != "" {
					name := key
					if renamed := stringValue(spec["package"]); renamed != "" {
						name = renamed
					}
					if d.cargo.patches == nil {
						d.cargo.patches = map[string]string{}
					}
					d.cargo.patches[name] = joinRel(dir, local)
				}
			}
		}
	}
	if ws, ok := doc["workspace"].(map[string]any); ok {
		d.cargo.isWorkspaceRoot = true
		d.cargo.workspaceDeps, _ = ws["dependencies"].(map[string]any)
		d.cargo.workspacePackage, _ = ws["package"].(map[string]any)
		d.workspaces = append(d.workspaces, workspaceDecl{
			root: dir, kind: KindCargo, rootIsPackage: true,
			include: stringList(ws["members"]), exclude: stringList(ws["exclude"]),
		})
	}
	pkgTable, ok := doc["package"].(map[string]any)
	if !ok {
		pkgTable, ok = doc["project"].(map[string]any) // pre-1.0 spelling
	}
	if !ok {
		if !d.cargo.isWorkspaceRoot {
			return nil, fmt.Errorf("Cargo.toml has neither [package] nor [workspace]")
		}
		return d, nil
	}
	name := stringValue(pkgTable["name"])
	if name == "" {
		return nil, fmt.Errorf("[package] has no name")
	}
	d.isPackage = true
	d.pkg = Package{Kind: KindCargo, Name: name, Metadata: map[string]any{}}
	for _, field := range []string{"version", "description", "edition", "license", "rust-version", "publish"} {
		value, present := pkgTable[field]
		if !present {
			continue
		}
		if table, ok := value.(map[string]any); ok && table["workspace"] == true {
			d.cargo.inheritedFields = append(d.cargo.inheritedFields, field)
			continue
		}
		setCargoField(&d.pkg, field, value)
	}
	if bins, ok := doc["bin"].([]any); ok {
		var names []string
		for _, bin := range bins {
			if table, ok := bin.(map[string]any); ok && stringValue(table["name"]) != "" {
				names = append(names, stringValue(table["name"]))
			}
		}
		if len(names) > 0 {
			d.pkg.Metadata["bin"] = names
		}
	}

	d.deps = cargoDependencies(doc, dir)
	// Platform-specific tables: [target.'cfg(unix)'.dependencies] and co.
	if targets, ok := doc["target"].(map[string]any); ok {
		for _, platform := range sortedKeys(targets) {
			if table, ok := targets[platform].(map[string]any); ok {
				d.deps = append(d.deps, cargoDependencies(table, dir)...)
			}
		}
	}
	return d, nil
}

// setCargoField stores one [package] (or [workspace.package]) field.
func setCargoField(p *Package, field string, value any) {
	switch field {
	case "version":
		p.Version = stringValue(value)
	case "description":
		p.Description = stringValue(value)
	case "publish":
		if b, ok := value.(bool); ok {
			p.Metadata["publish"] = b
		} else if registries := stringList(value); registries != nil {
			p.Metadata["publish"] = registries
		}
	default:
		if s := stringValue(value); s != "" {
			p.Metadata[strings.ReplaceAll(field, "-", "_")] = s
		}
	}
}

// cargoDependencies reads the dependency tables of table (the document or
// one target table).
func cargoDependencies(table map[string]any, dir string) []rawDep {
	var deps []rawDep
	for _, section := range cargoDependencySections {
		entries, ok := table[section.table].(map[string]any)
		if !ok {
			continue
		}
		for _, key := range sortedKeys(entries) {
			deps = append(deps, cargoDependency(key, entries[key], section.kind, dir))
		}
	}
	return deps
}

// cargoDependency interprets `key = "1.0"` or `key = { version, path,
// package, optional, workspace, git }`.
func cargoDependency(key string, spec any, kind, dir string) rawDep {
	dep := rawDep{Dependency: Dependency{Name: key, DepKind: kind}}
	switch v := spec.(type) {
	case string:
		dep.VersionReq = v
	case map[string]any:
		if v["workspace"] == true {
			dep.fromWorkspace = true
			dep.workspaceKey = key
		}
		applyCargoSpec(&dep, v, dir)
		if v["optional"] == true && kind == DepRuntime {
			dep.DepKind = DepOptional
		}
	}
	return dep
}

// applyCargoSpec copies version, path and rename from a dependency table;
// path is relative to dir, the folder of the manifest that wrote it.
func applyCargoSpec(dep *rawDep, spec map[string]any, dir string) {
	if version := stringValue(spec["version"]); version != "" {
		dep.VersionReq = version
	} else if git := stringValue(spec["git"]); git != "" && dep.VersionReq == "" {
		dep.VersionReq = "git+" + git
	}
	if local := stringValue(spec["path"]); local != "" {
		dep.localPath = joinRel(dir, local)
	}
	if renamed := stringValue(spec["package"]); renamed != "" {
		dep.Name = renamed // the key is only the local alias
	}
}

// inheritCargoWorkspace fills `workspace = true` fields and dependencies of
// Cargo members from their workspace root, and points registry
// dependencies the root patches ([patch.crates-io]) at their local folder.
func inheritCargoWorkspace(drafts []*draft) {
	roots := map[string]*draft{}
	for _, d := range drafts {
		if d.cargo != nil && d.cargo.isWorkspaceRoot {
			roots[d.pkg.Path] = d
		}
	}
	for _, d := range drafts {
		if d.cargo == nil || !d.isPackage {
			continue
		}
		root := cargoRootOf(d, roots)
		patches := d.cargo.patches // a crate outside any workspace is its own root
		if root != nil {
			patches = root.cargo.patches
		}
		for i := range d.deps {
			dep := &d.deps[i]
			if dep.fromWorkspace && root != nil {
				switch spec := root.cargo.workspaceDeps[dep.workspaceKey].(type) {
				case string:
					dep.VersionReq = spec
				case map[string]any:
					applyCargoSpec(dep, spec, root.pkg.Path)
				}
			}
			if folder, patched := patches[dep.Name]; patched && dep.localPath == "" && !strings.HasPrefix(dep.VersionReq, "git+") {
				dep.localPath = folder
			}
		}
		if root == nil {
			continue
		}
		for _, field := range d.cargo.inheritedFields {
			if value, ok := root.cargo.workspacePackage[field]; ok {
				setCargoField(&d.pkg, field, value)
			}
		}
	}
}

// cargoRootOf finds the workspace d belongs to: the one that listed it as a
// member, else the nearest enclosing workspace root (Cargo's own rule).
func cargoRootOf(d *draft, roots map[string]*draft) *draft {
	if ws, ok := d.pkg.Metadata["workspace"].(string); ok {
		if root := roots[ws]; root != nil {
			return root
		}
	}
	for dir := d.pkg.Path; ; dir = path.Dir(dir) {
		if root := roots[dir]; root != nil {
			return root
		}
		if dir == "." || dir == "/" {
			return nil
		}
	}
}

// decodeTOML parses a TOML document into generic tables, describing syntax
// errors with their position.
func decodeTOML(data []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(data, &doc); err != nil {
		var decodeErr *toml.DecodeError
		if errors.As(err, &decodeErr) {
			line, col := decodeErr.Position()
			return nil, fmt.Errorf("invalid TOML at line %d, column %d: %s", line, col, strings.TrimPrefix(decodeErr.Error(), "toml: "))
		}
		return nil, fmt.Errorf("invalid TOML: %w", err)
	}
	return doc, nil
}
