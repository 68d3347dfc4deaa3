package specs

import (
	"fmt"
	"strings"
)

var (
	featureTitleRE = lazyRegexp(`(?i)^feature[ \t]+specification[ \t]*:[ \t]*(.*)$`)
	// userStoryRE matches "User Story 1 - Title (Priority: P1)"; the dash,
	// the title and the priority are optional.
	userStoryRE  = lazyRegexp(`(?i)^user[ \t]+story[ \t]+(\d+)[ \t]*(?:[-–—:][ \t]*)?(.*?)[ \t]*(?:\([ \t]*priority[ \t]*:?[ \t]*([^)]*?)[ \t]*\))?$`)
	acceptanceRE = lazyRegexp(`(?i)^(?:\*\*|__)?[ \t]*acceptance[ \t]+scenarios[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*:?$`)
	// functionalReqRE matches the text of "- **FR-001**: System MUST …"
	// (also "FR-001:" and "**FR-001:**", and NFR-…).
	functionalReqRE = lazyRegexp(`^(?:\*\*|__)?[ \t]*(N?FR-\d+[A-Za-z]?)[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*(.*)$`)
	inputRE         = lazyRegexp(`(?i)^\*\*input\*\*[ \t]*:?[ \t]*(.*)$`)
	// Keywords inside one acceptance item: bold ones ("**Given** …,
	// **When** …") and, for items without bold, plain ones at the start or
	// after a comma or semicolon ("Given …, when …, then …").
	boldKeywordRE  = lazyRegexp(`(?i)(?:\*\*|__)[ \t]*(given|when|then|and)[ \t]*:?[ \t]*(?:\*\*|__)[ \t]*:?`)
	plainKeywordRE = lazyRegexp(`(?i)(?:^|[,;][ \t]*)(given|when|then)\b[ \t]*:?`)
)

// EdgeCasesRequirement names the requirement that holds a spec-kit
// document's "Edge Cases" bullets.
const EdgeCasesRequirement = "Edge Cases"

// specKitParser parses one spec-kit feature specification. At most one
// requirement (a user story, a functional requirement or the edge cases)
// is open at a time, so requirements come out in document order.
type specKitParser struct {
	spec  *Spec
	fence fence

	inPurpose bool
	purpose   []string
	input     []string // the **Input** paragraph, the fallback purpose
	inInput   bool

	open      *Requirement // the open requirement
	openKind  int
	desc      []string // its description lines
	accepting bool     // after "**Acceptance Scenarios**:" in a user story
	item      *acceptanceItem
	items     int  // acceptance items seen in the open story
	blank     bool // the previous line was blank
}

const (
	openNone = iota
	openStory
	openFunctional
	openEdgeCases
)

type acceptanceItem struct {
	line int
	text string
}

func parseSpecKit(spec *Spec, content string) {
	p := &specKitParser{spec: spec}
	for i, line := range splitLines(content) {
		p.line(i+1, line)
	}
	p.closeOpen()
	spec.Purpose = textBlock(p.purpose)
	if spec.Purpose == "" {
		spec.Purpose = inputPurpose(strings.Join(p.input, " "))
	}
	if spec.Requirements == nil {
		spec.Requirements = []Requirement{}
	}
}

func (p *specKitParser) line(n int, line string) {
	if p.fence.update(line) {
		p.text(line)
		return
	}
	if level, text, ok := heading(line); ok {
		p.heading(n, level, text)
		return
	}
	defer func() { p.blank = isBlank(line) }()
	if p.inInput {
		if isBlank(line) {
			p.inInput = false
		} else {
			p.input = append(p.input, strings.TrimSpace(line))
			return
		}
	}
	if m := inputRE().FindStringSubmatch(strings.TrimSpace(line)); m != nil && p.open == nil {
		p.input, p.inInput = []string{m[1]}, true
		return
	}
	indent, item, isItem := listItem(line)
	// Functional requirements are bullets outside user stories.
	if isItem && indent < 2 && p.openKind != openStory {
		if m := functionalReqRE().FindStringSubmatch(item); m != nil {
			p.openFunctional(n, m[1], m[2])
			return
		}
	}
	switch p.openKind {
	case openStory:
		p.storyLine(n, line)
	case openFunctional:
		// Wrapped lines and nested bullets continue the requirement; a
		// blank line or a new bullet ends it.
		if isBlank(line) || (isItem && indent < 2) {
			p.closeOpen()
			return
		}
		p.open.Description = joinContinuation(p.open.Description, strings.TrimSpace(line))
	case openEdgeCases:
		switch {
		case isItem && indent < 2:
			p.desc = append(p.desc, "- "+item)
		case !isBlank(line) && len(p.desc) > 0 && !isThematicBreak(line):
			p.desc[len(p.desc)-1] = joinContinuation(p.desc[len(p.desc)-1], line)
		}
	default:
		p.text(line)
	}
}

// text keeps a plain or code line: in a user story's description, in the
// purpose, or nowhere.
func (p *specKitParser) text(line string) {
	switch {
	case p.openKind == openStory && !p.accepting:
		p.desc = append(p.desc, line)
	case p.open == nil && p.inPurpose:
		p.purpose = append(p.purpose, line)
	}
}

