package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/packages"
	"github.com/lore-dev/lore/internal/toon"
)

func init() {
	register("packages", command{summary: "the monorepo's packages: list, search, show, deps, dependents, graph, status", run: runPackages})
}

// packagesUsage lists the packages subcommands.
const packagesUsage = `Usage: lore packages <command> [--root PATH] [--format human|json] [args]

Commands:
  list [--kind KIND]          every package, ordered by name (or only one kind)
  search QUERY                packages whose name, description or path match (at most 20)
  show NAME                   everything about one package, with its dependencies
  deps NAME [--internal]      a package's dependencies (only those inside the repository)
  dependents NAME             the packages that depend on NAME
  graph ROOT [--depth N]      internal dependency edges reachable from ROOT (depth 1..20, default 3)
  status                      when the index was built and how many packages it holds

show, deps, dependents and graph take --kind KIND and --path DIR to choose
among packages that share a name (lore lists them when the name is ambiguous).
The packages come from the index: run "lore index" first.
`

// choiceFlags are the --kind and --path flags that choose among packages
// sharing a name.
type choiceFlags struct{ kind, path *string }

func (c *choiceFlags) add(fs *flag.FlagSet) {
	c.kind = fs.String("kind", "", "when several packages share the name: the one of this kind ("+strings.Join(packageKinds, ", ")+")")
	c.path = fs.String("path", "", "when several packages share the name: the one in this folder (or with this manifest)")
}

func (c *choiceFlags) query(name string) (packages.Query, error) {
	if *c.kind != "" && !contains(packageKinds, *c.kind) {
		return packages.Query{}, usagef("--kind must be one of %s, got %q", strings.Join(packageKinds, ", "), *c.kind)
	}
	return packages.Query{Name: name, Kind: *c.kind, Path: *c.path}, nil
}

// subcommandArgs is what every packages and specs subcommand shares: the
// parsed positionals, the root and the output format.
type subcommandArgs struct {
	pos    []string
	root   *fsroot.Root
	format string
}

// parseSubcommand parses a packages/specs subcommand's flags (--root,
// --format, and those extra adds) and checks its positional count.
// maxArgs -1 means any number.
func parseSubcommand(a *cli, argv []string, family, name, usage string, minArgs, maxArgs int, extra func(*flag.FlagSet)) (*subcommandArgs, error) {
	fs := flag.NewFlagSet(family+" "+name, flag.ContinueOnError)
	rootFlag := fs.String("root", ".", "the indexed folder")
	format := fs.String("format", "human", "output format: human or json")
	if extra != nil {
		extra(fs)
	}
	fs.Usage = func() { commandUsage(fs, "lore "+family+" "+usage) }
	pos, err := parseFlags(a, fs, argv)
	if err != nil {
		return nil, err
	}
	if len(pos) < minArgs || (maxArgs >= 0 && len(pos) > maxArgs) {
		return nil, usagef("usage: lore %s %s", family, usage)
	}
	if *format != "human" && *format != "json" {
		return nil, usagef("--format must be human or json, got %q", *format)
	}
	root, err := fsroot.Open(*rootFlag)
	if err != nil {
		return nil, err
	}
	return &subcommandArgs{pos: pos, root: root, format: *format}, nil
}

