package packages

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"sort"
	"strings"
)

// ParserVersion changes whenever a parser reads manifests differently; a
// Parsed kept from another version is not used (see UnmarshalParsed).
// ResolverVersion changes whenever Resolve does: packages an index resolved
// with another version are resolved again even if no manifest changed.
const (
	ParserVersion   = "3"
	ResolverVersion = "2"
)

// Parsed is one manifest read on its own, before the manifests of the
// repository are resolved against each other (workspaces, inheritance,
// internal dependencies): what Parse made of it, or the problem it has.
// A manifest's Parsed depends only on its path and content, so an index
// keeps it (Marshal) and reads an unchanged manifest no more.
type Parsed struct {
	Path    string
	d       *draft // nil: nothing of interest, or a problem
	problem string
}

// Parse reads one manifest.
func Parse(m Manifest) Parsed {
	p := Parsed{Path: cleanRel(m.Path)}
	if p.Path == "" || p.Path == "." || p.Path == ".." || strings.HasPrefix(p.Path, "../") || strings.HasPrefix(p.Path, "/") {
		p.problem = "manifest path must be a file path relative to the root"
		return p
	}
	parse := parserFor(p.Path)
	if parse == nil {
		p.problem = "not a recognised manifest file name"
		return p
	}
	d, err := parse(Manifest{Path: p.Path, Data: m.Data}, path.Dir(p.Path))
	if err != nil {
		p.problem = err.Error()
		return p
	}
	if d != nil {
		d.manifest = p.Path
		d.pkg.Manifest = p.Path
		d.pkg.Path = path.Dir(p.Path)
		if d.pkg.Metadata == nil {
			d.pkg.Metadata = map[string]any{}
		}
	}
	p.d = d
	return p
}

// Build parses every manifest and resolves them (see Resolve).
func Build(manifests []Manifest) (pkgs []Package, problems []Problem) {
	parsed := make([]Parsed, len(manifests))
	for i, m := range manifests {
		parsed[i] = Parse(m)
	}
	return Resolve(parsed)
}

// Resolve applies workspace membership and inheritance to parsed
// manifests, marks the dependencies that resolve to another package of the
// set as internal, and returns the packages sorted by name then path.
// Manifests that could not be parsed are returned as problems. The result
// depends only on the input, not on its order; the input is not modified.
func Resolve(parsed []Parsed) (pkgs []Package, problems []Problem) {
	sorted := append([]Parsed(nil), parsed...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	var drafts []*draft
	for i, p := range sorted {
		switch {
		case i > 0 && sorted[i-1].Path == p.Path:
			problems = append(problems, Problem{Path: p.Path, Message: "manifest given more than once; only the first copy is read"})
		case p.problem != "":
			problems = append(problems, Problem{Path: p.Path, Message: p.problem})
		case p.d != nil:
			drafts = append(drafts, p.d.clone())
		}
	}

	resolvePOMs(drafts)
	resolveGradle(drafts)
	drafts = mergePython(drafts)
	drafts, problems = nameUnnamed(drafts, problems)
	index := applyWorkspaces(drafts)
	inheritCargoWorkspace(drafts)
	newResolver(drafts, index).markInternal()

	for _, d := range drafts {
		if d.isPackage {
			pkgs = append(pkgs, finish(d))
		}
	}
	sortPackages(pkgs)
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Path < problems[j].Path })
	return pkgs, problems
}

// clone copies what resolution changes: the package, its dependencies and
// workspace declarations. The parsers' other products are only read.
func (d *draft) clone() *draft {
	c := *d
	c.pkg.Metadata = maps.Clone(d.pkg.Metadata)
	if c.pkg.Metadata == nil {
		c.pkg.Metadata = map[string]any{}
	}
	c.deps = append([]rawDep(nil), d.deps...)
	c.workspaces = append([]workspaceDecl(nil), d.workspaces...)
	return &c
}

// The encoding of a Parsed: the draft's fields, exported for JSON.
type parsedJSON struct {
	Version string     `json:"v"`
	Problem string     `json:"problem,omitempty"`
	Draft   *draftJSON `json:"draft,omitempty"`
}

type draftJSON struct {
	Package    Package         `json:"package"`
	Deps       []rawDepJSON    `json:"deps,omitempty"`
	IsPackage  bool            `json:"is_package,omitempty"`
	Workspaces []workspaceJSON `json:"workspaces,omitempty"`
	Cargo      *cargoJSON      `json:"cargo,omitempty"`
	Gradle     *gradleJSON     `json:"gradle,omitempty"`
	Catalog    *catalogJSON    `json:"catalog,omitempty"`
	POM        *pomProject     `json:"pom,omitempty"`
}

type rawDepJSON struct {
	Dependency
	LocalPath      string `json:"local_path,omitempty"`
	LocalManifest  string `json:"local_manifest,omitempty"`
	GradleProject  string `json:"gradle_project,omitempty"`
	GradleAccessor string `json:"gradle_accessor,omitempty"`
	CatalogRef     string `json:"catalog_ref,omitempty"`
	FromWorkspace  bool   `json:"from_workspace,omitempty"`
	WorkspaceKey   string `json:"workspace_key,omitempty"`
}

