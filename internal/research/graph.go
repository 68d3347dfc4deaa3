// Package research answers questions about how code is put together from
// the symbols lore keeps in its index: who calls a function, what it
// calls, what implements an interface, where a name is used, what a module
// depends on, and how a repository is organised.
//
// A Graph holds one generation of a collection's definitions and
// references in compact, interned form. References are resolved at query
// time, by name, narrowed by what the referring file can see: the same
// file, the same module (folder or package), the modules it imports, then
// the whole repository. A reference that still names several definitions
// is kept with all of them and reported as ambiguous, never guessed. Go
// interfaces are satisfied structurally (method names and arity, see
// package symbols); other languages' conformance is what the source
// declares (implements, extends, a Swift extension, a Rust impl).
//
// Research follows edges breadth-first from the definitions a query names,
// up to a depth, with caps on what it collects; the same graph and request
// always give the same result.
package research

import (
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/symbols"
)

// File is one indexed file's symbols, the input of NewGraph.
type File struct {
	Path     string // slash-separated, relative to the root
	Language string
	Symbols  symbols.File
}

// Kinds of definitions, compact.
type defKind uint8

const (
	dkOther defKind = iota
	dkFunction
	dkMethod
	dkClass
	dkStruct
	dkInterface
	dkTrait
	dkEnum
	dkImpl
	dkModule
	dkType
	dkConstant
	dkVariable
	dkMacro
)

var defKindNames = [...]string{
	dkOther: "definition", dkFunction: symbols.KindFunction, dkMethod: symbols.KindMethod, dkClass: symbols.KindClass,
	dkStruct: symbols.KindStruct, dkInterface: symbols.KindInterface, dkTrait: symbols.KindTrait, dkEnum: symbols.KindEnum,
	dkImpl: symbols.KindImpl, dkModule: symbols.KindModule, dkType: symbols.KindType, dkConstant: symbols.KindConstant,
	dkVariable: symbols.KindVariable, dkMacro: symbols.KindMacro,
}

func (k defKind) String() string { return defKindNames[k] }

func defKindOf(s string) defKind {
	for k, name := range defKindNames {
		if name == s {
			return defKind(k)
		}
	}
	return dkOther
}

// callable kinds are what a call may reach.
func (k defKind) callable() bool {
	switch k {
	case dkFunction, dkMethod, dkClass, dkStruct, dkMacro, dkType, dkEnum:
		return true
	}
	return false
}

// typeLike kinds are what a type, extends or implements reference may
// name.
func (k defKind) typeLike() bool {
	switch k {
	case dkClass, dkStruct, dkInterface, dkTrait, dkEnum, dkType, dkModule:
		return true
	}
	return false
}

// container kinds hold methods.
func (k defKind) container() bool {
	switch k {
	case dkClass, dkStruct, dkInterface, dkTrait, dkEnum, dkImpl, dkModule:
		return true
	}
	return false
}

// Kinds of references, compact.
type refKind uint8

const (
	rkReference refKind = iota
	rkCall
	rkType
	rkExtends
	rkImplements
)

var refKindNames = [...]string{
	rkReference: symbols.RefReference, rkCall: symbols.RefCall, rkType: symbols.RefType,
	rkExtends: symbols.RefExtends, rkImplements: symbols.RefImplements,
}

func (k refKind) String() string { return refKindNames[k] }

// def is a definition, interned.
type def struct {
	name      uint32 // in Graph.strs
	container uint32 // the breadcrumb of what holds it ("" at top level)
	signature uint32
	file      int32
	parent    int32 // the definition whose lines hold this one, -1 if none
	start     int32
	end       int32
	nameLine  int32
	kind      defKind
}

// ref is a reference other than an import, interned.
type ref struct {
	name      uint32
	qualifier uint32
	source    uint32 // the type extending or implementing, for those kinds
	file      int32
	enclosing int32 // the innermost definition holding it, -1 at top level
	line      int32
	kind      refKind
}

// binding is a name an import brings into a file: Model in
// "from .base import Model", np in "import numpy as np", http in Go's
// "net/http".
type binding struct {
	local    string // the name the file uses
	imported string // the name in the module, "" when the module itself is bound
	external bool   // the module is not in the repository
	modules  []int32
	files    []int32
}

