// Package lang detects a file's language from its name and content.
//
// Language names are lower-case and stable: they are stored in the index and
// accepted by filters such as `--lang`, so renaming one is a breaking change.
package lang

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"
)

// Names of the documentation languages; IsDoc reports these.
const (
	Markdown = "markdown"
	RST      = "rst"
	AsciiDoc = "asciidoc"
	Text     = "text"
)

// byExtension maps a lower-case file extension (with its dot) to a language.
var byExtension = map[string]string{
	// Languages with a tree-sitter grammar in the chunker.
	".go":      "go",
	".py":      "python",
	".pyi":     "python",
	".pyw":     "python",
	".js":      "javascript",
	".jsx":     "javascript",
	".mjs":     "javascript",
	".cjs":     "javascript",
	".ts":      "typescript",
	".mts":     "typescript",
	".cts":     "typescript",
	".tsx":     "tsx",
	".java":    "java",
	".kt":      "kotlin",
	".kts":     "kotlin",
	".c":       "c",
	".h":       "c",
	".cc":      "cpp",
	".cpp":     "cpp",
	".cxx":     "cpp",
	".c++":     "cpp",
	".hh":      "cpp",
	".hpp":     "cpp",
	".hxx":     "cpp",
	".h++":     "cpp",
	".ipp":     "cpp",
	".inl":     "cpp",
	".tpp":     "cpp",
	".cu":      "cpp",
	".cuh":     "cpp",
	".cs":      "csharp",
	".csx":     "csharp",
	".rs":      "rust",
	".rb":      "ruby",
	".rake":    "ruby",
	".gemspec": "ruby",
	".ru":      "ruby",
	".erb":     "erb",
	".php":     "php",
	".phtml":   "php",
	".scala":   "scala",
	".sc":      "scala",
	".sbt":     "scala",
	".swift":   "swift",
	".lua":     "lua",
	".ex":      "elixir",
	".exs":     "elixir",
	".sh":      "bash",
	".bash":    "bash",
	".zsh":     "bash",
	".ksh":     "bash",
	".bats":    "bash",

	// Documentation.
	".md":       Markdown,
	".markdown": Markdown,
	".mdx":      Markdown,
	".mkd":      Markdown,
	".rst":      RST,
	".rest":     RST,
	".adoc":     AsciiDoc,
	".asciidoc": AsciiDoc,
	".txt":      Text,
	".text":     Text,

	// Languages indexed as blocks (no grammar).
	".hs":         "haskell",
	".lhs":        "haskell",
	".zig":        "zig",
	".ml":         "ocaml",
	".mli":        "ocaml",
	".erl":        "erlang",
	".hrl":        "erlang",
	".clj":        "clojure",
	".cljs":       "clojure",
	".cljc":       "clojure",
	".edn":        "clojure",
	".dart":       "dart",
	".r":          "r",
	".pl":         "perl",
	".pm":         "perl",
	".t":          "perl",
	".jl":         "julia",
	".nim":        "nim",
	".fs":         "fsharp",
	".fsi":        "fsharp",
	".fsx":        "fsharp",
	".vue":        "vue",
	".svelte":     "svelte",
	".html":       "html",
	".htm":        "html",
	".xhtml":      "html",
	".css":        "css",
	".scss":       "scss",
	".sass":       "sass",
	".less":       "less",
	".sql":        "sql",
	".yaml":       "yaml",
	".yml":        "yaml",
	".toml":       "toml",
	".json":       "json",
	".jsonc":      "json",
	".json5":      "json",
	".xml":        "xml",
	".xsd":        "xml",
	".xsl":        "xml",
	".svg":        "xml",
	".plist":      "xml",
	".proto":      "protobuf",
	".graphql":    "graphql",
	".gql":        "graphql",
	".tf":         "terraform",
	".tfvars":     "terraform",
	".hcl":        "hcl",
	".dockerfile": "dockerfile",
	".mk":         "makefile",
	".mak":        "makefile",
	".cmake":      "cmake",
	".groovy":     "groovy",
	".gradle":     "groovy",
	".m":          "objective-c",
	".mm":         "objective-c",
	".ps1":        "powershell",
	".psm1":       "powershell",
	".bat":        "batch",
	".cmd":        "batch",
	".fish":       "fish",
	".vim":        "vim",
	".el":         "elisp",
	".lisp":       "lisp",
	".scm":        "scheme",
	".rkt":        "racket",
	".elm":        "elm",
	".purs":       "purescript",
	".cr":         "crystal",
	".d":          "d",
	".f90":        "fortran",
	".f":          "fortran",
	".for":        "fortran",
	".pas":        "pascal",
	".v":          "verilog",
	".sv":         "systemverilog",
	".vhd":        "vhdl",
	".vhdl":       "vhdl",
	".sol":        "solidity",
	".cue":        "cue",
	".nix":        "nix",
	".ini":        "ini",
	".cfg":        "ini",
	".properties": "properties",
	".tex":        "latex",
	".bib":        "bibtex",
	".org":        "org",
	".csv":        "csv",
	".tsv":        "tsv",
	".gleam":      "gleam",
	".odin":       "odin",
	".hbs":        "handlebars",
	".mustache":   "mustache",
	".j2":         "jinja",
	".jinja":      "jinja",
	".jinja2":     "jinja",
	".tmpl":       "gotemplate",
	".gotmpl":     "gotemplate",
	".astro":      "astro",
	".prisma":     "prisma",
	".thrift":     "thrift",
	".asm":        "assembly",
	".s":          "assembly",
	".wat":        "wasm",
	".coffee":     "coffeescript",
	".re":         "reason",
	".res":        "rescript",
	".hx":         "haxe",
	".tcl":        "tcl",
	".awk":        "awk",
	".sed":        "sed",
	".pp":         "puppet",
	".rego":       "rego",
	".bzl":        "starlark",
	".star":       "starlark",
}

