package mcp

import (
	"context"
	"fmt"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/packages"
)

// The packages family: search_packages, get_package, package_dependencies,
// package_dependents, dependency_graph, list_packages, index_status, over
// the packages lore index found in the served root's manifests. Every tool
// reads the index; without one it answers the NO_INDEX message of the code
// family. The text content of a success is the JSON of the structured
// content; of an error, exactly its message:
//
//	Search query must not be empty
//	Package '<name>' not found
//	Package '<name>' is ambiguous: <n> packages have that name (<kind> <path>, …); give kind or path to choose
//	No index found for path: <path>. Run 'index_codebase' tool first.
//
// A package is identified by kind and path; the tools that name one take
// kind and path to choose among packages that share a name.

// maxPackageResults is how many packages search_packages returns.
const maxPackageResults = 20

// defaultGraphDepth is dependency_graph's depth when none is given.
const defaultGraphDepth = 3

func registerPackages(s *Server) error {
	s.register(s.searchPackagesTool())
	s.register(s.getPackageTool())
	s.register(s.packageDependenciesTool())
	s.register(s.packageDependentsTool())
	s.register(s.dependencyGraphTool())
	s.register(s.listPackagesTool())
	s.register(s.indexStatusTool())
	return nil
}

var (
	iconPackage = svgIcon(`<path d="M12 2l9 5v10l-9 5-9-5V7z" fill="none" stroke="#a64" stroke-width="2"/><path d="M3 7l9 5 9-5M12 12v10" stroke="#a64" stroke-width="2" fill="none"/>`)
	iconGraph   = svgIcon(`<circle cx="5" cy="12" r="3" fill="none" stroke="#a64" stroke-width="2"/><circle cx="19" cy="5" r="3" fill="none" stroke="#a64" stroke-width="2"/><circle cx="19" cy="19" r="3" fill="none" stroke="#a64" stroke-width="2"/><path d="M8 11l8-5M8 13l8 5" stroke="#a64" stroke-width="2"/>`)
)

// packageKinds are the values list_packages's kind accepts.
var packageKinds = []string{
	packages.KindNPM, packages.KindGo, packages.KindCargo, packages.KindPython, packages.KindMaven, packages.KindGradle,
	packages.KindComposer, packages.KindGem, packages.KindNuGet, packages.KindDart, packages.KindSwift,
}

// packageSummary is a package without its dependencies, as search and
// listings return it. Every field is always present.
type packageSummary struct {
	Name        string         `json:"name"`
	Path        string         `json:"path"`
	Kind        string         `json:"kind"`
	Version     string         `json:"version"`
	Description string         `json:"description"`
	Metadata    map[string]any `json:"metadata"`
}

// packageDetail is get_package's answer: everything lore knows of a package.
type packageDetail struct {
	packageSummary
	Manifest     string                `json:"manifest"`
	Dependencies []packages.Dependency `json:"dependencies"`
}

func summarize(p packages.Package) packageSummary {
	metadata := p.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	return packageSummary{Name: p.Name, Path: p.Path, Kind: p.Kind, Version: p.Version, Description: p.Description, Metadata: metadata}
}

func summarizeAll(pkgs []packages.Package) []packageSummary {
	out := make([]packageSummary, 0, len(pkgs))
	for _, p := range pkgs {
		out = append(out, summarize(p))
	}
	return out
}

func nonNilDeps(deps []packages.Dependency) []packages.Dependency {
	if deps == nil {
		return []packages.Dependency{}
	}
	return deps
}

// Output schemas.
var (
	packageSummarySchemaProps = map[string]any{
		"name":        sString("the package name as its ecosystem names it (Go: module path; Maven: groupId:artifactId)"),
		"path":        sString("the manifest's folder relative to the root; \".\" for the root"),
		"kind":        sEnum("the ecosystem", packageKinds...),
		"version":     sString("declared version; empty when none"),
		"description": sString("declared description; empty when none"),
		"metadata":    map[string]any{"type": "object", "description": "kind-specific facts: private, license, bin, workspace, workspace_members, …"},
	}
	packageSummarySchema = sObject(packageSummarySchemaProps, "name", "path", "kind", "version", "description", "metadata")
	dependencySchema     = sObject(map[string]any{
		"name":        sString("the dependency as declared; for an internal one, the name of that package"),
		"version_req": sString("the version requirement as declared"),
		"dep_kind":    sEnum("", packages.DepRuntime, packages.DepDev, packages.DepPeer, packages.DepOptional, packages.DepBuild),
		"is_internal": sBool("true when it resolves to a package of this repository (possibly the package itself)"),
		"target": sObject(map[string]any{
			"kind": sEnum("", packageKinds...),
			"path": sString("the folder of the package it resolves to"),
		}, "kind", "path"),
	}, "name", "dep_kind", "is_internal")
)

