package packages

import (
	"path"
	"strings"
)

// Roles of packages that are not part of the repository's own build: a
// manifest outside every declared workspace, under a test, fixture, example
// or documentation folder (or a member of a workspace rooted in one). Such packages are listed (Metadata["role"]) but
// never chosen over a package of a workspace, neither by a dependency nor
// by a lookup by name.
const (
	RoleFixture = "fixture"
	RoleExample = "example"
	RoleDocs    = "docs"
)

// roleWords are the words of a folder name that give a package its role.
// A folder name counts when it is one of them or is made of words joined by
// "-", "_" or "." one of which is ("test-projects", "documentation-website").
var roleWords = map[string]string{
	"test": RoleFixture, "tests": RoleFixture, "testing": RoleFixture, "__tests__": RoleFixture,
	"fixture": RoleFixture, "fixtures": RoleFixture, "__fixtures__": RoleFixture,
	"testdata": RoleFixture, "testcases": RoleFixture, "e2e": RoleFixture,
	"example": RoleExample, "examples": RoleExample, "sample": RoleExample, "samples": RoleExample,
	"demo": RoleExample, "demos": RoleExample, "playground": RoleExample, "playgrounds": RoleExample,
	"template": RoleExample, "templates": RoleExample,
	"doc": RoleDocs, "docs": RoleDocs, "documentation": RoleDocs, "website": RoleDocs,
	"snippets": RoleDocs, "guide": RoleDocs, "guides": RoleDocs, "tutorial": RoleDocs, "tutorials": RoleDocs,
}

// folderRole is the role the folders of dir give a package in it: the role
// of the outermost folder that has one, "" for none. Maven's src/it (the
// invoker plugin's test projects) counts as a test folder too.
func folderRole(dir string) string {
	if dir == "." || dir == "" {
		return ""
	}
	segments := strings.Split(dir, "/")
	for i, segment := range segments {
		lower := strings.ToLower(segment)
		if role, ok := roleWords[lower]; ok {
			return role
		}
		if lower == "it" && i > 0 && strings.EqualFold(segments[i-1], "src") {
			return RoleFixture
		}
		for _, word := range strings.FieldsFunc(lower, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			if role, ok := roleWords[word]; ok {
				return role
			}
		}
	}
	return ""
}

// resolver marks the dependencies that point at packages of the
// repository. It knows, for every package, the workspace it belongs to
// (the outermost one, through nested workspaces) and its role.
type resolver struct {
	drafts     []*draft
	index      *workspaceIndex
	workspace  map[*draft]string // "kind\x00root folder" of the outermost workspace, "" for none
	role       map[*draft]string
	byName     map[string][]*draft // "ecosystem\x00name key" → packages, in manifest order
	byFolder   map[string][]*draft // "ecosystem\x00folder" → packages, in manifest order
	byManifest map[string]*draft
}

func newResolver(drafts []*draft, index *workspaceIndex) *resolver {
	r := &resolver{
		drafts: drafts, index: index,
		workspace: map[*draft]string{}, role: map[*draft]string{},
		byName: map[string][]*draft{}, byFolder: map[string][]*draft{}, byManifest: map[string]*draft{},
	}
	declares := map[string]bool{} // "kind\x00folder" of every workspace root
	for _, d := range drafts {
		for _, w := range d.workspaces {
			declares[w.kind+"\x00"+w.root] = true
		}
	}
	for _, d := range drafts {
		if !d.isPackage {
			continue
		}
		kind := d.pkg.Kind
		root := ""
		if decl := index.nearest(kind, d.pkg.Path); decl != nil {
			root = decl.root
		} else if declares[kind+"\x00"+d.pkg.Path] {
			root = d.pkg.Path
		}
		if root != "" {
			root = r.outermost(kind, root)
			r.workspace[d] = kind + "\x00" + root
			r.role[d] = folderRole(root)
		} else {
			// Only the folders above count: a project named Acme.Tests is a
			// project, one under tests/ a fixture.
			r.role[d] = folderRole(path.Dir(d.pkg.Path))
		}
		if role := r.role[d]; role != "" {
			d.pkg.Metadata["role"] = role
		}
		eco := ecosystem(kind)
		for _, key := range packageKeys(d) {
			r.byName[eco+"\x00"+key] = append(r.byName[eco+"\x00"+key], d)
		}
		r.byFolder[eco+"\x00"+d.pkg.Path] = append(r.byFolder[eco+"\x00"+d.pkg.Path], d)
		r.byManifest[d.manifest] = d
	}
	return r
}

