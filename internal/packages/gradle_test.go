package packages

import "testing"

// TestIssue15GradleAccessorsAndCatalogs: type-safe project accessors
// (projects.fooBar, projects.libs.fooBar) resolve to their projects, also
// when the settings include projects in a way lore cannot read (ktor's own
// DSL); version catalog references become the catalog's coordinates; the
// dependencies of a test source set are dev dependencies.
func TestIssue15GradleAccessorsAndCatalogs(t *testing.T) {
	catalog := `[versions]
kotlin = "2.1.0"
mockk = { strictly = "1.13.0" }

[libraries]
kotlin-reflect = { module = "org.jetbrains.kotlin:kotlin-reflect", version.ref = "kotlin" }
mockk = { group = "io.mockk", name = "mockk", version.ref = "mockk" }
guava = "com.google.guava:guava:33.0"
ktor_io = { module = "io.ktor:ktor-io" }
exposed-core = { module = "org.jetbrains.exposed:exposed-core", version = "1.0" }

[bundles]
testing = ["mockk", "guava"]

[plugins]
kotlin-jvm = { id = "org.jetbrains.kotlin.jvm", version.ref = "kotlin" }
`
	runParserCases(t, []parserCase{
		{
			name: "flat accessors under settings lore cannot read (ktor)",
			files: map[string]string{
				"settings.gradle.kts":                           "rootProject.name = \"ktor\"\nprojects {\n  client {\n    +\"ktor-client-core\"\n    +\"ktor-client-cio\"\n  }\n}\n",
				"build.gradle.kts":                              "",
				"gradle/libs.versions.toml":                     catalog,
				"ktor-client/ktor-client-core/build.gradle.kts": "kotlin { sourceSets { commonMain.dependencies { api(projects.ktorIo) } } }\n",
				"ktor-io/build.gradle.kts":                      "",
				"ktor-client/ktor-client-cio/build.gradle.kts": "kotlin {\n  sourceSets {\n    commonMain.dependencies {\n      api(projects.ktorClientCore)\n      api(libs.ktor.io)\n    }\n" +
					"    commonTest.dependencies {\n      implementation(projects.ktorClientTests)\n    }\n" +
					"    val jvmTest by getting {\n      dependencies {\n        implementation(libs.mockk)\n        implementation(libs.bundles.testing)\n      }\n    }\n  }\n}\n",
			},
			want: []string{
				"gradle . ktor",
				"gradle ktor-client/ktor-client-cio ktor-client-cio",
				"  dev com.google.guava:guava 33.0",
				"  runtime io.ktor:ktor-io", // no group is known for the ktor-io project
				"  dev io.mockk:mockk 1.13.0",
				"  runtime ktor-client-core (internal)",
				"  dev projects.ktorClientTests", // no such project: kept as written
				"gradle ktor-client/ktor-client-core ktor-client-core",
				"  runtime ktor-io (internal)",
				"gradle ktor-io ktor-io",
			},
		},
		{
			name: "nested accessors through include, catalog coordinates of a project of the build",
			files: map[string]string{
				"settings.gradle.kts":       "rootProject.name = \"app\"\ninclude(\":libs:shared-utils\", \":exposed-core\")\n",
				"gradle/libs.versions.toml": catalog,
				"build.gradle.kts": "dependencies {\n  implementation(projects.libs.sharedUtils)\n  implementation(libs.exposed.core)\n  implementation(libs.kotlin.reflect)\n" +
					"  implementation(libs.versions.kotlin)\n  implementation(deps.buildsrc.constant)\n  implementation(libs.not.in.catalog)\n  testImplementation(libs.bundles.testing)\n}\n",
				"libs/shared-utils/build.gradle.kts": "",
				"exposed-core/build.gradle.kts":      "group = \"org.jetbrains.exposed\"\n",
			},
			want: []string{
				"gradle . app",
				"  dev com.google.guava:guava 33.0",
				"  runtime exposed-core 1.0 (internal)",
				"  dev io.mockk:mockk 1.13.0",
				"  runtime libs.not.in.catalog",
				"  runtime org.jetbrains.kotlin:kotlin-reflect 2.1.0",
				"  runtime shared-utils (internal)",
				"gradle exposed-core exposed-core",
				"gradle libs/shared-utils shared-utils",
			},
		},
		{
			name: "a catalog of another name, a nested build's own catalog",
			files: map[string]string{
				"settings.gradle":                  "rootProject.name = 'r'\ninclude 'a'\n",
				"gradle/tools.versions.toml":       "[libraries]\nlint = \"com.x:lint:1\"\n",
				"a/build.gradle":                   "dependencies { implementation tools.lint }\n",
				"plugin/settings.gradle":           "rootProject.name = 'plugin'\n",
				"plugin/gradle/libs.versions.toml": "[libraries]\nasm = \"org.ow2.asm:asm:9\"\n",
				"plugin/build.gradle":              "dependencies { implementation libs.asm }\n",
			},
			want: []string{
				"gradle a a",
				"  runtime com.x:lint 1",
				"gradle plugin plugin",
				"  runtime org.ow2.asm:asm 9",
			},
		},
		{
			// Exposed's root build: dokka(projects.exposed.exposedCore) and
			// kover(project(":exposed-dao")), configurations its plugins add,
			// with accessors through the root project's own name.
			name: "plugin configurations and accessors through the root project's name",
			files: map[string]string{
				"settings.gradle.kts":       "rootProject.name = \"exposed\"\ninclude(\"exposed-core\", \"exposed-dao\", \"tools\")\n",
				"gradle/libs.versions.toml": "[libraries]\ndokka-versioning = \"org.jetbrains.dokka:versioning-plugin:2\"\n",
				"build.gradle.kts": "dependencies {\n  dokka(projects.exposed.exposedCore)\n  kover(project(\":exposed-dao\"))\n" +
					"  dokkaHtmlPlugin(libs.dokka.versioning)\n  detekt(\"io.gitlab:formatting:1\")\n  add(\"x\", \"g:skipped:1\")\n" +
					"  modules { module(libs.dokka.versioning) { replacedBy(\"x:y\") } }\n}\n",
				"exposed-core/build.gradle.kts": "",
				"exposed-dao/build.gradle.kts":  "dependencies {\n  api(projects.exposedCore)\n}\n",
				"tools/build.gradle.kts":        "dependencies {\n  implementation(projects.exposed)\n}\n",
			},
			want: []string{
				"gradle . exposed",
				"  build exposed-core (internal)",
				"  build exposed-dao (internal)",
				"  build org.jetbrains.dokka:versioning-plugin 2",
				"gradle exposed-core exposed-core",
				"gradle exposed-dao exposed-dao",
				"  runtime exposed-core (internal)",
				"gradle tools tools",
				"  runtime exposed (internal)",
			},
		},
	})
}
