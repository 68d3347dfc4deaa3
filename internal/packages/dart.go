package packages

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// parsePubspec reads a Dart/Flutter pubspec.yaml: dependencies (runtime),
// dev_dependencies (dev), path dependencies, and a pub workspace
// (`workspace:` list of member folders).
func parsePubspec(m Manifest, dir string) (*draft, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(m.Data, &doc); err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	d := &draft{isPackage: true, pkg: Package{Kind: KindDart, Metadata: map[string]any{}}}
	d.pkg.Name = yamlScalar(doc["name"])
	d.pkg.Version = yamlScalar(doc["version"])
	d.pkg.Description = strings.Join(strings.Fields(yamlScalar(doc["description"])), " ")
	if publishTo := yamlScalar(doc["publish_to"]); publishTo != "" {
		d.pkg.Metadata["publish_to"] = publishTo
	}
	if members := stringList(doc["workspace"]); len(members) > 0 {
		d.workspaces = append(d.workspaces, workspaceDecl{root: dir, kind: KindDart, include: members, rootIsPackage: true})
	}
	for _, section := range []struct{ field, kind string }{{"dependencies", DepRuntime}, {"dev_dependencies", DepDev}} {
		deps, _ := doc[section.field].(map[string]any)
		for _, name := range sortedKeys(deps) {
			d.deps = append(d.deps, pubDependency(name, deps[name], section.kind, dir))
		}
	}
	return d, nil
}

// pubDependency interprets `name: ^1.0`, `name:` (any version) and the
// table forms {version, path, git, hosted, sdk}.
func pubDependency(name string, spec any, kind, dir string) rawDep {
	dep := rawDep{Dependency: Dependency{Name: name, DepKind: kind}}
	switch v := spec.(type) {
	case map[string]any:
		dep.VersionReq = yamlScalar(v["version"])
		if local := yamlScalar(v["path"]); local != "" {
			dep.localPath = joinRel(dir, local)
		}
		if sdk := yamlScalar(v["sdk"]); sdk != "" && dep.VersionReq == "" {
			dep.VersionReq = "sdk:" + sdk
		}
		if git := v["git"]; git != nil && dep.VersionReq == "" {
			if table, ok := git.(map[string]any); ok {
				git = table["url"]
			}
			if url := yamlScalar(git); url != "" {
				dep.VersionReq = "git+" + url
			}
		}
	default:
		dep.VersionReq = yamlScalar(v)
	}
	return dep
}

// yamlScalar renders a YAML scalar (strings, numbers such as `version: 1.0`,
// booleans) as a string; other values give "".
func yamlScalar(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case int, int64, uint64, float64, bool:
		return fmt.Sprint(t)
	}
	return ""
}
