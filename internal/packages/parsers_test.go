package packages

import (
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// buildFiles runs Build over in-memory manifests.
func buildFiles(files map[string]string) ([]Package, []Problem) {
	var manifests []Manifest
	for p, content := range files {
		manifests = append(manifests, Manifest{Path: p, Data: []byte(content)})
	}
	return Build(manifests)
}

type parserCase struct {
	name     string
	files    map[string]string
	want     []string // summarize() lines
	problems []string // "path: message prefix"
	metadata map[string]map[string]any
}

func runParserCases(t *testing.T, cases []parserCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pkgs, problems := buildFiles(tc.files)
			assertLines(t, summarize(pkgs), tc.want)
			if len(problems) != len(tc.problems) {
				t.Fatalf("problems = %+v, want %q", problems, tc.problems)
			}
			for i, p := range problems {
				if got := p.Path + ": " + p.Message; !strings.HasPrefix(got, tc.problems[i]) {
					t.Errorf("problem %d = %q, want prefix %q", i, got, tc.problems[i])
				}
			}
			for name, want := range tc.metadata {
				p := findPackage(t, pkgs, name)
				for key, value := range want {
					if got := p.Metadata[key]; !reflect.DeepEqual(got, value) {
						t.Errorf("%s metadata[%q] = %#v, want %#v", name, key, got, value)
					}
				}
			}
		})
	}
}

func TestParseNPM(t *testing.T) {
	runParserCases(t, []parserCase{
		{
			name: "all dependency sections, alias and local references",
			files: map[string]string{
				"a/package.json": `{"name": "a", "version": "1.0.0", "description": " A ",
					"dependencies": {"b": "workspace:*", "alias": "npm:@scope/real@^2", "local": "link:../c", "tarball": "file:./x.tgz"},
					"devDependencies": {"jest": "^29"}, "peerDependencies": {"react": ">=18"},
					"optionalDependencies": {"fsevents": "2"}, "license": "ISC", "private": false}`,
				"b/package.json": `{"name": "b"}`,
				"c/package.json": `{"name": "c-real"}`,
			},
			want: []string{
				"npm a a@1.0.0",
				"  runtime @scope/real ^2",
				"  runtime b workspace:* (internal)",
				"  runtime c-real link:../c (internal)",
				"  optional fsevents 2",
				"  dev jest ^29",
				"  peer react >=18",
				"  runtime tarball file:./x.tgz",
				"npm b b",
				"npm c c-real",
			},
			metadata: map[string]map[string]any{"a": {"license": "ISC", "private": false}},
		},
		{
			name: "bin string uses the unscoped name; yarn workspaces object",
			files: map[string]string{
				"package.json":          `{"name": "root", "workspaces": {"packages": ["libs/**"]}}`,
				"libs/x/y/package.json": `{"name": "@s/tool", "bin": "./cli.js", "license": [{"type": "MIT"}, {"type": "BSD"}]}`,
			},
			want: []string{"npm libs/x/y @s/tool", "npm . root"},
			metadata: map[string]map[string]any{
				"@s/tool": {"bin": map[string]any{"tool": "./cli.js"}, "license": "MIT OR BSD", "workspace": "."},
				"root":    {"workspace_members": []any{"libs/x/y"}},
			},
		},
		{
			name: "nameless manifests: folder name, silent workspace root, reported root",
			files: map[string]string{
				"package.json":          `{"private": true, "workspaces": ["apps/*"]}`,
				"apps/web/package.json": `{"dependencies": {"x": "1"}}`,
				"other/package.json":    `null`,
			},
			want: []string{"npm other other", "npm apps/web web", "  runtime x 1"},
		},
		{
			name: "nameless root next to pnpm-workspace.yaml is silent",
			files: map[string]string{
				"package.json":        `{"devDependencies": {"turbo": "1"}}`,
				"pnpm-workspace.yaml": "packages: [libs/*]\n",
				"libs/a/package.json": `{"name": "a"}`,
			},
			want:     []string{"npm libs/a a"},
			metadata: map[string]map[string]any{"a": {"workspace": "."}},
		},
		{
			name:     "nameless root without workspaces is a problem",
			files:    map[string]string{"package.json": `{"dependencies": {"x": "1"}}`},
			problems: []string{"package.json: declares no package name"},
		},
		{
			name: "invalid documents",
			files: map[string]string{
				"a/package.json": `{"name": 42}`,
				"b/package.json": `[1, 2]`,
				"c/package.json": `{"name": "c",`,
				"d/package.json": ``,
			},
			problems: []string{
				`a/package.json: "name" must be a string, not a number`,
				"b/package.json: invalid JSON at line 1, column 2: json: cannot unmarshal array",
				"c/package.json: invalid JSON at line 1, column 14: unexpected end of JSON input",
				"d/package.json: invalid JSON at line 1, column 1: unexpected end of JSON input",
			},
		},
		{
			name: "wrongly typed optional fields are ignored",
			files: map[string]string{
				"a/package.json": `{"name": "a", "version": 1, "dependencies": ["x"], "devDependencies": {"y": 2, "z": "1"}, "bin": 3, "workspaces": "nope"}`,
			},
			want: []string{"npm a a", "  dev z 1"},
		},
		{
			name: "pnpm workspace with exclusion",
			files: map[string]string{
				"pnpm-workspace.yaml":    "packages:\n  - 'pkgs/*'\n  - '!pkgs/skip'\n",
				"package.json":           `{"name": "mono"}`,
				"pkgs/a/package.json":    `{"name": "a", "dependencies": {"b": "workspace:*"}}`,
				"pkgs/b/package.json":    `{"name": "b"}`,
				"pkgs/skip/package.json": `{"name": "skip"}`,
			},
			want: []string{"npm pkgs/a a", "  runtime b workspace:* (internal)", "npm pkgs/b b", "npm . mono", "npm pkgs/skip skip"},
			metadata: map[string]map[string]any{
				"mono": {"workspace_members": []any{"pkgs/a", "pkgs/b"}},
				"a":    {"workspace": "."},
			},
		},
		{
			name:     "invalid pnpm workspace",
			files:    map[string]string{"pnpm-workspace.yaml": "packages: [unclosed\n"},
			problems: []string{"pnpm-workspace.yaml: invalid YAML: yaml: line 1"},
		},
	})
}

