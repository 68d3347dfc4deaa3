package specs

import (
	"fmt"
	"strings"
)

// keywordEnd is what may follow a bullet keyword: the closing bold with or
// without a colon, a colon, spaces, or the end of the text. A letter may
// not, so "Whenever" is not WHEN; neither may "-" or "_".
const keywordEnd = `((?:\*\*|__)[ \t]*:?|:(?:\*\*|__)?|[ \t]+:?(?:\*\*|__)?|$)`

var (
	// The keyword of a requirement or scenario heading may be bold on its
	// own ("**Requirement:** Name") or with the name ("**Requirement: Name**").
	// Groups: the opening bold, the bold closed before or after the colon,
	// the name.
	requirementHeadingRE = lazyRegexp(`(?i)^(\*\*|__)?requirement[ \t]*(?:(\*\*|__)[ \t]*:|:[ \t]*(\*\*|__)?)[ \t]*(.*)$`)
	scenarioHeadingRE    = lazyRegexp(`(?i)^(\*\*|__)?scenario[ \t]*(?:(\*\*|__)[ \t]*:|:[ \t]*(\*\*|__)?)[ \t]*(.*)$`)
	deltaHeadingRE       = lazyRegexp(`(?i)^(added|modified|removed|renamed)[ \t]+requirements?$`)
	// plainClauseRE matches the text of a scenario bullet whose keyword is
	// not bold: "When x", "and x", "THEN: x".
	plainClauseRE = lazyRegexp(`(?i)^(given|when|then|and)([ \t]+:?|:|$)[ \t]*(.*)$`)
	// boldKeywordSpanRE is the first word of a bold span that opens a bullet.
	boldKeywordSpanRE = lazyRegexp(`(?i)^(given|when|then|and)([ \t]+|:|$)[ \t]*(.*)$`)
	// renameRE matches the bullets of a RENAMED section:
	// "- FROM: `### Requirement: Old`", "- **TO**: New".
	renameRE = lazyRegexp(`(?i)^(?:\*\*|__)?[ \t]*(from|to)` + keywordEnd + `[ \t]*(.*)$`)
)

type clauseKind int

const (
	noClause clauseKind = iota
	givenClause
	whenClause
	thenClause
)

func (k clauseKind) String() string {
	switch k {
	case givenClause:
		return "GIVEN"
	case whenClause:
		return "WHEN"
	case thenClause:
		return "THEN"
	}
	return "none"
}

// clauses returns the list of s that holds clauses of kind k.
func (s *Scenario) clauses(k clauseKind) *[]string {
	switch k {
	case givenClause:
		return &s.Given
	case whenClause:
		return &s.When
	default:
		return &s.Then
	}
}

const (
	sectionNone = iota
	sectionPurpose
	sectionRequirements
	sectionOther
)

// openSpecParser parses one OpenSpec spec or change delta, line by line.
type openSpecParser struct {
	spec     *Spec
	isChange bool
	fence    fence

	section int
	delta   string // the delta section a change's requirements are in
	purpose []string

	req    *Requirement // the open requirement, nil for none
	desc   []string     // its description lines
	inDesc bool         // no scenario yet: text belongs to the description

	scen         *Scenario // the open scenario, nil for none
	orphan       bool      // inside a scenario that has no requirement
	clause       clauseKind
	clauseIndent int  // indentation of the open clause's bullet
	listFollows  bool // the open clause ends with ":", so bullets of its level that follow are its list
	afterBlank   bool // a blank line ended the last clause's paragraph

	renameFrom     string // the FROM of a RENAMED pair waiting for its TO
	renameFromLine int
}

// parseOpenSpec parses content into spec, whose ID, Kind, Path and Change
// are already set.
func parseOpenSpec(spec *Spec, content string) {
	p := &openSpecParser{spec: spec, isChange: spec.Kind == KindOpenSpecChange}
	for i, line := range splitLines(content) {
		p.line(i+1, line)
	}
	p.closeRequirement()
	if p.renameFrom != "" {
		p.spec.warnAt(p.renameFromLine, "RENAMED entry FROM '%s' has no TO line", p.renameFrom)
	}
	spec.Purpose = textBlock(p.purpose)
	if spec.Requirements == nil {
		spec.Requirements = []Requirement{}
	}
}

