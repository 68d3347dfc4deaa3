package search

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// rankingSwitch turns one ranking signal or weight off and back on, for
// the leave-one-repository-out test. langs names the languages (as
// repos.json names them) a rule applies to when it applies to some only;
// such a rule needs the support of at least three repositories of those
// languages.
type rankingSwitch struct {
	name  string
	langs []string
	off   func() (restore func())
}

// zero switches an additive weight off by setting it to 0.
func zero(p *float64) func() func() {
	return func() func() {
		old := *p
		*p = 0
		return func() { *p = old }
	}
}

// one switches a multiplier off by setting it to 1.
func one(p *float64) func() func() {
	return func() func() {
		old := *p
		*p = 1
		return func() { *p = old }
	}
}

// unset switches a rule off by setting its flag to false.
func unset(p *bool) func() func() {
	return func() func() {
		old := *p
		*p = false
		return func() { *p = old }
	}
}

// both switches two signals off together.
func both(a, b func() func()) func() func() {
	return func() func() {
		ra, rb := a(), b()
		return func() { rb(); ra() }
	}
}

// rankingSwitches are every signal and weight of the ranking that can be
// switched off (signals already off, such as file-level word coverage and
// the BM25 weight of identifier parts, are tried back on with
// TestDevSweep): the additive signals (off = 0), the demotions (off = 1),
// the query-side expansions and the BM25F field weights (off = every field
// weighs 1).
func rankingSwitches() []rankingSwitch {
	w := &weights
	sw := []rankingSwitch{
		{name: "word coverage", off: zero(&w.coverage)},
		{name: "file name share", off: zero(&w.fileName)},
		{name: "symbol-field share", off: zero(&w.symbolField)},
		{name: "exact symbol", off: zero(&w.exactSymbol)},
		{name: "qualified symbol's member", off: zero(&w.qualified)},
		{name: "type definition", off: zero(&w.typeDefinition)},
		{name: "file named after a query word", off: zero(&w.fileNameExact)},
		{name: "file named after the first word", off: zero(&w.fileNameSubject)},
		{name: "folder named after a query word", off: zero(&w.folderNameExact)},
		{name: "definition kind", off: zero(&w.definition)},
		{name: "file evidence (best other chunk)", off: zero(&w.fileEvidence)},
		{name: "file-level BM25", off: zero(&w.fileLevel)},
		{name: "tests/examples demoted", off: one(&w.lowValuePath)},
		{name: "older version folders demoted", off: one(&w.supersededPath)},
		{name: "headers beside their source demoted", langs: []string{"c", "cpp"}, off: one(&w.headerBeside)},
		{name: "headers longer than their source kept", langs: []string{"c", "cpp"}, off: unset(&w.headerThinOnly)},
		{name: "docs demoted for code queries", off: one(&w.docFile)},
		{name: "Windows ports demoted", off: one(&w.windowsVariant)},
		{name: "continuous integration scripts demoted", off: unset(&w.ciScripts)},
		{name: "manual pages and docs/ HTML are docs", off: unset(&w.manualDocs)},
		{name: "a file's own test module demoted", off: one(&w.inFileTests)},
		{name: "files implementing the named type", off: zero(&w.implementer)},
		{name: "symbol queries match file names as written", off: unset(&w.literalNames)},
		{name: "chunk pick: longer callable", off: zero(&w.pickLength)},
		{name: "chunk pick: named after a query word", off: zero(&w.pickOwnName)},
		{name: "chunk pick: callable", off: zero(&w.pickCallable)},
		{name: "chunk pick: constructors not as callables", off: one(&w.pickConstructor)},
		{name: "chunk pick: file's subject words discounted", off: zero(&w.pickSubject)},
		{name: "chunk pick: method named after its file as constructor", off: unset(&w.pickFileCtor)},
		{name: "chunk pick: a chunk that is mostly its doc comment", off: zero(&w.pickDocHeavy)},
		{name: "query word pairs joined in an identifier", off: zero(&w.joinedPairs)},
		{name: "test words join no pair", off: unset(&w.pairTestWords)},
		{name: "wider test/bench/demo conventions", off: unset(&w.testConventions)},
		{name: "test words in folder names", off: unset(&w.testFolderParts)},
		{name: "file named after a word: less in long queries", off: zero(&w.nameFullWords)},
		{name: "file named after a word: less for later words", off: zero(&w.namePosition)},
		{name: "names that begin a query word", off: zero(&w.namePrefix)},
		{name: "test-named files that code imports not demoted", off: unset(&w.importedByCode)},
		{name: "test words naming the domain", off: func() func() {
			old := w.testDomainShare
			w.testDomainShare = 1
			return func() { w.testDomainShare = old }
		}},
		{name: "abbreviations", off: zero(&w.abbreviation)},
		{name: "abbreviations the code seldom writes not read", off: zero(&w.abbrevMinShare)},
		{name: "abbreviations weighed by use (off: flat)", off: unset(&w.abbrevByUse)},
		{name: "run-together words", off: zero(&w.compound)},
		{name: "word-family relatives (familyStems)", off: zero(&w.family)},
		{name: "files of type declarations only demoted", off: func() func() {
			old := w.declarationsOnly
			w.declarationsOnly = 1
			return func() { w.declarationsOnly = old }
		}},
		{name: "demoted files earn nothing for their name", off: unset(&w.nameNeedsNoDemotion)},
		{name: "a kind of definition the query names", off: zero(&w.kindAsked)},
		{name: "private files earn nothing for their name", off: unset(&w.privateNames)},
		{name: "the fade counts words as written", off: unset(&w.writtenPlaces)},
		// Signals that read the same evidence, judged together: each
		// alone fails the rule while the others stand in for it.
		{name: "file name evidence (share + named after)", off: both(zero(&w.fileName), zero(&w.fileNameExact))},
		{name: "whole-file evidence (other chunk + BM25)", off: both(zero(&w.fileEvidence), zero(&w.fileLevel))},
		{name: "BM25F field weights", off: func() func() {
			old := w.fields
			for f := range w.fields {
				w.fields[f] = 1
			}
			return func() { w.fields = old }
		}},
	}
	return sw
}

