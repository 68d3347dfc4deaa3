package chunk

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/lore-dev/lore/internal/symbols"
)

// The tags queries find definitions and references in a syntax tree. They
// follow the tree-sitter tags convention, with lore's own captures:
//
//	@definition.<kind>  the definition node: function, method, class, struct,
//	                    interface, trait, enum, impl, module, type, constant,
//	                    variable, macro (and the aliases in defKinds);
//	                    @definition.ignore claims a name for no definition
//	@reference.<kind>   the reference node: call, type, import, extends,
//	                    implements, reference (and the aliases in refKinds);
//	                    @reference.ignore claims a name for no reference
//	                    (an Elixir module attribute is no call);
//	                    @reference.maybe_call is a call when "(" or "{"
//	                    follows the node, else a plain reference
//	@name               the name of the definition or reference
//	@qualifier          what a referenced name is reached through (fmt in fmt.Println)
//	@target             an import's module or path as written (captured by
//	                    several nodes or several matches of one pattern on
//	                    one reference, it spans from the first to the last)
//	@alias              the local name an import binds when it renames
//	@source             the type that extends or implements (when it is not
//	                    the definition around the reference)
//	@container          a definition's container when it is not the
//	                    definition around it (a Go method's receiver type)
//
// Captures starting with an underscore are ignored (for predicates). The
// predicates #eq?, #not-eq?, #match?, #not-match?, #any-of? and
// #not-any-of? are supported.
//
// When several patterns capture the same definition (the same name node)
// or the same reference (the same name node; for a reference without a
// name, the same reference node), the pattern written first in the query
// wins; a reference whose name node is a definition's name is dropped, and
// so is a type reference inside a qualifier or an import path (java and io
// in java.io.Serializable).

// tagFiles holds the tags queries, one or more files per language.
//
//go:embed tags/*.scm
var tagFiles embed.FS

// tagSources lists, per language, the query files that make its query, in
// order; TypeScript and TSX share the JavaScript patterns, C++ the C ones.
var tagSources = map[string][]string{
	"go":         {"go.scm"},
	"python":     {"python.scm"},
	"javascript": {"javascript.scm", "ecmascript.scm", "jsx.scm"},
	"typescript": {"typescript.scm", "ecmascript.scm"},
	"tsx":        {"typescript.scm", "ecmascript.scm", "jsx.scm"},
	"java":       {"java.scm"},
	"kotlin":     {"kotlin.scm"},
	"c":          {"c.scm"},
	"cpp":        {"cpp.scm", "c.scm"},
	"csharp":     {"csharp.scm"},
	"rust":       {"rust.scm"},
	"ruby":       {"ruby.scm"},
	"php":        {"php.scm"},
	"scala":      {"scala.scm"},
	"swift":      {"swift.scm"},
	"lua":        {"lua.scm"},
	"elixir":     {"elixir.scm"},
	"bash":       {"bash.scm"},
}

func init() {
	for name, spec := range specs {
		spec.lang = name
	}
}

// defKinds maps the kind in @definition.<kind> to a symbols kind.
var defKinds = map[string]string{
	"function":  symbols.KindFunction,
	"method":    symbols.KindMethod,
	"class":     symbols.KindClass,
	"object":    symbols.KindClass,
	"record":    symbols.KindClass,
	"struct":    symbols.KindStruct,
	"union":     symbols.KindStruct,
	"interface": symbols.KindInterface,
	"protocol":  symbols.KindInterface,
	"trait":     symbols.KindTrait,
	"mixin":     symbols.KindTrait,
	"enum":      symbols.KindEnum,
	"impl":      symbols.KindImpl,
	"extension": symbols.KindImpl,
	"module":    symbols.KindModule,
	"namespace": symbols.KindModule,
	"type":      symbols.KindType,
	"constant":  symbols.KindConstant,
	"variable":  symbols.KindVariable,
	"property":  symbols.KindVariable,
	"macro":     symbols.KindMacro,
	"ignore":    refIgnore,
}

// refKinds maps the kind in @reference.<kind> to a symbols reference kind.
var refKinds = map[string]string{
	"call":           symbols.RefCall,
	"send":           symbols.RefCall,
	"type":           symbols.RefType,
	"class":          symbols.RefType,
	"import":         symbols.RefImport,
	"include":        symbols.RefImport,
	"extends":        symbols.RefExtends,
	"implements":     symbols.RefImplements,
	"implementation": symbols.RefImplements,
	"reference":      symbols.RefReference,
	"ignore":         refIgnore,
	"maybe_call":     refMaybeCall,
}

// refMaybeCall is the kind of the references that are calls when applied
// to arguments: a.b in a.b() but not in a.b + 1.
const refMaybeCall = "maybe_call"

// refIgnore is the kind of the definitions and references that only claim
// their name.
const refIgnore = "ignore"

// captureRole is what a capture of a tags query stands for.
type captureRole struct {
	def, ref  string // the symbols kind of a definition or reference capture
	name      bool
	qualifier bool
	target    bool
	alias     bool
	source    bool
	container bool
}

// predicate is a compiled #eq?, #match?, #any-of? (or negated) test.
type predicate struct {
	capture uint32
	negate  bool
	other   int64           // #eq? against another capture; -1 when against values
	values  map[string]bool // #eq? and #any-of?
	re      *regexp.Regexp  // #match?
}

// tagQuery is the compiled tags query of one language.
type tagQuery struct {
	query      *sitter.Query
	roles      []captureRole
	predicates [][]predicate // by pattern
}

var (
	tagQueriesMu sync.Mutex
	tagQueries   = map[string]*tagQueryOnce{}
)