func TestParseGo(t *testing.T) {
	runParserCases(t, []parserCase{
		{
			name: "requires, indirect, local and remote replaces, go.work",
			files: map[string]string{
				"go.work": "go 1.22\nuse ./svc\nuse (\n\t./lib\n)\n",
				"svc/go.mod": "module example.com/svc\n\ngo 1.22\ntoolchain go1.22.1\n\nrequire (\n\texample.com/renamed v1.0.0\n\tgithub.com/x/y v1.2.3 // indirect\n\tgithub.com/p/q v0.1.0\n)\n\n" +
					"replace example.com/renamed v1.0.0 => ../lib\nreplace github.com/p/q => github.com/fork/q v0.2.0\n",
				"lib/go.mod": "module example.com/lib\n",
			},
			want: []string{
				"go lib example.com/lib",
				"go svc example.com/svc",
				"  runtime example.com/lib v1.0.0 (internal)",
				"  runtime github.com/p/q v0.1.0",
				"  runtime github.com/x/y v1.2.3",
			},
			metadata: map[string]map[string]any{
				"example.com/svc": {
					"indirect":  []any{"github.com/x/y"},
					"replace":   map[string]any{"example.com/renamed@v1.0.0": "../lib", "github.com/p/q": "github.com/fork/q@v0.2.0"},
					"toolchain": "go1.22.1",
					"workspace": ".",
				},
				"example.com/lib": {"workspace": "."},
			},
		},
		{
			name: "invalid go.mod and go.work",
			files: map[string]string{
				"a/go.mod": "module example.com/a\nrequire\n",
				"b/go.mod": "go 1.22\n",
				"go.work":  "use (\n",
			},
			problems: []string{"a/go.mod: invalid go.mod: go.mod:2", "b/go.mod: go.mod has no module directive", "go.work: invalid go.work"},
		},
	})
}

