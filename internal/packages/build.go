package packages

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
)

// rawDep is a dependency as a parser saw it, before the whole set of
// manifests is known: it may still point at a folder, a project file or the
// workspace root for its details.
type rawDep struct {
	Dependency
	localPath      string // folder (relative to the root) a path dependency points at
	localManifest  string // manifest file (relative to the root) a project reference points at
	gradleProject  string // Gradle project path such as ":libs:core", resolved through settings
	gradleAccessor string // Gradle type-safe project accessor such as "libs.core" (from projects.libs.core)
	catalogRef     string // Gradle version catalog reference such as "libs.kotlin.reflect"
	fromWorkspace  bool   // Cargo `workspace = true`: details come from [workspace.dependencies]
	workspaceKey   string // the key to look up in [workspace.dependencies]
}

// draft is what one manifest contributes before cross-manifest resolution.
type draft struct {
	manifest   string
	pkg        Package // Dependencies unset; see deps
	deps       []rawDep
	isPackage  bool // false for manifests that only configure workspaces or builds
	workspaces []workspaceDecl

	cargo   *cargoExtra     // Cargo.toml specifics needed by workspace inheritance
	gradle  *gradleSettings // settings.gradle(.kts) contents
	catalog *versionCatalog // gradle/<name>.versions.toml contents
	pom     *pomProject     // pom.xml contents, resolved against parents later
}

// parser reads one manifest. It returns a nil draft for a file that declares
// nothing of interest (a setup.cfg holding only linter settings, say).
type parser func(m Manifest, dir string) (*draft, error)

func parserFor(manifestPath string) parser {
	if isVersionCatalog(manifestPath) {
		return parseVersionCatalog
	}
	base := path.Base(manifestPath)
	switch base {
	case "package.json":
		return parseNPM
	case "pnpm-workspace.yaml":
		return parsePnpmWorkspace
	case "go.mod":
		return parseGoMod
	case "go.work":
		return parseGoWork
	case "Cargo.toml":
		return parseCargo
	case "pyproject.toml":
		return parsePyproject
	case "setup.cfg":
		return parseSetupCfg
	case "pom.xml":
		return parsePOM
	case "build.gradle", "build.gradle.kts":
		return parseGradleBuild
	case "settings.gradle", "settings.gradle.kts":
		return parseGradleSettings
	case "composer.json":
		return parseComposer
	case "pubspec.yaml":
		return parsePubspec
	case "Package.swift":
		return parseSwift
	}
	switch path.Ext(base) {
	case ".gemspec":
		return parseGemspec
	case ".csproj", ".fsproj", ".vbproj":
		return parseMSBuild
	}
	return nil
}

// cleanRel turns p into a clean slash-separated relative path.
func cleanRel(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

// joinRel resolves a relative reference found in a manifest in folder dir.
// It returns "" when the reference is absolute or leaves the root.
func joinRel(dir, ref string) string {
	ref = strings.ReplaceAll(strings.TrimSpace(ref), "\\", "/")
	if ref == "" || strings.HasPrefix(ref, "/") || (len(ref) > 1 && ref[1] == ':') {
		return ""
	}
	joined := path.Join(dir, ref)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return ""
	}
	return joined
}

// nameUnnamed names packages that declared no name after their folder. At
// the root the folder name is unknown: such a manifest is skipped, with a
// problem unless it is the root of a workspace (declared by itself or by a
// sibling such as pnpm-workspace.yaml or settings.gradle), where a nameless
// manifest is normal.
func nameUnnamed(drafts []*draft, problems []Problem) ([]*draft, []Problem) {
	workspaceRoots := map[string]bool{}
	for _, d := range drafts {
		for _, w := range d.workspaces {
			workspaceRoots[w.kind+"\x00"+w.root] = true
		}
	}
	kept := drafts[:0]
	for _, d := range drafts {
		if d.isPackage && d.pkg.Name == "" {
			switch {
			case d.pkg.Path != ".":
				d.pkg.Name = path.Base(d.pkg.Path)
			case workspaceRoots[d.pkg.Kind+"\x00"+d.pkg.Path]:
				d.isPackage = false
			default:
				problems = append(problems, Problem{Path: d.manifest, Message: "declares no package name; a package at the root needs one, so it is skipped"})
				continue
			}
		}
		kept = append(kept, d)
	}
	return kept, problems
}

