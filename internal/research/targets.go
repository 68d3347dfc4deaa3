package research

import (
	"path"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
)

// maxSuggestions is how many close names a "not found" error offers.
const maxSuggestions = 5

// findTargets returns the definitions a query's subject names, sorted by
// path and line: "authenticate", "Router.Handle", "auth.Guard". Several
// definitions of one name are all targets; none is an error naming the
// closest names.
func (g *Graph) findTargets(subject, intent string) ([]int32, error) {
	qualifier, name := splitSubject(subject)
	var defs []int32
	if id, ok := g.lookup(name); ok {
		defs = append(defs, g.defsByName[id]...)
	}
	if len(defs) == 0 {
		for _, other := range g.definedNames() {
			if strings.EqualFold(other, name) {
				id, _ := g.lookup(other)
				defs = append(defs, g.defsByName[id]...)
			}
		}
	}
	if len(defs) == 0 {
		return nil, g.notFound(subject, name)
	}
	if qualifier != "" {
		// The type first (Router.Handle), else the module or file.
		var kept []int32
		for _, d := range defs {
			if g.qualifiesType(d, qualifier) {
				kept = append(kept, d)
			}
		}
		if len(kept) == 0 {
			for _, d := range defs {
				if g.qualifies(d, qualifier) {
					kept = append(kept, d)
				}
			}
		}
		if len(kept) == 0 {
			var seen []string
			for _, d := range defs {
				seen = append(seen, g.qualifiedName(d)+" ("+g.defFile(d).path+")")
			}
			sort.Strings(seen)
			if len(seen) > maxSuggestions {
				seen = seen[:maxSuggestions]
			}
			return nil, errs.New(errs.NotFound, errs.CodeSymbolNotFound, "No definition of %s in %s. Definitions named %s: %s",
				name, qualifier, name, strings.Join(seen, ", ")).With("symbol", subject).With("suggestions", seen)
		}
		defs = kept
	}
	defs = g.dropPrototypes(g.preferKinds(defs, intent))
	sort.Slice(defs, func(i, j int) bool { return g.defLess(defs[i], defs[j]) })
	return defs, nil
}

// defLess orders definitions by path, then line, then name.
func (g *Graph) defLess(a, b int32) bool {
	da, db := &g.defs[a], &g.defs[b]
	pa, pb := g.files[da.file].path, g.files[db.file].path
	if pa != pb {
		return pa < pb
	}
	if da.start != db.start {
		return da.start < db.start
	}
	return a < b
}

// qualifierPath writes a subject's qualifier as a path: "a/b" for a.b,
// a::b, a\b; and its last segment.
func qualifierPath(qualifier string) (q, last string) {
	q = strings.NewReplacer("::", "/", ".", "/", "\\", "/", "#", "/").Replace(qualifier)
	last = q
	if i := strings.LastIndex(q, "/"); i >= 0 {
		last = q[i+1:]
	}
	return q, last
}

// qualifiesType reports whether a definition belongs to the type that
// qualifies a subject ("Router" in Router.Handle).
func (g *Graph) qualifiesType(d int32, qualifier string) bool {
	q, qLast := qualifierPath(qualifier)
	c := g.str(g.defs[d].container)
	return c != "" && (lastCrumb(c) == qLast || strings.ReplaceAll(c, " > ", "/") == q)
}

// qualifies reports whether a definition matches what qualifies a subject
// less strictly: its type ignoring case, its module or file ("auth" in
// auth.Guard, "internal/auth").
func (g *Graph) qualifies(d int32, qualifier string) bool {
	def := &g.defs[d]
	q, qLast := qualifierPath(qualifier)
	if c := g.str(def.container); c != "" && (strings.EqualFold(lastCrumb(c), qLast) ||
		strings.EqualFold(strings.ReplaceAll(c, " > ", "/"), q)) {
		return true
	}
	f := &g.files[def.file]
	segs := pathSegments(f.path, f.family, true)
	want := strings.Split(q, "/")
	if hasSuffix(segs, want) || hasSuffix(segs[:len(segs)-1], want) {
		return true
	}
	return strings.EqualFold(path.Base(g.modules[f.module].path), qLast)
}

// qualifiedName is a definition as a person writes it: "Router.Handle".
func (g *Graph) qualifiedName(d int32) string {
	def := &g.defs[d]
	if c := g.str(def.container); c != "" {
		return strings.ReplaceAll(c, " > ", ".") + "." + g.str(def.name)
	}
	return g.str(def.name)
}

// preferKinds keeps, of several definitions of a name, those of the kinds
// an intent is about, when there are any: callables for calls, types for
// implementations; never an impl block or extension when the type itself
// is there.
func (g *Graph) preferKinds(all []int32, intent string) []int32 {
	// Each language family on its own: a Python base class is what Python
	// has for an interface.
	byFamily := map[string][]int32{}
	var families []string
	for _, d := range all {
		f := g.files[g.defs[d].file].family
		if byFamily[f] == nil {
			families = append(families, f)
		}
		byFamily[f] = append(byFamily[f], d)
	}
	var out []int32
	for _, f := range families {
		out = append(out, g.preferKindsOf(byFamily[f], intent)...)
	}
	return out
}

func (g *Graph) preferKindsOf(defs []int32, intent string) []int32 {
	keep := func(ok func(defKind) bool) {
		var kept []int32
		for _, d := range defs {
			if ok(g.defs[d].kind) {
				kept = append(kept, d)
			}
		}
		if len(kept) > 0 {
			defs = kept
		}
	}
	switch intent {
	case IntentCallers, IntentCallees:
		keep(func(k defKind) bool { return k == dkFunction || k == dkMethod || k == dkMacro })
		keep(defKind.callable)
	case IntentImplementations:
		keep(func(k defKind) bool { return k == dkInterface || k == dkTrait })
		keep(func(k defKind) bool { return k.typeLike() && k != dkModule })
	}
	keep(func(k defKind) bool { return k != dkImpl })
	return defs
}

// notFound is the error of a subject no definition has, with the closest
// defined names.
func (g *Graph) notFound(subject, name string) error {
	suggestions := closest(name, g.definedNames(), maxSuggestions)
	msg := "No symbol named " + subject + " in the index"
	if len(suggestions) > 0 {
		msg += ". Closest names: " + strings.Join(suggestions, ", ")
	}
	if suggestions == nil {
		suggestions = []string{}
	}
	return errs.New(errs.NotFound, errs.CodeSymbolNotFound, "%s", msg).With("symbol", subject).With("suggestions", suggestions)
}

// closest returns up to n names nearest to want: those containing it (or
// contained in it) first, then by edit distance, ties by name.
func closest(want string, names []string, n int) []string {
	lw := strings.ToLower(want)
	type scored struct {
		name  string
		score int
	}
	var all []scored
	limit := max(2, len(want)/2)
	for _, name := range names {
		ln := strings.ToLower(name)
		var s int
		switch {
		case strings.Contains(ln, lw) || len(ln) >= 4 && strings.Contains(lw, ln):
			s = abs(len(ln) - len(lw))
		default:
			d := editDistance(lw, ln, limit)
			if d > limit {
				continue
			}
			s = 100 + d
		}
		all = append(all, scored{name, s})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score < all[j].score
		}
		return all[i].name < all[j].name
	})
	var out []string
	for _, s := range all {
		if len(out) == n {
			break
		}
		out = append(out, s.name)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Levenshtein distance of a and b, or limit+1 once it
// is sure to exceed limit.
func editDistance(a, b string, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
