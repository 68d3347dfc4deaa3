package packages

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

// parsePyproject reads a pyproject.toml: PEP 621 [project], Poetry
// [tool.poetry], PEP 735 [dependency-groups] and uv's dev dependencies,
// sources and workspace. A pyproject.toml that only configures tools
// declares no package.
func parsePyproject(m Manifest, dir string) (*draft, error) {
	doc, err := decodeTOML(m.Data)
	if err != nil {
		return nil, err
	}
	project, _ := doc["project"].(map[string]any)
	tool, _ := doc["tool"].(map[string]any)
	poetry, _ := tool["poetry"].(map[string]any)
	uv, _ := tool["uv"].(map[string]any)

	d := &draft{pkg: Package{Kind: KindPython, Metadata: map[string]any{}}}
	if ws, ok := uv["workspace"].(map[string]any); ok {
		d.workspaces = append(d.workspaces, workspaceDecl{
			root: dir, kind: KindPython, rootIsPackage: true,
			include: stringList(ws["members"]), exclude: stringList(ws["exclude"]),
		})
	}

	// PEP 621 first; Poetry fills what [project] leaves out.
	d.pkg.Name = stringValue(project["name"])
	d.pkg.Version = stringValue(project["version"])
	d.pkg.Description = stringValue(project["description"])
	if d.pkg.Name == "" {
		d.pkg.Name = stringValue(poetry["name"])
	}
	if d.pkg.Version == "" {
		d.pkg.Version = stringValue(poetry["version"])
	}
	if d.pkg.Description == "" {
		d.pkg.Description = stringValue(poetry["description"])
	}
	if d.pkg.Name == "" {
		if len(d.workspaces) > 0 {
			return d, nil // a virtual uv workspace root
		}
		return nil, nil
	}
	d.isPackage = true
	if requires := stringValue(project["requires-python"]); requires != "" {
		d.pkg.Metadata["requires_python"] = requires
	}
	if license := pythonLicense(project["license"]); license != "" {
		d.pkg.Metadata["license"] = license
	} else if license := stringValue(poetry["license"]); license != "" {
		d.pkg.Metadata["license"] = license
	}
	if system, ok := doc["build-system"].(map[string]any); ok {
		if backend := stringValue(system["build-backend"]); backend != "" {
			d.pkg.Metadata["build_backend"] = backend
		}
	}
	if scripts, ok := project["scripts"].(map[string]any); ok && len(scripts) > 0 {
		d.pkg.Metadata["bin"] = sortedKeys(scripts)
	}

	for _, req := range stringList(project["dependencies"]) {
		d.deps = appendRequirement(d.deps, req, DepRuntime)
	}
	if extras, ok := project["optional-dependencies"].(map[string]any); ok {
		for _, extra := range sortedKeys(extras) {
			for _, req := range stringList(extras[extra]) {
				d.deps = appendRequirement(d.deps, req, DepOptional)
			}
		}
	}
	if groups, ok := doc["dependency-groups"].(map[string]any); ok {
		for _, group := range sortedKeys(groups) {
			for _, req := range stringList(groups[group]) { // {include-group = …} entries are skipped
				d.deps = appendRequirement(d.deps, req, DepDev)
			}
		}
	}
	for _, req := range stringList(uv["dev-dependencies"]) {
		d.deps = appendRequirement(d.deps, req, DepDev)
	}

	if poetry != nil {
		d.deps = append(d.deps, poetryDependencies(poetry["dependencies"], DepRuntime, dir)...)
		d.deps = append(d.deps, poetryDependencies(poetry["dev-dependencies"], DepDev, dir)...)
		if groups, ok := poetry["group"].(map[string]any); ok {
			for _, group := range sortedKeys(groups) {
				if table, ok := groups[group].(map[string]any); ok {
					d.deps = append(d.deps, poetryDependencies(table["dependencies"], DepDev, dir)...)
				}
			}
		}
	}

	// uv sources: `name = { path = "../x" }` or `{ workspace = true }` make a
	// requirement local.
	if sources, ok := uv["sources"].(map[string]any); ok {
		for i := range d.deps {
			source, _ := sources[d.deps[i].Name].(map[string]any)
			if local := stringValue(source["path"]); local != "" {
				d.deps[i].localPath = joinRel(dir, local)
			}
		}
	}
	return d, nil
}

// pythonLicense accepts license = "MIT" (PEP 639) and {text = "MIT"}.
func pythonLicense(v any) string {
	if table, ok := v.(map[string]any); ok {
		return stringValue(table["text"])
	}
	return stringValue(v)
}