// ecosystem groups kinds whose packages can depend on each other by name.
func ecosystem(kind string) string {
	if kind == KindMaven || kind == KindGradle {
		return "jvm"
	}
	return kind
}

// nameKey normalises a package name the way its ecosystem compares names.
func nameKey(kind, name string) string {
	switch kind {
	case KindPython:
		return normalizePythonName(name)
	case KindComposer, KindNuGet, KindSwift:
		return strings.ToLower(name)
	}
	return name
}

// packageKeys are the names other manifests may use to refer to d.
func packageKeys(d *draft) []string {
	keys := []string{nameKey(d.pkg.Kind, d.pkg.Name)}
	if d.pkg.Kind == KindGradle {
		if group, ok := d.pkg.Metadata["group"].(string); ok && group != "" {
			keys = append(keys, group+":"+d.pkg.Name)
		}
	}
	return keys
}

// finish turns a resolved draft into its Package: dependencies deduplicated
// and sorted, metadata in JSON-compatible form so that a Package reads back
// from the database exactly as it was built.
func finish(d *draft) Package {
	p := d.pkg
	type key struct {
		dep    Dependency
		target Ref
	}
	seen := map[key]bool{}
	p.Dependencies = []Dependency{}
	for _, raw := range d.deps {
		dep := raw.Dependency
		dep.Name = strings.TrimSpace(dep.Name)
		dep.VersionReq = strings.TrimSpace(dep.VersionReq)
		k := key{dep: dep}
		if dep.Target != nil {
			k.dep.Target, k.target = nil, *dep.Target
		}
		if dep.Name == "" || seen[k] {
			continue
		}
		seen[k] = true
		p.Dependencies = append(p.Dependencies, dep)
	}
	sortDependencies(p.Dependencies)
	p.Metadata = normalizeMetadata(p.Metadata)
	return p
}

func sortDependencies(deps []Dependency) {
	sort.Slice(deps, func(i, j int) bool {
		a, b := deps[i], deps[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.DepKind != b.DepKind {
			return a.DepKind < b.DepKind
		}
		if a.VersionReq != b.VersionReq {
			return a.VersionReq < b.VersionReq
		}
		if a.IsInternal != b.IsInternal {
			return !a.IsInternal
		}
		return refString(a.Target) < refString(b.Target)
	})
}

func refString(r *Ref) string {
	if r == nil {
		return ""
	}
	return r.Kind + "\x00" + r.Path
}

func sortPackages(pkgs []Package) {
	sort.Slice(pkgs, func(i, j int) bool {
		a, b := pkgs[i], pkgs[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Manifest < b.Manifest
	})
}

// normalizeMetadata round-trips metadata through JSON so that it holds the
// same value types a database read produces (float64, []any, map[string]any).
func normalizeMetadata(m map[string]any) map[string]any {
	out := map[string]any{}
	if len(m) == 0 {
		return out
	}
	data, err := json.Marshal(m)
	if err != nil {
		return m // parsers only store JSON-safe values; keep them as they are
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return m
	}
	return out
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	line, col = 1, 1
	for _, b := range data[:offset] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// jsonError describes a JSON decoding failure with its position.
func jsonError(data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line, col := lineCol(data, syntax.Offset)
		return fmt.Errorf("invalid JSON at line %d, column %d: %s", line, col, syntax.Error())
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset)
		return fmt.Errorf("invalid JSON at line %d, column %d: %s", line, col, typ.Error())
	}
	return fmt.Errorf("invalid JSON: %w", err)
}

// stringValue returns v when it is a string.
func stringValue(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// stringList returns the strings of v, a []any or a single string.
func stringList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, item := range t {
			if s, ok := item.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return t
	}
	return nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
