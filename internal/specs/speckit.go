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
	functionalReqRE = lazyRegexp(`^(?:\*\*|__)?[ \t]*(N?FR-\d+(?:\.\d+)*[A-Za-z]?)[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*(.*)$`)
	// functionalIDRE is a table cell holding a requirement ID.
	functionalIDRE = lazyRegexp(`^N?FR-\d+(?:\.\d+)*[A-Za-z]?$`)
	// scenarioIDHeadingRE matches scenario headings such as "S1: Title",
	// "AS2 - Title", "Scenario 3". SC-### are success criteria, not scenarios.
	scenarioIDHeadingRE = lazyRegexp(`(?i)^((?:S|AS|Scenario[ \t]*)(\d+))(?:[ \t]*[:.)–—-][ \t]*(.*))?$`)
	// placeholderRE is a template placeholder: "[FEATURE NAME]", "[DATE]",
	// "[Brief Title]", but not a link "[text](url)" or a checkbox "[x]".
	placeholderRE = lazyRegexp(`\[[^\]\n]{2,}\](?:[^(]|$)`)
	inputRE       = lazyRegexp(`(?i)^\*\*input\*\*[ \t]*:?[ \t]*(.*)$`)
	// Keywords inside one acceptance item: bold ones ("**Given** …,
	// **When** …") and, for items without bold, plain ones at the start or
	// after a comma or semicolon ("Given …, when …, then …").
	boldKeywordRE  = lazyRegexp(`(?i)(?:\*\*|__)[ \t]*(given|when|then|and)[ \t]*:?[ \t]*(?:\*\*|__)[ \t]*:?`)
	plainKeywordRE = lazyRegexp(`(?i)(?:^|[,;][ \t]*)(given|when|then)\b[ \t]*:?`)
)

// EdgeCasesRequirement names the requirement that holds a spec-kit
// document's "Edge Cases" bullets; AcceptanceRequirement the one that holds
// scenario headings ("#### S1: …") written outside any user story.
const (
	EdgeCasesRequirement  = "Edge Cases"
	AcceptanceRequirement = "Acceptance Scenarios"
)

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

	inComment bool   // inside a multi-line HTML comment
	table     *table // the Markdown table being read, if any
}

// table is a Markdown table being read: its header cells once the
// delimiter row has been seen.
type table struct {
	header    []string
	delimited bool
	scenarios bool // a Given/When/Then table in a user story
}

const (
	openNone = iota
	openStory
	openFunctional
	openEdgeCases
)

type acceptanceItem struct {
	line    int
	name    string   // given by a heading ("S1: Happy path"); "" numbers it
	text    string   // the item's text, or the heading's clauses
	bullets []string // under a scenario heading: its clause bullets
}

func parseSpecKit(spec *Spec, content string) {
	p := &specKitParser{spec: spec}
	for i, line := range splitLines(content) {
		p.line(i+1, line)
	}
	p.closeOpen()
	spec.Purpose = textBlock(p.purpose)
	input := strings.Join(p.input, " ")
	if spec.Purpose == "" {
		spec.Purpose = inputPurpose(input)
	}
	if spec.Requirements == nil {
		spec.Requirements = []Requirement{}
	}
	if isPlaceholder(spec.Title) || strings.Contains(input, "$ARGUMENTS") {
		markTemplate(spec)
	}
}

// isPlaceholder reports a title that is only a template placeholder.
func isPlaceholder(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") && !strings.Contains(s[1:len(s)-1], "]")
}

// markTemplate marks a spec-kit template that was never filled in: its
// title and purpose are placeholders ("[FEATURE NAME]", "$ARGUMENTS"), so
// they are dropped (Discover shows the folder name), and so are the
// requirements that still hold placeholders; filled-in ones stay.
func markTemplate(spec *Spec) {
	spec.Template = true
	spec.Title, spec.Purpose = "", ""
	kept := spec.Requirements[:0]
	dropped := 0
	for _, r := range spec.Requirements {
		if requirementHasPlaceholder(r) {
			dropped++
			continue
		}
		kept = append(kept, r)
	}
	spec.Requirements = kept
	msg := "unfilled spec-kit template: the title and purpose are placeholders"
	if dropped > 0 {
		msg += fmt.Sprintf("; %d requirement(s) still holding placeholders left out", dropped)
	}
	spec.Warnings = append(spec.Warnings, msg)
}