// looVerdict is one switch judged over the repositories.
type looVerdict struct {
	langs                 []string
	langOf                map[string]string  // repository → language
	perRepoOn, perRepoOff map[string]float64 // NDCG@10 by repository
}

// judge applies the rule to the repositories in names: keep a signal when
// it raises their mean, hurts no more than a quarter of them and, when it
// applies to some languages only, helps at least three repositories of
// those languages.
func (v *looVerdict) judge(names []string) (keep bool, delta float64, helped, hurt []string, support int) {
	for _, n := range names {
		d := v.perRepoOn[n] - v.perRepoOff[n]
		delta += d
		switch {
		case d > 1e-9:
			helped = append(helped, n)
			if v.langs != nil && contains(v.langs, v.langOf[n]) {
				support++
			}
		case d < -1e-9:
			hurt = append(hurt, n)
		}
	}
	delta /= float64(len(names))
	keep = delta > 0 && 4*len(hurt) <= len(names) && (v.langs == nil || support >= 3)
	return
}

// TestDevLOO judges every ranking switch by leave-one-repository-out over
// the development sets of LORE_DEVBENCH (see TestDevBench): per switch,
// the repo-mean with it on and off, the repositories it helps and hurts,
// whether the rule keeps it, and the leave-one-out estimate: for each
// repository, the decision the other repositories make, scored on it.
// LORE_DEVBENCH_ONLY=name,name narrows the switches.
func TestDevLOO(t *testing.T) {
	repos := devBenchRepos(t)
	langOf := map[string]string{}
	for _, r := range repos {
		langOf[r.name] = r.lang
	}
	full := devScore(t, repos, nil)
	t.Logf("full ranking %.4f over %d repositories", full.mean, len(repos))
	t.Logf("%-40s %7s %7s %8s %6s %5s %-4s %8s %5s", "signal", "on", "off", "delta", "helped", "hurt", "keep", "LOO", "flips")
	only := os.Getenv("LORE_DEVBENCH_ONLY")
	for _, s := range rankingSwitches() {
		if only != "" && !contains(strings.Split(only, ","), s.name) {
			continue
		}
		restore := s.off()
		off := devScore(t, repos, nil)
		restore()
		v := &looVerdict{langs: s.langs, perRepoOn: full.perRepo, perRepoOff: off.perRepo, langOf: langOf}
		keep, _, helped, hurt, support := v.judge(full.names)
		// Leave each repository out: decide on the others, score on it.
		looMean, flips := 0.0, 0
		for i, held := range full.names {
			others := append(append([]string{}, full.names[:i]...), full.names[i+1:]...)
			k, _, _, _, _ := v.judge(others)
			if k != keep {
				flips++
			}
			if k {
				looMean += full.perRepo[held]
			} else {
				looMean += off.perRepo[held]
			}
		}
		looMean /= float64(len(full.names))
		verdict := "yes"
		if !keep {
			verdict = "NO"
		}
		lang := ""
		if v.langs != nil {
			total := 0
			for _, n := range full.names {
				if contains(v.langs, langOf[n]) {
					total++
				}
			}
			lang = fmt.Sprintf(" (%s: %d of %d helped)", strings.Join(v.langs, "/"), support, total)
		}
		t.Logf("%-40s %.4f %.4f %+.4f %6d %5d %-4s %.4f %5d%s", s.name, full.mean, off.mean, full.mean-off.mean,
			len(helped), len(hurt), verdict, looMean, flips, lang)
		if os.Getenv("LORE_DEVBENCH_VERBOSE") != "" {
			t.Logf("    helped: %s", perRepoDeltas(v, helped))
			t.Logf("    hurt:   %s", perRepoDeltas(v, hurt))
		}
		if os.Getenv("LORE_DEVBENCH_QUERIES") != "" {
			// Every query the switch changes, with its NDCG@10 on and off.
			for _, r := range repos {
				for i, q := range r.queries {
					on, off := full.perQuery[r.name][i], off.perQuery[r.name][i]
					if math.Abs(on-off) > 1e-9 {
						t.Logf("    %-16s %+.3f (on %.3f, off %.3f) %q", r.name, on-off, on, off, q.Query)
					}
				}
			}
		}
	}
}