// byName maps an exact, lower-case base name to a language for files whose
// name rather than extension says what they are.
var byName = map[string]string{
	"dockerfile":        "dockerfile",
	"containerfile":     "dockerfile",
	"makefile":          "makefile",
	"gnumakefile":       "makefile",
	"bsdmakefile":       "makefile",
	"cmakelists.txt":    "cmake",
	"gemfile":           "ruby",
	"rakefile":          "ruby",
	"guardfile":         "ruby",
	"podfile":           "ruby",
	"vagrantfile":       "ruby",
	"brewfile":          "ruby",
	"fastfile":          "ruby",
	"appfile":           "ruby",
	"dangerfile":        "ruby",
	"capfile":           "ruby",
	"berksfile":         "ruby",
	"thorfile":          "ruby",
	"jenkinsfile":       "groovy",
	"build.gradle":      "groovy",
	"settings.gradle":   "groovy",
	"pkgbuild":          "bash",
	"apkbuild":          "bash",
	".bashrc":           "bash",
	".bash_profile":     "bash",
	".bash_login":       "bash",
	".bash_logout":      "bash",
	".bash_aliases":     "bash",
	".profile":          "bash",
	".zshrc":            "bash",
	".zshenv":           "bash",
	".zprofile":         "bash",
	".zlogin":           "bash",
	".zlogout":          "bash",
	".kshrc":            "bash",
	".envrc":            "bash",
	"bashrc":            "bash",
	"zshrc":             "bash",
	"go.mod":            "gomod",
	"go.sum":            "gosum",
	"go.work":           "gomod",
	"justfile":          "just",
	".justfile":         "just",
	"build.bazel":       "starlark",
	"workspace.bazel":   "starlark",
	"readme":            Text,
	"license":           Text,
	"licence":           Text,
	"copying":           Text,
	"authors":           Text,
	"contributors":      Text,
	"notice":            Text,
	"changelog":         Text,
	"todo":              Text,
	"procfile":          "yaml",
	".gitignore":        "gitignore",
	".dockerignore":     "gitignore",
	".editorconfig":     "ini",
	".gitconfig":        "ini",
	".gitattributes":    "gitattributes",
	"meson.build":       "meson",
	"cargo.lock":        "toml",
	"pipfile":           "toml",
	"pipfile.lock":      "json",
	"package-lock.json": "json",
}

// byInterpreter maps the program named by a `#!` line to a language.
var byInterpreter = map[string]string{
	"sh":         "bash",
	"bash":       "bash",
	"zsh":        "bash",
	"ksh":        "bash",
	"dash":       "bash",
	"ash":        "bash",
	"python":     "python",
	"pypy":       "python",
	"node":       "javascript",
	"nodejs":     "javascript",
	"deno":       "typescript",
	"bun":        "javascript",
	"ts-node":    "typescript",
	"tsx":        "typescript",
	"ruby":       "ruby",
	"perl":       "perl",
	"php":        "php",
	"lua":        "lua",
	"luajit":     "lua",
	"elixir":     "elixir",
	"escript":    "erlang",
	"Rscript":    "r",
	"julia":      "julia",
	"scala":      "scala",
	"kotlin":     "kotlin",
	"swift":      "swift",
	"groovy":     "groovy",
	"fish":       "fish",
	"awk":        "awk",
	"gawk":       "awk",
	"tclsh":      "tcl",
	"pwsh":       "powershell",
	"make":       "makefile",
	"runhaskell": "haskell",
	"stack":      "haskell",
}