func (p *openSpecParser) line(n int, line string) {
	if p.fence.update(line) {
		p.codeLine(n, line)
		return
	}
	if level, text, ok := heading(line); ok {
		p.heading(n, level, text)
		return
	}
	if p.section == sectionRequirements && p.delta == DeltaRenamed && p.renameLine(n, line) {
		return
	}
	if p.scen != nil {
		p.scenarioLine(n, line)
		return
	}
	p.text(line)
}

// text keeps a line outside any scenario: description or purpose text, or
// nothing.
func (p *openSpecParser) text(line string) {
	switch {
	case p.orphan:
		// The warning was given at the scenario's heading.
	case p.req != nil:
		if p.inDesc {
			p.desc = append(p.desc, line)
		}
	case p.section == sectionPurpose:
		p.purpose = append(p.purpose, line)
	}
}

// codeLine handles a line of a fenced code block: kept verbatim in a
// description or purpose, reported once inside a scenario.
func (p *openSpecParser) codeLine(n int, line string) {
	if p.scen == nil {
		p.text(line)
		return
	}
	if p.fence.marker != "" && isFenceOpening(line) {
		p.spec.warnAt(n, "code block in scenario '%s' is not a GIVEN/WHEN/THEN/AND clause; ignored", p.scen.Name)
	}
}

