package fsroot

import (
	"path/filepath"
	"slices"
	"strings"
)

// skipRule names a folder that holds dependencies or generated output and is
// skipped even when no ignore file mentions it. Names that are also common
// for hand-written code (vendor, target, build, dist, out, bin, obj, deps,
// _build, coverage) are skipped only next to, or containing, a marker that
// shows they are generated; a rule has at most one kind of condition.
type skipRule struct {
	name       string   // folder name, a filepath.Match pattern
	beside     []string // skip only if the parent folder holds an entry matching one of these
	containing []string // skip only if the folder holds an entry matching one of these
}

// defaultSkipRules is the built-in list; WalkOptions.NoDefaultSkips turns it
// off and WalkOptions.SkipDirs adds to it. Hidden names are in it too so that
// they stay skipped with WalkOptions.IncludeHidden.
var defaultSkipRules = []skipRule{
	// Version control metadata (".git" is skipped unconditionally elsewhere).
	{name: ".hg"}, {name: ".svn"}, {name: ".bzr"},

	// JavaScript / TypeScript.
	{name: "node_modules"}, {name: "bower_components"}, {name: "jspm_packages"},
	{name: ".next"}, {name: ".nuxt"}, {name: ".svelte-kit"}, {name: ".angular"},
	{name: ".parcel-cache"}, {name: ".turbo"}, {name: ".yarn"},
	{name: "dist", beside: []string{"package.json"}},
	{name: "out", beside: []string{"next.config.js", "next.config.mjs", "next.config.ts"}},
	{name: "coverage", containing: []string{"lcov.info", "lcov-report", "coverage-final.json", "clover.xml", "coverage-summary.json"}},

	// Python.
	{name: "__pycache__"}, {name: ".tox"}, {name: ".nox"}, {name: ".mypy_cache"},
	{name: ".pytest_cache"}, {name: ".ruff_cache"}, {name: ".hypothesis"},
	{name: "site-packages"}, {name: "htmlcov"}, {name: ".eggs"}, {name: "*.egg-info"},
	{name: "*", containing: []string{"pyvenv.cfg"}}, // any virtualenv: .venv, venv, env, ...
	{name: "*", containing: []string{"conda-meta"}}, // conda environments

	// Go, PHP, Ruby: vendored third-party code.
	{name: "vendor", beside: []string{"go.mod", "composer.json", "Gemfile"}},
	{name: "vendor", containing: []string{"modules.txt"}},

	// Rust, Java/Scala (Maven, sbt, Gradle), Kotlin.
	{name: "target", beside: []string{"Cargo.toml", "pom.xml", "build.sbt"}},
	{name: ".gradle"},
	{name: "build", beside: []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"}},

	// C and C++ (CMake build trees, wherever they are).
	{name: "*", containing: []string{"CMakeCache.txt"}},

	// .NET.
	{name: "bin", beside: []string{"*.csproj", "*.fsproj", "*.vbproj"}},
	{name: "obj", beside: []string{"*.csproj", "*.fsproj", "*.vbproj"}},

	// Apple platforms.
	{name: "Pods"}, {name: "DerivedData"}, {name: ".build", beside: []string{"Package.swift"}},

	// Dart / Flutter.
	{name: ".dart_tool"}, {name: "build", beside: []string{"pubspec.yaml"}},

	// Elixir / Erlang, OCaml.
	{name: "_build", beside: []string{"mix.exs", "rebar.config", "dune-project"}},
	{name: "deps", beside: []string{"mix.exs"}},

	// Haskell, Elm, Zig, Terraform.
	{name: "dist-newstyle"}, {name: ".stack-work"}, {name: "elm-stuff"},
	{name: "zig-out", beside: []string{"build.zig"}}, {name: "zig-cache"}, {name: ".zig-cache"},
	{name: ".terraform"},
}

// names is a lazily read, sorted list of the entry names of one folder.
type names func() []string

// has reports whether an entry matches any of the patterns.
func (n names) has(patterns []string) bool {
	list := n()
	for _, p := range patterns {
		if !isGlob(p) {
			if _, found := slices.BinarySearch(list, p); found {
				return true
			}
			continue
		}
		for _, name := range list {
			if nameMatches(p, name) {
				return true
			}
		}
	}
	return false
}

func isGlob(pattern string) bool { return strings.ContainsAny(pattern, `*?[\`) }

func nameMatches(pattern, name string) bool {
	if !isGlob(pattern) {
		return pattern == name
	}
	ok, err := filepath.Match(pattern, name)
	return err == nil && ok
}

// skipByName reports whether folder name (at slash-separated rel) is skipped
// by WalkOptions.SkipDirs or by a default rule that needs at most the
// parent's listing.
func (w *walker) skipByName(name, rel string, siblings names) bool {
	for _, p := range w.opts.SkipDirs {
		p = strings.Trim(filepath.ToSlash(p), "/")
		if strings.Contains(p, "/") {
			if ok, err := matchSlashPath(p, rel); err == nil && ok {
				return true
			}
		} else if nameMatches(p, name) {
			return true
		}
	}
	for _, rule := range w.rules {
		if len(rule.containing) > 0 || !nameMatches(rule.name, name) {
			continue
		}
		if len(rule.beside) == 0 || siblings.has(rule.beside) {
			return true
		}
	}
	return false
}

// skipByContents reports whether folder name is skipped by a default rule
// that looks inside it.
func (w *walker) skipByContents(name string, children names) bool {
	for _, rule := range w.rules {
		if len(rule.containing) > 0 && nameMatches(rule.name, name) && children.has(rule.containing) {
			return true
		}
	}
	return false
}

// matchSlashPath matches a slash-separated path against a slash-separated
// pattern segment by segment (so '*' never crosses '/').
func matchSlashPath(pattern, p string) (bool, error) {
	ps, xs := strings.Split(pattern, "/"), strings.Split(p, "/")
	if len(ps) != len(xs) {
		return false, nil
	}
	for i := range ps {
		ok, err := filepath.Match(ps[i], xs[i])
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}