func requirementHasPlaceholder(r Requirement) bool {
	if placeholderRE().MatchString(r.Name) || placeholderRE().MatchString(r.Description) {
		return true
	}
	for _, s := range r.Scenarios {
		for _, c := range [][]string{s.Given, s.When, s.Then} {
			for _, text := range c {
				if placeholderRE().MatchString(text) {
					return true
				}
			}
		}
	}
	return false
}

func (p *specKitParser) line(n int, line string) {
	if p.fence.update(line) {
		p.text(line)
		return
	}
	line, ok := p.uncomment(line)
	if !ok {
		return // all comment: the template's instructions
	}
	if p.tableLine(n, line) {
		p.blank = false
		return
	}
	if p.table != nil && p.openKind == openFunctional {
		p.closeOpen() // a table row ends the requirement above it
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

// uncomment removes HTML comments from line; ok is false when nothing but
// comments (and spaces) was on it.
func (p *specKitParser) uncomment(line string) (string, bool) {
	var b strings.Builder
	rest := line
	hadComment := p.inComment
	for rest != "" {
		if p.inComment {
			end := strings.Index(rest, "-->")
			if end < 0 {
				rest = ""
				break
			}
			rest = rest[end+3:]
			p.inComment = false
			continue
		}
		start := strings.Index(rest, "<!--")
		if start < 0 {
			b.WriteString(rest)
			break
		}
		hadComment = true
		b.WriteString(rest[:start])
		rest = rest[start+4:]
		p.inComment = true
	}
	out := b.String()
	if hadComment && strings.TrimSpace(out) == "" {
		return "", false
	}
	return out, true
}

// tableLine reads a Markdown table row; it reports whether it used the
// line (other rows are text, as before). In a table whose rows start with
// requirement IDs ("| FR-01 | The system … | Must |"), each row is a
// functional requirement; in a user story, a table with Given/When/Then
// columns holds its acceptance scenarios.
func (p *specKitParser) tableLine(n int, line string) bool {
	trimmed := strings.TrimSpace(line)
	if !strings.HasPrefix(trimmed, "|") || indentOf(line) > 3 {
		p.table = nil
		return false
	}
	cells := tableCells(trimmed)
	switch {
	case p.table == nil || !p.table.delimited && !isDelimiterRow(cells):
		p.table = &table{header: cells, scenarios: p.openKind == openStory && hasClauseColumns(cells)}
		return p.table.scenarios
	case !p.table.delimited:
		p.table.delimited = true
		return p.table.scenarios
	case p.table.scenarios:
		p.scenarioRow(n, cells)
		return true
	case p.openKind == openStory:
		return false
	}
	for i, cell := range cells {
		if id := unemphasized(cell); functionalIDRE().MatchString(id) {
			p.openFunctional(n, id, p.table.describe(cells, i))
			p.closeOpen()
			return true
		}
	}
	return false
}

// hasClauseColumns reports a header row with a Given, When or Then column.
func hasClauseColumns(header []string) bool {
	for _, h := range header {
		switch strings.ToLower(unemphasized(h)) {
		case "given", "when", "then":
			return true
		}
	}
	return false
}

// describe renders a requirement row: the requirement's text (the column
// headed Requirement or Description, else the one after the ID) and the
// other columns as "Header: value" lines.
func (t *table) describe(cells []string, idCol int) string {
	textCol := -1
	for i, h := range t.header {
		lower := strings.ToLower(unemphasized(h))
		if i != idCol && (strings.Contains(lower, "requirement") || strings.Contains(lower, "description")) {
			textCol = i
			break
		}
	}
	if textCol < 0 && idCol+1 < len(cells) {
		textCol = idCol + 1
	}
	var text string
	var extra []string
	for i, cell := range cells {
		switch {
		case i == idCol || cell == "":
		case i == textCol:
			text = cell
		case i < len(t.header) && strings.TrimSpace(t.header[i]) != "":
			extra = append(extra, unemphasized(t.header[i])+": "+cell)
		default:
			extra = append(extra, cell)
		}
	}
	if len(extra) > 0 {
		return strings.TrimSpace(text + "\n\n" + strings.Join(extra, "\n"))
	}
	return text
}

// scenarioRow reads a row of a Given/When/Then table in a user story.
func (p *specKitParser) scenarioRow(n int, cells []string) {
	var parts []string
	for i, cell := range cells {
		if i >= len(p.table.header) || cell == "" {
			continue
		}
		switch strings.ToLower(unemphasized(p.table.header[i])) {
		case "given", "when", "then", "and":
			parts = append(parts, "**"+unemphasized(p.table.header[i])+"** "+cell)
		}
	}
	if len(parts) == 0 {
		return
	}
	p.closeItem()
	p.accepting = true
	p.item = &acceptanceItem{line: n, text: strings.Join(parts, ", ")}
	p.closeItem()
}

// tableCells splits "| a | b \| c |" into its trimmed cells.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, "\\|") {
		row = row[:len(row)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			b.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// isDelimiterRow reports the "|---|:--:|" row under a table's header.
func isDelimiterRow(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return len(cells) > 0
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
	p.inInput = false
	if level >= 3 {
		if m := scenarioIDHeadingRE().FindStringSubmatch(unemphasized(text)); m != nil {
			p.scenarioHeading(n, text, m[1], m[3])
			return
		}
	}
	p.closeOpen()
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

// scenarioHeading opens a scenario written as a heading ("#### S1: Happy
// path") in the open user story, or, outside any story, in a requirement
// named "Acceptance Scenarios". Its clauses are the bullets below it, or
// the heading itself when it reads "S1: **Given** …, **When** …".
func (p *specKitParser) scenarioHeading(n int, text, id, title string) {
	if p.openKind != openStory {
		p.openRequirement(n, openStory, AcceptanceRequirement)
	}
	p.closeItem()
	p.accepting = true
	item := &acceptanceItem{line: n, name: stripEmphasis(text)}
	if boldKeywordRE().MatchString(title) || plainKeywordRE().MatchString(title) {
		item.name, item.text = id, title
	}
	p.item = item
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
	if it := p.item; it != nil && it.name != "" && it.text == "" {
		// Under a scenario heading every bullet is one of its clauses (or a
		// detail of the one before); wrapped lines continue the last.
		switch {
		case isItem:
			it.bullets = append(it.bullets, strings.Repeat(" ", indent)+item)
		case isBlank(line) || isThematicBreak(line):
		case len(it.bullets) > 0:
			last := &it.bullets[len(it.bullets)-1]
			*last = joinContinuation(*last, line)
		default:
			it.text = joinContinuation(it.text, line)
		}
		return
	}
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
	name := it.name
	if name == "" {
		name = fmt.Sprintf("Scenario %d", p.items)
	}
	s := Scenario{Name: name, Given: []string{}, When: []string{}, Then: []string{}, Line: it.line}
	for _, other := range p.open.Scenarios {
		if other.Name == name {
			p.spec.warnAt(it.line, "duplicate scenario '%s' in requirement '%s' (first at line %d)", name, p.open.Name, other.Line)
			break
		}
	}
	switch {
	case len(it.bullets) > 0 && bulletClauses(it.bullets, &s):
	case splitAcceptance(strings.TrimSpace(it.text+" "+strings.Join(trimmedAll(it.bullets), " ")), &s):
	default:
		text := trimClause(strings.TrimSpace(it.text + " " + strings.Join(trimmedAll(it.bullets), "; ")))
		if text == "" {
			p.spec.warnAt(it.line, "scenario '%s' of '%s' has no Given/When/Then clauses", name, p.open.Name)
			break
		}
		p.spec.warnAt(it.line, "acceptance scenario %d of '%s' has no Given/When/Then; kept as a THEN clause", p.items, p.open.Name)
		s.Then = append(s.Then, text)
	}
	p.open.Scenarios = append(p.open.Scenarios, s)
}

// bulletClauses reads the clause bullets of a scenario heading, "- **Given**
// x", "- When y", each nested bullet joining the clause above it. It
// reports false when no bullet starts with a keyword.
func bulletClauses(bullets []string, s *Scenario) bool {
	last := noClause
	lastIndent := 0
	found := false
	for _, b := range bullets {
		indent := len(b) - len(strings.TrimLeft(b, " "))
		text := strings.TrimSpace(b)
		if keyword, rest, _, ok := parseClause(text); ok && (last == noClause || indent < lastIndent+2) {
			kind := last
			switch strings.ToUpper(keyword) {
			case "GIVEN":
				kind = givenClause
			case "WHEN":
				kind = whenClause
			case "THEN":
				kind = thenClause
			}
			if kind == noClause {
				kind = whenClause // a leading AND
			}
			list := s.clauses(kind)
			*list = append(*list, trimClause(rest))
			last, lastIndent, found = kind, indent, true
			continue
		}
		if last == noClause {
			continue
		}
		list := *s.clauses(last)
		prev := &list[len(list)-1]
		if *prev != "" && !strings.HasSuffix(*prev, ":") {
			*prev += ";"
		}
		*prev = joinContinuation(*prev, text)
	}
	return found
}

func trimmedAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.TrimSpace(s)
	}
	return out
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