func runPackages(ctx context.Context, a *cli, argv []string) error {
	if len(argv) == 0 {
		return usageText(packagesUsage, "packages needs a command")
	}
	sub, rest := argv[0], argv[1:]
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprint(a.stdout, packagesUsage)
		return nil
	case "list":
		var kind *string
		sa, err := parseSubcommand(a, rest, "packages", "list", "list [--kind KIND]", 0, 0, func(fs *flag.FlagSet) {
			kind = fs.String("kind", "", "only this kind: "+strings.Join(packageKinds, ", "))
		})
		if err != nil {
			return err
		}
		if *kind != "" && !contains(packageKinds, *kind) {
			return usagef("--kind must be one of %s, got %q", strings.Join(packageKinds, ", "), *kind)
		}
		g, err := loadPackages(ctx, a, sa.root.Path())
		if err != nil {
			return err
		}
		list := []packages.Package{}
		for _, p := range g.Packages() {
			if *kind == "" || p.Kind == *kind {
				list = append(list, p)
			}
		}
		return writePackageList(a.stdout, sa.format, list, "no packages")
	case "search":
		sa, err := parseSubcommand(a, rest, "packages", "search", "search QUERY", 1, -1, nil)
		if err != nil {
			return err
		}
		query := strings.Join(sa.pos, " ")
		found, err := a.services().SearchPackages(ctx, sa.root.Path(), query, packages.DefaultSearchLimit)
		if err != nil {
			return err
		}
		return writePackageList(a.stdout, sa.format, found, fmt.Sprintf("no packages match %q", query))
	case "show":
		sa, q, g, err := namedPackage(ctx, a, rest, "show", "show NAME [--kind KIND] [--path DIR]", nil)
		if err != nil {
			return err
		}
		p, err := g.Find(q)
		if err != nil {
			return err
		}
		if sa.format == "json" {
			return writeJSON(a.stdout, p)
		}
		writePackage(a.stdout, p)
		return nil
	case "deps":
		var internal *bool
		sa, q, g, err := namedPackage(ctx, a, rest, "deps", "deps NAME [--internal] [--kind KIND] [--path DIR]", func(fs *flag.FlagSet) {
			internal = fs.Bool("internal", false, "only dependencies on packages of this repository")
		})
		if err != nil {
			return err
		}
		_, deps, err := g.Dependencies(q, *internal)
		if err != nil {
			return err
		}
		if sa.format == "json" {
			return writeJSON(a.stdout, deps)
		}
		if len(deps) == 0 {
			fmt.Fprintf(a.stdout, "%s declares no dependencies\n", sa.pos[0])
			return nil
		}
		writeDependencies(a.stdout, deps)
		return nil
	case "dependents":
		sa, q, g, err := namedPackage(ctx, a, rest, "dependents", "dependents NAME [--kind KIND] [--path DIR]", nil)
		if err != nil {
			return err
		}
		_, dependents, err := g.Dependents(q)
		if err != nil {
			return err
		}
		return writePackageList(a.stdout, sa.format, dependents, fmt.Sprintf("no package depends on %s", sa.pos[0]))
	case "graph":
		var depth *int
		sa, q, g, err := namedPackage(ctx, a, rest, "graph", "graph ROOT [--depth N] [--kind KIND] [--path DIR]", func(fs *flag.FlagSet) {
			depth = fs.Int("depth", 3, fmt.Sprintf("levels to follow, clamped to %d..%d", packages.MinEdgeDepth, packages.MaxEdgeDepth))
		})
		if err != nil {
			return err
		}
		d := max(packages.MinEdgeDepth, min(*depth, packages.MaxEdgeDepth))
		p, edges, err := g.Edges(q, d)
		if err != nil {
			return err
		}
		if sa.format == "json" {
			return writeJSON(a.stdout, map[string]any{"root": sa.pos[0], "kind": p.Kind, "path": p.Path, "depth": d, "edges": edges})
		}
		if len(edges) == 0 {
			fmt.Fprintf(a.stdout, "%s depends on no package of this repository\n", sa.pos[0])
			return nil
		}
		writeEdges(a.stdout, p, edges)
		return nil
	case "status":
		sa, err := parseSubcommand(a, rest, "packages", "status", "status", 0, 0, nil)
		if err != nil {
			return err
		}
		st, err := a.services().Status(ctx, sa.root.Path())
		if err != nil {
			return err
		}
		rep := packagesStatus{Root: st.Root, Index: st.Index, IndexedAt: st.IndexedAt, GitCommit: st.GitCommit,
			PackageCount: st.Packages, SpecCount: st.Specs}
		if sa.format == "json" {
			return writeJSON(a.stdout, rep)
		}
		commit := rep.GitCommit
		if commit == "" {
			commit = "(not a git repository)"
		}
		fmt.Fprintf(a.stdout, "root        %s\nindex       %s\nindexed at  %s\ngit commit  %s\npackages    %d\nspecs       %d\n",
			rep.Root, rep.Index, rep.IndexedAt, commit, rep.PackageCount, rep.SpecCount)
		return nil
	default:
		return usageText(packagesUsage, "unknown packages command %q", sub)
	}
}

// packagesStatus is what lore packages status prints.
type packagesStatus struct {
	Root         string `json:"root"`
	Index        string `json:"index"`
	IndexedAt    string `json:"indexed_at"`
	GitCommit    string `json:"git_commit"`
	PackageCount int    `json:"package_count"`
	SpecCount    int    `json:"spec_count"`
}

