package search

import (
	"path"
	"strings"
)

// testSupportDirs are folders of code that exercises, demonstrates or
// measures a project rather than implementing it, by conventions beyond
// the plain test/ and examples/ of lowValueDirs: regression suites
// (regress/), end-to-end tests (e2e/), mocks (__mocks__/), Rust's benches/
// and Java's jmh/, demos and storybooks, and shared test helpers
// (test-utils/, testutil/, test_helpers/, testsupport/). Names are
// compared lower-cased without leading or trailing underscores and
// without - and _ inside.
var testSupportDirs = map[string]bool{"regress": true, "regression": true, "regressions": true, "e2e": true,
	"mocks": true, "benches": true, "jmh": true, "demo": true, "demos": true, "storybook": true, "stories": true,
	"testutils": true, "testutil": true, "testhelpers": true, "testhelper": true, "testsupport": true,
	"integrationtests": true, "testfixtures": true}

// testSupportSuffixes end the base name (before its extension) of such
// files: db_bench.cc, formatter-bench.cpp, parser_benchmark.cc,
// select.stories.tsx, router.bench.ts.
var testSupportSuffixes = []string{"_bench", "-bench", ".bench", "_benchmark", "-benchmark", ".benchmark",
	".stories", ".story", ".e2e", "_e2e", ".fixture"}

// testSupportNames are whole base names of test support files: pytest's
// conftest.py, RSpec's spec_helper.rb, test_helper.rb / test_helper.bash.
var testSupportNames = map[string]bool{"conftest": true, "spechelper": true, "testhelper": true,
	"testhelpers": true, "testutils": true, "testsetup": true}

// isTestSupportPath reports tests, benchmarks, demos and test helpers
// named by the conventions above, and JVM/Swift/.NET classes named
// FooBenchmark or FooSpec (ScalaTest, Spek, Kotest, Quick).
func isTestSupportPath(p string) bool {
	for rest := p; ; {
		dir, after, found := strings.Cut(rest, "/")
		if !found {
			break
		}
		if testSupportDirs[nameSeparators.Replace(strings.ToLower(strings.Trim(dir, "_")))] {
			return true
		}
		rest = after
	}
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	lower := strings.ToLower(stem)
	for _, s := range testSupportSuffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	if testSupportNames[nameSeparators.Replace(lower)] {
		return true
	}
	for _, s := range []string{"Benchmark", "Benchmarks", "Spec", "Specs"} {
		if len(stem) > len(s) && strings.HasSuffix(stem, s) {
			return true
		}
	}
	return false
}