func (p *specKitParser) heading(n, level int, text string) {
	p.closeOpen()
	p.inInput = false
	if level == 1 {
		if p.spec.Title == "" {
			title := stripEmphasis(text)
			if m := featureTitleRE().FindStringSubmatch(title); m != nil {
				title = stripEmphasis(m[1])
			}
			p.spec.Title = title
		}
		p.inPurpose = false
		return
	}
	if level == 2 {
		lower := strings.ToLower(unemphasized(text))
		p.inPurpose = lower == "purpose" || lower == "overview" || strings.HasSuffix(lower, "summary")
		return
	}
	if m := userStoryRE().FindStringSubmatch(unemphasized(text)); m != nil {
		p.inPurpose = false
		name := "User Story " + m[1]
		if title := stripEmphasis(m[2]); title != "" {
			name += " - " + title
		}
		p.openRequirement(n, openStory, name)
		if priority := strings.TrimSpace(m[3]); priority != "" {
			p.desc = []string{"Priority: " + priority, ""}
		}
		return
	}
	if strings.HasPrefix(strings.ToLower(unemphasized(text)), "edge case") {
		p.inPurpose = false
		p.openRequirement(n, openEdgeCases, EdgeCasesRequirement)
		return
	}
	if p.inPurpose {
		p.purpose = append(p.purpose, strings.Repeat("#", level)+" "+text)
	}
}

func (p *specKitParser) openRequirement(n, kind int, name string) {
	p.closeOpen()
	for _, r := range p.spec.Requirements {
		if r.Name == name {
			p.spec.warnAt(n, "duplicate requirement '%s' (first at line %d)", name, r.Line)
			break
		}
	}
	p.open = &Requirement{Name: name, Line: n, Scenarios: []Scenario{}}
	p.openKind = kind
}

func (p *specKitParser) openFunctional(n int, id, text string) {
	p.openRequirement(n, openFunctional, id)
	p.open.Description = strings.TrimSpace(text)
}

// closeOpen finishes the open requirement and appends it to the spec.
func (p *specKitParser) closeOpen() {
	p.closeItem()
	if p.open == nil {
		return
	}
	if p.openKind != openFunctional {
		p.open.Description = textBlock(p.desc)
	}
	p.spec.Requirements = append(p.spec.Requirements, *p.open)
	p.open, p.openKind, p.desc, p.accepting, p.items = nil, openNone, nil, false, 0
}

// storyLine handles a line of a user story: description text until
// "**Acceptance Scenarios**:", numbered scenarios after it.
func (p *specKitParser) storyLine(n int, line string) {
	if acceptanceRE().MatchString(strings.TrimSpace(line)) {
		p.closeItem()
		p.accepting = true
		return
	}
	if !p.accepting {
		if !isThematicBreak(line) {
			p.desc = append(p.desc, line)
		}
		return
	}
	indent, item, isItem := listItem(line)
	switch {
	case isItem && (indent < 2 || p.item == nil):
		p.closeItem()
		p.item = &acceptanceItem{line: n, text: item}
	case isBlank(line):
	case isThematicBreak(line):
		p.closeItem()
	case p.item != nil && (!p.blank || indentOf(line) >= 2):
		p.item.text = joinContinuation(p.item.text, line)
	}
}

// closeItem turns the open acceptance item into a scenario.
func (p *specKitParser) closeItem() {
	it := p.item
	if it == nil {
		return
	}
	p.item = nil
	p.items++
	s := Scenario{Name: fmt.Sprintf("Scenario %d", p.items), Given: []string{}, When: []string{}, Then: []string{}, Line: it.line}
	if !splitAcceptance(it.text, &s) {
		p.spec.warnAt(it.line, "acceptance scenario %d of '%s' has no Given/When/Then; kept as a THEN clause", p.items, p.open.Name)
		s.Then = append(s.Then, trimClause(it.text))
	}
	p.open.Scenarios = append(p.open.Scenarios, s)
}

// splitAcceptance splits "**Given** a, **When** b, **Then** c" into s's
// clauses; it reports false when text has no keyword at all.
func splitAcceptance(text string, s *Scenario) bool {
	locs := boldKeywordRE().FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		locs = plainKeywordRE().FindAllStringSubmatchIndex(text, -1)
	}
	if len(locs) == 0 {
		return false
	}
	last := noClause
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		kind := last
		switch strings.ToLower(text[loc[2]:loc[3]]) {
		case "given":
			kind = givenClause
		case "when":
			kind = whenClause
		case "then":
			kind = thenClause
		}
		if kind == noClause { // a leading AND
			kind = whenClause
		}
		if clause := trimClause(text[loc[1]:end]); clause != "" {
			list := s.clauses(kind)
			*list = append(*list, clause)
		}
		last = kind
	}
	return true
}

// trimClause removes the punctuation that joins clauses in a sentence.
func trimClause(s string) string {
	s = strings.TrimSpace(s)
	for {
		t := strings.TrimRight(s, " \t,;.")
		if lower := strings.ToLower(t); strings.HasSuffix(lower, " and") || lower == "and" {
			t = t[:len(t)-3]
		}
		t = strings.TrimSpace(t)
		if t == s {
			return s
		}
		s = t
	}
}

// inputPurpose turns `User description: "…"` into the description itself.
func inputPurpose(input string) string {
	s := strings.TrimSpace(input)
	if len(s) >= len("user description:") && strings.EqualFold(s[:len("user description:")], "user description:") {
		s = strings.TrimSpace(s[len("user description:"):])
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}
