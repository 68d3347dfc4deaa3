package search

import "testing"

func TestTestSupportPaths(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"regress/copy-mode-test-emacs.sh", true},
		{"src/test/regress/sql/join.sql", true},
		{"packages/app/e2e/login.ts", true},
		{"src/__mocks__/fs.js", true},
		{"benches/parse.rs", true},
		{"apps/storybook/stories/select.stories.tsx", true},
		{"packages/dialog/src/dialog.stories.tsx", true},
		{"packages/test-utils/src/render.ts", true},
		{"internal/testutil/server.go", true},
		{"test_helpers/db.rb", true},
		{"benchmarks/db_bench.cc", true},
		{"bench/formatter-bench.cpp", true},
		{"src/core/parser_benchmark.cc", true},
		{"src/router.bench.ts", true},
		{"packages/expect/src/expect.test-d.ts", true},
		{"src/index.spec-d.ts", true},
		{"tests/conftest.py", true},
		{"spec/spec_helper.rb", true},
		{"test/test_helper.bash", true},
		{"modules/benchmark/PrintingBenchmark.scala", true},
		{"lua/telescope/testharness/helpers.lua", true},
		{"fuzz/input-fuzzer.c", true},
		{"re2/fuzzing/re2_fuzzer.cc", true},
		{"src/parse_fuzz.rs", true},
		// Implementation, however close the name.
		{"src/benchmark.c", false},
		{"src/fuzzy.c", false},
		{"lib/fuzzy_match.go", false},
		{"lib/spec.js", false},
		{"lib/reporters/spec.js", false},
		{"src/Serilog/Parsing/MessageTemplateParser.cs", false},
		{"src/demolition/site.go", false},
		{"lib/rack/lint.rb", false},
		{"src/click/testing.py", false},
		{"include/spdlog/details/registry.h", false},
		{"src/Spec.swift", false},
		// A class named FooSpec is an API's own name as often as a test's
		// (JavaPoet's TypeSpec, okhttp's ConnectionSpec); a ScalaTest or
		// Kotest spec lives under a test folder, which demotes it.
		{"src/main/java/com/squareup/javapoet/TypeSpec.java", false},
		{"okhttp/src/commonJvmAndroid/kotlin/okhttp3/ConnectionSpec.kt", false},
	}
	for _, c := range cases {
		if got := isTestSupportPath(c.path); got != c.want {
			t.Errorf("isTestSupportPath(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestTestFolderParts(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"runtime-tests/bun/index.test.ts", true},
		{"test/coverage-test/src/math.ts", true},
		{"test_suite/tests/regression.rs", true},
		{"apps/ssr-testing/app/page.tsx", true},
		{"internal/test-data/countries.ts", true},
		{"packages/slot/src/__snapshots__/slot.test.tsx.snap", true},
		{"src/guide/transition-demos/Basic.vue", true},
		{"moshi-kotlin-tests/src/main/kotlin/Dual.kt", true},
		{"Sources/VaporTesting/TestingApplicationTester.swift", true},
		{"Tests/IntegrationTests/Server.swift", true},
		{"src/UnitTestHelpers/Fixture.cs", true},
		// A test word in the file's own name, or inside a word of a
		// folder's name, is not a folder of tests.
		{"src/testing.go", false},
		{"lib/contest/runner.rb", false},
		{"src/latest/api.ts", false},
		{"packages/attestation/src/sign.ts", false},
		{"lib/rack/mock_request.rb", false},
		{"Sources/LatestVersion/Api.swift", false},
		{"src/Contestant/Entry.cs", false},
		{"packages/browser/src/client/tester/runner.ts", false},
	}
	for _, c := range cases {
		if got := hasTestFolderPart(c.path); got != c.want {
			t.Errorf("hasTestFolderPart(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}