type tagQueryOnce struct {
	once sync.Once
	q    *tagQuery
	err  error
}

// tagsFor returns the compiled tags query of a language, compiling it on
// first use; nil when the language has none or it does not compile (the
// tests make sure every one does).
func tagsFor(language string, grammar *sitter.Language) (*tagQuery, error) {
	tagQueriesMu.Lock()
	entry := tagQueries[language]
	if entry == nil {
		entry = &tagQueryOnce{}
		tagQueries[language] = entry
	}
	tagQueriesMu.Unlock()
	entry.once.Do(func() {
		entry.q, entry.err = compileTags(language, grammar)
	})
	return entry.q, entry.err
}

// tagSource returns the text of a language's tags query.
func tagSource(language string) ([]byte, error) {
	files, ok := tagSources[language]
	if !ok {
		return nil, fmt.Errorf("no tags query for %q", language)
	}
	var src []byte
	for _, f := range files {
		b, err := tagFiles.ReadFile("tags/" + f)
		if err != nil {
			return nil, err
		}
		src = append(src, b...)
		src = append(src, '\n')
	}
	return src, nil
}

func compileTags(language string, grammar *sitter.Language) (*tagQuery, error) {
	src, err := tagSource(language)
	if err != nil {
		return nil, err
	}
	q, err := sitter.NewQuery(src, grammar)
	if err != nil {
		return nil, fmt.Errorf("tags query for %s: %w", language, err)
	}
	t := &tagQuery{query: q}
	for i := uint32(0); i < q.CaptureCount(); i++ {
		name := q.CaptureNameForId(i)
		var r captureRole
		switch {
		case name == "name":
			r.name = true
		case name == "qualifier":
			r.qualifier = true
		case name == "target":
			r.target = true
		case name == "alias":
			r.alias = true
		case name == "source":
			r.source = true
		case name == "container":
			r.container = true
		case strings.HasPrefix(name, "definition."):
			if r.def = defKinds[strings.TrimPrefix(name, "definition.")]; r.def == "" {
				return nil, fmt.Errorf("tags query for %s: unknown capture @%s", language, name)
			}
		case strings.HasPrefix(name, "reference."):
			if r.ref = refKinds[strings.TrimPrefix(name, "reference.")]; r.ref == "" {
				return nil, fmt.Errorf("tags query for %s: unknown capture @%s", language, name)
			}
		case strings.HasPrefix(name, "_"), name == "doc":
		default:
			return nil, fmt.Errorf("tags query for %s: unknown capture @%s", language, name)
		}
		t.roles = append(t.roles, r)
	}
	t.predicates = make([][]predicate, q.PatternCount())
	for p := uint32(0); p < q.PatternCount(); p++ {
		for _, steps := range q.PredicatesForPattern(p) {
			pred, err := compilePredicate(q, steps)
			if err != nil {
				return nil, fmt.Errorf("tags query for %s, pattern %d: %w", language, p, err)
			}
			t.predicates[p] = append(t.predicates[p], pred)
		}
	}
	return t, nil
}

func compilePredicate(q *sitter.Query, steps []sitter.QueryPredicateStep) (predicate, error) {
	// Steps end with a Done step.
	if n := len(steps); n > 0 && steps[n-1].Type == sitter.QueryPredicateStepTypeDone {
		steps = steps[:n-1]
	}
	if len(steps) < 3 || steps[0].Type != sitter.QueryPredicateStepTypeString ||
		steps[1].Type != sitter.QueryPredicateStepTypeCapture {
		return predicate{}, fmt.Errorf("malformed predicate")
	}
	op := q.StringValueForId(steps[0].ValueId)
	p := predicate{capture: steps[1].ValueId, other: -1}
	args := steps[2:]
	switch op {
	case "eq?", "not-eq?":
		p.negate = op == "not-eq?"
		if len(args) != 1 {
			return p, fmt.Errorf("#%s takes two arguments", op)
		}
		if args[0].Type == sitter.QueryPredicateStepTypeCapture {
			p.other = int64(args[0].ValueId)
		} else {
			p.values = map[string]bool{q.StringValueForId(args[0].ValueId): true}
		}
	case "any-of?", "not-any-of?":
		p.negate = op == "not-any-of?"
		p.values = map[string]bool{}
		for _, a := range args {
			if a.Type != sitter.QueryPredicateStepTypeString {
				return p, fmt.Errorf("#%s takes strings", op)
			}
			p.values[q.StringValueForId(a.ValueId)] = true
		}
	case "match?", "not-match?":
		p.negate = op == "not-match?"
		if len(args) != 1 || args[0].Type != sitter.QueryPredicateStepTypeString {
			return p, fmt.Errorf("#%s takes a capture and a pattern", op)
		}
		re, err := regexp.Compile(q.StringValueForId(args[0].ValueId))
		if err != nil {
			return p, err
		}
		p.re = re
	default:
		return p, fmt.Errorf("unsupported predicate #%s", op)
	}
	return p, nil
}

// holds reports whether a match (its captures) satisfies the predicate. A
// capture absent from the match (an optional one) satisfies every
// predicate.
func (p predicate) holds(match []rawCapture, src []byte) bool {
	for _, c := range match {
		if c.index != p.capture {
			continue
		}
		text := src[c.at.start:c.at.end]
		var ok bool
		switch {
		case p.re != nil:
			ok = p.re.Match(text)
		case p.other >= 0:
			ok = true
			for _, o := range match {
				if int64(o.index) == p.other {
					ok = bytes.Equal(text, src[o.at.start:o.at.end])
					break
				}
			}
		default:
			ok = p.values[string(text)]
		}
		if ok == p.negate {
			return false
		}
	}
	return true
}
