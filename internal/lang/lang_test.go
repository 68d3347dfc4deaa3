package lang

import (
	"slices"
	"sort"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		path string
		head string
		want string
	}{
		// Grammar languages by extension.
		{"main.go", "", "go"},
		{"pkg/sub/Thing.GO", "", "go"},
		{"app.py", "", "python"},
		{"stubs.pyi", "", "python"},
		{"index.js", "", "javascript"},
		{"Button.jsx", "", "javascript"},
		{"server.mjs", "", "javascript"},
		{"config.cjs", "", "javascript"},
		{"api.ts", "", "typescript"},
		{"mod.mts", "", "typescript"},
		{"mod.cts", "", "typescript"},
		{"App.tsx", "", "tsx"},
		{"Main.java", "", "java"},
		{"App.kt", "", "kotlin"},
		{"build.gradle.kts", "", "kotlin"},
		{"list.c", "", "c"},
		{"list.h", "", "c"},
		{"vec.hpp", "", "cpp"},
		{"vec.hh", "", "cpp"},
		{"vec.hxx", "", "cpp"},
		{"vec.cc", "", "cpp"},
		{"vec.cpp", "", "cpp"},
		{"vec.cxx", "", "cpp"},
		{"vec.ipp", "", "cpp"},
		{"vec.inl", "", "cpp"},
		{"vec.tpp", "", "cpp"},
		{"Program.cs", "", "csharp"},
		{"lib.rs", "", "rust"},
		{"app.rb", "", "ruby"},
		{"tasks.rake", "", "ruby"},
		{"lore.gemspec", "", "ruby"},
		{"config.ru", "", "ruby"},
		{"Gemfile", "", "ruby"},
		{"Rakefile", "", "ruby"},
		{"index.php", "", "php"},
		{"Main.scala", "", "scala"},
		{"script.sc", "", "scala"},
		{"App.swift", "", "swift"},
		{"init.lua", "", "lua"},
		{"router.ex", "", "elixir"},
		{"test_helper.exs", "", "elixir"},
		{"run.sh", "", "bash"},
		{"run.bash", "", "bash"},
		{"setup.zsh", "", "bash"},
		{".bashrc", "", "bash"},
		{"home/.zshrc", "", "bash"},
		{".bash_profile", "", "bash"},
		{".profile", "", "bash"},

		// Documentation.
		{"README.md", "", "markdown"},
		{"notes.markdown", "", "markdown"},
		{"page.mdx", "", "markdown"},
		{"index.rst", "", "rst"},
		{"guide.adoc", "", "asciidoc"},
		{"guide.asciidoc", "", "asciidoc"},
		{"notes.txt", "", "text"},
		{"LICENSE", "", "text"},

		// Languages without a grammar.
		{"Main.hs", "", "haskell"},
		{"build.zig", "", "zig"},
		{"lexer.ml", "", "ocaml"},
		{"server.erl", "", "erlang"},
		{"core.clj", "", "clojure"},
		{"app.dart", "", "dart"},
		{"analysis.R", "", "r"},
		{"script.pl", "", "perl"},
		{"sim.jl", "", "julia"},
		{"main.nim", "", "nim"},
		{"Lib.fs", "", "fsharp"},
		{"App.vue", "", "vue"},
		{"Page.svelte", "", "svelte"},
		{"index.html", "", "html"},
		{"site.css", "", "css"},
		{"theme.scss", "", "scss"},
		{"schema.sql", "", "sql"},
		{"ci.yml", "", "yaml"},
		{"ci.yaml", "", "yaml"},
		{"Cargo.toml", "", "toml"},
		{"package.json", "", "json"},
		{"pom.xml", "", "xml"},
		{"api.proto", "", "protobuf"},
		{"schema.graphql", "", "graphql"},
		{"main.tf", "", "terraform"},
		{"Dockerfile", "", "dockerfile"},
		{"Dockerfile.dev", "", "dockerfile"},
		{"api.Dockerfile", "", "dockerfile"},
		{"Makefile", "", "makefile"},
		{"GNUmakefile", "", "makefile"},
		{"rules.mk", "", "makefile"},
		{"CMakeLists.txt", "", "cmake"},
		{"build.gradle", "", "groovy"},
		{"Jenkinsfile", "", "groovy"},
		{"View.m", "", "objective-c"},
		{".eslintrc.json", "", "json"},

		// Shebangs for extension-less scripts.
		{"bin/deploy", "#!/bin/bash\necho hi\n", "bash"},
		{"bin/run", "#!/bin/sh\n", "bash"},
		{"bin/tool", "#!/usr/bin/env python3\n", "python"},
		{"bin/tool", "#!/usr/bin/python3.12 -u\n", "python"},
		{"bin/serve", "#!/usr/bin/env node\n", "javascript"},
		{"bin/serve", "#!/usr/bin/env -S node --enable-source-maps\n", "javascript"},
		{"bin/console", "#!/usr/bin/env ruby\n", "ruby"},
		{"bin/x", "#!/usr/bin/env FOO=1 perl\n", "perl"},
		{"bin/x", "#!/usr/local/bin/lua5.4\n", "lua"},
		{"bin/x", "#!/usr/bin/env elixir\n", "elixir"},
		{"bin/x", "#!\n", ""},
		{"bin/x", "#!/usr/bin/env\n", ""},
		{"bin/x", "#!/opt/unknown-interpreter\n", ""},

		// Unknown.
		{"data.bin", "", ""},
		{"noext", "plain text", ""},
		{"", "", ""},
		{"dir/", "", ""},
		{".hidden", "", ""},
		{"archive.tar.gz", "", ""},
	}
	for _, tt := range tests {
		if got := Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", tt.path, tt.head, got, tt.want)
		}
	}
}

