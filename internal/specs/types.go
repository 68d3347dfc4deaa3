package specs

import "fmt"

// Spec kinds.
const (
	KindOpenSpec       = "openspec"
	KindOpenSpecChange = "openspec-change"
	KindSpecKit        = "spec-kit"
)

// Delta operations of an OpenSpec change.
const (
	DeltaAdded    = "ADDED"
	DeltaModified = "MODIFIED"
	DeltaRemoved  = "REMOVED"
	DeltaRenamed  = "RENAMED"
)

// Spec is one parsed specification file.
type Spec struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Purpose string `json:"purpose"`
	Kind    string `json:"kind"`             // KindOpenSpec, KindOpenSpecChange or KindSpecKit
	Path    string `json:"path"`             // the spec file, relative to the root, slash-separated
	Change  string `json:"change,omitempty"` // for change deltas: the change name
	// Template marks a spec-kit template that was never filled in: its
	// title and purpose were placeholders and are left empty.
	Template bool `json:"template,omitempty"`

	Requirements []Requirement `json:"requirements"`
	// Warnings says what could not be parsed; a malformed file still
	// yields a Spec.
	Warnings []string `json:"warnings,omitempty"`
}

// Requirement is one requirement of a spec with its scenarios.
type Requirement struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Delta       string     `json:"delta,omitempty"` // for change deltas: ADDED, MODIFIED, REMOVED or RENAMED
	Line        int        `json:"line"`            // 1-based line of the heading (spec-kit FR-###: of the bullet)
	Scenarios   []Scenario `json:"scenarios"`
}

// Scenario is one scenario of a requirement. An AND clause goes with the
// clause it follows: an AND after a THEN is one more THEN.
type Scenario struct {
	Name  string   `json:"name"`
	Given []string `json:"given"`
	When  []string `json:"when"`
	Then  []string `json:"then"`
	Line  int      `json:"line"` // 1-based line of the heading (spec-kit: of the numbered item)
}

// warnAt records a parse problem at a 1-based line of the spec's file.
func (s *Spec) warnAt(line int, format string, args ...any) {
	s.Warnings = append(s.Warnings, fmt.Sprintf("line %d: ", line)+fmt.Sprintf(format, args...))
}
