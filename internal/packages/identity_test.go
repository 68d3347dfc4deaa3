package packages

import (
	"strings"
	"testing"
)

// TestIssue15PackageIdentity: a package is (kind, path); dependencies
// resolve to a member of their own workspace first; manifests outside every
// workspace under test, fixture, example or docs folders are listed with a
// role and never chosen over a workspace member; a lookup by a name that
// stays ambiguous answers with the candidates.
func TestIssue15PackageIdentity(t *testing.T) {
	type depCheck struct {
		from, dep string // the depending package's path, the dependency as declared
		target    string // the path it must resolve to; "" for external
	}
	tests := []struct {
		name  string
		files map[string]string
		roles map[string]string // path → role ("" asserts none)
		finds map[string]string // name → path found, or the start of the error
		deps  []depCheck
	}{
		{
			// Fixtures sort before the modules, as in apache/maven, where the
			// first path alphabetically used to stand for the name.
			name: "maven: a test-resource pom named like a module",
			files: map[string]string{
				"pom.xml":                 pom("org.apache.maven", "maven", "<modules><module>impl</module><module>api</module></modules>", ""),
				"impl/pom.xml":            pom("org.apache.maven", "maven-impl", "<modules><module>maven-core</module></modules>", ""),
				"impl/maven-core/pom.xml": pom("org.apache.maven", "maven-core", "", mavenDep("org.apache.maven", "maven-api")),
				"api/pom.xml":             pom("org.apache.maven", "maven-api", "", ""),
				"compat/maven-embedder/src/test/projects/p1/pom.xml": pom("org.apache.maven", "maven-core", "", mavenDep("org.apache.maven", "maven-api")),
				"compat/maven-embedder/src/test/projects/p2/pom.xml": pom("org.apache.maven", "maven-api", "", ""),
			},
			roles: map[string]string{"impl/maven-core": "", "api": "", "compat/maven-embedder/src/test/projects/p1": RoleFixture, "compat/maven-embedder/src/test/projects/p2": RoleFixture},
			finds: map[string]string{"org.apache.maven:maven-core": "impl/maven-core", "org.apache.maven:maven-api": "api"},
			deps: []depCheck{
				{"impl/maven-core", "org.apache.maven:maven-api", "api"},
				// The fixture may use the real module; the real one never uses a fixture.
				{"compat/maven-embedder/src/test/projects/p1", "org.apache.maven:maven-api", "api"},
			},
		},
		{
			name: "gradle: a documentation snippet named like a project",
			files: map[string]string{
				"settings.gradle.kts":           "rootProject.name = \"exposed\"\ninclude(\"exposed-core\")\ninclude(\"exposed-dao\")\n",
				"build.gradle.kts":              "",
				"exposed-core/build.gradle.kts": "",
				"exposed-dao/build.gradle.kts":  "dependencies {\n  api(project(\":exposed-core\"))\n}\n",
				"documentation-website/Writerside/snippets/exposed-dao/build.gradle.kts": "dependencies {\n  implementation(\"org.jetbrains.exposed:exposed-core:1.0\")\n}\n",
				"samples/exposed-ktor/settings.gradle.kts":                               "rootProject.name = \"exposed-ktor\"\n",
				"samples/exposed-ktor/build.gradle.kts":                                  "dependencies {\n  implementation(\"exposed-dao\")\n}\n",
			},
			roles: map[string]string{"exposed-dao": "", "documentation-website/Writerside/snippets/exposed-dao": RoleDocs, "samples/exposed-ktor": RoleExample},
			finds: map[string]string{"exposed-dao": "exposed-dao"},
			deps:  []depCheck{{"exposed-dao", "exposed-core", "exposed-core"}},
		},
		{
			name: "uv: a fixture named like a dev dependency, one name in two ecosystems",
			files: map[string]string{
				"pyproject.toml":                              "[project]\nname = \"uv\"\nversion = \"1\"\n[dependency-groups]\ndev = [\"black>=23\"]\n",
				"Cargo.toml":                                  "[workspace]\nmembers = [\"crates/*\"]\n",
				"crates/uv/Cargo.toml":                        "[package]\nname = \"uv\"\n[dependencies]\nuv-cache = { path = \"../uv-cache\" }\n",
				"crates/uv-cache/Cargo.toml":                  "[package]\nname = \"uv-cache\"\n",
				"test/packages/black_editable/pyproject.toml": "[project]\nname = \"black\"\n",
				"test/workspaces/albatross/pyproject.toml":    "[project]\nname = \"albatross\"\ndependencies = [\"bird-feeder\"]\n[tool.uv.workspace]\nmembers = [\"packages/*\"]\n",
				"test/workspaces/albatross/packages/bird-feeder/pyproject.toml": "[project]\nname = \"bird-feeder\"\n",
			},
			roles: map[string]string{
				".": "", "crates/uv": "", "test/packages/black_editable": RoleFixture,
				"test/workspaces/albatross": RoleFixture, "test/workspaces/albatross/packages/bird-feeder": RoleFixture,
			},
			finds: map[string]string{
				"uv":    "Package 'uv' is ambiguous: 2 packages have that name (python ., cargo crates/uv)",
				"black": "test/packages/black_editable", // the only one: found, marked fixture
			},
			deps: []depCheck{
				{".", "black", ""},
				{"crates/uv", "uv-cache", "crates/uv-cache"},
				// Inside a fixture workspace, its members still resolve.
				{"test/workspaces/albatross", "bird-feeder", "test/workspaces/albatross/packages/bird-feeder"},
			},
		},
		{
			name: "npm: two workspaces with a package of the same name",
			files: map[string]string{
				"package.json":                 `{"name": "root", "private": true, "workspaces": ["packages/*"]}`,
				"packages/app/package.json":    `{"name": "app", "dependencies": {"shared": "*"}}`,
				"packages/shared/package.json": `{"name": "shared", "version": "1.0.0"}`,
				"tools/package.json":           `{"name": "tools", "private": true, "workspaces": ["*"]}`,
				"tools/cli/package.json":       `{"name": "cli", "dependencies": {"shared": "*"}}`,
				"tools/shared/package.json":    `{"name": "shared", "version": "2.0.0"}`,
			},
			finds: map[string]string{"shared": "Package 'shared' is ambiguous: 2 packages have that name (npm packages/shared, npm tools/shared)"},
			deps: []depCheck{
				{"packages/app", "shared", "packages/shared"},
				{"tools/cli", "shared", "tools/shared"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkgs, problems := buildFiles(tt.files)
			if len(problems) != 0 {
				t.Fatalf("problems: %v", problems)
			}
			byPath := map[string]Package{}
			for _, p := range pkgs {
				byPath[p.Path] = p
			}
			for path, want := range tt.roles {
				p, ok := byPath[path]
				if !ok {
					t.Errorf("no package at %s", path)
					continue
				}
				if got := RoleOf(p); got != want {
					t.Errorf("%s: role %q, want %q", path, got, want)
				}
			}
			g := NewGraph(pkgs)
			for name, want := range tt.finds {
				p, err := g.Find(Query{Name: name})
				got := p.Path
				if err != nil {
					got = err.Error()
				}
				if !strings.HasPrefix(got, want) {
					t.Errorf("Find(%s) = %q, want %q", name, got, want)
				}
			}
			for _, c := range tt.deps {
				var found *Dependency
				for _, d := range byPath[c.from].Dependencies {
					if d.Name == c.dep || strings.HasSuffix(d.Name, ":"+c.dep) {
						found = &d
						break
					}
				}
				switch {
				case found == nil:
					t.Errorf("%s declares no dependency %s: %+v", c.from, c.dep, byPath[c.from].Dependencies)
				case c.target == "" && (found.IsInternal || found.Target != nil):
					t.Errorf("%s → %s is internal (%+v), want external", c.from, c.dep, found.Target)
				case c.target != "" && (!found.IsInternal || found.Target == nil || found.Target.Path != c.target):
					t.Errorf("%s → %s resolves to %+v (internal %v), want %s", c.from, c.dep, found.Target, found.IsInternal, c.target)
				}
			}
		})
	}
}

func pom(group, artifact, modules, deps string) string {
	return "<project><groupId>" + group + "</groupId><artifactId>" + artifact + "</artifactId><version>1</version>" + modules +
		"<dependencies>" + deps + "</dependencies></project>"
}

func mavenDep(group, artifact string) string {
	return "<dependency><groupId>" + group + "</groupId><artifactId>" + artifact + "</artifactId></dependency>"
}

// TestIssue15CargoSelfDependency: a crate that depends on itself by path
// (bevy_math's `bevy_math = { path = ".", features = [...] }` among its
// dev-dependencies, to test with extra features) records an internal
// self-edge, whichever way it is written; by name alone a package never
// resolves to itself (it means a published copy).
func TestIssue15CargoSelfDependency(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		internal bool
	}{
		{"path dot", map[string]string{
			"crates/bevy_math/Cargo.toml": "[package]\nname = \"bevy_math\"\n[dev-dependencies]\nbevy_math = { path = \".\", default-features = false, features = [\"approx\"] }\n",
		}, true},
		{"path to its own folder", map[string]string{
			"crates/bevy_math/Cargo.toml": "[package]\nname = \"bevy_math\"\n[dev-dependencies]\nbevy_math = { path = \"../bevy_math\" }\n",
		}, true},
		{"inherited from the workspace", map[string]string{
			"Cargo.toml":                  "[workspace]\nmembers = [\"crates/*\"]\n[workspace.dependencies]\nbevy_math = { path = \"crates/bevy_math\", version = \"0.17\" }\n",
			"crates/bevy_math/Cargo.toml": "[package]\nname = \"bevy_math\"\n[dev-dependencies]\nbevy_math = { workspace = true, features = [\"approx\"] }\n",
		}, true},
		{"by name only", map[string]string{
			"crates/bevy_math/Cargo.toml": "[package]\nname = \"bevy_math\"\n[dev-dependencies]\nbevy_math = \"0.16\"\n",
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkgs, problems := buildFiles(tt.files)
			if len(problems) != 0 {
				t.Fatal(problems)
			}
			p := findPackage(t, pkgs, "bevy_math")
			if len(p.Dependencies) != 1 {
				t.Fatalf("dependencies = %+v", p.Dependencies)
			}
			dep := p.Dependencies[0]
			self := &Ref{Kind: KindCargo, Path: "crates/bevy_math"}
			if dep.IsInternal != tt.internal || (tt.internal && (dep.Target == nil || *dep.Target != *self)) || (!tt.internal && dep.Target != nil) {
				t.Fatalf("dependency = %+v (target %+v), want internal %v", dep, dep.Target, tt.internal)
			}
			g := NewGraph(pkgs)
			_, edges, err := g.Edges(Query{Name: "bevy_math"}, 3)
			if err != nil {
				t.Fatal(err)
			}
			_, dependents, _ := g.Dependents(Query{Name: "bevy_math"})
			if tt.internal {
				want := Edge{From: "bevy_math", To: "bevy_math", DepKind: DepDev, FromPath: "crates/bevy_math", ToPath: "crates/bevy_math"}
				if len(edges) != 1 || edges[0] != want || len(dependents) != 1 {
					t.Errorf("edges %v, dependents %d; want one self-edge", edges, len(dependents))
				}
			} else if len(edges) != 0 || len(dependents) != 0 {
				t.Errorf("edges %v, dependents %d; want none", edges, len(dependents))
			}
		})
	}
}

