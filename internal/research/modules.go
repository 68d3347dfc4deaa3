package research

import (
	"path"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/packages"
)

// Modules are the folders holding source files; their import edges are
// the files' imports, resolved. Packages are the manifests' (go.mod,
// package.json, Cargo.toml, …) with their declared dependencies, from the
// package graph lore already has.

// importer is a file importing a module, with where.
type importer struct {
	file int32
	line int32
}

// importersOf lists, for each module, the files that import it, built on
// first use.
func (g *Graph) importersOf(m int32) []importer {
	g.importersOnce.Do(func() {
		g.importers = map[int32][]importer{}
		for fi := range g.files {
			seen := map[int32]bool{}
			for _, imp := range g.files[fi].imports {
				targets := append([]int32(nil), imp.modules...)
				for _, f := range imp.files {
					targets = append(targets, g.files[f].module)
				}
				for _, t := range targets {
					if t != g.files[fi].module && !seen[t] {
						seen[t] = true
						g.importers[t] = append(g.importers[t], importer{file: int32(fi), line: imp.line})
					}
				}
			}
		}
	})
	return g.importers[m]
}

// findModules returns the modules, files and packages a subject names: a
// folder ("internal/app", "render"), a Go import path, a file, a
// manifest's package name.
func (w *work) findModules(subject string) ([]nodeKey, error) {
	g := w.g
	s := strings.Trim(subject, "/")
	var out []nodeKey
	if m, ok := g.byDir[s]; ok {
		out = append(out, nodeKey{kind: nkModule, idx: m})
	}
	if f, ok := g.byPath[s]; ok {
		out = append(out, nodeKey{kind: nkFile, idx: f})
	}
	for _, gm := range g.goModules {
		if s == gm.path || strings.HasPrefix(s, gm.path+"/") {
			d := path.Join(gm.dir, strings.TrimPrefix(strings.TrimPrefix(s, gm.path), "/"))
			if m, ok := g.byDir[d]; ok {
				out = append(out, nodeKey{kind: nkModule, idx: m})
			}
			break
		}
	}
	if w.req.Packages != nil {
		for _, p := range w.req.Packages.Packages() {
			if p.Name == s || strings.EqualFold(p.Name, s) || lastSegment(p.Name) == s {
				out = append(out, nodeKey{kind: nkPackage, name: p.Name})
			}
		}
	}
	if len(out) == 0 {
		want := splitTarget(s)
		if len(want) > 0 {
			for i, m := range g.modules {
				if m.path != "." && hasSuffix(strings.Split(m.path, "/"), want) {
					out = append(out, nodeKey{kind: nkModule, idx: int32(i)})
				}
			}
		}
	}
	if len(out) == 0 {
		var names []string
		for _, m := range g.modules {
			if m.path != "." {
				names = append(names, m.path, path.Base(m.path))
			}
		}
		if w.req.Packages != nil {
			for _, p := range w.req.Packages.Packages() {
				names = append(names, p.Name)
			}
		}
		sort.Strings(names)
		names = dedupe(names)
		suggestions := closest(s, names, maxSuggestions)
		msg := "No module or package named " + subject + " in the index"
		if len(suggestions) > 0 {
			msg += ". Closest names: " + strings.Join(suggestions, ", ")
		}
		if suggestions == nil {
			suggestions = []string{}
		}
		return nil, errs.New(errs.NotFound, errs.CodeSymbolNotFound, "%s", msg).With("symbol", subject).With("suggestions", suggestions)
	}
	return dedupeKeys(out), nil
}