// importEdge is one import of a file.
type importEdge struct {
	target  string  // as written
	name    string  // the name imported ("Model" in from .base import Model), or the module's
	alias   string  // the local name when the import renames
	modules []int32 // the repository's modules it reaches; none when external
	files   []int32 // the repository's files it reaches (a file import)
	line    int32
}

// fileInfo is one file of the graph.
type fileInfo struct {
	path     string
	language string
	family   string
	module   int32    // its folder
	defs     [2]int32 // [first, end) in Graph.defs
	refs     [2]int32 // [first, end) in Graph.refs
	imports  []importEdge
	bindings []binding
	goFacts  *symbols.File // the Go method-set facts, nil for other languages
}

// module is a folder holding indexed source files: a Go package, a Python
// package, a Java package's folder.
type module struct {
	path  string // "." for the root
	files []int32
}

// Graph is one generation of a collection's symbols, ready for research.
// It is immutable once built and safe for concurrent use.
type Graph struct {
	strs    []string
	strIDs  map[string]uint32
	files   []fileInfo
	modules []module
	byPath  map[string]int32 // file index by path
	byDir   map[string]int32 // module index by folder
	defs    []def
	refs    []ref

	defsByName map[uint32][]int32
	refsByName map[uint32][]int32 // calls, types, extends, implements and plain references

	// packages are the manifests' packages: Go module paths and npm
	// workspace names resolve imports to folders.
	packages  []packages.Package
	goModules []goModule
	npmNames  map[string]string // package name → folder

	// paths indexes files and modules by their last path segment,
	// lowercased, for import resolution.
	fileBySeg map[string][]int32
	dirBySeg  map[string][]int32

	refCount int // references of every kind, imports included

	goOnce sync.Once
	golang *goIndex // built on first use (implementations)

	importersOnce sync.Once
	importers     map[int32][]importer // by module, built on first use (dependents)
}

// goModule is a go.mod's module path and folder.
type goModule struct {
	path, dir string
}

func (g *Graph) intern(s string) uint32 {
	if id, ok := g.strIDs[s]; ok {
		return id
	}
	id := uint32(len(g.strs))
	g.strs = append(g.strs, s)
	g.strIDs[s] = id
	return id
}

func (g *Graph) str(id uint32) string { return g.strs[id] }

// lookup returns the id of s, false when no definition or reference uses it.
func (g *Graph) lookup(s string) (uint32, bool) {
	id, ok := g.strIDs[s]
	return id, ok
}

// families groups languages whose code refers to each other's definitions.
var families = map[string]string{
	"javascript": "ecmascript", "typescript": "ecmascript", "tsx": "ecmascript",
	"vue": "ecmascript", "svelte": "ecmascript", "astro": "ecmascript", // their scripts (chunk.componentScript)
	"java": "jvm", "kotlin": "jvm", "scala": "jvm",
	"c": "c", "cpp": "c",
}

func familyOf(language string) string {
	if f, ok := families[language]; ok {
		return f
	}
	return language
}