// TestCargoLocalOnlyByPathOrPatch: Cargo takes a crate of the repository for
// a dependency only when a path says so — written on the dependency,
// inherited from [workspace.dependencies], or given by the workspace root's
// [patch.<registry>] (renamed with `package`). A registry dependency that
// merely shares a member's name stays external, as `cargo metadata` reports.
func TestCargoLocalOnlyByPathOrPatch(t *testing.T) {
	files := map[string]string{
		"Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n" +
			"[patch.crates-io]\nserde = { path = \"vendor/serde\" }\nold = { path = \"vendor/renamed\", package = \"renamed\" }\n" +
			"[patch.'https://github.com/x/y']\nfromgit = { path = \"vendor/fromgit\" }\n",
		"crates/app/Cargo.toml": "[package]\nname = \"app\"\n[dependencies]\n" +
			"serde = \"1\"\nlib = \"0.3\"\nrenamed = \"2\"\nfromgit = { git = \"https://github.com/x/y\" }\n",
		"crates/lib/Cargo.toml":     "[package]\nname = \"lib\"\n",
		"vendor/serde/Cargo.toml":   "[package]\nname = \"serde\"\n",
		"vendor/renamed/Cargo.toml": "[package]\nname = \"renamed\"\n",
		"vendor/fromgit/Cargo.toml": "[package]\nname = \"fromgit\"\n",
		"standalone/Cargo.toml":     "[package]\nname = \"standalone\"\n[dependencies]\nlib = \"0.3\"\nserde = \"1\"\n[workspace]\n[patch.crates-io]\nlib = { path = \"../crates/lib\" }\n", // its own workspace, its own patch
	}
	pkgs, problems := buildFiles(files)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	byPath := map[string]Package{}
	for _, p := range pkgs {
		byPath[p.Path] = p
	}
	tests := []struct {
		from, dep, target string // target "" for external
	}{
		{"crates/app", "serde", "vendor/serde"},
		{"crates/app", "lib", ""}, // a registry dependency named like a member
		{"crates/app", "renamed", "vendor/renamed"},
		{"crates/app", "fromgit", ""}, // git: the git patch source is not read
		{"standalone", "lib", "crates/lib"},
		{"standalone", "serde", ""}, // the workspace's patch is not standalone's
	}
	for _, tt := range tests {
		t.Run(tt.from+"→"+tt.dep, func(t *testing.T) {
			var found *Dependency
			for _, d := range byPath[tt.from].Dependencies {
				if d.Name == tt.dep {
					found = &d
				}
			}
			switch {
			case found == nil:
				t.Fatalf("%s has no dependency %s: %+v", tt.from, tt.dep, byPath[tt.from].Dependencies)
			case tt.target == "" && (found.IsInternal || found.Target != nil):
				t.Errorf("internal (%+v), want external", found.Target)
			case tt.target != "" && (found.Target == nil || found.Target.Path != tt.target || !found.IsInternal):
				t.Errorf("target %+v internal %v, want %s", found.Target, found.IsInternal, tt.target)
			}
		})
	}
}
