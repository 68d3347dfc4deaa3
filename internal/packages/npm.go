package packages

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// npmDependencyFields maps package.json dependency sections to kinds.
var npmDependencyFields = []struct{ field, kind string }{
	{"dependencies", DepRuntime},
	{"devDependencies", DepDev},
	{"peerDependencies", DepPeer},
	{"optionalDependencies", DepOptional},
}

// parseNPM reads a package.json (npm, yarn and pnpm share the format).
func parseNPM(m Manifest, dir string) (*draft, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(m.Data, &doc); err != nil {
		return nil, jsonError(m.Data, err)
	}
	name, err := jsonString(doc, "name")
	if err != nil {
		return nil, err
	}
	d := &draft{isPackage: true, pkg: Package{Kind: KindNPM, Name: name, Metadata: map[string]any{}}}
	d.pkg.Version, _ = jsonString(doc, "version")
	d.pkg.Description, _ = jsonString(doc, "description")

	var private any
	if json.Unmarshal(doc["private"], &private) == nil {
		switch v := private.(type) {
		case bool:
			d.pkg.Metadata["private"] = v
		case string:
			d.pkg.Metadata["private"] = v == "true"
		}
	}
	if license := npmLicense(doc["license"]); license != "" {
		d.pkg.Metadata["license"] = license
	}
	if bin := npmBin(doc["bin"], name); len(bin) > 0 {
		d.pkg.Metadata["bin"] = bin
	}
	if patterns := npmWorkspaces(doc["workspaces"]); len(patterns) > 0 {
		include, exclude := splitNegations(patterns)
		d.workspaces = append(d.workspaces, workspaceDecl{root: dir, kind: KindNPM, include: include, exclude: exclude, rootIsPackage: true})
	}

	for _, section := range npmDependencyFields {
		deps := jsonStringMap(doc[section.field])
		for _, depName := range sortedKeys(deps) {
			d.deps = append(d.deps, npmDependency(depName, deps[depName], section.kind, dir))
		}
	}
	return d, nil
}

// npmDependency interprets one "name": "spec" entry, following aliases
// ("npm:real@^1") and local references ("file:../x", "link:", "portal:").
func npmDependency(name, spec, kind, dir string) rawDep {
	dep := rawDep{Dependency: Dependency{Name: name, VersionReq: spec, DepKind: kind}}
	if alias, ok := strings.CutPrefix(spec, "npm:"); ok {
		// The scope's leading "@" is part of the name, not the separator.
		if at := strings.LastIndex(alias, "@"); at > 0 {
			dep.Name, dep.VersionReq = alias[:at], alias[at+1:]
		} else {
			dep.Name, dep.VersionReq = alias, ""
		}
	}
	for _, prefix := range []string{"file:", "link:", "portal:"} {
		if target, ok := strings.CutPrefix(spec, prefix); ok && !strings.HasSuffix(target, ".tgz") {
			dep.localPath = joinRel(dir, target)
		}
	}
	return dep
}

// jsonString returns the string field key of doc; it is an error for the
// field to exist with another type.
func jsonString(doc map[string]json.RawMessage, key string) (string, error) {
	raw, ok := doc[key]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%q must be a string, not %s", key, jsonKind(raw))
	}
	return strings.TrimSpace(s), nil
}

// jsonKind names the JSON type of raw for error messages.
func jsonKind(raw json.RawMessage) string {
	switch s := strings.TrimSpace(string(raw)); {
	case strings.HasPrefix(s, "{"):
		return "an object"
	case strings.HasPrefix(s, "["):
		return "an array"
	case s == "true" || s == "false":
		return "a boolean"
	default:
		return "a number"
	}
}

// jsonStringMap decodes an object of strings, ignoring entries of other types.
func jsonStringMap(raw json.RawMessage) map[string]string {
	var values map[string]any
	if json.Unmarshal(raw, &values) != nil {
		return nil
	}
	out := make(map[string]string, len(values))
	for k, v := range values {
		if s, ok := v.(string); ok {
			out[k] = s
		} else if v == nil {
			out[k] = ""
		}
	}
	return out
}

// npmLicense accepts "MIT", {"type": "MIT"} and the legacy [{"type": …}].
func npmLicense(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case map[string]any:
		return stringValue(t["type"])
	case []any:
		var names []string
		for _, item := range t {
			if obj, ok := item.(map[string]any); ok {
				if s := stringValue(obj["type"]); s != "" {
					names = append(names, s)
				}
			}
		}
		return strings.Join(names, " OR ")
	}
	return ""
}

// npmBin accepts "bin": "./cli.js" (the command is the unscoped package
// name) and "bin": {"cmd": "./cli.js"}.
func npmBin(raw json.RawMessage, pkgName string) map[string]any {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch t := v.(type) {
	case string:
		if pkgName == "" {
			return nil
		}
		return map[string]any{path.Base(pkgName): t}
	case map[string]any:
		out := map[string]any{}
		for k, target := range t {
			if s, ok := target.(string); ok {
				out[k] = s
			}
		}
		return out
	}
	return nil
}

// npmWorkspaces accepts ["packages/*"] and {"packages": ["packages/*"]}.
func npmWorkspaces(raw json.RawMessage) []string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	if obj, ok := v.(map[string]any); ok {
		v = obj["packages"]
	}
	return stringList(v)
}

// parsePnpmWorkspace reads pnpm-workspace.yaml: its packages globs make the
// npm packages they match members of the workspace rooted at its folder.
func parsePnpmWorkspace(m Manifest, dir string) (*draft, error) {
	var doc struct {
		Packages []string `yaml:"packages"`
	}
	if err := yaml.Unmarshal(m.Data, &doc); err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	if len(doc.Packages) == 0 {
		return nil, nil
	}
	include, exclude := splitNegations(doc.Packages)
	return &draft{workspaces: []workspaceDecl{{root: dir, kind: KindNPM, include: include, exclude: exclude, rootIsPackage: true}}}, nil
}