func TestParseCargo(t *testing.T) {
	runParserCases(t, []parserCase{
		{
			name: "workspace inheritance, renames, targets, kinds",
			files: map[string]string{
				"Cargo.toml": `
[workspace]
members = ["crates/*"]
[workspace.package]
version = "1.2.3"
description = "shared"
[workspace.dependencies]
tokio = "1.36"
util = { path = "crates/util-dir", package = "my-util" }
[package]
name = "root-bin"
[dependencies]
my-util = { path = "crates/util-dir" }
`,
				"crates/app/Cargo.toml": `
[package]
name = "app"
version = { workspace = true }
description.workspace = true
publish = false
[dependencies]
tokio = { workspace = true, features = ["full"] }
util = { workspace = true, optional = true }
git-dep = { git = "https://example.com/x.git" }
[target.'cfg(windows)'.dev-dependencies]
winapi = "0.3"
[build_dependencies]
cc = "1"
`,
				"crates/util-dir/Cargo.toml": "[package]\nname = \"my-util\"\n",
			},
			want: []string{
				"cargo crates/app app@1.2.3",
				"  build cc 1",
				"  runtime git-dep git+https://example.com/x.git",
				"  optional my-util (internal)",
				"  runtime tokio 1.36",
				"  dev winapi 0.3",
				"cargo crates/util-dir my-util",
				"cargo . root-bin",
				"  runtime my-util (internal)",
			},
			metadata: map[string]map[string]any{
				"root-bin": {"workspace_members": []any{"crates/app", "crates/util-dir"}},
				"app":      {"publish": false, "workspace": "."},
			},
		},
		{
			name: "errors",
			files: map[string]string{
				"a/Cargo.toml": "[package]\nversion = \"1\"\n",
				"b/Cargo.toml": "[patch.crates-io]\n",
				"c/Cargo.toml": "[package\nname = \"c\"\n",
			},
			problems: []string{
				"a/Cargo.toml: [package] has no name",
				"b/Cargo.toml: Cargo.toml has neither [package] nor [workspace]",
				"c/Cargo.toml: invalid TOML at line 1",
			},
		},
	})
}

func TestParsePython(t *testing.T) {
	runParserCases(t, []parserCase{
		{
			name: "PEP 621 with poetry, uv sources and workspace",
			files: map[string]string{
				"pyproject.toml": `
[tool.uv.workspace]
members = ["pkgs/*"]
`,
				"pkgs/a/pyproject.toml": `
[project]
name = "pkg-a"
version = "0.1"
dependencies = ["pkg_b", "httpx>=0.27 ; python_version >= '3.9'", "bad requirement!", "Flask[async]==3.0"]
[project.optional-dependencies]
docs = ["mkdocs"]
[tool.uv]
dev-dependencies = ["pytest"]
[tool.uv.sources]
pkg_b = { workspace = true }
`,
				"pkgs/b/pyproject.toml": `
[tool.poetry]
name = "Pkg.B"
description = "b"
[tool.poetry.dependencies]
Python = ">=3.9"
attrs = [{ version = "<23", python = "<3.8" }, { version = ">=23", python = ">=3.8" }]
[tool.poetry.dev-dependencies]
mypy = "*"
`,
			},
			want: []string{
				"python pkgs/b Pkg.B",
				"  runtime attrs <23 || >=23",
				"  dev mypy *",
				"python pkgs/a pkg-a@0.1",
				"  runtime Flask ==3.0",
				"  runtime Pkg.B (internal)",
				"  runtime httpx >=0.27",
				"  optional mkdocs",
				"  dev pytest",
			},
			metadata: map[string]map[string]any{"pkg-a": {"workspace": "."}, "Pkg.B": {"workspace": "."}},
		},
		{
			name: "tool-only files are no packages",
			files: map[string]string{
				"pyproject.toml": "[tool.black]\nline-length = 88\n",
				"setup.cfg":      "[flake8]\nmax-line-length = 88\n",
			},
		},
		{
			name: "setup.cfg lists",
			files: map[string]string{
				"x/setup.cfg": "[metadata]\nname = x\nversion = file: VERSION\ndescription = the x\n" +
					"[options]\ninstall_requires = a>=1, b\nsetup_requires =\n  setuptools_scm\n" +
					"[options.extras_require]\ntest = pytest; coverage\n",
			},
			want: []string{
				"python x x",
				"  runtime a >=1",
				"  runtime b",
				"  optional pytest",
				"  build setuptools_scm",
			},
		},
		{
			name: "invalid INI and TOML",
			files: map[string]string{
				"a/setup.cfg":      "[metadata\nname = a\n",
				"b/setup.cfg":      "name = b\n",
				"c/setup.cfg":      "[metadata]\njust words\n",
				"d/pyproject.toml": "[project]\nname = 'd\n",
			},
			problems: []string{
				"a/setup.cfg: invalid INI at line 1: unterminated section header",
				"b/setup.cfg: invalid INI at line 1: key outside any [section]",
				"c/setup.cfg: invalid INI at line 2: expected key = value",
				"d/pyproject.toml: invalid TOML at line 2",
			},
		},
	})
}

