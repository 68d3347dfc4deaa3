package packages

import (
	"path/filepath"
	"testing"
)

// fuzzManifestNames are the file names FuzzBuild feeds data to.
var fuzzManifestNames = []string{
	"package.json", "pnpm-workspace.yaml", "go.mod", "go.work", "Cargo.toml", "pyproject.toml",
	"setup.cfg", "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "composer.json",
	"x.gemspec", "X.csproj", "pubspec.yaml", "Package.swift",
}

// FuzzBuild: no manifest content makes Build panic or hang, and a manifest
// either yields packages or a problem naming it.
func FuzzBuild(f *testing.F) {
	// Seed each manifest kind with the fixture files of that kind.
	for _, m := range loadFixture(f, "monorepo") {
		base := filepath.Base(m.Path)
		for i, name := range fuzzManifestNames {
			sameFile := name == base
			sameExtension := filepath.Ext(name) == filepath.Ext(base) && (filepath.Ext(base) == ".gemspec" || filepath.Ext(base) == ".csproj")
			if sameFile || sameExtension {
				f.Add(uint8(i), m.Data)
			}
		}
	}
	f.Add(uint8(8), []byte("dependencies { implementation(project(\"\")) }"))
	f.Add(uint8(15), []byte(".package(("))
	f.Add(uint8(12), []byte("x = <<~A\n"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := fuzzManifestNames[int(which)%len(fuzzManifestNames)]
		manifests := []Manifest{
			{Path: "sub/" + name, Data: data},
			{Path: name, Data: data},
		}
		pkgs, problems := Build(manifests)
		again, againProblems := Build(manifests)
		if len(pkgs) != len(again) || len(problems) != len(againProblems) {
			t.Fatalf("Build is not deterministic for %s", name)
		}
		for _, p := range problems {
			if p.Path == "" || p.Message == "" {
				t.Fatalf("problem without path or message: %+v", p)
			}
		}
		for _, p := range pkgs {
			if p.Name == "" || p.Kind == "" || p.Manifest == "" || p.Dependencies == nil || p.Metadata == nil {
				t.Fatalf("incomplete package: %+v", p)
			}
		}
		g := NewGraph(pkgs)
		for _, p := range pkgs {
			if _, _, err := g.Edges(Query{Name: p.Name, Kind: p.Kind, Path: p.Manifest}, MaxEdgeDepth); err != nil {
				t.Fatalf("Edges(%s): %v", p.Name, err)
			}
		}
	})
}