func packageDetailSchema() map[string]any {
	props := map[string]any{}
	for k, v := range packageSummarySchemaProps {
		props[k] = v
	}
	props["manifest"] = sString("the manifest file relative to the root")
	props["dependencies"] = sArray(dependencySchema)
	return outputSchema(props, "name", "path", "kind", "version", "description", "metadata", "manifest", "dependencies")
}

// searchPackagesArgs are search_packages's arguments.
type searchPackagesArgs struct {
	Query string `arg:"query,required" desc:"Words to find in package names, descriptions and paths."`
}

// choiceArgs choose among packages that share a name.
type choiceArgs struct {
	Kind string `arg:"kind" enum:"${packageKinds}" desc:"When several packages share the name: the one of this kind."`
	Path string `arg:"path" desc:"When several packages share the name: the one in this folder (or with this manifest), relative to the root."`
}

// packageNameArgs name one package: package_dependents's arguments.
type packageNameArgs struct {
	Name string `arg:"name,required" desc:"The exact package name."`
	choiceArgs
}

// getPackageArgs are get_package's arguments.
type getPackageArgs struct {
	Name string `arg:"name,required" desc:"The exact package name (e.g. @acme/ui, example.com/lib, com.acme:core)."`
	choiceArgs
}

// packageDependenciesArgs are package_dependencies's arguments.
type packageDependenciesArgs struct {
	Name         string `arg:"name,required" desc:"The exact package name."`
	InternalOnly bool   `arg:"internal_only" default:"false" desc:"Only dependencies on other packages of this repository."`
	choiceArgs
}

// dependencyGraphArgs are dependency_graph's arguments.
type dependencyGraphArgs struct {
	Root  string `arg:"root,required" desc:"The exact name of the package to start from."`
	Depth int    `arg:"depth" default:"${defaultGraphDepth}" desc:"Levels of dependencies to follow; clamped to ${packages.MinEdgeDepth}..${packages.MaxEdgeDepth}."`
	choiceArgs
}

func (c choiceArgs) query(name string) packages.Query {
	return packages.Query{Name: name, Kind: c.Kind, Path: c.Path}
}

// listPackagesArgs are list_packages's arguments.
type listPackagesArgs struct {
	Kind string `arg:"kind" enum:"${packageKinds}" desc:"Only packages of this kind."`
}

func (s *Server) searchPackagesTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search_packages",
			Title: "Search packages",
			Description: fmt.Sprintf("Full-text search over the names, descriptions and paths of the repository's packages "+
				"(npm, Go, Cargo, Python, Maven, Gradle, Composer, gems, NuGet, Dart, Swift). At most %d results, best first, "+
				"each with name, path, kind, version, description and metadata. Quotes, *, -, :, AND and parentheses are plain text.",
				maxPackageResults),
			Annotations: readOnlyAnnotations("Search packages"),
			Icons:       iconPackage,
			OutputSchema: outputSchema(map[string]any{
				"query":     sString("the query as given"),
				"packages":  sArray(packageSummarySchema),
				"total":     sInt("number of packages that matched, however many the limit let through"),
				"truncated": sBool("true when packages hold fewer than total"),
			}, "query", "packages", "total", "truncated"),
		},
	}, func(ctx context.Context, c *call, in *searchPackagesArgs) (*outcome, error) {
		query := in.Query
		c.logAs("root", s.opts.Root)
		found, total, err := s.opts.App.SearchPackagesCount(ctx, s.opts.Root, query, maxPackageResults)
		if err != nil {
			return nil, err
		}
		list := summarizeAll(found)
		return &outcome{structured: map[string]any{"query": query, "packages": list, "total": total, "truncated": len(list) < total}}, nil
	})
}

func (s *Server) getPackageTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "get_package",
			Title: "Get a package",
			Description: "Everything lore knows of the package with exactly this name: path, kind, version, description, " +
				"metadata (role: fixture, example or docs for manifests outside the workspaces), manifest and its dependencies " +
				"(name, version_req, dep_kind, is_internal, and the target {kind, path} of an internal one). " +
				"When several packages share the name, give kind or path; the error lists the candidates.",
			Annotations:  readOnlyAnnotations("Get a package"),
			Icons:        iconPackage,
			OutputSchema: packageDetailSchema(),
		},
	}, func(ctx context.Context, c *call, in *getPackageArgs) (*outcome, error) {
		g, err := s.packageGraph(ctx, c)
		if err != nil {
			return nil, err
		}
		p, err := g.Find(in.query(in.Name))
		if err != nil {
			return nil, err
		}
		return &outcome{structured: packageDetail{packageSummary: summarize(p), Manifest: p.Manifest, Dependencies: nonNilDeps(p.Dependencies)}}, nil
	})
}

