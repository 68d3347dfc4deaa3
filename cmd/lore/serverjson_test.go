package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// serverJSONSchema is the MCP Registry's server.json schema, version
// 2025-12-11, vendored from https://static.modelcontextprotocol.io (the
// modelcontextprotocol/static repository, MIT licence) so the test needs
// no network.
const serverJSONSchema = "testdata/server.schema.2025-12-11.json"

// loadServerJSON reads the repository's server.json.
func loadServerJSON(t *testing.T) (map[string]any, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("server.json: %v", err)
	}
	return doc, raw
}

// resolvedServerSchema resolves the vendored schema.
func resolvedServerSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	raw, err := os.ReadFile(serverJSONSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("schema: %v", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolving the schema: %v", err)
	}
	return rs
}

// TestServerJSONSchema: server.json is valid against the registry's
// schema it names, and the validator does reject what the registry
// rejects (so a pass means something).
func TestServerJSONSchema(t *testing.T) {
	doc, _ := loadServerJSON(t)
	if got, want := doc["$schema"], "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"; got != want {
		t.Fatalf("$schema = %v, want %s", got, want)
	}
	rs := resolvedServerSchema(t)
	if err := rs.Validate(doc); err != nil {
		t.Fatalf("server.json does not validate: %v", err)
	}
	bad := []struct {
		name   string
		mutate func(map[string]any)
	}{
		{"description over 100 characters", func(d map[string]any) { d["description"] = strings.Repeat("x", 101) }},
		{"name without a namespace", func(d map[string]any) { d["name"] = "lore" }},
		{"package version latest", func(d map[string]any) {
			d["packages"].([]any)[0].(map[string]any)["version"] = "latest"
		}},
		{"package without a transport", func(d map[string]any) {
			delete(d["packages"].([]any)[0].(map[string]any), "transport")
		}},
	}
	for _, b := range bad {
		d, _ := loadServerJSON(t)
		b.mutate(d)
		if rs.Validate(d) == nil {
			t.Errorf("the schema accepted server.json with %s", b.name)
		}
	}
}

// TestServerJSONMatchesRelease: server.json offers, for every platform
// scripts/release.sh builds, the bundle it names, over stdio and over
// streamable HTTP, at the top-level version; and every environment
// variable it lists is one lore reads.
func TestServerJSONMatchesRelease(t *testing.T) {
	doc, _ := loadServerJSON(t)
	version, _ := doc["version"].(string)
	ident := regexp.MustCompile(`^https://github\.com/lore-dev/lore/releases/download/v` + regexp.QuoteMeta(version) + `/lore_` + regexp.QuoteMeta(version) + `_(linux|darwin)_(amd64|arm64)\.mcpb$`)
	seen := map[string]bool{}
	envNames := map[string]bool{}
	for _, p := range doc["packages"].([]any) {
		pkg := p.(map[string]any)
		m := ident.FindStringSubmatch(pkg["identifier"].(string))
		if m == nil {
			t.Errorf("identifier %s is not a release bundle of version %s", pkg["identifier"], version)
			continue
		}
		if pkg["version"] != version || pkg["registryType"] != "mcpb" {
			t.Errorf("%s: version %v, registryType %v", pkg["identifier"], pkg["version"], pkg["registryType"])
		}
		transport := pkg["transport"].(map[string]any)["type"].(string)
		seen[m[1]+"/"+m[2]+" "+transport] = true
		for _, e := range pkg["environmentVariables"].([]any) {
			envNames[e.(map[string]any)["name"].(string)] = true
		}
	}
	for _, plat := range []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"} {
		for _, tr := range []string{"stdio", "streamable-http"} {
			if !seen[plat+" "+tr] {
				t.Errorf("no %s package for %s", tr, plat)
			}
		}
	}
	for _, want := range []string{"LORE_CACHE_DIR", "LORE_INDEX", "CODE_ROOT", "DOCS_ROOT", "LORE_AUTH_TOKEN", "LORE_ALLOWED_ORIGINS", "MCP_SERVER_NAME"} {
		if !envNames[want] {
			t.Errorf("server.json does not list %s", want)
		}
	}
	// Each listed variable is read somewhere in lore's code.
	var src strings.Builder
	for _, dir := range []string{filepath.Join("..", "..", "internal"), "."} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			src.Write(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for name := range envNames {
		if !strings.Contains(src.String(), `"`+name+`"`) {
			t.Errorf("server.json lists %s, which lore's code never names", name)
		}
	}
}
