package specs

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fixtureSpecs discovers the specs of testdata/repo.
func fixtureSpecs(t *testing.T) []Spec {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", "repo"))
	if err != nil {
		t.Fatal(err)
	}
	specs, err := Discover(root, "")
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return specs
}

func specByID(t *testing.T, specs []Spec, id string) Spec {
	t.Helper()
	for _, s := range specs {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("spec %q not found", id)
	return Spec{}
}

func requirementByName(t *testing.T, s Spec, name string) Requirement {
	t.Helper()
	for _, r := range s.Requirements {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("requirement %q not found in spec %s", name, s.ID)
	return Requirement{}
}

func scenarioByName(t *testing.T, r Requirement, name string) Scenario {
	t.Helper()
	for _, s := range r.Scenarios {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("scenario %q not found in requirement %s", name, r.Name)
	return Scenario{}
}

func TestDiscoverFixtureSpecs(t *testing.T) {
	specs := fixtureSpecs(t)
	type want struct{ id, kind, title, path, change string }
	wants := []want{
		{"001-export-bookmarks", KindSpecKit, "Export Bookmarks", "specs/001-export-bookmarks/spec.md", ""},
		{"002-notify", KindSpecKit, "002-notify", "specs/002-notify/spec.md", ""},
		{"add-2fa/auth", KindOpenSpecChange, "auth (change add-2fa)", "openspec/changes/add-2fa/specs/auth/spec.md", "add-2fa"},
		{"add-2fa/session", KindOpenSpecChange, "Session changes for two-factor authentication", "openspec/changes/add-2fa/specs/session/spec.md", "add-2fa"},
		{"auth", KindOpenSpec, "Authentication", "openspec/specs/auth/spec.md", ""},
		{"broken", KindOpenSpec, "broken", "openspec/specs/broken/spec.md", ""},
		{"search", KindOpenSpec, "Bookmark Search", "openspec/specs/search/spec.md", ""},
		{"variants", KindOpenSpec, "Format Variants", "openspec/specs/variants/spec.md", ""},
	}
	if len(specs) != len(wants) {
		ids := make([]string, len(specs))
		for i, s := range specs {
			ids[i] = s.ID
		}
		t.Fatalf("got %d specs %v, want %d (archived changes and project.md excluded)", len(specs), ids, len(wants))
	}
	for i, w := range wants {
		s := specs[i]
		got := want{s.ID, s.Kind, s.Title, s.Path, s.Change}
		if got != w {
			t.Errorf("spec %d = %+v, want %+v", i, got, w)
		}
	}
}

func TestOpenSpecPurposeAndDescriptions(t *testing.T) {
	specs := fixtureSpecs(t)
	auth := specByID(t, specs, "auth")
	if want := "Members sign in to the bookmark service with a password or a single-use\nlink sent by email."; auth.Purpose != want {
		t.Errorf("auth purpose = %q, want %q", auth.Purpose, want)
	}
	tests := []struct {
		spec, requirement string
		line              int
		description       string
		scenarios         []string
	}{
		{"auth", "Password Login", 10, "The service SHALL let a member sign in with an email address and a password.", []string{"Valid credentials", "Wrong password"}},
		{"auth", "Magic Link", 27, "The service SHALL send a single-use sign-in link by email.\n\nIt expires after fifteen minutes.", []string{"Link requested"}},
		{"auth", "Account Lockout", 39, "The service SHALL lock an account after five failed password attempts in a row.", []string{"Fifth failure"}},
		{"search", "Tag Filter", 24, "The service SHALL narrow results to bookmarks carrying every given tag.", []string{"Two tags"}},
		// A heading inside a code block is text, not a scenario.
		{"variants", "Tolerant Bullets", 14, "Bullets may be written in several ways.\n\n```text\n#### Scenario: inside a code block, so part of the description\n```",
			[]string{"Star bullets and plain keywords", "Colons", "Wrapped and nested"}},
	}
	for _, tt := range tests {
		t.Run(tt.spec+"/"+tt.requirement, func(t *testing.T) {
			r := requirementByName(t, specByID(t, specs, tt.spec), tt.requirement)
			if r.Line != tt.line {
				t.Errorf("line = %d, want %d", r.Line, tt.line)
			}
			if r.Description != tt.description {
				t.Errorf("description = %q, want %q", r.Description, tt.description)
			}
			var names []string
			for _, s := range r.Scenarios {
				names = append(names, s.Name)
			}
			if !reflect.DeepEqual(names, tt.scenarios) {
				t.Errorf("scenarios = %q, want %q", names, tt.scenarios)
			}
		})
	}
}

func TestOpenSpecScenarioClauses(t *testing.T) {
	specs := fixtureSpecs(t)
	tests := []struct {
		spec, requirement, scenario string
		want                        Scenario
	}{
		{"auth", "Password Login", "Valid credentials", Scenario{
			Given: []string{"a member with a verified email address"},
			When:  []string{"the member submits the correct password"},
			Then:  []string{"a session is created", "the member is redirected to the bookmark list"},
			Line:  14,
		}},
		{"auth", "Magic Link", "Link requested", Scenario{ // AND after WHEN
			Given: []string{},
			When:  []string{"a member asks for a magic link", "the email address belongs to a member"},
			Then:  []string{"an email with a single-use link is sent"},
			Line:  33,
		}},
		{"auth", "Account Lockout", "Fifth failure", Scenario{ // AND after GIVEN
			Given: []string{"four failed attempts", "no successful login since"},
			When:  []string{"a fifth wrong password is submitted"},
			Then:  []string{"the account is locked for thirty minutes"},
			Line:  43,
		}},
		{"variants", "Tolerant Bullets", "Star bullets and plain keywords", Scenario{
			Given: []string{},
			When:  []string{"the bullet uses a star"},
			Then:  []string{"the clause is still read", "a lower-case plain AND joins the THEN"},
			Line:  22,
		}},
		{"variants", "Tolerant Bullets", "Colons", Scenario{
			Given: []string{},
			When:  []string{"the colon is inside the bold"},
			Then:  []string{"the colon is outside the bold", "underscores work as bold"},
			Line:  28,
		}},
		{"variants", "Tolerant Bullets", "Wrapped and nested", Scenario{
			Given: []string{},
			When:  []string{"a clause is long enough that it wraps onto a second line"},
			Then:  []string{"the response lists: the first field; the second field", "the wrap is joined with a space"},
			Line:  34,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.spec+"/"+tt.scenario, func(t *testing.T) {
			got := scenarioByName(t, requirementByName(t, specByID(t, specs, tt.spec), tt.requirement), tt.scenario)
			tt.want.Name = tt.scenario
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("scenario = %+v\nwant       %+v", got, tt.want)
			}
		})
	}
}

func TestOpenSpecChangeDeltas(t *testing.T) {
	specs := fixtureSpecs(t)
	change := specByID(t, specs, "add-2fa/auth")
	type req struct {
		name, delta string
		scenarios   int
		description string
	}
	var got []req
	for _, r := range change.Requirements {
		got = append(got, req{r.Name, r.Delta, len(r.Scenarios), r.Description})
	}
	want := []req{
		{"Two-Factor Code", DeltaAdded, 2, "The service SHALL ask for a six-digit one-time code after a correct password\nwhen the member has enabled two-factor authentication."},
		{"Password Login", DeltaModified, 1, "The service SHALL let a member sign in with an email address and a password,\nfollowed by a one-time code when two-factor authentication is enabled."},
		{"Magic Link", DeltaRemoved, 0, "**Reason**: Magic links bypass the second factor.\n**Migration**: Members sign in with a password and a one-time code."},
		{"Brute Force Protection", DeltaRenamed, 0, "Renamed from 'Account Lockout'."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requirements = %+v\nwant %+v", got, want)
	}
	if want := "Passwords alone are phished too often; a second factor stops most takeovers."; change.Purpose != want {
		t.Errorf("purpose (from proposal.md) = %q, want %q", change.Purpose, want)
	}
	if len(change.Warnings) != 0 {
		t.Errorf("warnings = %q, want none", change.Warnings)
	}
	// Base specs never carry a delta.
	for _, r := range specByID(t, specs, "auth").Requirements {
		if r.Delta != "" {
			t.Errorf("base requirement %q has delta %q", r.Name, r.Delta)
		}
	}
}

func TestFixtureWarnings(t *testing.T) {
	specs := fixtureSpecs(t)
	tests := []struct {
		spec string
		want []string
	}{
		{"auth", nil},
		{"search", nil},
		{"add-2fa/auth", nil},
		{"add-2fa/session", []string{
			"line 3: requirement 'Remember Device' is not under an ADDED, MODIFIED, REMOVED or RENAMED section",
		}},
		{"broken", []string{
			"line 3: scenario 'Orphan scenario' is outside any requirement; ignored",
			`line 17: bullet in scenario 'Stray bullet' is not a GIVEN/WHEN/THEN/AND clause: "a bullet that is not a clause"`,
			"line 22: AND in scenario 'Leading and' follows no GIVEN/WHEN/THEN; treated as WHEN",
			"line 25: scenario 'Empty' has no GIVEN/WHEN/THEN clauses",
			"line 27: requirement heading has no name",
			"no title (expected a '# ' heading); using the spec id",
		}},
		{"variants", nil},
		{"001-export-bookmarks", []string{
			"line 38: acceptance scenario 2 of 'User Story 2 - Export for scripts' has no Given/When/Then; kept as a THEN clause",
		}},
		{"002-notify", []string{"no title (expected a '# ' heading); using the spec id"}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got := specByID(t, specs, tt.spec).Warnings
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("warnings =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
	broken := specByID(t, specs, "broken")
	r := requirementByName(t, broken, "Half Parsed")
	stray := scenarioByName(t, r, "Stray bullet")
	if !reflect.DeepEqual(stray.When, []string{"something happens"}) || !reflect.DeepEqual(stray.Then, []string{"the clause list survives"}) {
		t.Errorf("clauses around a stray bullet = %+v", stray)
	}
	requirementByName(t, broken, "(unnamed requirement at line 27)")
}

func TestSpecKitFixture(t *testing.T) {
	specs := fixtureSpecs(t)
	s := specByID(t, specs, "001-export-bookmarks")
	if want := "Let members export their bookmarks as an HTML file that browsers can import, or as JSON for scripts."; s.Purpose != want {
		t.Errorf("purpose = %q, want %q", s.Purpose, want)
	}
	var names []string
	for _, r := range s.Requirements {
		names = append(names, r.Name)
	}
	wantNames := []string{"User Story 1 - Export to a browser file", "User Story 2 - Export for scripts", EdgeCasesRequirement, "FR-001", "FR-002", "FR-003"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Fatalf("requirements = %q, want %q", names, wantNames)
	}
	story := s.Requirements[0]
	if story.Line != 11 {
		t.Errorf("story line = %d, want 11", story.Line)
	}
	if !strings.HasPrefix(story.Description, "Priority: P1\n\nAs a member, I want to download") || !strings.Contains(story.Description, "**Independent Test**") {
		t.Errorf("story description = %q", story.Description)
	}
	wantScenarios := []Scenario{
		{Name: "Scenario 1", Given: []string{"a member with three bookmarks"}, When: []string{"the member exports to HTML"},
			Then: []string{"the file lists the three bookmarks with their titles"}, Line: 23},
		{Name: "Scenario 2", Given: []string{"a bookmark with tags"}, When: []string{"it is exported"},
			Then: []string{"the tags become folder names", "untagged bookmarks go to the top level"}, Line: 25},
	}
	if !reflect.DeepEqual(story.Scenarios, wantScenarios) {
		t.Errorf("story 1 scenarios = %+v\nwant %+v", story.Scenarios, wantScenarios)
	}
	plain := s.Requirements[1].Scenarios
	wantPlain := []Scenario{
		{Name: "Scenario 1", Given: []string{"an export request in JSON"}, When: []string{"the export finishes"},
			Then: []string{"every bookmark is one object with url, title and tags"}, Line: 36},
		{Name: "Scenario 2", Given: []string{}, When: []string{}, Then: []string{"The export is quick"}, Line: 38},
	}
	if !reflect.DeepEqual(plain, wantPlain) {
		t.Errorf("story 2 scenarios = %+v\nwant %+v", plain, wantPlain)
	}
	edge := s.Requirements[2]
	if want := "- An account with no bookmarks exports an empty file, not an error.\n- Titles with HTML characters are escaped in the browser format."; edge.Description != want || len(edge.Scenarios) != 0 || edge.Line != 40 {
		t.Errorf("edge cases = %+v", edge)
	}
	frs := map[string]string{
		"FR-001": "System MUST export all bookmarks of the member in the Netscape bookmark file format.",
		"FR-002": "System MUST export bookmarks as a JSON array.",
		"FR-003": "System MUST NOT include bookmarks of other members in an export.",
	}
	for name, want := range frs {
		if got := requirementByName(t, s, name).Description; got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	notify := specByID(t, specs, "002-notify")
	if want := "Members are told when a folder shared with them gains a bookmark."; notify.Purpose != want {
		t.Errorf("purpose from the Summary section = %q, want %q", notify.Purpose, want)
	}
}

func parseOpenSpecString(kind, content string) Spec {
	s := Spec{ID: "x", Kind: kind}
	parseOpenSpec(&s, content)
	return s
}

func TestOpenSpecEdgeCases(t *testing.T) {
	tests := []struct {
		name     string
		kind     string
		content  string
		check    func(t *testing.T, s Spec)
		warnings []string
	}{
		{
			name:    "CRLF, byte-order mark and closing hashes",
			kind:    KindOpenSpec,
			content: "\ufeff# Title ##\r\n\r\n## Purpose\r\nWhy.\r\n\r\n### Requirement: R ###\r\n#### Scenario: S\r\n- **WHEN** w\r\n- **THEN** t\r\n",
			check: func(t *testing.T, s Spec) {
				if s.Title != "Title" || s.Purpose != "Why." {
					t.Errorf("title %q purpose %q", s.Title, s.Purpose)
				}
				want := []Requirement{{Name: "R", Line: 6, Scenarios: []Scenario{{Name: "S", Given: []string{}, When: []string{"w"}, Then: []string{"t"}, Line: 7}}}}
				if !reflect.DeepEqual(s.Requirements, want) {
					t.Errorf("requirements = %+v", s.Requirements)
				}
			},
		},
		{
			name:    "Whenever is not WHEN, and text after a blank line is not a clause",
			kind:    KindOpenSpec,
			content: "# T\n### Requirement: R\n#### Scenario: S\n- Whenever it rains\n- **WHEN** w\n\nA stray paragraph.\n",
			warnings: []string{
				`line 4: bullet in scenario 'S' is not a GIVEN/WHEN/THEN/AND clause: "Whenever it rains"`,
				`line 7: text in scenario 'S' is not a GIVEN/WHEN/THEN/AND clause: "A stray paragraph."`,
			},
		},
		{
			name:    "bold clause without a bullet marker",
			kind:    KindOpenSpec,
			content: "# T\n### Requirement: R\n#### Scenario: S\n**WHEN** w\n**THEN** t\n",
			check: func(t *testing.T, s Spec) {
				sc := s.Requirements[0].Scenarios[0]
				if !reflect.DeepEqual(sc.When, []string{"w"}) || !reflect.DeepEqual(sc.Then, []string{"t"}) {
					t.Errorf("scenario = %+v", sc)
				}
			},
		},
		{
			name:    "code block in a scenario",
			kind:    KindOpenSpec,
			content: "# T\n### Requirement: R\n#### Scenario: S\n- **WHEN** w\n```\n- **THEN** inside code\n```\n- **THEN** t\n",
			check: func(t *testing.T, s Spec) {
				if got := s.Requirements[0].Scenarios[0].Then; !reflect.DeepEqual(got, []string{"t"}) {
					t.Errorf("then = %q", got)
				}
			},
			warnings: []string{"line 5: code block in scenario 'S' is not a GIVEN/WHEN/THEN/AND clause; ignored"},
		},
		{
			name:     "empty clause",
			kind:     KindOpenSpec,
			content:  "# T\n### Requirement: R\n#### Scenario: S\n- **WHEN**\n- **THEN** t\n",
			warnings: []string{"line 3: scenario 'S' has 1 empty clause(s)"},
		},
		{
			name:    "duplicates",
			kind:    KindOpenSpec,
			content: "# T\n### Requirement: R\n#### Scenario: S\n- **WHEN** a\n- **THEN** b\n#### Scenario: S\n- **WHEN** c\n- **THEN** d\n### Requirement: R\n",
			warnings: []string{
				"line 6: duplicate scenario 'S' in requirement 'R' (first at line 3)",
				"line 9: duplicate requirement 'R' (first at line 2)",
			},
		},
		{
			name:    "renamed entries without their partner",
			kind:    KindOpenSpecChange,
			content: "## RENAMED Requirements\n- TO: `### Requirement: Lonely`\n- FROM: `### Requirement: A`\n- FROM: B\n- **TO**: **C**\n- FROM: D\n",
			check: func(t *testing.T, s Spec) {
				want := []Requirement{{Name: "C", Description: "Renamed from 'B'.", Delta: DeltaRenamed, Line: 5, Scenarios: []Scenario{}}}
				if !reflect.DeepEqual(s.Requirements, want) {
					t.Errorf("requirements = %+v", s.Requirements)
				}
			},
			warnings: []string{
				"line 2: RENAMED entry TO 'Lonely' has no FROM line",
				"line 3: RENAMED entry FROM 'A' has no TO line",
				"line 6: RENAMED entry FROM 'D' has no TO line",
			},
		},
		{
			name:    "delta headings in a base spec give no delta",
			kind:    KindOpenSpec,
			content: "# T\n## ADDED Requirements\n### Requirement: R\n",
			check: func(t *testing.T, s Spec) {
				if s.Requirements[0].Delta != "" {
					t.Errorf("delta = %q", s.Requirements[0].Delta)
				}
			},
		},
		{
			name:    "a second level-one heading ends the requirement",
			kind:    KindOpenSpec,
			content: "# T\n### Requirement: R\nDescribed.\n# Appendix\nNot part of R.\n",
			check: func(t *testing.T, s Spec) {
				if s.Title != "T" || s.Requirements[0].Description != "Described." {
					t.Errorf("title %q description %q", s.Title, s.Requirements[0].Description)
				}
			},
		},
		{
			name:    "empty file",
			kind:    KindOpenSpec,
			content: "",
			check: func(t *testing.T, s Spec) {
				if s.Requirements == nil || len(s.Requirements) != 0 || s.Title != "" {
					t.Errorf("spec = %+v", s)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parseOpenSpecString(tt.kind, tt.content)
			if tt.check != nil {
				tt.check(t, s)
			}
			if !reflect.DeepEqual(s.Warnings, tt.warnings) {
				t.Errorf("warnings =\n%q\nwant\n%q", s.Warnings, tt.warnings)
			}
		})
	}
}

func TestClauseKeywordVariants(t *testing.T) {
	tests := []struct {
		item, keyword, text string
	}{
		{"**WHEN** x", "WHEN", "x"},
		{"**WHEN:** x", "WHEN", "x"},
		{"**WHEN**: x", "WHEN", "x"},
		{"__THEN__ x", "THEN", "x"},
		{"When x", "When", "x"},
		{"when: x", "when", "x"},
		{"**Given**  x y", "Given", "x y"},
		{"AND", "AND", ""},
		{"Whenever x", "", ""},
		{"and-so-on", "", ""},
		{"Andrew said", "", ""},
		{"thence", "", ""},
		// Issue 15: more words inside the bold stay in the text.
		{"**AND IF** `openspec/project.md` exists", "AND", "IF `openspec/project.md` exists"},
		{"**AND IF:** q", "AND", "IF q"},
		{"**WHEN** **the user** logs in", "WHEN", "**the user** logs in"},
		{"**Whenever** x", "", ""},
		{"**WHEN x", "", ""},
		{"**Note**: x", "", ""},
	}
	for _, tt := range tests {
		keyword, text, _, _ := parseClause(tt.item)
		if keyword != tt.keyword || text != tt.text {
			t.Errorf("%q → (%q, %q), want (%q, %q)", tt.item, keyword, text, tt.keyword, tt.text)
		}
	}
}

func TestSpecKitEdgeCases(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		check    func(t *testing.T, s Spec)
		warnings []string
	}{
		{
			name:    "story heading variants",
			content: "# Feature Specification: F\n### User Story 3: Colon title\n### User Story 4\n### **User Story 5 - Bold** (Priority: P3)\n",
			check: func(t *testing.T, s Spec) {
				var names, descs []string
				for _, r := range s.Requirements {
					names = append(names, r.Name)
					descs = append(descs, r.Description)
				}
				if want := []string{"User Story 3 - Colon title", "User Story 4", "User Story 5 - Bold"}; !reflect.DeepEqual(names, want) {
					t.Errorf("names = %q, want %q", names, want)
				}
				if want := []string{"", "", "Priority: P3"}; !reflect.DeepEqual(descs, want) {
					t.Errorf("descriptions = %q, want %q", descs, want)
				}
			},
		},
		{
			name: "functional requirement forms and continuation",
			content: "# Feature Specification: F\n## Requirements\n" +
				"- **FR-010:** System MUST a\n  and more\n" +
				"- FR-011 System MUST b\n" +
				"* **NFR-001**: Latency MUST be low\n" +
				"- **SC-001**: not a requirement\n",
			check: func(t *testing.T, s Spec) {
				got := map[string]string{}
				for _, r := range s.Requirements {
					got[r.Name] = r.Description
				}
				want := map[string]string{"FR-010": "System MUST a and more", "FR-011": "System MUST b", "NFR-001": "Latency MUST be low"}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("requirements = %q, want %q", got, want)
				}
			},
		},
		{
			name: "acceptance items: leading And, bullets, blank lines between items",
			content: "# Feature Specification: F\n### User Story 1 - S\n**Acceptance Scenarios:**\n\n" +
				"1. **And** a, **Then** b\n\n" +
				"- **When** c; **then** d.\n",
			check: func(t *testing.T, s Spec) {
				want := []Scenario{
					{Name: "Scenario 1", Given: []string{}, When: []string{"a"}, Then: []string{"b"}, Line: 5},
					{Name: "Scenario 2", Given: []string{}, When: []string{"c"}, Then: []string{"d"}, Line: 7},
				}
				if got := s.Requirements[0].Scenarios; !reflect.DeepEqual(got, want) {
					t.Errorf("scenarios = %+v\nwant %+v", got, want)
				}
			},
		},
		{
			name:     "no title",
			content:  "### User Story 1 - S\n",
			warnings: nil, // the title warning is given by Discover, which knows the id
			check: func(t *testing.T, s Spec) {
				if s.Title != "" {
					t.Errorf("title = %q", s.Title)
				}
			},
		},
		{
			name:     "duplicate functional requirement",
			content:  "# F\n- **FR-001**: a\n- **FR-001**: b\n",
			warnings: []string{"line 3: duplicate requirement 'FR-001' (first at line 2)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Spec{ID: "x", Kind: KindSpecKit}
			parseSpecKit(&s, tt.content)
			if tt.check != nil {
				tt.check(t, s)
			}
			if !reflect.DeepEqual(s.Warnings, tt.warnings) {
				t.Errorf("warnings =\n%q\nwant\n%q", s.Warnings, tt.warnings)
			}
		})
	}
}

func TestLooksLikeSpecKit(t *testing.T) {
	tests := []struct {
		folder, content string
		want            bool
	}{
		{"001-x", "# Feature Specification: X\n### Requirement: looks like OpenSpec\n", true},
		{"auth", "# Auth\n### Requirement: Login\n", false},
		{"001-auth", "# Auth\n### Requirement: Login\n", false},
		{"001-auth", "# Auth\n", true},
		{"auth", "# Auth\n### User Story 1 - S\n", true},
		{"auth", "# Auth\n- **FR-001**: x\n", true},
		{"auth", "# Auth\nplain text\n", false},
	}
	for _, tt := range tests {
		if got := looksLikeSpecKit(tt.folder, tt.content); got != tt.want {
			t.Errorf("looksLikeSpecKit(%q, %q) = %v, want %v", tt.folder, tt.content, got, tt.want)
		}
	}
}

// TestIssue15HeadingsAndClauses: headings read back exactly as written
// (only balanced emphasis around the whole name is removed), nested
// bullets belong to their clause, and a bold keyword's extra words stay in
// the clause.
func TestIssue15HeadingsAndClauses(t *testing.T) {
	tests := []struct {
		name        string
		content     string
		requirement string   // the requirement's name as stored
		scenario    string   // its first scenario's name
		given, when []string // the scenario's clauses
		then        []string
	}{
		{
			name:        "closing backtick of a requirement kept",
			content:     "### Requirement: Git ignores `.codex/`\n#### Scenario: S\n- **WHEN** w\n- **THEN** t\n",
			requirement: "Git ignores `.codex/`", scenario: "S", when: []string{"w"}, then: []string{"t"},
		},
		{
			name:        "opening backtick of a scenario kept",
			content:     "### Requirement: R\n#### Scenario: `git status` is clean\n- **WHEN** w\n- **THEN** t\n",
			requirement: "R", scenario: "`git status` is clean", when: []string{"w"}, then: []string{"t"},
		},
		{
			name:        "trailing underscores of a dunder name kept",
			content:     "### Requirement: Import from __init__\n#### Scenario: __init__\n- **WHEN** w\n",
			requirement: "Import from __init__", scenario: "__init__", when: []string{"w"},
		},
		{
			name:        "balanced emphasis around the whole name removed",
			content:     "### Requirement: **Bold Name**\n#### Scenario: *Italic* and *more*\n- **WHEN** w\n",
			requirement: "Bold Name", scenario: "*Italic* and *more*", when: []string{"w"},
		},
		{
			name:        "bold keyword and name together",
			content:     "### **Requirement: Bold All**\n#### **Scenario:** Bold keyword\n- **WHEN** w\n",
			requirement: "Bold All", scenario: "Bold keyword", when: []string{"w"},
		},
		{
			name:        "colon outside the bold keyword",
			content:     "### **Requirement**: Outside\n#### Scenario: *Lone star\n- **WHEN** w\n",
			requirement: "Outside", scenario: "*Lone star", when: []string{"w"},
		},
		{
			// openspec-conventions' "Reviewing changes": the list a clause
			// introduces with a colon, written at the clause's own level.
			name: "a list the clause introduces at its own level belongs to it",
			content: "### Requirement: R\n#### Scenario: S\n- **WHEN** reviewing\n- **THEN** reviewers can compare using:\n" +
				"- GitHub PR diff view\n- Command line: `diff -u a b`\n- **AND** nothing else\n",
			requirement: "R", scenario: "S",
			when: []string{"reviewing"},
			then: []string{"reviewers can compare using: GitHub PR diff view; Command line: `diff -u a b`", "nothing else"},
		},
		{
			name: "nested plain Then and And belong to their clause",
			content: "### Requirement: R\n#### Scenario: S\n- **WHEN** executing steps\n- **AND** display progress:\n" +
				"  - Show spinner\n  - Then success: \"done\"\n  - And all the rest\n- **THEN** it ends\n",
			requirement: "R", scenario: "S",
			when: []string{"executing steps", "display progress: Show spinner; Then success: \"done\"; And all the rest"},
			then: []string{"it ends"},
		},
		{
			name: "nested bold keywords belong to their clause",
			content: "### Requirement: R\n#### Scenario: S\n- **WHEN** documenting\n- **THEN** use bullets:\n" +
				"  - **GIVEN** for initial state\n  - **WHEN** for triggers\n",
			requirement: "R", scenario: "S",
			when: []string{"documenting"},
			then: []string{"use bullets: **GIVEN** for initial state; **WHEN** for triggers"},
		},
		{
			name:        "AND IF keeps IF",
			content:     "### Requirement: R\n#### Scenario: S\n- **WHEN** cleanup completes\n- **THEN** a summary\n- **AND IF** `project.md` exists\n- **THEN** a migration note\n",
			requirement: "R", scenario: "S",
			when: []string{"cleanup completes"},
			then: []string{"a summary", "IF `project.md` exists", "a migration note"},
		},
		{
			name:        "a top-level plain And is still a clause",
			content:     "### Requirement: R\n#### Scenario: S\n- WHEN w\n- THEN t\n- and u\n",
			requirement: "R", scenario: "S", when: []string{"w"}, then: []string{"t", "u"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parseOpenSpecString(KindOpenSpec, "# T\n\n## Requirements\n\n"+tt.content)
			if len(s.Requirements) != 1 || len(s.Requirements[0].Scenarios) != 1 {
				t.Fatalf("requirements = %+v, warnings %q", s.Requirements, s.Warnings)
			}
			r := s.Requirements[0]
			sc := r.Scenarios[0]
			if r.Name != tt.requirement || sc.Name != tt.scenario {
				t.Errorf("names = %q / %q, want %q / %q", r.Name, sc.Name, tt.requirement, tt.scenario)
			}
			for _, c := range []struct {
				kind      string
				got, want []string
			}{{"given", sc.Given, tt.given}, {"when", sc.When, tt.when}, {"then", sc.Then, tt.then}} {
				if len(c.got)+len(c.want) > 0 && !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s = %q, want %q", c.kind, c.got, c.want)
				}
			}
			// Lookups by the heading as written find it.
			got, err := GetScenario([]Spec{s}, "x", tt.requirement, tt.scenario)
			if err != nil || got.Scenario.Name != tt.scenario {
				t.Errorf("GetScenario by the real heading: %+v, %v", got, err)
			}
		})
	}
}

func TestStripEmphasis(t *testing.T) {
	for in, want := range map[string]string{
		"**Login**":             "Login",
		"*__Two words__*":       "Two words",
		"*__Login__*":           "__Login__", // an identifier between underscores is a name, not bold
		"***Login***":           "Login",
		"**`Login`**":           "`Login`",
		"Git ignores `.codex/`": "Git ignores `.codex/`",
		"`git status` is clean": "`git status` is clean",
		"__init__":              "__init__",
		"__Two words__":         "Two words",
		"**a** and **b**":       "**a** and **b**",
		"** spaced **":          "** spaced **",
		"*":                     "*",
		"****":                  "****",
	} {
		if got := stripEmphasis(in); got != want {
			t.Errorf("stripEmphasis(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIssue15SpecKitVariants: requirements as table rows, scenarios as
// "#### S1:" headings and Given/When/Then tables, HTML comments, and the
// unfilled spec-kit template.
func TestIssue15SpecKitVariants(t *testing.T) {
	type req struct {
		name, description string
		scenarios         []Scenario
	}
	sc := func(name string, line int, given, when, then []string) Scenario {
		nz := func(l []string) []string {
			if l == nil {
				return []string{}
			}
			return l
		}
		return Scenario{Name: name, Given: nz(given), When: nz(when), Then: nz(then), Line: line}
	}
	tests := []struct {
		name     string
		content  string
		title    string
		purpose  string
		template bool
		want     []req
		warnings []string
	}{
		{
			name: "requirements as table rows",
			content: "# Feature Specification: Notes\n\n## Requirements\n\n" +
				"| ID | Requirement | Priority |\n|----|-------------|:--------:|\n" +
				"| FR-01 | The system shall create notes. | Must |\n" +
				"| **FR-02** | The system shall delete notes \\| archive them. | |\n" +
				"| BR-01 | A business rule, not a functional requirement | Must |\n" +
				"| NFR-01.2 | Notes load within 200 ms. | Should |\n",
			title: "Notes",
			want: []req{
				{"FR-01", "The system shall create notes.\n\nPriority: Must", nil},
				{"FR-02", "The system shall delete notes | archive them.", nil},
				{"NFR-01.2", "Notes load within 200 ms.\n\nPriority: Should", nil},
			},
		},
		{
			name:  "table with the requirement text in another column",
			title: "T",
			content: "# T\n| Status | ID | Area | Description |\n|---|---|---|---|\n" +
				"| Done | FR-7 | Sync | Notes sync across devices. |\n",
			want: []req{{"FR-7", "Notes sync across devices.\n\nStatus: Done\nArea: Sync", nil}},
		},
		{
			name: "scenarios as S1 headings in a user story",
			content: "# Feature Specification: Notes\n\n### User Story 1 - Write notes (Priority: P1)\n\nAs a user I write notes.\n\n" +
				"#### S1: Create a note\n\n- **Given** an empty list\n- **When** I add a note\n- **Then** it is listed\n  - with its title\n\n" +
				"#### S2: **Given** a note, **When** I delete it, **Then** it is gone\n\n" +
				"### Edge Cases\n\n- Empty titles are refused.\n",
			title: "Notes",
			want: []req{
				{"User Story 1 - Write notes", "Priority: P1\n\nAs a user I write notes.", []Scenario{
					sc("S1: Create a note", 7, []string{"an empty list"}, []string{"I add a note"}, []string{"it is listed; with its title"}),
					sc("S2", 14, []string{"a note"}, []string{"I delete it"}, []string{"it is gone"}),
				}},
				{"Edge Cases", "- Empty titles are refused.", nil},
			},
		},
		{
			name:    "S headings outside any user story",
			content: "# Feature Specification: Notes\n\n## Acceptance\n\n### S1: Save\nGiven a note, when I save, then it is stored.\n",
			title:   "Notes",
			want: []req{{"Acceptance Scenarios", "", []Scenario{
				sc("S1: Save", 5, []string{"a note"}, []string{"I save"}, []string{"it is stored"}),
			}}},
		},
		{
			name: "a Given/When/Then table in a user story",
			content: "# Feature Specification: Notes\n### User Story 1 - Tables\n**Acceptance Scenarios**:\n\n" +
				"| # | Given | When | Then |\n|---|---|---|---|\n| 1 | a note | I open it | I see it |\n",
			title: "Notes",
			want: []req{{"User Story 1 - Tables", "", []Scenario{
				sc("Scenario 1", 7, []string{"a note"}, []string{"I open it"}, []string{"I see it"}),
			}}},
		},
		{
			name: "HTML comments are not content",
			content: "# Feature Specification: Notes\n\n### Edge Cases\n\n<!--\n  - Not an edge case\n-->\n- A real edge case <!-- with a note -->\n\n" +
				"## Requirements\n<!-- - **FR-009**: commented out -->\n- **FR-001**: System MUST save notes.\n",
			title: "Notes",
			want: []req{
				{"Edge Cases", "- A real edge case", nil},
				{"FR-001", "System MUST save notes.", nil},
			},
		},
		{
			name: "the unfilled template",
			content: "# Feature Specification: [FEATURE NAME]\n\n**Feature Branch**: `[###-feature-name]`\n\n**Input**: User description: \"$ARGUMENTS\"\n\n" +
				"## User Scenarios & Testing *(mandatory)*\n\n<!--\n  IMPORTANT: prioritise.\n  - Developed independently\n-->\n\n" +
				"### User Story 1 - [Brief Title] (Priority: P1)\n\n[Describe this user journey in plain language]\n\n**Acceptance Scenarios**:\n\n" +
				"1. **Given** [initial state], **When** [action], **Then** [expected outcome]\n\n### Edge Cases\n\n- What happens when [boundary condition]?\n\n" +
				"## Requirements *(mandatory)*\n\n### Functional Requirements\n\n- **FR-001**: System MUST [specific capability]\n",
			template: true,
			warnings: []string{"unfilled spec-kit template: the title and purpose are placeholders; 3 requirement(s) still holding placeholders left out"},
		},
		{
			name:    "a filled-in spec with a clarification marker is no template",
			content: "# Feature Specification: Notes\n\n**Input**: User description: \"notes\"\n\n- **FR-001**: System MUST keep notes for [NEEDS CLARIFICATION: how long?]\n",
			title:   "Notes", purpose: "notes",
			want: []req{{"FR-001", "System MUST keep notes for [NEEDS CLARIFICATION: how long?]", nil}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Spec{ID: "x", Kind: KindSpecKit}
			parseSpecKit(&s, tt.content)
			if s.Title != tt.title || s.Template != tt.template || (tt.purpose != "" && s.Purpose != tt.purpose) {
				t.Errorf("title %q template %v purpose %q", s.Title, s.Template, s.Purpose)
			}
			var got []req
			for _, r := range s.Requirements {
				var scenarios []Scenario
				if len(r.Scenarios) > 0 {
					scenarios = r.Scenarios
				}
				got = append(got, req{r.Name, r.Description, scenarios})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("requirements =\n%+v\nwant\n%+v", got, tt.want)
			}
			if !reflect.DeepEqual(s.Warnings, tt.warnings) {
				t.Errorf("warnings = %q, want %q", s.Warnings, tt.warnings)
			}
		})
	}
}