func (s *Server) packageDependenciesTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "package_dependencies",
			Title: "Dependencies of a package",
			Description: "The dependencies a package declares, in manifest order by kind: name, version_req, dep_kind " +
				"(runtime, dev, peer, optional, build), is_internal and target. With internal_only, only those on packages of this repository. " +
				"kind and path choose among packages that share the name.",
			Annotations: readOnlyAnnotations("Dependencies of a package"),
			Icons:       iconGraph,
			OutputSchema: outputSchema(map[string]any{
				"name":          sString("the package"),
				"kind":          sEnum("the package's kind", packageKinds...),
				"path":          sString("the package's folder"),
				"internal_only": sBool("whether only internal dependencies are listed"),
				"dependencies":  sArray(dependencySchema),
			}, "name", "kind", "path", "internal_only", "dependencies"),
		},
	}, func(ctx context.Context, c *call, in *packageDependenciesArgs) (*outcome, error) {
		g, err := s.packageGraph(ctx, c)
		if err != nil {
			return nil, err
		}
		name, internalOnly := in.Name, in.InternalOnly
		p, deps, err := g.Dependencies(in.query(name), internalOnly)
		if err != nil {
			return nil, err
		}
		return &outcome{structured: map[string]any{"name": name, "kind": p.Kind, "path": p.Path, "internal_only": internalOnly,
			"dependencies": nonNilDeps(deps)}}, nil
	})
}

func (s *Server) packageDependentsTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "package_dependents",
			Title: "Dependents of a package",
			Description: "Every package of this repository that declares a dependency resolving to the named package, sorted by name. " +
				"kind and path choose among packages that share the name.",
			Annotations: readOnlyAnnotations("Dependents of a package"),
			Icons:       iconGraph,
			OutputSchema: outputSchema(map[string]any{
				"name":       sString("the package depended on"),
				"kind":       sEnum("its kind", packageKinds...),
				"path":       sString("its folder"),
				"dependents": sArray(packageSummarySchema),
			}, "name", "kind", "path", "dependents"),
		},
	}, func(ctx context.Context, c *call, in *packageNameArgs) (*outcome, error) {
		g, err := s.packageGraph(ctx, c)
		if err != nil {
			return nil, err
		}
		name := in.Name
		p, dependents, err := g.Dependents(in.query(name))
		if err != nil {
			return nil, err
		}
		return &outcome{structured: map[string]any{"name": name, "kind": p.Kind, "path": p.Path, "dependents": summarizeAll(dependents)}}, nil
	})
}

func (s *Server) dependencyGraphTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "dependency_graph",
			Title: "Dependency graph",
			Description: fmt.Sprintf("The internal dependency graph reachable from a package, breadth-first: edges {from, to, dep_kind, from_path, to_path}, "+
				"level by level, each level sorted. depth is clamped to %d..%d; cycles end. kind and path choose the root among packages that share its name.",
				packages.MinEdgeDepth, packages.MaxEdgeDepth),
			Annotations: readOnlyAnnotations("Dependency graph"),
			Icons:       iconGraph,
			OutputSchema: outputSchema(map[string]any{
				"root":  sString("the starting package"),
				"kind":  sEnum("its kind", packageKinds...),
				"path":  sString("its folder"),
				"depth": sInt("the depth walked, after clamping"),
				"edges": sArray(sObject(map[string]any{
					"from":      sString("the package declaring the dependency"),
					"to":        sString("the package depended on"),
					"dep_kind":  sString("runtime, dev, peer, optional or build"),
					"from_path": sString("the folder of from"),
					"to_path":   sString("the folder of to"),
				}, "from", "to", "dep_kind", "from_path", "to_path")),
			}, "root", "kind", "path", "depth", "edges"),
		},
	}, func(ctx context.Context, c *call, in *dependencyGraphArgs) (*outcome, error) {
		g, err := s.packageGraph(ctx, c)
		if err != nil {
			return nil, err
		}
		root := in.Root
		depth := max(packages.MinEdgeDepth, min(in.Depth, packages.MaxEdgeDepth))
		p, edges, err := g.Edges(in.query(root), depth)
		if err != nil {
			return nil, err
		}
		if edges == nil {
			edges = []packages.Edge{}
		}
		return &outcome{structured: map[string]any{"root": root, "kind": p.Kind, "path": p.Path, "depth": depth, "edges": edges}}, nil
	})
}