func TestParseRequirement(t *testing.T) {
	for _, tc := range []struct{ in, name, version string }{
		{"requests", "requests", ""},
		{"requests>=2.8.1", "requests", ">=2.8.1"},
		{"requests [security,tests] >= 2.8.1, == 2.8.* ; python_version < '2.7'", "requests", ">= 2.8.1, == 2.8.*"},
		{"name (>=1.0)", "name", ">=1.0"},
		{"pip @ https://example.com/pip.zip ; sys_platform == 'win32'", "pip", "@ https://example.com/pip.zip"},
		{"zope.interface~=5.0", "zope.interface", "~=5.0"},
		{"a-b_c.d", "a-b_c.d", ""},
	} {
		name, version, ok := parseRequirement(tc.in)
		if !ok || name != tc.name || version != tc.version {
			t.Errorf("parseRequirement(%q) = %q, %q, %v; want %q, %q", tc.in, name, version, ok, tc.name, tc.version)
		}
	}
	for _, bad := range []string{"", "  ", ">=1.0", "[extra]", "x[unclosed"} {
		if name, _, ok := parseRequirement(bad); ok {
			t.Errorf("parseRequirement(%q) accepted name %q", bad, name)
		}
	}
}

func TestParseMaven(t *testing.T) {
	runParserCases(t, []parserCase{
		{
			name: "properties through a parent chain, managed versions, scopes",
			files: map[string]string{
				"pom.xml": `<project><groupId>g</groupId><artifactId>top</artifactId><version>9</version>
					<properties><lib.version>2.0</lib.version><loop>${loop}</loop></properties>
					<modules><module>mid</module></modules>
					<dependencyManagement><dependencies><dependency><groupId>x</groupId><artifactId>managed</artifactId><version>${lib.version}</version></dependency></dependencies></dependencyManagement></project>`,
				"mid/pom.xml": `<project><parent><groupId>g</groupId><artifactId>top</artifactId><version>9</version></parent>
					<artifactId>mid</artifactId><packaging>pom</packaging><modules><module>leaf/pom.xml</module></modules></project>`,
				"mid/leaf/pom.xml": `<project><parent><groupId>g</groupId><artifactId>mid</artifactId><version>9</version><relativePath>..</relativePath></parent>
					<artifactId>leaf</artifactId><description>
					  multi
					  line </description>
					<dependencies>
					  <dependency><groupId>x</groupId><artifactId>managed</artifactId></dependency>
					  <dependency><groupId>${project.groupId}</groupId><artifactId>mid</artifactId><version>${project.version}</version><type>pom</type></dependency>
					  <dependency><groupId>y</groupId><artifactId>sys</artifactId><version>${loop}</version><scope>system</scope></dependency>
					  <dependency><groupId>y</groupId><artifactId>unknown</artifactId><version>${nope}</version><scope>runtime</scope></dependency>
					</dependencies></project>`,
			},
			want: []string{
				"maven mid/leaf g:leaf@9",
				"  runtime g:mid 9 (internal)",
				"  runtime x:managed 2.0",
				"  build y:sys ${loop}",
				"  runtime y:unknown ${nope}",
				"maven mid g:mid@9",
				"maven . g:top@9",
			},
			metadata: map[string]map[string]any{
				"g:mid":  {"workspace": ".", "workspace_members": []any{"mid/leaf"}, "packaging": "pom"},
				"g:leaf": {"workspace": "mid", "parent": "g:mid"},
			},
		},
		{
			name: "errors",
			files: map[string]string{
				"a/pom.xml": `<project><groupId>g</groupId></project>`,
				"b/pom.xml": `<project><artifactId>b</artifactId>`,
				"c/pom.xml": ``,
			},
			problems: []string{
				"a/pom.xml: pom.xml has no <artifactId>",
				"b/pom.xml: invalid XML at line 1: unexpected EOF",
				"c/pom.xml: invalid XML: the file has no root element",
			},
		},
	})
}