// poetryDependencies reads a Poetry dependency table, skipping the python
// version constraint.
func poetryDependencies(v any, kind, dir string) []rawDep {
	table, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var deps []rawDep
	for _, name := range sortedKeys(table) {
		if strings.EqualFold(name, "python") {
			continue
		}
		dep := rawDep{Dependency: Dependency{Name: name, DepKind: kind}}
		specs := []any{table[name]}
		if list, ok := table[name].([]any); ok { // multiple-constraint dependencies
			specs = list
		}
		var versions []string
		for _, spec := range specs {
			switch s := spec.(type) {
			case string:
				versions = append(versions, s)
			case map[string]any:
				if version := stringValue(s["version"]); version != "" {
					versions = append(versions, version)
				}
				if local := stringValue(s["path"]); local != "" {
					dep.localPath = joinRel(dir, local)
				}
				if s["optional"] == true && kind == DepRuntime {
					dep.DepKind = DepOptional
				}
			}
		}
		dep.VersionReq = strings.Join(versions, " || ")
		deps = append(deps, dep)
	}
	return deps
}

// pep508Name matches the distribution name at the start of a requirement.
var pep508Name = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?`)

// parseRequirement splits a PEP 508 requirement such as
// `requests[socks] (>=2.8, <3) ; python_version < "3.8"` into its name and
// version requirement; environment markers are dropped. ok is false when
// the string does not start with a distribution name.
func parseRequirement(req string) (name, version string, ok bool) {
	req = strings.TrimSpace(req)
	name = pep508Name.FindString(req)
	if name == "" {
		return "", "", false
	}
	rest := strings.TrimSpace(req[len(name):])
	if strings.HasPrefix(rest, "[") { // extras
		if end := strings.Index(rest, "]"); end >= 0 {
			rest = strings.TrimSpace(rest[end+1:])
		} else {
			return "", "", false
		}
	}
	if rest != "" && !strings.ContainsRune("<>=!~(@;", rune(rest[0])) {
		return "", "", false // not a version specifier, URL or marker
	}
	if strings.HasPrefix(rest, "@") { // a direct URL reference
		url := strings.TrimSpace(rest[1:])
		if semi := strings.Index(url, " ;"); semi >= 0 {
			url = url[:semi]
		}
		return name, "@ " + strings.TrimSpace(url), true
	}
	if semi := strings.Index(rest, ";"); semi >= 0 {
		rest = rest[:semi]
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
		rest = strings.TrimSpace(rest[1 : len(rest)-1])
	}
	return name, strings.Join(strings.Fields(rest), " "), true
}

func appendRequirement(deps []rawDep, req, kind string) []rawDep {
	name, version, ok := parseRequirement(req)
	if !ok {
		return deps
	}
	return append(deps, rawDep{Dependency: Dependency{Name: name, VersionReq: version, DepKind: kind}})
}

var pythonNameSeparators = regexp.MustCompile(`[-_.]+`)

// normalizePythonName applies PEP 503: names differing only in case and in
// runs of "-", "_" and "." are the same project.
func normalizePythonName(name string) string {
	return pythonNameSeparators.ReplaceAllString(strings.ToLower(name), "-")
}

// parseSetupCfg reads a setuptools setup.cfg: [metadata] name, version and
// description; [options] install_requires (runtime), tests_require (dev),
// setup_requires (build); [options.extras_require] (optional). A setup.cfg
// without [metadata] name (only linter settings, say) declares no package.
func parseSetupCfg(m Manifest, _ string) (*draft, error) {
	ini, err := parseINI(m.Data)
	if err != nil {
		return nil, err
	}
	meta := ini["metadata"]
	name := meta["name"]
	if name == "" {
		return nil, nil
	}
	d := &draft{isPackage: true, pkg: Package{Kind: KindPython, Name: name, Metadata: map[string]any{}}}
	if !isSetupDirective(meta["version"]) {
		d.pkg.Version = meta["version"]
	}
	if !isSetupDirective(meta["description"]) {
		d.pkg.Description = meta["description"]
	}
	if license := meta["license"]; license != "" && !isSetupDirective(license) {
		d.pkg.Metadata["license"] = license
	}
	options := ini["options"]
	if requires := options["python_requires"]; requires != "" {
		d.pkg.Metadata["requires_python"] = requires
	}
	for _, field := range []struct{ key, kind string }{
		{"install_requires", DepRuntime},
		{"tests_require", DepDev},
		{"setup_requires", DepBuild},
	} {
		for _, req := range setupList(options[field.key]) {
			d.deps = appendRequirement(d.deps, req, field.kind)
		}
	}
	extras := ini["options.extras_require"]
	for _, extra := range sortedKeys(extras) {
		for _, req := range setupList(extras[extra]) {
			d.deps = appendRequirement(d.deps, req, DepOptional)
		}
	}
	return d, nil
}

// isSetupDirective reports values setuptools computes ("attr: pkg.VERSION",
// "file: README.md"), which are not the value itself.
func isSetupDirective(v string) bool {
	return strings.HasPrefix(v, "attr:") || strings.HasPrefix(v, "file:")
}

// setupList splits a setup.cfg list value: one item per line, or
// comma-separated on one line.
func setupList(v string) []string {
	if isSetupDirective(v) {
		return nil
	}
	var items []string
	for _, line := range strings.Split(v, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !strings.Contains(v, "\n") && strings.Contains(line, ",") && !strings.Contains(line, ";") && !strings.Contains(line, "(") {
			for _, item := range strings.Split(line, ",") {
				if item = strings.TrimSpace(item); item != "" {
					items = append(items, item)
				}
			}
			continue
		}
		items = append(items, line)
	}
	return items
}

// parseINI reads the INI dialect of setup.cfg (Python's configparser):
// [section] headers, `key = value` or `key: value`, indented continuation
// lines, and full-line comments starting with # or ;. Keys are lower-cased.
func parseINI(data []byte) (map[string]map[string]string, error) {
	sections := map[string]map[string]string{}
	var section map[string]string
	lastKey := ""
	scanner := bufio.NewScanner(bytes.NewReader(data))
	scanner.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for lineNo := 1; scanner.Scan(); lineNo++ {
		raw := strings.TrimRight(scanner.Text(), " \t\r")
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";") {
			continue
		}
		if raw[0] == ' ' || raw[0] == '\t' { // continuation of the previous value
			if section == nil || lastKey == "" {
				return nil, fmt.Errorf("invalid INI at line %d: indented line outside a value", lineNo)
			}
			if section[lastKey] == "" {
				section[lastKey] = trimmed
			} else {
				section[lastKey] += "\n" + trimmed
			}
			continue
		}
		if strings.HasPrefix(trimmed, "[") {
			if !strings.HasSuffix(trimmed, "]") {
				return nil, fmt.Errorf("invalid INI at line %d: unterminated section header %q", lineNo, trimmed)
			}
			name := strings.TrimSpace(trimmed[1 : len(trimmed)-1])
			if sections[name] == nil {
				sections[name] = map[string]string{}
			}
			section, lastKey = sections[name], ""
			continue
		}
		sep := strings.IndexAny(trimmed, "=:")
		if sep <= 0 {
			return nil, fmt.Errorf("invalid INI at line %d: expected key = value, got %q", lineNo, trimmed)
		}
		if section == nil {
			return nil, fmt.Errorf("invalid INI at line %d: key outside any [section]", lineNo)
		}
		lastKey = strings.ToLower(strings.TrimSpace(trimmed[:sep]))
		section[lastKey] = strings.TrimSpace(trimmed[sep+1:])
	}
	if err := scanner.Err(); err != nil {
		return nil, fmt.Errorf("reading INI: %w", err)
	}
	return sections, nil
}

// mergePython joins a pyproject.toml and a setup.cfg describing the same
// package folder (setuptools projects often split metadata between them):
// pyproject.toml wins for every field it sets; dependencies are united.
func mergePython(drafts []*draft) []*draft {
	byFolder := map[string]*draft{}
	for _, d := range drafts {
		if d.isPackage && d.pkg.Kind == KindPython && path.Base(d.manifest) == "pyproject.toml" {
			byFolder[d.pkg.Path] = d
		}
	}
	kept := drafts[:0]
	for _, d := range drafts {
		primary := byFolder[d.pkg.Path]
		if !d.isPackage || path.Base(d.manifest) != "setup.cfg" || primary == nil ||
			normalizePythonName(primary.pkg.Name) != normalizePythonName(d.pkg.Name) {
			kept = append(kept, d)
			continue
		}
		if primary.pkg.Version == "" {
			primary.pkg.Version = d.pkg.Version
		}
		if primary.pkg.Description == "" {
			primary.pkg.Description = d.pkg.Description
		}
		for _, key := range sortedKeys(d.pkg.Metadata) {
			if _, set := primary.pkg.Metadata[key]; !set {
				primary.pkg.Metadata[key] = d.pkg.Metadata[key]
			}
		}
		primary.deps = append(primary.deps, d.deps...)
		sources := append(stringList(primary.pkg.Metadata["merged_from"]), d.manifest)
		sort.Strings(sources)
		primary.pkg.Metadata["merged_from"] = sources
	}
	return kept
}