func perRepoDeltas(v *looVerdict, names []string) string {
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %+.3f", n, v.perRepoOn[n]-v.perRepoOff[n]))
	}
	return strings.Join(parts, ", ")
}

// TestDevSweep scores one weight at several values and picks a value by
// leave-one-repository-out: for each repository, the value best on the
// others, scored on it. LORE_DEVBENCH_SWEEP=<field>:<v1>,<v2>,… names a
// float64 field of weightSet (see sweepable) and the values to try.
func TestDevSweep(t *testing.T) {
	spec := os.Getenv("LORE_DEVBENCH_SWEEP")
	if spec == "" {
		t.Skip("set LORE_DEVBENCH_SWEEP=<weight>:<v1>,<v2>,…")
	}
	repos := devBenchRepos(t)
	field, list, _ := strings.Cut(spec, ":")
	p := sweepable()[field]
	if p == nil {
		t.Fatalf("unknown weight %q", field)
	}
	old := *p
	defer func() { *p = old }()
	var values []float64
	results := map[float64]devResult{}
	for _, s := range strings.Split(list, ",") {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, v)
		*p = v
		results[v] = devScore(t, repos, nil)
	}
	*p = old
	names := results[values[0]].names
	for _, v := range values {
		r := results[v]
		worse := 0
		for _, n := range names {
			if r.perRepo[n] < results[old].perRepo[n]-1e-9 {
				worse++
			}
		}
		t.Logf("%s = %-6g repo-mean %.4f  %s (repositories below the current value %g: %d)", field, v, r.mean,
			setMeans(repos, r), old, worse)
	}
	loo := 0.0
	picks := map[float64]int{}
	for i, held := range names {
		best, bestMean := math.NaN(), -1.0
		for _, v := range values {
			m := 0.0
			for j, n := range names {
				if j != i {
					m += results[v].perRepo[n]
				}
			}
			if m > bestMean+1e-12 {
				best, bestMean = v, m
			}
		}
		picks[best]++
		loo += results[best].perRepo[held]
	}
	var pv []float64
	for v := range picks {
		pv = append(pv, v)
	}
	sort.Float64s(pv)
	for _, v := range pv {
		t.Logf("  chosen with one repository left out: %g ×%d", v, picks[v])
	}
	t.Logf("leave-one-out repo-mean %.4f", loo/float64(len(names)))
}