// NewGraph builds the graph of a collection's files (each file once) and
// the packages its manifests declare.
func NewGraph(files []File, pkgs []packages.Package) *Graph {
	g := &Graph{
		strIDs:     map[string]uint32{},
		byPath:     make(map[string]int32, len(files)),
		byDir:      map[string]int32{},
		defsByName: map[uint32][]int32{},
		refsByName: map[uint32][]int32{},
		packages:   pkgs,
		npmNames:   map[string]string{},
		fileBySeg:  map[string][]int32{},
		dirBySeg:   map[string][]int32{},
	}
	g.intern("")
	sorted := append([]File(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, p := range pkgs {
		switch p.Kind {
		case packages.KindGo:
			g.goModules = append(g.goModules, goModule{path: p.Name, dir: p.Path})
		case packages.KindNPM:
			g.npmNames[p.Name] = p.Path
		}
	}
	// The longest module path first: a nested module wins over its parent.
	sort.Slice(g.goModules, func(i, j int) bool { return len(g.goModules[i].path) > len(g.goModules[j].path) })

	nDefs, nRefs := 0, 0
	for _, f := range sorted {
		nDefs += len(f.Symbols.Definitions)
		nRefs += len(f.Symbols.References)
	}
	g.defs = make([]def, 0, nDefs)
	g.refs = make([]ref, 0, nRefs)
	g.files = make([]fileInfo, 0, len(sorted))
	for _, f := range sorted {
		if _, dup := g.byPath[f.Path]; dup {
			continue
		}
		fi := int32(len(g.files))
		dir := path.Dir(f.Path)
		mi, ok := g.byDir[dir]
		if !ok {
			mi = int32(len(g.modules))
			g.byDir[dir] = mi
			g.modules = append(g.modules, module{path: dir})
		}
		g.modules[mi].files = append(g.modules[mi].files, fi)
		g.byPath[f.Path] = fi
		info := fileInfo{path: f.Path, language: f.Language, family: familyOf(f.Language), module: mi}
		base := int32(len(g.defs))
		info.defs[0] = base
		for _, d := range f.Symbols.Definitions {
			parent := int32(-1)
			if d.Parent >= 0 && d.Parent < len(f.Symbols.Definitions) {
				parent = base + int32(d.Parent)
			}
			g.defs = append(g.defs, def{
				name: g.intern(d.Name), container: g.intern(d.Container), signature: g.intern(d.Signature),
				file: fi, parent: parent, start: int32(d.StartLine), end: int32(d.EndLine), nameLine: int32(d.NameLine),
				kind: defKindOf(d.Kind),
			})
		}
		info.defs[1] = int32(len(g.defs))
		info.refs[0] = int32(len(g.refs))
		for _, r := range f.Symbols.References {
			g.refCount++
			enclosing := int32(-1)
			if r.Enclosing >= 0 && r.Enclosing < len(f.Symbols.Definitions) {
				enclosing = base + int32(r.Enclosing)
			}
			if r.Kind == symbols.RefImport {
				info.imports = append(info.imports, importEdge{target: r.Target, name: r.Name, alias: r.Alias, line: int32(r.Line)})
				continue
			}
			var kind refKind
			switch r.Kind {
			case symbols.RefCall:
				kind = rkCall
			case symbols.RefType:
				kind = rkType
			case symbols.RefExtends:
				kind = rkExtends
			case symbols.RefImplements:
				kind = rkImplements
			default:
				kind = rkReference
			}
			g.refs = append(g.refs, ref{
				name: g.intern(r.Name), qualifier: g.intern(r.Qualifier), source: g.intern(r.Source),
				file: fi, enclosing: enclosing, line: int32(r.Line), kind: kind,
			})
		}
		info.refs[1] = int32(len(g.refs))
		if f.Language == "go" && (len(f.Symbols.GoMethods) > 0 || len(f.Symbols.GoInterfaces) > 0 || len(f.Symbols.GoTypes) > 0) {
			facts := symbols.File{GoMethods: f.Symbols.GoMethods, GoInterfaces: f.Symbols.GoInterfaces, GoTypes: f.Symbols.GoTypes}
			info.goFacts = &facts
		}
		g.files = append(g.files, info)
	}
	for i := range g.defs {
		g.defsByName[g.defs[i].name] = append(g.defsByName[g.defs[i].name], int32(i))
	}
	for i := range g.refs {
		g.refsByName[g.refs[i].name] = append(g.refsByName[g.refs[i].name], int32(i))
	}
	g.indexPaths()
	for i := range g.files {
		g.resolveImports(int32(i))
	}
	return g
}

// moduleBaseName is the name an import of target binds by default: the
// last segment of its path ("http" for net/http, "c" for a.b.c).
func moduleBaseName(target string) string {
	target = strings.TrimRight(target, "/")
	if i := strings.LastIndexAny(target, "/.:\\"); i >= 0 {
		return target[i+1:]
	}
	return target
}

// Stats describes the size of a graph.
type Stats struct {
	Files       int `json:"files"`
	Modules     int `json:"modules"`
	Definitions int `json:"definitions"`
	References  int `json:"references"`
	Strings     int `json:"strings"`
}

// Stats counts what the graph holds.
func (g *Graph) Stats() Stats {
	return Stats{Files: len(g.files), Modules: len(g.modules), Definitions: len(g.defs), References: g.refCount, Strings: len(g.strs)}
}

// defFile returns the file of a definition.
func (g *Graph) defFile(d int32) *fileInfo { return &g.files[g.defs[d].file] }

// names lists every defined name, sorted, for suggestions.
func (g *Graph) definedNames() []string {
	seen := map[uint32]bool{}
	var out []string
	for _, d := range g.defs {
		if !seen[d.name] {
			seen[d.name] = true
			out = append(out, g.str(d.name))
		}
	}
	sort.Strings(out)
	return out
}
