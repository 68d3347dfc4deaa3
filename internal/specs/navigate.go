package specs

import (
	"strings"

	"github.com/lore-dev/lore/internal/errs"
)

// Summary is the short form of a spec that list_specs returns.
type Summary struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Purpose  string   `json:"purpose"`
	Kind     string   `json:"kind"`
	Template bool     `json:"template,omitempty"` // an unfilled spec-kit template
	Warnings []string `json:"warnings,omitempty"`
}

// RequirementSummary is one requirement without its scenario bodies.
type RequirementSummary struct {
	Name          string `json:"name"`
	ScenarioCount int    `json:"scenario_count"`
	Delta         string `json:"delta,omitempty"`
}

// ScenarioDetail is one scenario with the requirement it belongs to.
type ScenarioDetail struct {
	SpecID      string       `json:"spec_id"`
	Requirement string       `json:"requirement"`
	Description string       `json:"description"`
	Scenario    ScenarioBody `json:"scenario"`
}

// ScenarioBody is a scenario's name and clauses; the lists are never nil.
type ScenarioBody struct {
	Name  string   `json:"name"`
	Given []string `json:"given"`
	When  []string `json:"when"`
	Then  []string `json:"then"`
}

// List summarises specs in their order; no specs give an empty, non-nil
// slice.
func List(specs []Spec) []Summary {
	out := make([]Summary, 0, len(specs))
	for _, s := range specs {
		out = append(out, Summary{ID: s.ID, Title: s.Title, Purpose: s.Purpose, Kind: s.Kind, Template: s.Template, Warnings: s.Warnings})
	}
	return out
}

// Requirements lists the requirements of the spec with the given ID.
func Requirements(specs []Spec, specID string) ([]RequirementSummary, error) {
	spec, err := findSpec(specs, specID)
	if err != nil {
		return nil, err
	}
	out := make([]RequirementSummary, 0, len(spec.Requirements))
	for _, r := range spec.Requirements {
		out = append(out, RequirementSummary{Name: r.Name, ScenarioCount: len(r.Scenarios), Delta: r.Delta})
	}
	return out, nil
}

// GetScenario returns one scenario of a requirement; scenario "" means the
// first. Names (and the spec ID), trimmed of surrounding spaces, match
// exactly first, then case-insensitively. A requirement
// without scenarios is an error (NotFound, NO_SCENARIOS): there is nothing
// to return.
func GetScenario(specs []Spec, specID, requirement, scenario string) (*ScenarioDetail, error) {
	spec, err := findSpec(specs, specID)
	if err != nil {
		return nil, err
	}
	specID, requirement, scenario = strings.TrimSpace(specID), strings.TrimSpace(requirement), strings.TrimSpace(scenario)
	if requirement == "" {
		return nil, errs.New(errs.Invalid, errs.CodeRequirementReq, "Requirement name cannot be empty")
	}
	ri := matchName(len(spec.Requirements), func(i int) string { return spec.Requirements[i].Name }, requirement)
	if ri < 0 {
		return nil, errs.New(errs.NotFound, errs.CodeRequirementNotFound, "Requirement '%s' not found in spec '%s'", requirement, specID)
	}
	req := spec.Requirements[ri]
	if len(req.Scenarios) == 0 {
		if scenario != "" {
			return nil, errs.New(errs.NotFound, errs.CodeScenarioNotFound, "Scenario '%s' not found in requirement '%s'", scenario, req.Name)
		}
		return nil, errs.New(errs.NotFound, errs.CodeNoScenarios, "Requirement '%s' has no scenarios", req.Name)
	}
	si := 0
	if scenario != "" {
		si = matchName(len(req.Scenarios), func(i int) string { return req.Scenarios[i].Name }, scenario)
		if si < 0 {
			return nil, errs.New(errs.NotFound, errs.CodeScenarioNotFound, "Scenario '%s' not found in requirement '%s'", scenario, req.Name)
		}
	}
	s := req.Scenarios[si]
	return &ScenarioDetail{
		SpecID:      spec.ID,
		Requirement: req.Name,
		Description: req.Description,
		Scenario:    ScenarioBody{Name: s.Name, Given: nonNil(s.Given), When: nonNil(s.When), Then: nonNil(s.Then)},
	}, nil
}

// findSpec finds a spec by ID, exactly first, then case-insensitively.
func findSpec(specs []Spec, specID string) (*Spec, error) {
	specID = strings.TrimSpace(specID)
	if specID == "" {
		return nil, errs.New(errs.Invalid, errs.CodeSpecIDRequired, "Spec id cannot be empty")
	}
	i := matchName(len(specs), func(i int) string { return specs[i].ID }, specID)
	if i < 0 {
		return nil, errs.New(errs.NotFound, errs.CodeSpecNotFound, "Spec '%s' not found", specID)
	}
	return &specs[i], nil
}

// matchName returns the index of the first of n names equal to want, else
// of the first equal ignoring case, else -1. A want written with the
// heading's wrapping emphasis ("**Login**") finds the name lore stored
// without it ("Login").
func matchName(n int, name func(int) string, want string) int {
	for _, w := range []string{want, stripEmphasis(want)} {
		for i := 0; i < n; i++ {
			if name(i) == w {
				return i
			}
		}
		for i := 0; i < n; i++ {
			if strings.EqualFold(name(i), w) {
				return i
			}
		}
	}
	return -1
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