// TestExtensionBeatsShebang: a name that says what the file is wins over
// its first line.
func TestExtensionBeatsShebang(t *testing.T) {
	if got := Detect("tool.py", []byte("#!/bin/bash\n")); got != "python" {
		t.Errorf("Detect(tool.py with a bash shebang) = %q, want python", got)
	}
}

func TestIsDoc(t *testing.T) {
	for _, l := range []string{"markdown", "rst", "asciidoc", "text"} {
		if !IsDoc(l) {
			t.Errorf("IsDoc(%q) = false", l)
		}
	}
	for _, l := range []string{"go", "python", "html", "yaml", "", "Markdown"} {
		if IsDoc(l) {
			t.Errorf("IsDoc(%q) = true", l)
		}
	}
}

func TestHasGrammar(t *testing.T) {
	want := []string{"bash", "c", "cpp", "csharp", "elixir", "go", "java", "javascript",
		"kotlin", "lua", "php", "python", "ruby", "rust", "scala", "swift", "tsx", "typescript"}
	for _, l := range want {
		if !HasGrammar(l) {
			t.Errorf("HasGrammar(%q) = false", l)
		}
	}
	for _, l := range []string{"haskell", "markdown", "text", "", "Go"} {
		if HasGrammar(l) {
			t.Errorf("HasGrammar(%q) = true", l)
		}
	}
	got := Grammars()
	if !sort.StringsAreSorted(got) || !slices.Equal(got, want) {
		t.Errorf("Grammars() = %q, want %q", got, want)
	}
}

// TestNamesAreStable checks that every language Detect can return is a
// lower-case name without spaces, since names are stored in the index.
func TestNamesAreStable(t *testing.T) {
	check := func(source, name string) {
		for _, r := range name {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
				t.Errorf("%s: language name %q has character %q", source, name, r)
				return
			}
		}
	}
	for ext, name := range byExtension {
		check(ext, name)
	}
	for file, name := range byName {
		check(file, name)
	}
	for prog, name := range byInterpreter {
		check(prog, name)
	}
}

// TestParsedLanguages: the languages lore parses are those with a grammar
// and the components whose scripts it parses, each once, sorted.
func TestParsedLanguages(t *testing.T) {
	parsed := Parsed()
	if !sort.StringsAreSorted(parsed) {
		t.Errorf("Parsed() is not sorted: %v", parsed)
	}
	for _, c := range []struct {
		lang      string
		grammar   bool
		component bool
	}{
		{"go", true, false}, {"tsx", true, false}, {"vue", false, true}, {"svelte", false, true},
		{"astro", false, true}, {"markdown", false, false}, {"haskell", false, false},
	} {
		if HasGrammar(c.lang) != c.grammar || IsComponent(c.lang) != c.component {
			t.Errorf("%s: grammar %v, component %v; want %v, %v", c.lang, HasGrammar(c.lang), IsComponent(c.lang), c.grammar, c.component)
		}
		if want := c.grammar || c.component; slices.Contains(parsed, c.lang) != want {
			t.Errorf("%s in Parsed() = %v, want %v", c.lang, !want, want)
		}
	}
	if len(parsed) != len(Grammars())+3 {
		t.Errorf("Parsed() has %d languages, want the %d grammars and 3 components", len(parsed), len(Grammars()))
	}
}