func lastSegment(name string) string {
	if i := strings.LastIndexAny(name, "/:"); i >= 0 {
		return name[i+1:]
	}
	return name
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func dedupeKeys(keys []nodeKey) []nodeKey {
	seen := map[nodeKey]bool{}
	out := keys[:0]
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// packageByName returns a manifest's package.
func (w *work) packageByName(name string) (packages.Package, bool) {
	if w.req.Packages == nil {
		return packages.Package{}, false
	}
	return w.req.Packages.Get(name)
}

// dependencies answers "what does X depend on" and "what depends on X".
func (w *work) dependencies(pq parsedQuery, res *Result) error {
	starts, err := w.findModules(pq.subject)
	if err != nil {
		return err
	}
	for _, k := range starts {
		w.add(k, 0, nil)
	}
	if pq.intent == IntentDependents {
		err = w.bfs(&walk{dir: incoming, expand: w.moduleDependents})
	} else {
		err = w.bfs(&walk{dir: outgoing, expand: w.moduleDependencies})
	}
	if err != nil {
		return err
	}
	return w.addFocus(res)
}

// moduleDependencies lists what a module, file or package imports or
// depends on: the repository's modules, and outside ones by name.
func (w *work) moduleDependencies(n *wnode) ([]neighbour, error) {
	g := w.g
	var files []int32
	switch n.key.kind {
	case nkModule:
		files = g.modules[n.key.idx].files
	case nkFile:
		files = []int32{n.key.idx}
	case nkPackage:
		return w.packageDependencies(n)
	default:
		return nil, nil
	}
	var out []neighbour
	for _, fi := range files {
		if err := w.checkCancel(); err != nil {
			return nil, err
		}
		f := &g.files[fi]
		for _, imp := range f.imports {
			targets := append([]int32(nil), imp.modules...)
			for _, t := range imp.files {
				targets = append(targets, g.files[t].module)
			}
			if len(targets) == 0 {
				out = append(out, neighbour{key: nodeKey{kind: nkExternal, name: externalName(imp.target, f.family)},
					kind: "import", file: fi, line: int(imp.line), ref: -1})
				continue
			}
			for _, t := range targets {
				if n.key.kind == nkModule && t == n.key.idx {
					continue
				}
				out = append(out, neighbour{key: nodeKey{kind: nkModule, idx: t}, kind: "import", file: fi, line: int(imp.line), ref: -1})
			}
		}
	}
	return out, nil
}

// externalName is the name an outside import is known by: a Go import
// path, an npm package ("react", "@scope/pkg"), a Python top-level
// package, a crate.
func externalName(target, family string) string {
	switch family {
	case "go", "c":
		return target
	case "ecmascript":
		parts := strings.Split(target, "/")
		if strings.HasPrefix(target, "@") && len(parts) > 1 {
			return parts[0] + "/" + parts[1]
		}
		return parts[0]
	}
	if segs := splitTarget(target); len(segs) > 0 {
		return segs[0]
	}
	return target
}

// moduleDependents lists what imports a module, or depends on a package.
func (w *work) moduleDependents(n *wnode) ([]neighbour, error) {
	g := w.g
	switch n.key.kind {
	case nkModule:
		var out []neighbour
		for _, im := range g.importersOf(n.key.idx) {
			out = append(out, neighbour{key: nodeKey{kind: nkModule, idx: g.files[im.file].module}, kind: "import",
				file: im.file, line: int(im.line), ref: -1})
		}
		return out, nil
	case nkFile:
		var out []neighbour
		for _, im := range g.importersOf(g.files[n.key.idx].module) {
			for _, imp := range g.files[im.file].imports {
				for _, f := range imp.files {
					if f == n.key.idx {
						out = append(out, neighbour{key: nodeKey{kind: nkFile, idx: im.file}, kind: "import",
							file: im.file, line: int(imp.line), ref: -1})
					}
				}
			}
		}
		return out, nil
	case nkPackage:
		if w.req.Packages == nil {
			return nil, nil
		}
		dependents, err := w.req.Packages.Dependents(n.key.name)
		if err != nil {
			return nil, nil
		}
		var out []neighbour
		for _, p := range dependents {
			out = append(out, neighbour{key: nodeKey{kind: nkPackage, name: p.Name}, kind: "depends", file: -1, ref: -1})
		}
		return out, nil
	}
	return nil, nil
}

// packageDependencies lists a package's declared dependencies: packages
// of the repository, and outside ones by name.
func (w *work) packageDependencies(n *wnode) ([]neighbour, error) {
	if w.req.Packages == nil {
		return nil, nil
	}
	deps, err := w.req.Packages.Dependencies(n.key.name, false)
	if err != nil {
		return nil, nil
	}
	var out []neighbour
	for _, d := range deps {
		key := nodeKey{kind: nkExternal, name: d.Name}
		if d.IsInternal {
			key = nodeKey{kind: nkPackage, name: d.Name}
		}
		out = append(out, neighbour{key: key, kind: "depends", file: -1, ref: -1})
	}
	return out, nil
}

// addFocus adds what a focus asks for around what a symbol or dependency
// research found: the modules involved and their import edges
// (architecture, dependencies), with their roles (architecture).
func (w *work) addFocus(res *Result) error {
	switch w.req.Focus {
	case FocusArchitecture, FocusDependencies:
	default:
		return nil
	}
	g := w.g
	byModule := map[int32]*wnode{}
	for _, n := range append([]*wnode(nil), w.nodes...) {
		var m int32 = -1
		switch n.key.kind {
		case nkDef:
			m = g.files[g.defs[n.key.idx].file].module
		case nkFile:
			m = g.files[n.key.idx].module
		case nkModule:
			m = n.key.idx
		}
		if m < 0 {
			continue
		}
		mn, _ := w.add(nodeKey{kind: nkModule, idx: m}, n.depth, nil)
		if mn == nil {
			break
		}
		if mn.depth > n.depth {
			mn.depth = n.depth
		}
		byModule[m] = mn
	}
	var mods []int32
	for m := range byModule {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return g.modules[mods[i]].path < g.modules[mods[j]].path })
	for _, m := range mods {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		from := byModule[m]
		if w.req.Focus == FocusArchitecture {
			from.role = strings.Join(g.moduleRoles(m), ", ")
		}
		for _, fi := range g.modules[m].files {
			for _, imp := range g.files[fi].imports {
				targets := append([]int32(nil), imp.modules...)
				for _, t := range imp.files {
					targets = append(targets, g.files[t].module)
				}
				for _, t := range targets {
					if to, ok := byModule[t]; ok && t != m {
						w.edge(from, to, "import", fi, int(imp.line), false)
					}
				}
			}
		}
	}
	return nil
}

// httpLibraries and cliLibraries are imports that give a module a role.
var httpLibraries = []string{"net/http", "github.com/gin-gonic/gin", "github.com/go-chi/chi", "github.com/labstack/echo",
	"github.com/gofiber/fiber", "github.com/gorilla/mux", "express", "koa", "fastify", "hono", "@nestjs/common", "fastapi",
	"flask", "django", "starlette", "aiohttp", "axum", "actix_web", "rocket", "warp", "hyper", "io.ktor", "org.springframework.web",
	"javax.servlet", "jakarta.servlet", "rack", "sinatra", "Phoenix.Controller", "Plug", "Vapor", "Illuminate\\Http"}
var cliLibraries = []string{"flag", "github.com/spf13/cobra", "github.com/urfave/cli", "argparse", "click", "typer", "clap",
	"structopt", "commander", "yargs", "optparse", "thor", "picocli", "kotlinx.cli", "ArgumentParser", "System.CommandLine"}

// moduleRoles says what a module is for, from what it defines and imports:
// an entry point (a main function), HTTP handlers, a command line, tests,
// interfaces, data types, functions.
func (g *Graph) moduleRoles(m int32) []string {
	var roles []string
	kinds := map[defKind]int{}
	hasMain, tests, http, cli := false, 0, false, false
	for _, fi := range g.modules[m].files {
		f := &g.files[fi]
		if isTestPath(f.path) {
			tests++
		}
		for d := f.defs[0]; d < f.defs[1]; d++ {
			kinds[g.defs[d].kind]++
			if g.str(g.defs[d].name) == "main" && g.defs[d].kind == dkFunction {
				hasMain = true
			}
		}
		for _, imp := range f.imports {
			for _, lib := range httpLibraries {
				if imp.target == lib || strings.HasPrefix(imp.target, lib+"/") || strings.HasPrefix(imp.target, lib+".") {
					http = true
				}
			}
			for _, lib := range cliLibraries {
				if imp.target == lib || strings.HasPrefix(imp.target, lib+"/") {
					cli = true
				}
			}
		}
	}
	if hasMain {
		roles = append(roles, "entry point")
	}
	if http {
		roles = append(roles, "HTTP")
	}
	if cli {
		roles = append(roles, "command line")
	}
	if n := len(g.modules[m].files); n > 0 && tests*2 > n {
		roles = append(roles, "tests")
	}
	types := kinds[dkClass] + kinds[dkStruct] + kinds[dkEnum] + kinds[dkType]
	ifaces := kinds[dkInterface] + kinds[dkTrait]
	funcs := kinds[dkFunction] + kinds[dkMethod]
	switch {
	case ifaces > 0 && ifaces*3 >= types+ifaces && ifaces >= 2:
		roles = append(roles, "interfaces")
	case types > 0 && types*2 >= funcs:
		roles = append(roles, "types")
	case funcs > 0:
		roles = append(roles, "functions")
	}
	return roles
}

// isTestPath reports a test file by the conventions of the common
// languages.
func isTestPath(p string) bool {
	base := strings.ToLower(path.Base(p))
	dir := "/" + strings.ToLower(path.Dir(p)) + "/"
	return strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.HasSuffix(base, "_spec.rb") ||
		strings.HasSuffix(base, "test.java") || strings.HasSuffix(base, "tests.java") || strings.HasSuffix(base, "test.kt") ||
		strings.HasSuffix(base, "_test.exs") || strings.Contains(dir, "/tests/") || strings.Contains(dir, "/test/") ||
		strings.Contains(dir, "/__tests__/") || strings.Contains(dir, "/spec/")
}