var packageKinds = []string{
	packages.KindNPM, packages.KindGo, packages.KindCargo, packages.KindPython, packages.KindMaven, packages.KindGradle,
	packages.KindComposer, packages.KindGem, packages.KindNuGet, packages.KindDart, packages.KindSwift,
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// loadPackages reads every package of root's index.
func loadPackages(ctx context.Context, a *cli, root string) (*svc.Packages, error) {
	return a.services().Packages(ctx, root)
}

// namedPackage parses a subcommand that names one package (show, deps,
// dependents, graph): its flags (--kind and --path, and those more adds),
// the query that chooses among packages sharing the name, and the
// indexed root's packages.
func namedPackage(ctx context.Context, a *cli, argv []string, name, usage string, more func(*flag.FlagSet)) (*subcommandArgs, packages.Query, *svc.Packages, error) {
	var choice choiceFlags
	sa, err := parseSubcommand(a, argv, "packages", name, usage, 1, 1, func(fs *flag.FlagSet) {
		if more != nil {
			more(fs)
		}
		choice.add(fs)
	})
	if err != nil {
		return nil, packages.Query{}, nil, err
	}
	q, err := choice.query(sa.pos[0])
	if err != nil {
		return nil, packages.Query{}, nil, err
	}
	g, err := loadPackages(ctx, a, sa.root.Path())
	if err != nil {
		return nil, packages.Query{}, nil, err
	}
	return sa, q, g, nil
}

// writeJSON prints v as indented JSON, the CLI's --format json.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeTOON prints v as TOON, the CLI's --format toon.
func writeTOON(w io.Writer, v any) error {
	b, err := toon.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding TOON: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writePackageList prints packages as a table (or JSON); empty says none.
func writePackageList(w io.Writer, format string, list []packages.Package, none string) error {
	if format == "json" {
		if list == nil {
			list = []packages.Package{}
		}
		return writeJSON(w, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(w, none)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tVERSION\tPATH\tDESCRIPTION")
	for _, p := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.Kind, orDash(p.Version), p.Path, oneLine(p.Description, 60))
	}
	return tw.Flush()
}

func writePackage(w io.Writer, p packages.Package) {
	fmt.Fprintf(w, "%s (%s)\n", p.Name, p.Kind)
	fmt.Fprintf(w, "  version      %s\n  path         %s\n  manifest     %s\n", orDash(p.Version), p.Path, p.Manifest)
	if p.Description != "" {
		fmt.Fprintf(w, "  description  %s\n", oneLine(p.Description, 200))
	}
	keys := make([]string, 0, len(p.Metadata))
	for k := range p.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := json.Marshal(p.Metadata[k])
		fmt.Fprintf(w, "  %-12s %s\n", k, v)
	}
	if len(p.Dependencies) == 0 {
		fmt.Fprintln(w, "\nno dependencies")
		return
	}
	fmt.Fprintf(w, "\n%d dependencies:\n", len(p.Dependencies))
	writeDependencies(w, p.Dependencies)
}

// writeEdges prints one edge a line; a name that stands for packages in
// several folders in this graph is followed by its folder.
func writeEdges(w io.Writer, root packages.Package, edges []packages.Edge) {
	folders := map[string]map[string]bool{root.Name: {root.Path: true}}
	note := func(name, path string) {
		if folders[name] == nil {
			folders[name] = map[string]bool{}
		}
		folders[name][path] = true
	}
	for _, e := range edges {
		note(e.From, e.FromPath)
		note(e.To, e.ToPath)
	}
	label := func(name, path string) string {
		if len(folders[name]) > 1 {
			return name + " [" + path + "]"
		}
		return name
	}
	for _, e := range edges {
		fmt.Fprintf(w, "%s -> %s (%s)\n", label(e.From, e.FromPath), label(e.To, e.ToPath), e.DepKind)
	}
}

func writeDependencies(w io.Writer, deps []packages.Dependency) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, d := range deps {
		where := "external"
		if d.IsInternal {
			where = "internal"
			if d.Target != nil {
				where += " (" + d.Target.Kind + " " + d.Target.Path + ")"
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", d.Name, orDash(d.VersionReq), d.DepKind, where)
	}
	tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