type workspaceJSON struct {
	Root          string   `json:"root"`
	Kind          string   `json:"kind"`
	Include       []string `json:"include,omitempty"`
	Exclude       []string `json:"exclude,omitempty"`
	RootIsPackage bool     `json:"root_is_package,omitempty"`
}

type cargoJSON struct {
	IsWorkspaceRoot  bool              `json:"is_workspace_root,omitempty"`
	WorkspaceDeps    map[string]any    `json:"workspace_deps,omitempty"`
	WorkspacePackage map[string]any    `json:"workspace_package,omitempty"`
	InheritedFields  []string          `json:"inherited_fields,omitempty"`
	Patches          map[string]string `json:"patches,omitempty"`
}

type gradleJSON struct {
	Dir      string            `json:"dir"`
	RootName string            `json:"root_name,omitempty"`
	Projects map[string]string `json:"projects,omitempty"`
}

type catalogJSON struct {
	Name      string               `json:"name"`
	Dir       string               `json:"dir"`
	Libraries map[string][2]string `json:"libraries,omitempty"` // alias → module, version
	Bundles   map[string][]string  `json:"bundles,omitempty"`
}

// Marshal encodes p for UnmarshalParsed.
func (p Parsed) Marshal() ([]byte, error) {
	out := parsedJSON{Version: ParserVersion, Problem: p.problem}
	if d := p.d; d != nil {
		j := &draftJSON{Package: d.pkg, IsPackage: d.isPackage, POM: d.pom}
		j.Package.Dependencies = nil
		for _, r := range d.deps {
			j.Deps = append(j.Deps, rawDepJSON{r.Dependency, r.localPath, r.localManifest, r.gradleProject, r.gradleAccessor, r.catalogRef, r.fromWorkspace, r.workspaceKey})
		}
		for _, w := range d.workspaces {
			j.Workspaces = append(j.Workspaces, workspaceJSON{w.root, w.kind, w.include, w.exclude, w.rootIsPackage})
		}
		if c := d.cargo; c != nil {
			j.Cargo = &cargoJSON{c.isWorkspaceRoot, c.workspaceDeps, c.workspacePackage, c.inheritedFields, c.patches}
		}
		if g := d.gradle; g != nil {
			j.Gradle = &gradleJSON{g.dir, g.rootName, g.projects}
		}
		if c := d.catalog; c != nil {
			j.Catalog = &catalogJSON{Name: c.name, Dir: c.dir, Libraries: map[string][2]string{}, Bundles: c.bundles}
			for alias, lib := range c.libraries {
				j.Catalog.Libraries[alias] = [2]string{lib.module, lib.version}
			}
		}
		out.Draft = j
	}
	return json.Marshal(out)
}

// UnmarshalParsed decodes what Parsed.Marshal encoded for the manifest at
// path. It fails for data of another ParserVersion: the manifest must be
// parsed again.
func UnmarshalParsed(path string, data []byte) (Parsed, error) {
	var in parsedJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return Parsed{}, fmt.Errorf("decoding the parse of %s: %w", path, err)
	}
	if in.Version != ParserVersion {
		return Parsed{}, fmt.Errorf("the parse of %s was made by parser version %q, not %q", path, in.Version, ParserVersion)
	}
	p := Parsed{Path: path, problem: in.Problem}
	j := in.Draft
	if j == nil {
		return p, nil
	}
	d := &draft{manifest: path, pkg: j.Package, isPackage: j.IsPackage, pom: j.POM}
	if d.pkg.Metadata == nil {
		d.pkg.Metadata = map[string]any{}
	}
	for _, r := range j.Deps {
		d.deps = append(d.deps, rawDep{r.Dependency, r.LocalPath, r.LocalManifest, r.GradleProject, r.GradleAccessor, r.CatalogRef, r.FromWorkspace, r.WorkspaceKey})
	}
	for _, w := range j.Workspaces {
		d.workspaces = append(d.workspaces, workspaceDecl{w.Root, w.Kind, w.Include, w.Exclude, w.RootIsPackage})
	}
	if c := j.Cargo; c != nil {
		d.cargo = &cargoExtra{c.IsWorkspaceRoot, c.WorkspaceDeps, c.WorkspacePackage, c.InheritedFields, c.Patches}
	}
	if g := j.Gradle; g != nil {
		d.gradle = &gradleSettings{g.Dir, g.RootName, g.Projects}
		if d.gradle.projects == nil {
			d.gradle.projects = map[string]string{}
		}
	}
	if c := j.Catalog; c != nil {
		d.catalog = &versionCatalog{name: c.Name, dir: c.Dir, libraries: map[string]catalogLibrary{}, bundles: c.Bundles}
		for alias, lib := range c.Libraries {
			d.catalog.libraries[alias] = catalogLibrary{lib[0], lib[1]}
		}
		if d.catalog.bundles == nil {
			d.catalog.bundles = map[string][]string{}
		}
	}
	p.d = d
	return p, nil
}