func (s *Server) listPackagesTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:        "list_packages",
			Title:       "List packages",
			Description: "Every package of the repository ordered by name (then path), or only those of one kind.",
			Annotations: readOnlyAnnotations("List packages"),
			Icons:       iconPackage,
			OutputSchema: outputSchema(map[string]any{
				"kind":     sString("the kind asked for; absent for all"),
				"packages": sArray(packageSummarySchema),
				"total":    sInt("number of packages listed"),
			}, "packages", "total"),
		},
	}, func(ctx context.Context, c *call, in *listPackagesArgs) (*outcome, error) {
		g, err := s.packageGraph(ctx, c)
		if err != nil {
			return nil, err
		}
		// The answer depends only on the generation's packages and kind:
		// it is encoded once per generation and kind.
		enc, err := g.Memo("list_packages\x00"+in.Kind, func() (any, error) {
			return newEncodedResult(listPackages(g, in.Kind))
		})
		if err != nil {
			return nil, fmt.Errorf("encoding the result of list_packages: %w", err)
		}
		return &outcome{encoded: enc.(*encodedResult)}, nil
	})
}

// listPackages is list_packages' structured content: the packages of kind
// ("" for all), in the graph's order.
func listPackages(g *app.Packages, kind string) map[string]any {
	var pkgs []packages.Package
	for _, p := range g.Packages() {
		if kind == "" || p.Kind == kind {
			pkgs = append(pkgs, p)
		}
	}
	out := map[string]any{"packages": summarizeAll(pkgs), "total": len(pkgs)}
	if kind != "" {
		out["kind"] = kind
	}
	return out
}

// indexStatus is index_status's answer.
type indexStatus struct {
	Root         string         `json:"root"`
	IndexPath    string         `json:"index_path"`
	IndexedAt    string         `json:"indexed_at"`
	GitCommit    string         `json:"git_commit"`
	PackageCount int            `json:"package_count"`
	SpecCount    int            `json:"spec_count"`
	Freshness    *app.Freshness `json:"freshness"`
}

func (s *Server) indexStatusTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "index_status",
			Title: "Index status",
			Description: "When the served root was last indexed (indexed_at, RFC 3339), at which git commit (empty outside git), " +
				"how many packages and specs the index holds, and how fresh it is: whether lore re-indexes it by itself as files change, " +
				"and which changes are not indexed yet.",
			Annotations: readOnlyAnnotations("Index status"),
			Icons:       iconIndex,
			OutputSchema: outputSchema(map[string]any{
				"root":          sString("the indexed directory"),
				"index_path":    sString("the index file"),
				"indexed_at":    sString("when the index was last built"),
				"git_commit":    sString("the HEAD commit at that time; empty outside a git repository"),
				"package_count": sInt("packages in the index"),
				"spec_count":    sInt("specs in the index"),
				"freshness":     freshnessSchema,
			}, "indexed_at", "git_commit", "package_count", "freshness"),
		},
	}, func(ctx context.Context, c *call, _ *noArgs) (*outcome, error) {
		c.logAs("root", s.opts.Root)
		st, err := s.opts.App.Status(ctx, s.opts.Root)
		if err != nil {
			return nil, err
		}
		fresh, err := s.opts.App.Freshness(ctx, s.opts.Root)
		if err != nil {
			return nil, err
		}
		return &outcome{structured: indexStatus{Root: st.Root, IndexPath: st.Index, IndexedAt: st.IndexedAt,
			GitCommit: st.GitCommit, PackageCount: st.Packages, SpecCount: st.Specs, Freshness: fresh}}, nil
	})
}

// freshnessSchema describes app.Freshness.
var freshnessSchema = sObject(map[string]any{
	"watching":        sBool("true when this server re-indexes the root by itself as files change"),
	"watch_mode":      sEnum("notify: file events; poll: periodic scans (network file systems)", "notify", "poll"),
	"indexing":        sBool("a re-index is under way; searches meanwhile answer from the previous index"),
	"pending_changes": sInt("files changed since the last index run; -1 when too many to count"),
	"pending_paths":   sStringArray("some of those files, relative to the root"),
	"last_run": sObject(map[string]any{
		"finished":      sString("when the watcher's last run finished (RFC 3339)"),
		"duration_ms":   sInt("how long it took"),
		"changes":       sInt("the changes that started it"),
		"files_indexed": sInt("files it (re)indexed"),
		"files_deleted": sInt("files it removed from the index"),
	}),
	"last_error": sString("why the last re-index failed, if it did"),
}, "watching", "indexing", "pending_changes", "pending_paths")

// packageGraph loads the served root's packages from its index.
func (s *Server) packageGraph(ctx context.Context, c *call) (*app.Packages, error) {
	c.logAs("root", s.opts.Root)
	return s.opts.App.Packages(ctx, s.opts.Root)
}

// noIndexError is the message every index-backed tool answers when root
// has no index: it says what to run.
func (s *Server) noIndexError(root string) *errs.Error {
	hint := "Run 'index_codebase' tool first."
	if s.opts.ReadOnly || !slices.Contains(s.opts.Toolsets, "code") {
		hint = fmt.Sprintf("Run 'lore index %s' first.", root)
	}
	return errs.New(errs.NoIndex, errs.CodeNoIndex, "No index found for path: %s. %s", root, hint).With("path", root)
}
