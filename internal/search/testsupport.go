package search

import (
	"path"
	"strings"

	"github.com/lore-dev/lore/internal/tokenize"
)

// testSupportDirs are folders of code that exercises, demonstrates or
// measures a project rather than implementing it, by conventions beyond
// the plain test/ and examples/ of lowValueDirs: regression suites
// (regress/), end-to-end tests (e2e/), mocks (__mocks__/), Rust's benches/
// and Java's jmh/, demos and storybooks, and shared test helpers
// (test-utils/, testutil/, test_helpers/, testsupport/), and fuzzing
// harnesses (fuzz/, fuzzing/, as OSS-Fuzz projects lay them out). Names are
// compared lower-cased without leading or trailing underscores and
// without - and _ inside.
var testSupportDirs = map[string]bool{"regress": true, "regression": true, "regressions": true, "e2e": true,
	"mocks": true, "benches": true, "jmh": true, "demo": true, "demos": true, "storybook": true, "stories": true,
	"testutils": true, "testutil": true, "testhelpers": true, "testhelper": true, "testsupport": true,
	"integrationtests": true, "testfixtures": true, "testharness": true, "fuzz": true, "fuzzing": true, "fuzzers": true}

// testSupportSuffixes end the base name (before its extension) of such
// files: db_bench.cc, formatter-bench.cpp, parser_benchmark.cc,
// select.stories.tsx, router.bench.ts, TypeScript's type tests
// (index.test-d.ts, expect.spec-d.ts, as vitest and tsd name them) and
// fuzz targets (re2_fuzzer.cc, parse_fuzz.rs).
var testSupportSuffixes = []string{"_bench", "-bench", ".bench", "_benchmark", "-benchmark", ".benchmark",
	".stories", ".story", ".e2e", "_e2e", ".fixture", ".test-d", ".spec-d", "_fuzzer", "_fuzz"}

// testSupportNames are whole base names of test support files: pytest's
// conftest.py, RSpec's spec_helper.rb, test_helper.rb / test_helper.bash.
var testSupportNames = map[string]bool{"conftest": true, "spechelper": true, "testhelper": true,
	"testhelpers": true, "testutils": true, "testsetup": true}

// testFolderParts are words that, as one dash-, underscore- or
// dot-separated part of a folder's name, mark the folder as test,
// benchmark, fixture or demo code: runtime-tests/, coverage-test/,
// test_suite/, ssr-testing/, test-data/, __snapshots__/, transition-demos/,
// moshi-kotlin-tests/, and the code samples documentation includes
// (Snippets/, where .NET projects keep their mdsnippets sources). The
// whole names of lowValueDirs and testSupportDirs are matched as they are;
// these catch the compound names a project gives its suites.
var testFolderParts = map[string]bool{"test": true, "tests": true, "testing": true, "spec": true, "specs": true,
	"e2e": true, "bench": true, "benches": true, "benchmark": true, "benchmarks": true, "fixture": true,
	"fixtures": true, "mock": true, "mocks": true, "stub": true, "stubs": true, "fake": true, "fakes": true,
	"snapshots": true, "testdata": true, "example": true, "examples": true, "demo": true, "demos": true,
	"sample": true, "samples": true, "snippet": true, "snippets": true, "playground": true}

// hasTestFolderPart reports a folder of p (not its base name) with a part
// in testFolderParts.
func hasTestFolderPart(p string) bool {
	return anyFolder(p, func(dir string) bool {
		for _, part := range strings.FieldsFunc(dir, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			if testFolderParts[strings.ToLower(part)] {
				return true
			}
			// The words of a CamelCase name too: VaporTesting/, IntegrationTests/.
			for _, w := range tokenize.SplitIdentifier(part) {
				if testFolderParts[w] {
					return true
				}
			}
		}
		return false
	})
}

// isTestSupportPath reports tests, benchmarks, demos and test helpers
// named by the conventions above, and JVM/Swift/.NET classes named
// FooBenchmark. Not FooSpec: JavaPoet's TypeSpec and MethodSpec, okhttp's
// ConnectionSpec are the API, and a ScalaTest, Spek or Kotest spec lives
// under a test folder, which demotes it anyway.
func isTestSupportPath(p string) bool {
	if anyFolder(p, func(dir string) bool {
		return testSupportDirs[nameSeparators.Replace(strings.ToLower(strings.Trim(dir, "_")))]
	}) {
		return true
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
	for _, s := range []string{"Benchmark", "Benchmarks"} {
		if len(stem) > len(s) && strings.HasSuffix(stem, s) {
			return true
		}
	}
	return false
}