func isFenceOpening(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

func (p *openSpecParser) heading(n, level int, text string) {
	if level >= 2 {
		if name, ok := keywordHeading(requirementHeadingRE(), text); ok {
			p.openRequirement(n, name)
			return
		}
	}
	if level >= 3 {
		if name, ok := keywordHeading(scenarioHeadingRE(), text); ok {
			p.openScenario(n, name)
			return
		}
	}
	switch {
	case level == 1:
		p.closeRequirement()
		if p.spec.Title == "" {
			p.spec.Title = stripEmphasis(text)
			p.section = sectionNone
		} else {
			p.section = sectionOther
		}
	case level == 2:
		p.closeRequirement()
		p.openSection(text)
	default:
		// Any other subheading ends a scenario; inside a description it is
		// part of the text, elsewhere it is outside the model.
		p.closeScenario()
		p.orphan = false
		p.text(strings.Repeat("#", level) + " " + text)
	}
}

// keywordHeading reads the name of a "Requirement: Name" or "Scenario:
// Name" heading. The name is kept as written, except for emphasis that
// wraps it whole or that closes a bold opened before the keyword
// ("**Requirement: Name**").
func keywordHeading(re interface{ FindStringSubmatch(string) []string }, text string) (string, bool) {
	m := re.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	open, closed, name := m[1], m[2]+m[3], strings.TrimSpace(m[4])
	switch {
	case open != "" && closed == open: // "**Requirement:** Name"
	case open != "": // "**Requirement: Name**"
		name = strings.TrimSpace(closed + name)
		if trimmed, ok := strings.CutSuffix(name, open); ok && !strings.Contains(trimmed, open) {
			name = strings.TrimSpace(trimmed)
		}
	default: // the marker after the colon opens the name: "Requirement: **Name**"
		name = strings.TrimSpace(closed + name)
	}
	return stripEmphasis(name), true
}

func (p *openSpecParser) openSection(title string) {
	p.delta = ""
	switch lower := strings.ToLower(unemphasized(title)); {
	case lower == "purpose":
		p.section = sectionPurpose
	case lower == "requirements":
		p.section = sectionRequirements
	case deltaHeadingRE().MatchString(lower):
		p.section = sectionRequirements
		// Deltas only mean something in a change; a base spec that uses
		// the headings keeps its requirements without one.
		if p.isChange {
			p.delta = strings.ToUpper(deltaHeadingRE().FindStringSubmatch(lower)[1])
		}
	default:
		p.section = sectionOther
	}
}

func (p *openSpecParser) openRequirement(n int, name string) {
	p.closeRequirement()
	if name == "" {
		p.spec.warnAt(n, "requirement heading has no name")
		name = fmt.Sprintf("(unnamed requirement at line %d)", n)
	}
	if p.isChange && p.delta == "" {
		p.spec.warnAt(n, "requirement '%s' is not under an ADDED, MODIFIED, REMOVED or RENAMED section", name)
	}
	for _, r := range p.spec.Requirements {
		if r.Name == name {
			p.spec.warnAt(n, "duplicate requirement '%s' (first at line %d)", name, r.Line)
			break
		}
	}
	p.spec.Requirements = append(p.spec.Requirements, Requirement{Name: name, Delta: p.delta, Line: n, Scenarios: []Scenario{}})
	p.req = &p.spec.Requirements[len(p.spec.Requirements)-1]
	p.inDesc = true
}

// closeRequirement finishes the open requirement, if any.
func (p *openSpecParser) closeRequirement() {
	p.closeScenario()
	p.orphan = false
	if p.req != nil {
		p.req.Description = textBlock(p.desc)
	}
	p.req, p.desc, p.inDesc = nil, nil, false
}

func (p *openSpecParser) openScenario(n int, name string) {
	p.closeScenario()
	if name == "" {
		p.spec.warnAt(n, "scenario heading has no name")
		name = fmt.Sprintf("(unnamed scenario at line %d)", n)
	}
	if p.req == nil {
		p.spec.warnAt(n, "scenario '%s' is outside any requirement; ignored", name)
		p.orphan = true
		return
	}
	p.orphan = false
	if p.inDesc {
		p.req.Description = textBlock(p.desc)
		p.inDesc = false
	}
	for _, s := range p.req.Scenarios {
		if s.Name == name {
			p.spec.warnAt(n, "duplicate scenario '%s' in requirement '%s' (first at line %d)", name, p.req.Name, s.Line)
			break
		}
	}
	p.req.Scenarios = append(p.req.Scenarios, Scenario{Name: name, Given: []string{}, When: []string{}, Then: []string{}, Line: n})
	p.scen = &p.req.Scenarios[len(p.req.Scenarios)-1]
	p.clause, p.afterBlank = noClause, false
}

// closeScenario finishes the open scenario: clauses that stayed empty are
// dropped, and a scenario without any clause is reported.
func (p *openSpecParser) closeScenario() {
	s := p.scen
	if s == nil {
		return
	}
	p.scen = nil
	empty := 0
	for _, k := range []clauseKind{givenClause, whenClause, thenClause} {
		list := s.clauses(k)
		kept := (*list)[:0]
		for _, c := range *list {
			if c == "" {
				empty++
				continue
			}
			kept = append(kept, c)
		}
		*list = kept
	}
	if empty > 0 {
		p.spec.warnAt(s.Line, "scenario '%s' has %d empty clause(s)", s.Name, empty)
	}
	if len(s.Given)+len(s.When)+len(s.Then) == 0 {
		p.spec.warnAt(s.Line, "scenario '%s' has no GIVEN/WHEN/THEN clauses", s.Name)
	}
}

// scenarioLine handles a line inside a scenario: a clause bullet, a wrapped
// continuation or a nested bullet of the last clause, or something the
// format does not allow (reported).
func (p *openSpecParser) scenarioLine(n int, line string) {
	if isBlank(line) {
		p.afterBlank = true
		return
	}
	if isThematicBreak(line) {
		p.clause, p.listFollows = noClause, false
		return
	}
	indent, item, isItem := listItem(line)
	if isItem {
		// A bullet nested under a clause belongs to it, whatever its first
		// word: "  - Then success: …" or "  - **AND** for additional
		// outcomes" are details of the clause above, not clauses.
		if p.clause != noClause && indent >= p.clauseIndent+2 {
			p.extendClause(item, true)
			return
		}
		if keyword, text, _, ok := parseClause(item); ok {
			p.addClause(n, keyword, text, indent)
			return
		}
		// "- **THEN** reviewers can compare using:" followed by bullets at
		// its own level: the list the clause introduces belongs to it.
		if p.clause != noClause && p.listFollows {
			p.extendClause(item, true)
			return
		}
		p.spec.warnAt(n, "bullet in scenario '%s' is not a GIVEN/WHEN/THEN/AND clause: %q", p.scen.Name, clip(item, 80))
		return
	}
	// A clause without its bullet marker is accepted when the keyword is
	// bold, so a wrapped line that happens to start with "when" is not
	// taken for one.
	if keyword, text, bold, ok := parseClause(strings.TrimSpace(line)); ok && bold {
		p.addClause(n, keyword, text, indentOf(line))
		return
	}
	if p.clause != noClause && (!p.afterBlank || indentOf(line) >= 2) {
		p.extendClause(line, false)
		return
	}
	p.spec.warnAt(n, "text in scenario '%s' is not a GIVEN/WHEN/THEN/AND clause: %q", p.scen.Name, clip(strings.TrimSpace(line), 80))
}

// parseClause reads a clause: a keyword (GIVEN, WHEN, THEN, AND, in any
// case) and its text. A bold keyword may carry more words inside the bold,
// which stay in the text: "**AND IF** q" is an AND clause "IF q". The colon
// may sit inside or outside the bold. bold says whether the keyword was
// bold; ok is false when text does not start with a keyword ("Whenever").
func parseClause(text string) (keyword, rest string, bold, ok bool) {
	for _, marker := range []string{"**", "__"} {
		after, opened := strings.CutPrefix(text, marker)
		if !opened {
			continue
		}
		end := strings.Index(after, marker)
		if end < 0 {
			return "", "", false, false
		}
		span := strings.TrimSpace(after[:end])
		m := boldKeywordSpanRE().FindStringSubmatch(span)
		if m == nil {
			return "", "", false, false
		}
		inside := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[3]), ":"))
		outside := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(after[end+len(marker):]), ":"))
		return m[1], joinContinuation(inside, outside), true, true
	}
	if m := plainClauseRE().FindStringSubmatch(text); m != nil {
		return m[1], strings.TrimSpace(m[3]), false, true
	}
	return "", "", false, false
}