// withGrammar lists the languages the chunker parses with tree-sitter.
var withGrammar = map[string]bool{
	"go": true, "python": true, "javascript": true, "typescript": true,
	"tsx": true, "java": true, "kotlin": true, "c": true, "cpp": true,
	"csharp": true, "rust": true, "ruby": true, "php": true, "scala": true,
	"swift": true, "lua": true, "elixir": true, "bash": true,
}

// Detect returns the language of the file at path, or "" when it cannot
// tell. head is the beginning of the file (it may be nil); it is consulted
// only for a `#!` line when the name says nothing.
func Detect(path string, head []byte) string {
	// Accept both separators whatever the OS, as paths may come from
	// another machine's index.
	base := path
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	lower := strings.ToLower(base)
	if l, ok := byName[lower]; ok {
		return l
	}
	if l := byDottedName(lower); l != "" {
		return l
	}
	// A dot file such as ".vimrc" is all extension; only byName could have
	// named it, so its "extension" is not looked up.
	if ext := filepath.Ext(lower); ext != "" && ext != lower {
		if l, ok := byExtension[ext]; ok {
			return l
		}
	}
	return fromShebang(head)
}

// byDottedName recognises families of names that are neither an exact name
// nor a plain extension: "Dockerfile.dev", "Makefile.am", "foo.Dockerfile",
// "CMakeLists.txt" variants and "README.md"-less text files.
func byDottedName(lower string) string {
	switch {
	case strings.HasPrefix(lower, "dockerfile.") || strings.HasPrefix(lower, "containerfile."):
		return "dockerfile"
	case strings.HasPrefix(lower, "makefile.") || lower == "makefile.am" || lower == "makefile.in":
		return "makefile"
	case strings.HasPrefix(lower, "jenkinsfile"):
		return "groovy"
	case strings.HasPrefix(lower, "requirements") && strings.HasSuffix(lower, ".txt"):
		return "pip-requirements"
	}
	return ""
}

// fromShebang reads a `#!` first line: "#!/bin/bash", "#!/usr/bin/env
// python3", "#!/usr/bin/env -S node --flag".
func fromShebang(head []byte) string {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	prog := programName(fields[0])
	if prog == "env" {
		prog = ""
		for _, f := range fields[1:] {
			// Skip env's own options and VAR=value assignments.
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue
			}
			prog = programName(f)
			break
		}
	}
	if prog == "" {
		return ""
	}
	if l, ok := byInterpreter[prog]; ok {
		return l
	}
	// Versioned interpreters: python3, python3.12, ruby2.7, perl5, lua5.4.
	trimmed := strings.TrimRight(prog, "0123456789.")
	if l, ok := byInterpreter[trimmed]; ok {
		return l
	}
	return ""
}

func programName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// IsDoc reports whether lang is prose documentation rather than code.
func IsDoc(lang string) bool {
	switch lang {
	case Markdown, RST, AsciiDoc, Text:
		return true
	}
	return false
}

// HasGrammar reports whether the chunker parses lang with a syntax grammar
// (rather than splitting it into blank-line-separated blocks).
func HasGrammar(lang string) bool {
	return withGrammar[lang]
}

// components lists the languages whose files hold their code in script
// elements (or a frontmatter) among markup: the chunker parses those
// scripts with a JavaScript or TypeScript grammar.
var components = map[string]bool{"vue": true, "svelte": true, "astro": true}

// IsComponent reports whether lang is a component format whose scripts
// the chunker parses (Vue, Svelte, Astro).
func IsComponent(lang string) bool {
	return components[lang]
}

// Parsed returns the languages whose code lore parses into definitions
// and references, sorted: those with a grammar and the components.
func Parsed() []string {
	names := Grammars()
	for name := range components {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Grammars returns the languages HasGrammar accepts, sorted.
func Grammars() []string {
	names := make([]string, 0, len(withGrammar))
	for name := range withGrammar {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
