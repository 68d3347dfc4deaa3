package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/lore-dev/lore/internal/specs"
)

func init() {
	register("specs", command{summary: "OpenSpec and spec-kit specs: list, show, scenario, search", run: runSpecs})
}

const specsUsage = `Usage: lore specs <command> [--root PATH] [--format human|json] [args]

Commands:
  list [--specs-dir DIR]                         every spec: id, kind, title, purpose
  show ID [--specs-dir DIR]                      a spec's requirements with their scenario counts
  scenario ID REQUIREMENT [SCENARIO] [--specs-dir DIR]
                                                 one scenario (the first one without SCENARIO)
  search QUERY [--limit N]                       requirements ranked against QUERY (needs the index)

list, show and scenario read the spec files directly (openspec/ and specs/
under the root, or --specs-dir); search reads the index built by "lore index".
`

func runSpecs(ctx context.Context, a *cli, argv []string) error {
	if len(argv) == 0 {
		return usageText(specsUsage, "specs needs a command")
	}
	sub, rest := argv[0], argv[1:]
	var specsDir *string
	specsDirFlag := func(fs *flag.FlagSet) {
		specsDir = fs.String("specs-dir", "", "the specs folder, relative to the root (default: openspec/ and specs/)")
	}
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprint(a.stdout, specsUsage)
		return nil
	case "list":
		sa, err := parseSubcommand(a, rest, "specs", "list", "list [--specs-dir DIR]", 0, 0, specsDirFlag)
		if err != nil {
			return err
		}
		found, err := a.services().Specs(sa.root.Path(), *specsDir)
		if err != nil {
			return err
		}
		list := specs.List(found)
		if sa.format == "json" {
			return writeJSON(a.stdout, list)
		}
		writeSpecList(a.stdout, list)
		return nil
	case "show":
		sa, err := parseSubcommand(a, rest, "specs", "show", "show ID [--specs-dir DIR]", 1, 1, specsDirFlag)
		if err != nil {
			return err
		}
		found, err := a.services().Specs(sa.root.Path(), *specsDir)
		if err != nil {
			return err
		}
		reqs, err := specs.Requirements(found, sa.pos[0])
		if err != nil {
			return err
		}
		if sa.format == "json" {
			return writeJSON(a.stdout, reqs)
		}
		if len(reqs) == 0 {
			fmt.Fprintf(a.stdout, "%s has no requirements\n", sa.pos[0])
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "REQUIREMENT\tSCENARIOS\tDELTA")
		for _, r := range reqs {
			fmt.Fprintf(tw, "%s\t%d\t%s\n", r.Name, r.ScenarioCount, orDash(r.Delta))
		}
		return tw.Flush()
	case "scenario":
		sa, err := parseSubcommand(a, rest, "specs", "scenario", "scenario ID REQUIREMENT [SCENARIO] [--specs-dir DIR]", 2, 3, specsDirFlag)
		if err != nil {
			return err
		}
		found, err := a.services().Specs(sa.root.Path(), *specsDir)
		if err != nil {
			return err
		}
		scenario := ""
		if len(sa.pos) == 3 {
			scenario = sa.pos[2]
		}
		detail, err := specs.GetScenario(found, sa.pos[0], sa.pos[1], scenario)
		if err != nil {
			return err
		}
		if sa.format == "json" {
			return writeJSON(a.stdout, detail)
		}
		writeScenario(a.stdout, detail)
		return nil
	case "search":
		var limit *int
		sa, err := parseSubcommand(a, rest, "specs", "search", "search QUERY [--limit N]", 1, -1, func(fs *flag.FlagSet) {
			limit = fs.Int("limit", specs.DefaultSearchLimit, "number of results")
		})
		if err != nil {
			return err
		}
		if *limit <= 0 {
			return usagef("--limit must be positive, got %d", *limit)
		}
		query := strings.Join(sa.pos, " ")
		hits, err := a.services().SearchSpecs(ctx, sa.root.Path(), query, *limit)
		if err != nil {
			return err
		}
		if sa.format == "json" {
			// The object search_specs answers over MCP.
			return writeJSON(a.stdout, specSearchJSON{Query: query, Results: hits})
		}
		if len(hits) == 0 {
			fmt.Fprintf(a.stdout, "no requirements match %q\n", query)
			return nil
		}
		for i, h := range hits {
			fmt.Fprintf(a.stdout, "%2d. %s: %s  (%.2f)\n    %s\n", i+1, h.SpecID, h.Requirement, h.Score, oneLine(h.Snippet, 160))
		}
		return nil
	default:
		return usageText(specsUsage, "unknown specs command %q", sub)
	}
}

// specSearchJSON is what lore specs search --format json prints: the
// structured content of the search_specs tool.
type specSearchJSON struct {
	Query   string      `json:"query"`
	Results []specs.Hit `json:"results"`
}

func writeSpecList(w io.Writer, list []specs.Summary) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no specs found (looked in openspec/ and specs/; use --specs-dir for another folder)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tTITLE\tPURPOSE")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.ID, s.Kind, orDash(oneLine(s.Title, 40)), oneLine(s.Purpose, 60))
	}
	tw.Flush()
	for _, s := range list {
		for _, warning := range s.Warnings {
			fmt.Fprintf(w, "warning: %s: %s\n", s.ID, warning)
		}
	}
}

func writeScenario(w io.Writer, d *specs.ScenarioDetail) {
	fmt.Fprintf(w, "%s / %s\n", d.SpecID, d.Requirement)
	if d.Description != "" {
		fmt.Fprintf(w, "\n%s\n", d.Description)
	}
	fmt.Fprintf(w, "\nScenario: %s\n", d.Scenario.Name)
	for _, clause := range []struct {
		keyword string
		lines   []string
	}{{"GIVEN", d.Scenario.Given}, {"WHEN", d.Scenario.When}, {"THEN", d.Scenario.Then}} {
		for i, line := range clause.lines {
			keyword := clause.keyword
			if i > 0 {
				keyword = "AND"
			}
			fmt.Fprintf(w, "  %-5s %s\n", keyword, line)
		}
	}
}