func TestParseGradle(t *testing.T) {
	runParserCases(t, []parserCase{
		{
			name: "groovy settings with projectDir override and map notation",
			files: map[string]string{
				"settings.gradle": "rootProject.name = 'root'\ninclude ':core', 'web'\ninclude(\"tools:gen\")\n" +
					"project(':core').projectDir = new File(settingsDir, 'modules/core-impl')\n",
				"build.gradle": "group = 'org.acme'\nversion '1.0'\n" +
					"buildscript { dependencies { classpath 'com.android.tools.build:gradle:8.2.0' } }\n",
				"modules/core-impl/build.gradle": "dependencies {\n  implementation group: 'com.google.guava', name: 'guava', version: '33.0'\n" +
					"  runtimeOnly files('libs/a.jar')\n  annotationProcessor \"org.x:proc:1@jar\"\n  debugImplementation 'd:e:1'\n  androidTestImplementation 'f:g:2'\n}\n",
				"web/build.gradle.kts": "dependencies {\n  implementation(project(path = \":core\"))\n  api(project(\":tools:gen\"))\n" +
					"  testFixturesApi(\"h:i:3\")\n  implementation(\"not-a-coordinate\")\n  implementation(\"$kotlinVersion\")\n  implementation(\"org.z:interp:$zVersion\")\n}\n",
				"tools/gen/build.gradle": "dependencies { implementation project(':web') }\n",
			},
			want: []string{
				"gradle modules/core-impl core",
				"  runtime com.google.guava:guava 33.0",
				"  runtime d:e 1",
				"  dev f:g 2",
				"  build org.x:proc 1",
				"gradle tools/gen gen",
				"  runtime web (internal)",
				"gradle . root@1.0",
				"  build com.android.tools.build:gradle 8.2.0",
				"gradle web web",
				"  runtime core (internal)",
				"  runtime gen (internal)",
				"  dev h:i 3",
				"  runtime org.z:interp $zVersion",
			},
			metadata: map[string]map[string]any{
				"root": {"group": "org.acme", "workspace_members": []any{"modules/core-impl", "tools/gen", "web"}},
				"gen":  {"gradle_path": ":tools:gen", "workspace": "."},
			},
		},
		{
			name: "without settings the folder names the project; unnamed root is reported",
			files: map[string]string{
				"build.gradle":     "dependencies { implementation project(':lib') }\n",
				"lib/build.gradle": "version = \"3\"\n",
			},
			want:     []string{"gradle lib lib@3"},
			problems: []string{"build.gradle: declares no package name"},
		},
		{
			name: "a root project without rootProject.name is silent in a multi-project build",
			files: map[string]string{
				"settings.gradle":  "include 'lib'\n",
				"build.gradle":     "dependencies { implementation project(':lib') }\n",
				"lib/build.gradle": "version = \"3\"\n",
			},
			want: []string{"gradle lib lib@3"},
		},
		{
			name: "group:name of a sibling Gradle project resolves to it",
			files: map[string]string{
				"settings.gradle.kts": "rootProject.name = \"r\"\ninclude(\"a\", \"b\")\n",
				"a/build.gradle.kts":  "group = \"com.r\"\n",
				"b/build.gradle.kts":  "dependencies { implementation(\"com.r:a:1.0\") }\n",
			},
			want: []string{"gradle a a", "gradle b b", "  runtime a 1.0 (internal)"},
		},
	})
}

