package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/specs"
)

// The specs family: list_specs, get_spec_requirements, get_scenario,
// search_specs, over the OpenSpec specs, OpenSpec change deltas and spec-kit
// feature specs of the served root. The first three read the spec files
// directly on every call, so they work without an index and always see the
// files as they are; only search_specs needs the index (it ranks the
// requirements stored by the last lore index). The text content of a
// success is the JSON of the structured content; of an error, exactly its
// message:
//
//	Spec '<id>' not found
//	Requirement '<name>' not found in spec '<id>'
//	Scenario '<name>' not found in requirement '<name>'
//	Query cannot be empty
//	No index found for path: <path>. Run 'index_codebase' tool first.

// maxSpecResults bounds search_specs's limit.
const maxSpecResults = 100

func registerSpecs(s *Server) error {
	s.register(s.listSpecsTool())
	s.register(s.getSpecRequirementsTool())
	s.register(s.getScenarioTool())
	s.register(s.searchSpecsTool())
	return nil
}

var iconSpec = svgIcon(`<path d="M6 2h12v20H6z" fill="none" stroke="#4a8" stroke-width="2"/><path d="M9 7l1.5 1.5L13 6M9 13l1.5 1.5L13 12M15 7h1M15 13h1M9 18h7" stroke="#4a8" stroke-width="2" fill="none"/>`)

// specsDirFor is the specs folder to use for root: the configured one for
// the served root, the default layout (openspec/ and specs/) elsewhere.
func (s *Server) specsDirFor(root string) string {
	if root == s.opts.Root {
		return s.opts.SpecsDir
	}
	return ""
}

// discoverSpecs reads the served root's specs from disk.
func (s *Server) discoverSpecs(c *call) ([]specs.Spec, error) {
	c.logAs("root", s.opts.Root)
	found, err := s.opts.App.Specs(s.opts.Root, s.opts.SpecsDir)
	if err != nil {
		return nil, err
	}
	return found, nil
}

// specIDArgs are get_spec_requirements's arguments.
type specIDArgs struct {
	SpecID string `arg:"spec_id,required" desc:"The spec's id, as list_specs gives it."`
}

// getScenarioArgs are get_scenario's arguments.
type getScenarioArgs struct {
	SpecID      string `arg:"spec_id,required" desc:"The spec's id, as list_specs gives it."`
	Requirement string `arg:"requirement,required" desc:"The requirement's name, as get_spec_requirements gives it."`
	Scenario    string `arg:"scenario" desc:"The scenario's name; the requirement's first scenario when absent."`
}

// searchSpecsArgs are search_specs's arguments.
type searchSpecsArgs struct {
	Query string `arg:"query,required" desc:"Words to find in requirements and scenarios."`
	Limit int    `arg:"limit" default:"${specs.DefaultSearchLimit}" min:"1" max:"${maxSpecResults}" desc:"Maximum number of results."`
}

func (s *Server) listSpecsTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "list_specs",
			Title: "List specs",
			Description: "Every spec of the repository: OpenSpec specs (openspec/specs/<id>), OpenSpec change deltas " +
				"(<change>/<id>) and spec-kit feature specs (specs/<NNN-feature>), as {id, title, purpose, kind}, sorted by id, " +
				"without requirement details. A spec that could not be fully parsed carries warnings. Works without an index.",
			Annotations: readOnlyAnnotations("List specs"),
			Icons:       iconSpec,
			OutputSchema: outputSchema(map[string]any{
				"specs": sArray(sObject(map[string]any{
					"id":       sString("the spec's id: its folder name, <change>/<id> for a change delta"),
					"title":    sString("the # title"),
					"purpose":  sString("the ## Purpose section (spec-kit: the feature input)"),
					"kind":     sEnum("", specs.KindOpenSpec, specs.KindOpenSpecChange, specs.KindSpecKit),
					"warnings": sStringArray("what could not be parsed, with line numbers"),
				}, "id", "title", "purpose", "kind")),
			}, "specs"),
		},
	}, func(ctx context.Context, c *call, _ *noArgs) (*outcome, error) {
		found, err := s.discoverSpecs(c)
		if err != nil {
			return nil, err
		}
		return &outcome{structured: map[string]any{"specs": specs.List(found)}}, nil
	})
}

