// Package packages discovers the packages of a (mono)repository from their
// manifests, resolves which dependencies point at other packages of the same
// repository, answers dependency-graph questions, and stores packages in the
// index's SQLite database with full-text search over them.
//
// Supported manifests: package.json and pnpm-workspace.yaml (npm, yarn,
// pnpm), go.mod and go.work, Cargo.toml, pyproject.toml and setup.cfg,
// pom.xml, build.gradle(.kts), settings.gradle(.kts) and Gradle version
// catalogs (gradle/<name>.versions.toml), composer.json,
// *.gemspec, *.csproj / *.fsproj / *.vbproj, pubspec.yaml and Package.swift.
//
// Naming conventions, chosen so that a dependency's name equals the Name of
// the package it refers to when that package is part of the repository:
//   - Go modules are named by module path.
//   - Maven projects are named "groupId:artifactId" (their coordinates, as
//     dependencies name them); group and artifact are also in Metadata.
//   - Gradle projects are named like Gradle names them: rootProject.name for
//     the root, the last segment of the include path for subprojects, the
//     folder name otherwise. Their external dependencies are "group:artifact";
//     type-safe project accessors (projects.fooBar) resolve to the project
//     whose name they spell, version catalog references (libs.foo.bar,
//     libs.bundles.x) to the catalog's coordinates.
//   - .NET projects are named AssemblyName, else PackageId, else the project
//     file's base name.
//   - A manifest without a declared name (an npm app, a composer project) is
//     named after its folder; at the repository root, where the folder name is
//     unknown, it is skipped (silently when it is a workspace root).
//
// A dependency is internal when it points at a package's folder or project
// file (path dependencies, go.mod replace directives, Gradle project(…),
// ProjectReference) — possibly the package's own folder, a self-edge such
// as Cargo's `foo = { path = "." }` — or when it names another package of
// the same ecosystem (Maven and Gradle count as one), compared the way the
// ecosystem compares names (PEP 503 normalisation for Python,
// case-insensitively for Composer, NuGet and SwiftPM). By name, a package
// of the depending package's own workspace comes first, and a package
// outside the workspaces under a test, fixture, example or docs folder (see
// RoleFixture) is never chosen from outside its own workspace. The
// dependency records the package it resolves to as its Target.
package packages

import (
	"path"
	"strings"
)

// Package kinds.
const (
	KindNPM      = "npm"
	KindGo       = "go"
	KindCargo    = "cargo"
	KindPython   = "python"
	KindMaven    = "maven"
	KindGradle   = "gradle"
	KindComposer = "composer"
	KindGem      = "gem"
	KindNuGet    = "nuget"
	KindDart     = "dart"
	KindSwift    = "swift"
)

// Dependency kinds.
const (
	DepRuntime  = "runtime"
	DepDev      = "dev"
	DepPeer     = "peer"
	DepOptional = "optional"
	DepBuild    = "build"
)

// Package is one package, module, crate, project or library declared by a
// manifest.
type Package struct {
	Name        string `json:"name"`
	Path        string `json:"path"` // folder of the manifest relative to the root, slash-separated, "." for the root
	Kind        string `json:"kind"` // one of the Kind* constants
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
	// Metadata holds kind-specific facts in JSON-compatible values (strings,
	// bools, float64, []any, map[string]any). Common keys: "private",
	// "license", "bin", "workspace" (path of the workspace root this package
	// is a member of), "workspace_members" (member paths, on a workspace root
	// package), "module_path", "edition", "group_id", "artifact_id".
	Metadata     map[string]any `json:"metadata,omitempty"`
	Dependencies []Dependency   `json:"dependencies"`
	Manifest     string         `json:"manifest"` // manifest file relative to the root
}

// Dependency is one declared dependency of a package.
type Dependency struct {
	// Name is the dependency as the ecosystem names it; when IsInternal it is
	// exactly the Name of the package of this repository it refers to.
	Name       string `json:"name"`
	VersionReq string `json:"version_req,omitempty"`
	DepKind    string `json:"dep_kind"` // one of the Dep* constants
	IsInternal bool   `json:"is_internal"`
	// Target is the package of this repository an internal dependency
	// resolves to, by kind and folder (with Name, which is its name, that
	// identifies it even where several packages share a name); nil for an
	// external one.
	Target *Ref `json:"target,omitempty"`
}

// Ref points at one package of the repository: its kind and folder.
type Ref struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
}

// Problem is a manifest that could not be understood; it is reported and
// skipped, and never stops the others from being read.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Manifest is one manifest file handed over by the indexer.
type Manifest struct {
	Path string // relative to the root, slash-separated
	Data []byte
}

// manifestFiles are the manifests recognised by exact file name.
var manifestFiles = map[string]bool{
	"package.json":        true,
	"pnpm-workspace.yaml": true,
	"go.mod":              true,
	"go.work":             true,
	"Cargo.toml":          true,
	"pyproject.toml":      true,
	"setup.cfg":           true,
	"pom.xml":             true,
	"build.gradle":        true,
	"build.gradle.kts":    true,
	"settings.gradle":     true,
	"settings.gradle.kts": true,
	"composer.json":       true,
	"pubspec.yaml":        true,
	"Package.swift":       true,
}

// manifestExtensions are manifests recognised by extension.
var manifestExtensions = map[string]bool{
	".gemspec": true,
	".csproj":  true,
	".fsproj":  true,
	".vbproj":  true,
}

// skippedDirs hold third-party copies of packages (installed dependencies,
// vendored code) or test fixtures, never packages of the repository itself.
var skippedDirs = map[string]bool{
	"node_modules":     true,
	"bower_components": true,
	"vendor":           true,
	"testdata":         true,
	".git":             true,
}

// IsManifest reports whether the file at rel (relative to the root,
// slash-separated) is a manifest this package reads. Files under
// node_modules, bower_components, vendor, testdata and .git folders are not:
// they are other people's packages or fixtures.
func IsManifest(rel string) bool {
	rel = strings.TrimPrefix(path.Clean(strings.ReplaceAll(rel, "\\", "/")), "./")
	dir, base := path.Split(rel)
	if !manifestFiles[base] && !manifestExtensions[path.Ext(base)] && !isVersionCatalog(rel) {
		return false
	}
	if path.Ext(base) != "" && base == path.Ext(base) { // ".csproj" alone is no project
		return false
	}
	for _, segment := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
		if skippedDirs[segment] {
			return false
		}
	}
	return true
}
