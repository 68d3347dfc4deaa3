package research

import (
	"path"
	"sort"
	"strings"
)

// Imports are resolved to the repository's files and modules once, when
// the graph is built: by the Go module path (go.mod), by path for relative
// imports (./x, from .base, require_relative), by an npm workspace
// package's name, and otherwise by matching the import's segments
// (com.acme.auth.Guard, a/b.h, crate::net::tcp) against the end of the
// files' and folders' paths. An import that matches nothing is external.

// indexFileNames are files that stand for their folder as a module.
var indexFileNames = map[string]bool{
	"__init__": true, "index": true, "mod": true, "lib": true, "main": true,
}

// pathSegments splits a file's path into the segments an import may name:
// without the extension, without Rust's src folder, a folder's index file
// standing for the folder.
func pathSegments(p, family string, isFile bool) []string {
	if isFile {
		if ext := path.Ext(p); ext != "" {
			p = strings.TrimSuffix(p, ext)
		}
	}
	segs := strings.Split(p, "/")
	if family == "rust" {
		out := segs[:0:0]
		for _, s := range segs {
			if s != "src" {
				out = append(out, s)
			}
		}
		segs = out
	}
	return segs
}

func (g *Graph) indexPaths() {
	for i, f := range g.files {
		segs := pathSegments(f.path, f.family, true)
		if len(segs) == 0 {
			continue
		}
		last := strings.ToLower(segs[len(segs)-1])
		g.fileBySeg[last] = append(g.fileBySeg[last], int32(i))
		if indexFileNames[last] && len(segs) > 1 {
			parent := strings.ToLower(segs[len(segs)-2])
			g.fileBySeg[parent] = append(g.fileBySeg[parent], int32(i))
		}
	}
	for i, m := range g.modules {
		if m.path == "." {
			continue
		}
		segs := strings.Split(m.path, "/")
		last := strings.ToLower(segs[len(segs)-1])
		g.dirBySeg[last] = append(g.dirBySeg[last], int32(i))
	}
}

// hasSuffix reports whether segs ends with want, ignoring case; a folder's
// index file (want's last segment being the folder) counts.
func hasSuffix(segs, want []string) bool {
	if len(segs) > 1 && indexFileNames[strings.ToLower(segs[len(segs)-1])] && !strings.EqualFold(segs[len(segs)-1], want[len(want)-1]) {
		segs = segs[:len(segs)-1]
	}
	if len(want) > len(segs) {
		return false
	}
	off := len(segs) - len(want)
	for i, w := range want {
		if !strings.EqualFold(segs[off+i], w) {
			return false
		}
	}
	return true
}

// moduleHasFamily reports whether a module holds files of a language family.
func (g *Graph) moduleHasFamily(m int32, family string) bool {
	for _, f := range g.modules[m].files {
		if g.files[f].family == family {
			return true
		}
	}
	return false
}

// matchSegments finds the files and modules of a family whose paths end
// with segs.
func (g *Graph) matchSegments(segs []string, family string) (files, modules []int32) {
	key := strings.ToLower(segs[len(segs)-1])
	for _, f := range g.fileBySeg[key] {
		fi := &g.files[f]
		if fi.family == family && hasSuffix(pathSegments(fi.path, fi.family, true), segs) {
			files = append(files, f)
		}
	}
	for _, m := range g.dirBySeg[key] {
		if hasSuffix(pathSegments(g.modules[m].path, family, false), segs) && g.moduleHasFamily(m, family) {
			modules = append(modules, m)
		}
	}
	return files, modules
}

// splitTarget splits an import target into segments at its separators.
func splitTarget(target string) []string {
	return strings.FieldsFunc(target, func(r rune) bool {
		return r == '/' || r == '.' || r == ':' || r == '\\'
	})
}

// ecmaExtensions are tried, in order, for a relative JavaScript or
// TypeScript import without an extension.
var ecmaExtensions = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts"}

// resolveTarget finds the files and modules an import of target in file
// reaches.
func (g *Graph) resolveTarget(file int32, target string) (files, modules []int32) {
	f := &g.files[file]
	dir := path.Dir(f.path)
	target = strings.TrimSpace(target)
	if target == "" {
		return nil, nil
	}
	switch f.family {
	case "go":
		for _, m := range g.goModules {
			if target != m.path && !strings.HasPrefix(target, m.path+"/") {
				continue
			}
			d := path.Join(m.dir, strings.TrimPrefix(strings.TrimPrefix(target, m.path), "/"))
			if mi, ok := g.byDir[d]; ok {
				return nil, []int32{mi}
			}
			return nil, nil
		}
		if len(g.goModules) > 0 {
			return nil, nil // outside every module of the repository
		}
	case "ecmascript":
		if strings.HasPrefix(target, ".") {
			return g.resolveRelative(path.Join(dir, target), ecmaExtensions)
		}
		best := ""
		for name := range g.npmNames {
			if (target == name || strings.HasPrefix(target, name+"/")) && len(name) > len(best) {
				best = name
			}
		}
		if best != "" {
			return g.resolveRelative(path.Join(g.npmNames[best], strings.TrimPrefix(target, best)), ecmaExtensions)
		}
		if !strings.HasPrefix(target, "@/") && !strings.HasPrefix(target, "~/") {
			return nil, nil // a package from node_modules
		}
		target = target[2:]
	case "python":
		if strings.HasPrefix(target, ".") {
			dots := len(target) - len(strings.TrimLeft(target, "."))
			base := dir
			for i := 1; i < dots; i++ {
				base = path.Dir(base)
			}
			rest := strings.ReplaceAll(strings.TrimLeft(target, "."), ".", "/")
			return g.resolveRelative(path.Join(base, rest), []string{".py", "/__init__.py"})
		}
	case "c", "ruby", "lua", "bash", "php":
		if strings.HasPrefix(target, ".") {
			return g.resolveRelative(path.Join(dir, target), []string{".rb", ".lua", ".sh", ".php"})
		}
		if files, modules := g.resolveRelative(path.Join(dir, target), []string{".rb"}); len(files)+len(modules) > 0 {
			return files, modules // "x.h" beside the file
		}
	case "rust":
		segs := splitTarget(target)
		for len(segs) > 0 && (segs[0] == "crate" || segs[0] == "self" || segs[0] == "super") {
			segs = segs[1:]
		}
		target = strings.Join(segs, "/")
	}
	segs := splitTarget(target)
	if len(segs) == 0 {
		return nil, nil
	}
	// The longest run of segments that some path ends with; a single
	// segment only when it starts the target (a top-level package), so
	// that java.util.List does not reach a folder named util.
	for end := len(segs); end >= 1; end-- {
		for start := 0; start < end; start++ {
			if end-start == 1 && start != 0 {
				continue
			}
			if files, modules := g.matchSegments(segs[start:end], f.family); len(files)+len(modules) > 0 {
				return files, modules
			}
		}
	}
	return nil, nil
}

