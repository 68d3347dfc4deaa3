package research

import (
	"regexp"
	"strings"
)

// Intents: what a query asks.
const (
	IntentCallers         = "callers"         // what calls X
	IntentCallees         = "callees"         // what X calls
	IntentImplementations = "implementations" // what implements, extends or conforms to X
	IntentReferences      = "references"      // where X is used
	IntentDependencies    = "dependencies"    // what module X depends on
	IntentDependents      = "dependents"      // what depends on module X
	IntentOverview        = "overview"        // anything else: ranked code, expanded along the graph
)

// Intents lists every intent, for documentation and schemas.
var Intents = []string{IntentCallers, IntentCallees, IntentImplementations, IntentReferences,
	IntentDependencies, IntentDependents, IntentOverview}

// Focuses: what an analysis emphasises.
const (
	FocusArchitecture = "architecture" // modules, their roles, entry points, the import and package graphs
	FocusDependencies = "dependencies" // import and package edges
	FocusPatterns     = "patterns"     // implementations and similar definitions, grouped
	FocusFlow         = "flow"         // calls
)

// Focuses lists the focus values a request may name, in documentation order.
var Focuses = []string{FocusArchitecture, FocusDependencies, FocusPatterns, FocusFlow}

// intentPattern reads one way of asking: the first group is the subject.
type intentPattern struct {
	intent string
	re     *regexp.Regexp
}

// subjectRE matches the subject of a question: a name, maybe qualified,
// maybe with a call's parentheses, maybe quoted.
const subjectRE = `([\pL\pN_$@\\/.:#>*<-]+(?:\(\s*\))?)`

func pattern(intent, re string) intentPattern {
	return intentPattern{intent, regexp.MustCompile(`(?i)^\s*` + strings.ReplaceAll(re, "SUBJ", subjectRE) + `\s*[?.!]*\s*$`)}
}

// kindWords may stand before or after a subject: "the function X", "X method".
const kindWords = `(?:the\s+)?(?:(?:function|method|func|fn|def|class|struct|interface|protocol|trait|type|enum|module|package|crate|namespace|folder|directory|library|constructor)\s+)?`
const kindSuffix = `(?:\s+(?:function|method|func|class|struct|interface|protocol|trait|type|module|package|crate|folder|directory))?`

