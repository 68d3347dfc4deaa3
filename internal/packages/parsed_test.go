package packages

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestParsedRoundTrip: a parse kept by an index (Marshal, UnmarshalParsed)
// resolves exactly like a fresh one, for every kind of manifest of the
// fixture monorepo, Gradle version catalogs and Cargo inheritance.
func TestParsedRoundTrip(t *testing.T) {
	manifests := loadFixture(t, "monorepo")
	for path, content := range map[string]string{
		"gradle-build/settings.gradle.kts":                "rootProject.name = \"g\"\ninclude(\":libs:shared-utils\")\n",
		"gradle-build/gradle/libs.versions.toml":          "[versions]\nk = \"2\"\n[libraries]\nk-reflect = { module = \"org.k:reflect\", version.ref = \"k\" }\n[bundles]\nb = [\"k-reflect\"]\n",
		"gradle-build/build.gradle.kts":                   "dependencies {\n  implementation(projects.libs.sharedUtils)\n  implementation(libs.k.reflect)\n  implementation(libs.bundles.b)\n}\n",
		"gradle-build/libs/shared-utils/build.gradle.kts": "group = \"org.g\"\n",
		"cargo-ws/Cargo.toml":                             "[workspace]\nmembers = [\"m\"]\n[workspace.package]\nversion = \"1.2.3\"\nedition = \"2021\"\n[workspace.dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n",
		"cargo-ws/m/Cargo.toml":                           "[package]\nname = \"m\"\nversion.workspace = true\nedition.workspace = true\n[dependencies]\nserde = { workspace = true, optional = true }\n",
		"broken/package.json":                             "{",
	} {
		manifests = append(manifests, Manifest{Path: path, Data: []byte(content)})
	}
	want, wantProblems := Build(manifests)
	var kept []Parsed
	for _, m := range manifests {
		data, err := Parse(m).Marshal()
		if err != nil {
			t.Fatalf("Marshal(%s): %v", m.Path, err)
		}
		p, err := UnmarshalParsed(m.Path, data)
		if err != nil {
			t.Fatalf("UnmarshalParsed(%s): %v", m.Path, err)
		}
		kept = append(kept, p)
	}
	got, gotProblems := Resolve(kept)
	a, _ := json.MarshalIndent(got, "", " ")
	b, _ := json.MarshalIndent(want, "", " ")
	if string(a) != string(b) || !reflect.DeepEqual(gotProblems, wantProblems) {
		t.Errorf("kept parses resolve differently:\n%s\nwant\n%s\nproblems %v, want %v", a, b, gotProblems, wantProblems)
	}
	// Resolving does not change what it was given: a second time gives the same.
	again, _ := Resolve(kept)
	if c, _ := json.MarshalIndent(again, "", " "); string(c) != string(a) {
		t.Error("Resolve changed the parses it was given")
	}
}

func TestUnmarshalParsedRefusesOtherVersions(t *testing.T) {
	data, _ := Parse(Manifest{Path: "package.json", Data: []byte(`{"name": "a"}`)}).Marshal()
	old := strings.Replace(string(data), `"v":"`+ParserVersion+`"`, `"v":"0"`, 1)
	if _, err := UnmarshalParsed("package.json", []byte(old)); err == nil {
		t.Error("a parse of another parser version was accepted")
	}
	if _, err := UnmarshalParsed("package.json", []byte("{")); err == nil {
		t.Error("garbage was accepted")
	}
}