func TestParseComposerGemDotnetDartSwift(t *testing.T) {
	runParserCases(t, []parserCase{
		{
			name: "composer",
			files: map[string]string{
				"composer.json":     `{"name": "v/app", "require": {"PHP": "^8", "ext-mbstring": "*", "lib-pcre": "*", "composer-runtime-api": "^2", "V/Lib": "^1"}, "license": "MIT"}`,
				"lib/composer.json": `{"name": "v/lib", "require-dev": {"phpstan/phpstan": "^1"}}`,
				"bad/composer.json": `{"name": ["x"]}`,
			},
			want:     []string{"composer . v/app", "  runtime v/lib ^1 (internal)", "composer lib v/lib", "  dev phpstan/phpstan ^1"},
			problems: []string{`bad/composer.json: "name" must be a string, not an array`},
		},
		{
			name: "gemspec forms",
			files: map[string]string{
				"a/a.gemspec": "Gem::Specification.new do |s|\n  s.name    = 'gem-a'.freeze\n  s.version = '1.0'\n" +
					"  s.description = %q{It's fine}\n  other.add_dependency 'ignored'\n" +
					"  s.add_dependency(%q<rack>.freeze, [\">= 2\", \"< 4\"])\n  s.add_development_dependency \"rake\"\n" +
					"  s.add_dependency \"gem-b\" if RUBY_VERSION > '3'\nend\n",
				"b/gem-b.gemspec": "spec = Object.new\nGem::Specification.new do |spec|\n  spec.name = NAME\n  x = 1 << 2\n  spec.add_dependency \"json\", \"~> 2\"\nend\n",
			},
			want: []string{
				"gem a gem-a@1.0",
				"  runtime gem-b (internal)",
				"  runtime rack >= 2, < 4",
				"  dev rake",
				"gem b gem-b",
				"  runtime json ~> 2",
			},
		},
		{
			name: ".NET projects",
			files: map[string]string{
				"src/Lib/Lib.fsproj": `<Project><PropertyGroup><Version>1.0</Version></PropertyGroup>
					<ItemGroup><PackageReference Update="FSharp.Core" Version="8" /><PackageReference Include="FSharp.Data" Version="6" /></ItemGroup></Project>`,
				"src/App/App.csproj": `<Project><ItemGroup><ProjectReference Include="..\Lib\Lib.fsproj" /><ProjectReference Include="..\Gone\Gone.csproj" /></ItemGroup></Project>`,
				"src/Bad/Bad.csproj": `<Project><ItemGroup></Project>`,
			},
			want: []string{
				"nuget src/App App",
				"  runtime Gone",
				"  runtime Lib (internal)",
				"nuget src/Lib Lib@1.0",
				"  runtime FSharp.Data 6",
			},
			problems: []string{"src/Bad/Bad.csproj: invalid XML at line 1: element <ItemGroup> closed by </Project>"},
		},
		{
			name: "pubspec",
			files: map[string]string{
				"app/pubspec.yaml":  "name: app\nversion: 1.0\ndependencies:\n  core:\n    path: ../core\n  pkg:\n    git:\n      url: https://example.com/pkg.git\n  hosted_pkg:\n    hosted: https://pub.example.com\n    version: ^2.0.0\n",
				"core/pubspec.yaml": "name: core\n",
				"bad/pubspec.yaml":  "name: [unclosed\n",
			},
			want: []string{
				"dart app app@1",
				"  runtime core (internal)",
				"  runtime hosted_pkg ^2.0.0",
				"  runtime pkg git+https://example.com/pkg.git",
				"dart core core",
			},
			problems: []string{"bad/pubspec.yaml: invalid YAML: yaml: line 1"},
		},
		{
			name: "Package.swift",
			files: map[string]string{
				"Package.swift": `let package = Package(
    name: "Kit",
    dependencies: [
        .package(name: "Renamed", url: "git@github.com:o/r.git", .upToNextMajor(from: "5.0.0")),
        .package(url: "https://github.com/o/exact", exact: "1.2.3"),
        .package(url: "https://github.com/o/branchy.git", branch: "main"),
        .package(url: "https://github.com/o/closed/", "1.0.0"...` + `"1.9.0"),
        .package(path: "../outside"),
        .package(url: "https://github.com/o/unterminated"`,
			},
			want: []string{
				"swift . Kit",
				"  runtime Renamed from 5.0.0",
				"  runtime branchy branch main",
				"  runtime closed 1.0.0...1.9.0",
				"  runtime exact exact 1.2.3",
				"  runtime outside",
				"  runtime unterminated",
			},
		},
	})
}

