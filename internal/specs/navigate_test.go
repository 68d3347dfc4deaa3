package specs

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
)

func TestList(t *testing.T) {
	specs := fixtureSpecs(t)
	summaries := List(specs)
	if len(summaries) != len(specs) {
		t.Fatalf("%d summaries for %d specs", len(summaries), len(specs))
	}
	auth := summaries[4]
	want := Summary{ID: "auth", Title: "Authentication", Purpose: specs[4].Purpose, Kind: KindOpenSpec}
	if !reflect.DeepEqual(auth, want) {
		t.Errorf("summary = %+v, want %+v", auth, want)
	}
	b, err := json.Marshal(auth)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"id", "title", "purpose", "kind"} {
		if _, ok := fields[key]; !ok {
			t.Errorf("summary JSON %s lacks %q", b, key)
		}
	}
	if _, ok := fields["warnings"]; ok {
		t.Errorf("summary JSON %s has warnings though there are none", b)
	}
	if broken := summaries[5]; len(broken.Warnings) == 0 {
		t.Errorf("summary of a malformed spec lost its warnings: %+v", broken)
	}
	if got := List(nil); got == nil || len(got) != 0 {
		t.Errorf("List(nil) = %#v, want an empty non-nil slice", got)
	}
}

func TestRequirements(t *testing.T) {
	specs := fixtureSpecs(t)
	tests := []struct {
		specID string
		want   []RequirementSummary
	}{
		{"auth", []RequirementSummary{{"Password Login", 2, ""}, {"Magic Link", 1, ""}, {"Account Lockout", 1, ""}}},
		{"AUTH", []RequirementSummary{{"Password Login", 2, ""}, {"Magic Link", 1, ""}, {"Account Lockout", 1, ""}}},
		{"add-2fa/auth", []RequirementSummary{{"Two-Factor Code", 2, DeltaAdded}, {"Password Login", 1, DeltaModified}, {"Magic Link", 0, DeltaRemoved}, {"Brute Force Protection", 0, DeltaRenamed}}},
		{"002-notify", []RequirementSummary{{"User Story 1 - Folder change notice", 1, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.specID, func(t *testing.T) {
			got, err := Requirements(specs, tt.specID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("requirements = %+v, want %+v", got, tt.want)
			}
		})
	}
	b, err := json.Marshal(RequirementSummary{Name: "n", ScenarioCount: 2})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"name":"n","scenario_count":2}` {
		t.Errorf("JSON = %s", b)
	}
}

func TestNavigationErrors(t *testing.T) {
	specs := fixtureSpecs(t)
	tests := []struct {
		name                          string
		specID, requirement, scenario string
		onlyRequirements              bool
		kind                          errs.Kind
		code, message                 string
	}{
		{"unknown spec (requirements)", "nope", "", "", true, errs.NotFound, "SPEC_NOT_FOUND", "Spec 'nope' not found"},
		{"empty spec id", " ", "", "", true, errs.Invalid, "SPEC_ID_REQUIRED", "Spec id cannot be empty"},
		{"unknown spec", "nope", "Password Login", "", false, errs.NotFound, "SPEC_NOT_FOUND", "Spec 'nope' not found"},
		{"unknown requirement", "auth", "Logout", "", false, errs.NotFound, "REQUIREMENT_NOT_FOUND", "Requirement 'Logout' not found in spec 'auth'"},
		{"empty requirement", "auth", "", "", false, errs.Invalid, "REQUIREMENT_REQUIRED", "Requirement name cannot be empty"},
		{"unknown scenario", "auth", "password login", "Timeout", false, errs.NotFound, "SCENARIO_NOT_FOUND", "Scenario 'Timeout' not found in requirement 'Password Login'"},
		{"no scenarios", "001-export-bookmarks", "FR-001", "", false, errs.NotFound, "NO_SCENARIOS", "Requirement 'FR-001' has no scenarios"},
		{"named scenario of a requirement without any", "001-export-bookmarks", "FR-001", "Scenario 1", false, errs.NotFound, "SCENARIO_NOT_FOUND", "Scenario 'Scenario 1' not found in requirement 'FR-001'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.onlyRequirements {
				_, err = Requirements(specs, tt.specID)
			} else {
				_, err = GetScenario(specs, tt.specID, tt.requirement, tt.scenario)
			}
			e, ok := errs.As(err)
			if !ok {
				t.Fatalf("error = %v, want an *errs.Error", err)
			}
			if e.Kind != tt.kind || e.Code != tt.code || e.Message != tt.message {
				t.Errorf("error = (%v, %s, %q), want (%v, %s, %q)", e.Kind, e.Code, e.Message, tt.kind, tt.code, tt.message)
			}
		})
	}
}

func TestGetScenario(t *testing.T) {
	specs := fixtureSpecs(t)
	tests := []struct {
		name                          string
		specID, requirement, scenario string
		want                          ScenarioDetail
	}{
		{
			name: "named", specID: "auth", requirement: "Password Login", scenario: "Wrong password",
			want: ScenarioDetail{SpecID: "auth", Requirement: "Password Login",
				Description: "The service SHALL let a member sign in with an email address and a password.",
				Scenario: ScenarioBody{Name: "Wrong password", Given: []string{},
					When: []string{"the member submits a wrong password"},
					Then: []string{`the login is refused with the message "Email or password is wrong"`, "no session is created"}}},
		},
		{
			name: "first by default, names matched ignoring case", specID: "Auth", requirement: "password LOGIN",
			want: ScenarioDetail{SpecID: "auth", Requirement: "Password Login",
				Description: "The service SHALL let a member sign in with an email address and a password.",
				Scenario: ScenarioBody{Name: "Valid credentials", Given: []string{"a member with a verified email address"},
					When: []string{"the member submits the correct password"},
					Then: []string{"a session is created", "the member is redirected to the bookmark list"}}},
		},
		{
			name: "spec-kit story", specID: "001-export-bookmarks", requirement: "User Story 1 - Export to a browser file", scenario: "scenario 2",
			want: ScenarioDetail{SpecID: "001-export-bookmarks", Requirement: "User Story 1 - Export to a browser file",
				Description: specByID(t, specs, "001-export-bookmarks").Requirements[0].Description,
				Scenario: ScenarioBody{Name: "Scenario 2", Given: []string{"a bookmark with tags"}, When: []string{"it is exported"},
					Then: []string{"the tags become folder names", "untagged bookmarks go to the top level"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GetScenario(specs, tt.specID, tt.requirement, tt.scenario)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("detail = %+v\nwant     %+v", *got, tt.want)
			}
		})
	}
}

func TestGetScenarioPrefersExactName(t *testing.T) {
	specs := []Spec{{ID: "s", Requirements: []Requirement{
		{Name: "login", Scenarios: []Scenario{{Name: "a"}, {Name: "A", When: []string{"upper"}}}},
		{Name: "Login", Scenarios: []Scenario{{Name: "b"}}},
	}}}
	got, err := GetScenario(specs, "s", "Login", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Requirement != "Login" || got.Scenario.Name != "b" {
		t.Errorf("exact requirement match not preferred: %+v", got)
	}
	got, err = GetScenario(specs, "s", "login", "A")
	if err != nil {
		t.Fatal(err)
	}
	if got.Scenario.Name != "A" || !reflect.DeepEqual(got.Scenario.When, []string{"upper"}) {
		t.Errorf("exact scenario match not preferred: %+v", got)
	}
	// Clause lists are never null in JSON.
	b, err := json.Marshal(got.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"name":"A","given":[],"when":["upper"],"then":[]}` {
		t.Errorf("JSON = %s", b)
	}
}