// outermost follows a workspace root up through the workspaces that
// include it (a Maven aggregator listed as a module of another, say).
func (r *resolver) outermost(kind, root string) string {
	for range 64 { // nesting deeper than this is a loop
		decl := r.index.nearest(kind, root)
		if decl == nil || decl.root == root {
			return root
		}
		root = decl.root
	}
	return root
}

// markInternal resolves every dependency: path dependencies and project
// references to the package they point at (which may be the package itself:
// Cargo's `foo = { path = "." }`, a self-edge), other dependencies by name.
// A dependency becomes internal, named and targeted like its package.
func (r *resolver) markInternal() {
	for _, d := range r.drafts {
		if !d.isPackage {
			continue
		}
		for i := range d.deps {
			dep := &d.deps[i]
			target := r.explicitTarget(d, dep)
			if target == nil && d.pkg.Kind != KindCargo {
				// Cargo never takes a crate of the workspace for a registry
				// dependency of the same name: only paths, inherited paths
				// and [patch] make a dependency local.
				target = r.byNameTarget(d, dep)
			}
			if target != nil {
				dep.IsInternal = true
				dep.Name = target.pkg.Name
				dep.Target = &Ref{Kind: target.pkg.Kind, Path: target.pkg.Path}
			}
		}
	}
}

// explicitTarget is the package a path dependency or project reference
// points at, if it is a package of the same ecosystem.
func (r *resolver) explicitTarget(d *draft, dep *rawDep) *draft {
	eco := ecosystem(d.pkg.Kind)
	switch {
	case dep.localManifest != "":
		if target := r.byManifest[dep.localManifest]; target != nil && ecosystem(target.pkg.Kind) == eco {
			return target
		}
	case dep.localPath != "":
		candidates := r.byFolder[eco+"\x00"+dep.localPath]
		for _, c := range candidates { // the one the dependency names, when a folder holds two
			if nameKey(c.pkg.Kind, c.pkg.Name) == nameKey(d.pkg.Kind, dep.Name) {
				return c
			}
		}
		if len(candidates) > 0 {
			return candidates[0]
		}
	}
	return nil
}

// byNameTarget chooses among the other packages of the ecosystem that have
// the dependency's name. A package of the depending package's own workspace
// comes first; a package with a role (fixture, example, docs) is only ever
// chosen from its own workspace, so a test fixture named like a published
// package does not make that package internal. Among equals, the nearest
// folder wins, then the same kind, then manifest order.
func (r *resolver) byNameTarget(d *draft, dep *rawDep) *draft {
	candidates := r.byName[ecosystem(d.pkg.Kind)+"\x00"+nameKey(d.pkg.Kind, dep.Name)]
	var best *draft
	bestScore := [4]int{}
	for _, c := range candidates {
		if c == d {
			continue // a package named like its dependency depends on a published copy of itself
		}
		sameWorkspace := r.workspace[d] != "" && r.workspace[c] == r.workspace[d]
		if r.role[c] != "" && !sameWorkspace {
			continue
		}
		score := [4]int{boolInt(sameWorkspace), boolInt(r.role[c] == ""), commonDepth(d.pkg.Path, c.pkg.Path), boolInt(c.pkg.Kind == d.pkg.Kind)}
		if best == nil || greater(score, bestScore) {
			best, bestScore = c, score
		}
	}
	return best
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func greater(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// commonDepth counts the leading folders two root-relative folders share.
func commonDepth(a, b string) int {
	if a == "." || b == "." {
		return 0
	}
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

// cleanQueryPath normalises a folder or manifest path given by a caller.
func cleanQueryPath(p string) string {
	p = strings.TrimSpace(strings.ReplaceAll(p, "\\", "/"))
	if p == "" {
		return ""
	}
	return path.Clean(strings.TrimPrefix(p, "./"))
}