// intentPatterns are tried in order.
var intentPatterns = []intentPattern{
	// callers
	pattern(IntentCallers, `(?:what|who|which\s+\w+)\s+(?:calls|invokes|calls\s+into)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentCallers, `(?:what|who|which\s+\w+)\s+(?:uses|use)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentCallers, `(?:all\s+)?(?:callers|call\s+sites|call\s+chains?|call\s+graph|invocations)\s+(?:of|to|for|into)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentCallers, `(?:where|how|from\s+where)\s+(?:is|are)\s+`+kindWords+`SUBJ`+kindSuffix+`\s+(?:called|invoked)(?:\s+from)?`),
	pattern(IntentCallers, `(?:who|what)\s+(?:is\s+)?calling\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentCallers, `(?:find\s+|show\s+|list\s+)?(?:the\s+)?callers\s+of\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentCallers, kindWords+`SUBJ`+kindSuffix+`\s+callers`),
	// callees
	pattern(IntentCallees, `what\s+(?:does|do)\s+`+kindWords+`SUBJ`+kindSuffix+`\s+(?:call|invoke|use)`),
	pattern(IntentCallees, `(?:all\s+)?(?:callees|calls\s+made\s+by|functions\s+called\s+by|what\s+is\s+called\s+by)\s+(?:of\s+)?`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentCallees, `(?:what|which\s+\w+)\s+(?:is|are)\s+called\s+(?:by|from)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentCallees, kindWords+`SUBJ`+kindSuffix+`\s+callees`),
	// implementations
	pattern(IntentImplementations, `(?:find\s+|show\s+|list\s+)?(?:all\s+)?(?:the\s+)?(?:implementations|implementors|implementers|conformances|subclasses|subtypes|derived\s+classes|descendants)\s+(?:of|for|to)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentImplementations, `(?:all\s+)?(?:\w+\s+)?(?:types|classes|structs|objects|impls)\s+(?:that\s+)?(?:implementing|implement|implements|conforming\s+to|conform\s+to|conforms\s+to|extending|extend|extends|inheriting\s+from|inherit\s+from|deriving\s+from|satisfying|satisfy)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentImplementations, `(?:what|who|which(?:\s+\w+)?)\s+(?:implements|conforms\s+to|extends|inherits\s+from|derives\s+from|satisfies|subclasses)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentImplementations, `(?:how\s+is|where\s+is)\s+`+kindWords+`SUBJ`+kindSuffix+`\s+implemented`),
	pattern(IntentImplementations, kindWords+`SUBJ`+kindSuffix+`\s+(?:implementations|implementers|implementors|subclasses|conformances)`),
	// references
	pattern(IntentReferences, `(?:where|how)\s+(?:is|are)\s+`+kindWords+`SUBJ`+kindSuffix+`\s+(?:used|referenced|read|mentioned)`),
	pattern(IntentReferences, `(?:find\s+|show\s+|list\s+)?(?:all\s+)?(?:the\s+)?(?:references|usages|uses|mentions|occurrences)\s+(?:of|to)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentReferences, `(?:find\s+|show\s+)?(?:all\s+)?(?:references|usages)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentReferences, kindWords+`SUBJ`+kindSuffix+`\s+(?:references|usages)`),
	// dependents (before dependencies: "what depends on X")
	pattern(IntentDependents, `(?:what|who|which(?:\s+\w+)?)\s+(?:depends|depend|relies|rely)\s+on\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentDependents, `(?:what|who|which(?:\s+\w+)?)\s+imports\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentDependents, `(?:dependents|importers|reverse\s+dependencies)\s+of\s+`+kindWords+`SUBJ`+kindSuffix),
	// dependencies
	pattern(IntentDependencies, `what\s+(?:does|do)\s+`+kindWords+`SUBJ`+kindSuffix+`\s+(?:depend\s+on|import|require|need)`),
	pattern(IntentDependencies, `(?:the\s+)?(?:dependencies|imports|requirements|dependency\s+graph)\s+(?:of|for)\s+`+kindWords+`SUBJ`+kindSuffix),
	pattern(IntentDependencies, kindWords+`SUBJ`+kindSuffix+`\s+(?:dependencies|imports)`),
}

// parsedQuery is what a query asks about.
type parsedQuery struct {
	intent  string
	subject string // the symbol or module named, cleaned ("" for an overview)
}

// parseQuery reads a query's intent and subject. A question whose subject
// is not a name ("what calls the login code") is an overview.
func parseQuery(q string) parsedQuery {
	q = strings.Join(strings.Fields(strings.NewReplacer("`", "", "\"", "", "'", "", "“", "", "”", "").Replace(q)), " ")
	for _, p := range intentPatterns {
		m := p.re.FindStringSubmatch(q)
		if m == nil {
			continue
		}
		if subject := cleanSubject(m[1]); subject != "" {
			return parsedQuery{intent: p.intent, subject: subject}
		}
	}
	return parsedQuery{intent: IntentOverview}
}

// cleanSubject strips a call's parentheses and punctuation around a name.
func cleanSubject(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "("); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, ".:#>-*<")
	if s == "" || !strings.ContainsFunc(s, func(r rune) bool {
		return r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x7f
	}) {
		return ""
	}
	return s
}

// splitSubject splits a qualified subject into what qualifies it and the
// name: "Router.Handle" → "Router", "Handle"; "auth::Guard" → "auth",
// "Guard"; "Router#handle" → "Router", "handle".
func splitSubject(s string) (qualifier, name string) {
	i := strings.LastIndexAny(s, ".:#>\\")
	if i < 0 {
		return "", s
	}
	name = s[i+1:]
	qualifier = strings.TrimRight(s[:i], ".:#>\\-")
	if name == "" {
		return "", qualifier
	}
	return qualifier, name
}