// sweepable are the weights TestDevSweep can vary, by field name.
func sweepable() map[string]*float64 {
	w := &weights
	m := map[string]*float64{
		"partTerm": &w.partTerm, "abbreviation": &w.abbreviation, "abbrevMinShare": &w.abbrevMinShare, "family": &w.family, "compound": &w.compound,
		"lexical": &w.lexical, "coverage": &w.coverage, "fileName": &w.fileName, "symbolField": &w.symbolField,
		"exactSymbol": &w.exactSymbol, "typeDefinition": &w.typeDefinition, "fileNameExact": &w.fileNameExact,
		"fileNameSubject": &w.fileNameSubject, "subjectMaxShare": &w.subjectMaxShare,
		"folderNameExact": &w.folderNameExact, "definition": &w.definition, "fileEvidence": &w.fileEvidence,
		"fileLevel": &w.fileLevel, "fileCoverage": &w.fileCoverage, "lowValuePath": &w.lowValuePath,
		"supersededPath": &w.supersededPath, "headerBeside": &w.headerBeside, "docFile": &w.docFile, "declarationsOnly": &w.declarationsOnly, "windowsVariant": &w.windowsVariant,
		"pickCallable": &w.pickCallable, "pickLength": &w.pickLength, "pickOwnName": &w.pickOwnName, "qualified": &w.qualified, "inFileTests": &w.inFileTests, "implementer": &w.implementer, "implementerMax": &w.implementerMax, "testDomainShare": &w.testDomainShare, "nameFullWords": &w.nameFullWords, "namePrefix": &w.namePrefix, "pickConstructor": &w.pickConstructor,
		"pickSubject": &w.pickSubject, "pickDocHeavy": &w.pickDocHeavy, "pickDocShare": &w.pickDocShare,
		"joinedPairs": &w.joinedPairs, "namePosition": &w.namePosition, "namePositionWords": &w.namePositionWords, "kindAsked": &w.kindAsked,
	}
	for f, name := range []string{"symbols", "name", "path", "signature", "doc", "body"} {
		m["field."+name] = &w.fields[f]
		m["b."+name] = &fieldB[f]
	}
	m["k1"] = &bm25K1
	m["fileB"] = &fileB
	return m
}

// setMeans is the repo-mean of each development set in res, by the last
// element of the set's folder ("bench: 0.8476 bench: 0.7316" reads in
// LORE_DEVBENCH order).
func setMeans(repos []*benchRepo, res devResult) string {
	var order []string
	sum, n := map[string]float64{}, map[string]int{}
	for _, r := range repos {
		if n[r.set] == 0 {
			order = append(order, r.set)
		}
		sum[r.set] += res.perRepo[r.name]
		n[r.set]++
	}
	var parts []string
	for _, set := range order {
		parts = append(parts, fmt.Sprintf("%s %.4f", set, sum[set]/float64(n[set])))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