// resolveRelative finds the file or folder at p, trying the extensions
// given when p names neither.
func (g *Graph) resolveRelative(p string, exts []string) (files, modules []int32) {
	p = path.Clean(p)
	if fi, ok := g.byPath[p]; ok {
		return []int32{fi}, nil
	}
	for _, ext := range exts {
		if fi, ok := g.byPath[p+ext]; ok {
			return []int32{fi}, nil
		}
	}
	for _, ext := range exts {
		if strings.HasPrefix(ext, "/") {
			continue
		}
		if fi, ok := g.byPath[p+"/index"+ext]; ok {
			return []int32{fi}, nil
		}
	}
	if mi, ok := g.byDir[p]; ok {
		return nil, []int32{mi}
	}
	return nil, nil
}

// resolveImports resolves a file's imports and the names they bind.
func (g *Graph) resolveImports(file int32) {
	f := &g.files[file]
	for i := range f.imports {
		imp := &f.imports[i]
		imp.files, imp.modules = g.resolveTarget(file, imp.target)
		if imp.name == "" || imp.name == "*" {
			continue
		}
		if f.family == "go" {
			// A Go import binds its package's name, which by convention
			// is the path's last element without a major version suffix
			// (github.com/go-chi/chi/v5 binds chi).
			imp.name = goPackageName(imp.target)
		}
		b := binding{local: imp.alias, imported: imp.name, files: imp.files, modules: imp.modules}
		if b.local == "" {
			b.local = imp.name
		}
		external := len(imp.files)+len(imp.modules) == 0
		switch {
		case f.family == "go" || imp.name == moduleBaseName(imp.target):
			b.imported = "" // the module itself: Go's net/http, import a.b.c
		case !external && f.family != "go":
			// from auth import login: login may be a module of its own.
			sep := "."
			if f.family == "ecmascript" || f.family == "c" {
				sep = "/"
			}
			if files, modules := g.resolveTarget(file, imp.target+sep+imp.name); len(files)+len(modules) > 0 &&
				!sameSet(files, imp.files) {
				b.imported, b.files, b.modules = "", files, modules
			}
		}
		b.external = len(b.files)+len(b.modules) == 0
		f.bindings = append(f.bindings, b)
	}
	sort.SliceStable(f.bindings, func(i, j int) bool { return f.bindings[i].local < f.bindings[j].local })
}

func sameSet(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// binding returns the binding of a local name in a file.
func (f *fileInfo) binding(local string) (binding, bool) {
	i := sort.Search(len(f.bindings), func(i int) bool { return f.bindings[i].local >= local })
	if i < len(f.bindings) && f.bindings[i].local == local {
		return f.bindings[i], true
	}
	return binding{}, false
}

// importedFiles returns whether file imports the module or file of def's
// file.
func (g *Graph) imports(file int32, target int32) bool {
	tm := g.files[target].module
	for _, imp := range g.files[file].imports {
		for _, m := range imp.modules {
			if m == tm {
				return true
			}
		}
		for _, f := range imp.files {
			if f == target || g.files[f].module == tm && indexFileNames[strings.TrimSuffix(path.Base(g.files[f].path), path.Ext(g.files[f].path))] {
				return true
			}
		}
	}
	return false
}

// goPackageName is the package name a Go import path binds by convention
// (as goimports assumes it): the last element, or the one before a major
// version suffix (v2, v5), without a "go-" prefix and cut before the first
// character that cannot be in a name (gopkg.in/yaml.v3 binds yaml).
func goPackageName(importPath string) string {
	elems := strings.Split(strings.Trim(importPath, "/"), "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(name) {
		name = elems[len(elems)-2]
	}
	name = strings.TrimPrefix(name, "go-")
	if i := strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f)
	}); i > 0 {
		name = name[:i]
	}
	return name
}

// isMajorVersion reports whether a path element is a module's major
// version suffix: v followed by digits, not starting with 0 or 1 alone.
func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != "v1"
}
