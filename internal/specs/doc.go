// Package specs finds, parses, navigates, stores and searches the
// requirement documents that live in a repository: OpenSpec specs and
// change deltas, and spec-kit feature specifications.
//
// # Layouts
//
// Discover looks in fixed places so that it never wanders through a whole
// repository:
//
//   - openspec/specs/<id>/spec.md: an OpenSpec spec, Kind "openspec", ID <id>.
//   - openspec/changes/<change>/specs/<id>/spec.md: an OpenSpec change delta,
//     Kind "openspec-change", ID "<change>/<id>", Change <change>. The slash
//     keeps delta IDs apart from the spec they change.
//   - specs/<folder>/spec.md: a spec-kit feature specification, Kind
//     "spec-kit", ID <folder> (e.g. "001-retrieval"). A file there written in
//     the OpenSpec style (it has "### Requirement:" headings and no
//     "# Feature Specification" title) is parsed as OpenSpec instead.
//
// Archived changes (openspec/changes/archive/) are ignored: OpenSpec archives
// a change after merging its deltas into openspec/specs, so including them
// would return every archived requirement twice. Hidden folders are ignored.
// When two specs share an ID (openspec/specs/auth and specs/auth), the one
// whose path sorts later is listed under its folder path ("specs/auth"),
// with a warning, so both stay reachable.
//
// With an explicit specs folder, Discover treats that folder as a base that
// may hold openspec/ and specs/ (like the root), may itself be an OpenSpec
// folder (specs/ and changes/ inside), or may directly hold <id>/spec.md
// folders (e.g. "openspec/specs" or "docs/specs"). Without one it looks only
// in openspec/ and specs/ directly under the root; other layouts need the
// folder to be configured.
//
// # Parsing
//
// Parsing is tolerant: bullets may start with "-", "*" or "+", keywords may
// be bold or plain, upper or lower case, with a colon inside or outside the
// bold. Names are kept exactly as written in their heading, except for
// balanced emphasis around the whole name ("**Login**" → "Login"); a
// bullet nested under a clause is part of that clause. A file that cannot
// be fully understood still yields a Spec; what could not be parsed is
// reported in its Warnings, with line numbers. Files larger than
// MaxFileSize are not read (the Spec carries a warning).
//
// spec-kit documents map onto the same model: each "### User Story N -
// Title (Priority: PN)" becomes a requirement named "User Story N - Title"
// whose scenarios are its numbered acceptance scenarios ("Scenario 1", ...),
// its scenario headings ("#### S1: Title", named as written, with their
// Given/When/Then bullets) or the rows of a Given/When/Then table; each
// "- **FR-001**: ..." bullet and each table row whose cell is such an ID
// ("| FR-01 | The system … | Must |") becomes a requirement named "FR-001"
// with the text as its description (other columns follow as "Header:
// value" lines); the "### Edge Cases" bullets become one requirement named
// "Edge Cases" without scenarios. HTML comments (the template's
// instructions) are not content. A template nobody filled in (its title is
// "[FEATURE NAME]" or its input "$ARGUMENTS") is marked Template, listed
// under its folder name, without the placeholders as title, purpose or
// requirements.
//
// # Navigation and search
//
// List, Requirements and GetScenario work straight from Discover's result
// and need no index. Schema, Save and Search store specs in the index and
// rank requirements with FTS5 BM25; see Search for the scoring.
package specs
