package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBundle: a bundle holds manifest.json and an executable server/lore,
// and the same binary always gives the same bytes.
func TestBundle(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "lore")
	if err := os.WriteFile(bin, []byte("\x7fELF fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := bundle("1.2.3", "linux", bin)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := bundle("1.2.3", "linux", bin)
	if !bytes.Equal(a, b) {
		t.Fatal("two bundles of the same binary differ")
	}
	zr, err := zip.NewReader(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != 2 || zr.File[0].Name != "manifest.json" || zr.File[1].Name != "server/lore" || zr.File[1].Mode().Perm() != 0o755 {
		t.Fatalf("files: %v", zr.File)
	}
	rc, _ := zr.File[0].Open()
	var m map[string]any
	if err := json.NewDecoder(rc).Decode(&m); err != nil {
		t.Fatal(err)
	}
	server := m["server"].(map[string]any)
	if m["version"] != "1.2.3" || server["type"] != "binary" || server["entry_point"] != "server/lore" {
		t.Errorf("manifest: %v", m)
	}
}

// TestServerJSONForRelease: the published server.json takes the release's
// version everywhere and each built bundle's hash, and names the others.
func TestServerJSONForRelease(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join("..", "..", "server.json")
	to := filepath.Join(dir, "server.json")
	hashes := map[string]string{"lore_2.0.0_linux_amd64.mcpb": strings.Repeat("a", 64)}
	if err := writeServerJSON("2.0.0", from, to, hashes); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(to)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != "2.0.0" {
		t.Errorf("version %v", doc["version"])
	}
	hashed := 0
	for _, p := range doc["packages"].([]any) {
		pkg := p.(map[string]any)
		id := pkg["identifier"].(string)
		if pkg["version"] != "2.0.0" || !strings.Contains(id, "/v2.0.0/lore_2.0.0_") {
			t.Errorf("package %s at %v", id, pkg["version"])
		}
		if strings.HasSuffix(id, "/lore_2.0.0_linux_amd64.mcpb") {
			if pkg["fileSha256"] != strings.Repeat("a", 64) {
				t.Errorf("%s: hash %v", id, pkg["fileSha256"])
			}
			hashed++
		} else if _, ok := pkg["fileSha256"]; ok {
			t.Errorf("%s has a hash but was not built", id)
		}
	}
	if hashed != 2 { // stdio and streamable HTTP
		t.Errorf("%d packages got the linux/amd64 hash, want 2", hashed)
	}
}