func (s *Server) getSpecRequirementsTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "get_spec_requirements",
			Title: "Requirements of a spec",
			Description: "The requirements of one spec, in document order, with their name and scenario_count (and delta: " +
				"ADDED, MODIFIED, REMOVED or RENAMED for a change delta); no scenario bodies. Works without an index.",
			Annotations: readOnlyAnnotations("Requirements of a spec"),
			Icons:       iconSpec,
			OutputSchema: outputSchema(map[string]any{
				"spec_id": sString("the spec"),
				"requirements": sArray(sObject(map[string]any{
					"name":           sString("the requirement's name"),
					"scenario_count": sInt("how many scenarios it has"),
					"delta":          sString("for a change delta: ADDED, MODIFIED, REMOVED or RENAMED"),
				}, "name", "scenario_count")),
			}, "spec_id", "requirements"),
		},
	}, func(ctx context.Context, c *call, in *specIDArgs) (*outcome, error) {
		found, err := s.discoverSpecs(c)
		if err != nil {
			return nil, err
		}
		reqs, err := specs.Requirements(found, in.SpecID)
		if err != nil {
			return nil, err
		}
		return &outcome{structured: map[string]any{"spec_id": strings.TrimSpace(in.SpecID), "requirements": reqs}}, nil
	})
}

func (s *Server) getScenarioTool() *tool {
	clauses := func(desc string) map[string]any { return sStringArray(desc) }
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "get_scenario",
			Title: "Get a scenario",
			Description: "One scenario of a requirement: the requirement's description and the scenario's name with its " +
				"given, when and then clauses (AND lines belong to the clause before them). Without scenario, the first one. " +
				"Names match exactly, else ignoring case. Works without an index.",
			Annotations: readOnlyAnnotations("Get a scenario"),
			Icons:       iconSpec,
			OutputSchema: outputSchema(map[string]any{
				"spec_id":     sString("the spec"),
				"requirement": sString("the requirement's name"),
				"description": sString("the requirement's description"),
				"scenario": sObject(map[string]any{
					"name":  sString("the scenario's name"),
					"given": clauses("GIVEN clauses, with their AND lines"),
					"when":  clauses("WHEN clauses, with their AND lines"),
					"then":  clauses("THEN clauses, with their AND lines"),
				}, "name", "given", "when", "then"),
			}, "spec_id", "requirement", "description", "scenario"),
		},
	}, func(ctx context.Context, c *call, in *getScenarioArgs) (*outcome, error) {
		found, err := s.discoverSpecs(c)
		if err != nil {
			return nil, err
		}
		detail, err := specs.GetScenario(found, in.SpecID, in.Requirement, in.Scenario)
		if err != nil {
			return nil, err
		}
		return &outcome{structured: detail}, nil
	})
}

func (s *Server) searchSpecsTool() *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search_specs",
			Title: "Search specs",
			Description: "Ranked search over the requirements of every spec (name, description and scenario text, the name " +
				"weighted most): [{spec_id, requirement, score (0..1), snippet}] by descending score. Requirements sharing too " +
				"few of the query's words are dropped, so an unrelated query returns no results. Needs the index.",
			Annotations: readOnlyAnnotations("Search specs"),
			Icons:       iconSearch,
			OutputSchema: outputSchema(map[string]any{
				"query": sString("the query as given"),
				"results": sArray(sObject(map[string]any{
					"spec_id":     sString("the spec"),
					"requirement": sString("the requirement's name"),
					"score":       sNumber("relevance, 0..1"),
					"snippet":     sString("the best matching line of the requirement"),
				}, "spec_id", "requirement", "score", "snippet")),
			}, "query", "results"),
		},
	}, func(ctx context.Context, c *call, in *searchSpecsArgs) (*outcome, error) {
		query := in.Query
		c.logAs("root", s.opts.Root)
		hits, err := s.opts.App.SearchSpecs(ctx, s.opts.Root, query, in.Limit)
		if err != nil {
			return nil, err
		}
		return &outcome{structured: map[string]any{"query": query, "results": hits}}, nil
	})
}