func TestIsManifest(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"package.json", true},
		{"apps/web/package.json", true},
		{"go.mod", true},
		{"go.work", true},
		{"go.sum", false},
		{"crates/x/Cargo.toml", true},
		{"Cargo.lock", false},
		{"pyproject.toml", true},
		{"setup.cfg", true},
		{"setup.py", false},
		{"pom.xml", true},
		{"build.gradle", true},
		{"build.gradle.kts", true},
		{"settings.gradle.kts", true},
		{"gradle/libs.versions.toml", true},
		{"plugin/gradle/tools.versions.toml", true},
		{"libs.versions.toml", false},
		{"gradle/.versions.toml", false},
		{"gradle/libs.toml", false},
		{"composer.json", true},
		{"lib/x.gemspec", true},
		{"src/App/App.csproj", true},
		{"src/App/App.fsproj", true},
		{".csproj", false},
		{"pubspec.yaml", true},
		{"Package.swift", true},
		{"pnpm-workspace.yaml", true},
		{"node_modules/left-pad/package.json", false},
		{"a/node_modules/b/package.json", false},
		{"vendor/github.com/x/go.mod", false},
		{"internal/x/testdata/go.mod", false},
		{"README.md", false},
		{"package.json.bak", false},
		{`apps\web\package.json`, true},
		{"./package.json", true},
	} {
		if got := IsManifest(tc.path); got != tc.want {
			t.Errorf("IsManifest(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestBuildRejectsBadManifestPaths(t *testing.T) {
	pkgs, problems := Build([]Manifest{
		{Path: "../outside/package.json", Data: []byte(`{"name": "x"}`)},
		{Path: "/abs/package.json", Data: []byte(`{"name": "y"}`)},
		{Path: "README.md", Data: []byte(`# hi`)},
		{Path: "a/package.json", Data: []byte(`{"name": "a"}`)},
		{Path: "a/package.json", Data: []byte(`{"name": "a-again"}`)},
		{Path: "", Data: nil},
	})
	assertLines(t, summarize(pkgs), []string{"npm a a"})
	var got []string
	for _, p := range problems {
		got = append(got, p.Path+": "+p.Message)
	}
	sort.Strings(got)
	want := []string{
		"../outside/package.json: manifest path must be a file path relative to the root",
		"/abs/package.json: manifest path must be a file path relative to the root",
		": manifest path must be a file path relative to the root",
		"README.md: not a recognised manifest file name",
		"a/package.json: manifest given more than once; only the first copy is read",
	}
	assertLines(t, got, want)
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"packages/*", "packages/a", true},
		{"packages/*", "packages/a/b", false},
		{"packages/**", "packages/a/b", true},
		{"**/test", "a/b/test", true},
		{"**/test", "test", true},
		{"a/**/z", "a/z", true},
		{"a/**/z", "a/b/c/z", true},
		{"a/**/z", "a/b/c/y", false},
		{"a/[bc]", "a/c", true},
		{"a/[", "a/[", false}, // malformed glob matches nothing
		{`a/\*`, "a/*", true},
		{`a/\*`, "a/b", false},
	} {
		if got := globMatch(tc.pattern, tc.name); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestWorkspaceNearestRootWins(t *testing.T) {
	pkgs, _ := buildFiles(map[string]string{
		"package.json":              `{"name": "outer", "workspaces": ["**"]}`,
		"inner/package.json":        `{"name": "inner", "workspaces": ["./libs/*/"]}`,
		"inner/libs/x/package.json": `{"name": "x"}`,
		"elsewhere/y/package.json":  `{"name": "y"}`,
		"outside-glob/package.json": `{"name": "z", "workspaces": ["../elsewhere/*"]}`,
	})
	for name, want := range map[string]string{"x": "inner", "inner": ".", "y": "outside-glob", "z": "."} {
		if got := findPackage(t, pkgs, name).Metadata["workspace"]; got != want {
			t.Errorf("%s: workspace = %v, want %q", name, got, want)
		}
	}
	if got := findPackage(t, pkgs, "outer").Metadata["workspace_members"]; !reflect.DeepEqual(got, []any{"inner", "outside-glob"}) {
		t.Errorf("outer members = %v", got)
	}
}

// TestHostileInputsStayFast: inputs built to blow up naive algorithms
// finish quickly (the test's deadline is the check).
func TestHostileInputsStayFast(t *testing.T) {
	deep := strings.Repeat("a/", 40) + "b"
	if globMatch(strings.Repeat("**/", 40)+"c", deep) {
		t.Error("hostile glob matched")
	}
	if !globMatch(strings.Repeat("**/a/", 20)+"**/b", deep) {
		t.Error("glob with many ** did not match")
	}

	// Each property refers to the next one ten times: 10^8 copies if expanded naively.
	var props strings.Builder
	for i := 0; i < 8; i++ {
		props.WriteString("<p" + string(rune('0'+i)) + ">" + strings.Repeat("${p"+string(rune('1'+i))+"}", 10) + "</p" + string(rune('0'+i)) + ">")
	}
	pom := "<project><groupId>g</groupId><artifactId>a</artifactId><version>${p0}</version><properties>" + props.String() + "<p8>x</p8></properties></project>"
	pkgs, problems := buildFiles(map[string]string{"pom.xml": pom})
	if len(pkgs) != 1 || len(problems) != 0 || len(pkgs[0].Version) > 2*maxExpandedLen {
		t.Errorf("property bomb: %d packages, %v, version of %d bytes", len(pkgs), problems, len(pkgs[0].Version))
	}

	yamlBomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nname: x\n"
	buildFiles(map[string]string{"pubspec.yaml": yamlBomb, "pnpm-workspace.yaml": yamlBomb})

	buildFiles(map[string]string{"package.json": strings.Repeat("[", 100000)})
	buildFiles(map[string]string{"build.gradle": strings.Repeat("dependencies {", 20000)})
	buildFiles(map[string]string{"Package.swift": strings.Repeat(".package(", 20000)})
}

// TestWorkspaceMembershipIsNotQuadratic: apache/maven has about 2,000
// pom.xml files and hundreds of <module> lists; membership used to match
// every module of every list against every package. Literal members are
// now looked up, and globs are only tried below the folder they start in.
func TestWorkspaceMembershipIsNotQuadratic(t *testing.T) {
	const n = 600
	files := map[string]string{}
	var modules strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&modules, "<module>m%d</module>", i)
		files[fmt.Sprintf("m%d/pom.xml", i)] = fmt.Sprintf("<project><parent><groupId>g</groupId><artifactId>root</artifactId></parent><artifactId>m%d</artifactId><modules><module>sub</module></modules></project>", i)
		files[fmt.Sprintf("m%d/sub/pom.xml", i)] = fmt.Sprintf("<project><groupId>g</groupId><artifactId>m%d-sub</artifactId></project>", i)
		files[fmt.Sprintf("js/packages/p%d/package.json", i)] = fmt.Sprintf(`{"name": "p%d"}`, i)
	}
	files["pom.xml"] = "<project><groupId>g</groupId><artifactId>root</artifactId><modules>" + modules.String() + "</modules></project>"
	files["package.json"] = `{"name": "web", "workspaces": ["js/packages/*", "tools/*"]}`
	tried := 0
	countMatch = func() { tried++ }
	defer func() { countMatch = nil }()
	pkgs, problems := buildFiles(files)
	if len(pkgs) != 3*n+2 || len(problems) != 0 {
		t.Fatalf("%d packages, problems %v", len(pkgs), problems)
	}
	for _, p := range pkgs {
		want := "."
		switch {
		case p.Path == ".":
			want = ""
		case strings.HasSuffix(p.Path, "/sub"):
			want = path.Dir(p.Path)
		}
		if got, _ := p.Metadata["workspace"].(string); got != want {
			t.Fatalf("%s (%s): workspace %q, want %q", p.Name, p.Path, got, want)
		}
	}
	// One include and one exclude check per package at most.
	if tried > 4*len(pkgs) {
		t.Errorf("%d glob matches for %d packages: membership is quadratic again", tried, len(pkgs))
	}
}