func (p *openSpecParser) addClause(n int, keyword, text string, indent int) {
	var kind clauseKind
	switch strings.ToUpper(keyword) {
	case "GIVEN":
		kind = givenClause
	case "WHEN":
		kind = whenClause
	case "THEN":
		kind = thenClause
	default: // AND continues the clause it follows
		kind = p.clause
		if kind == noClause {
			p.spec.warnAt(n, "AND in scenario '%s' follows no GIVEN/WHEN/THEN; treated as WHEN", p.scen.Name)
			kind = whenClause
		}
	}
	list := p.scen.clauses(kind)
	*list = append(*list, strings.TrimSpace(text))
	p.clause, p.clauseIndent, p.afterBlank = kind, indent, false
	p.listFollows = strings.HasSuffix(strings.TrimSpace(text), ":")
}

// extendClause appends a wrapped line or a nested bullet to the last clause.
func (p *openSpecParser) extendClause(text string, nested bool) {
	list := *p.scen.clauses(p.clause)
	last := &list[len(list)-1]
	text = strings.TrimSpace(text)
	if nested && *last != "" && !strings.HasSuffix(*last, ":") {
		*last += ";"
	}
	*last = joinContinuation(*last, text)
	p.afterBlank = false
}

// renameLine handles the FROM/TO bullets of a RENAMED section; it reports
// whether line was one.
func (p *openSpecParser) renameLine(n int, line string) bool {
	_, item, ok := listItem(line)
	if !ok {
		return false
	}
	m := renameRE().FindStringSubmatch(item)
	if m == nil {
		return false
	}
	p.closeRequirement()
	name := renamedName(m[3])
	if strings.EqualFold(m[1], "from") {
		if p.renameFrom != "" {
			p.spec.warnAt(p.renameFromLine, "RENAMED entry FROM '%s' has no TO line", p.renameFrom)
		}
		p.renameFrom, p.renameFromLine = name, n
		return true
	}
	if p.renameFrom == "" {
		p.spec.warnAt(n, "RENAMED entry TO '%s' has no FROM line", name)
		return true
	}
	p.spec.Requirements = append(p.spec.Requirements, Requirement{
		Name:        name,
		Description: fmt.Sprintf("Renamed from '%s'.", p.renameFrom),
		Delta:       DeltaRenamed,
		Line:        n,
		Scenarios:   []Scenario{},
	})
	p.renameFrom, p.renameFromLine = "", 0
	return true
}

// renamedName extracts a requirement name from "`### Requirement: Name`".
func renamedName(s string) string {
	s = stripCodeSpan(stripEmphasis(s))
	s = strings.TrimSpace(strings.TrimLeft(s, "#"))
	if name, ok := keywordHeading(requirementHeadingRE(), s); ok {
		return name
	}
	return stripEmphasis(s)
}
