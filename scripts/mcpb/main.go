// Command mcpb packs lore's release binaries as MCP Bundles (.mcpb) and
// writes the server.json to publish with them. scripts/release.sh runs it;
// see docs/release.md.
//
//	go run ./scripts/mcpb -version 0.1.0 -dist dist
//
// For every dist/lore_<version>_<os>_<arch>/lore it writes
// dist/lore_<version>_<os>_<arch>.mcpb: a zip holding manifest.json and
// server/lore, with fixed timestamps and order, so the same binary always
// gives the same bundle. It then writes dist/server.json: the repository's
// server.json with the version set and each bundle's fileSha256 filled in
// (the registry requires it for MCPB packages); packages whose bundle was
// not built keep no hash and are reported.
package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

func main() {
	version := flag.String("version", "", "the release version, without a leading v (e.g. 0.1.0)")
	dist := flag.String("dist", "dist", "the folder holding lore_<version>_<os>_<arch>/lore")
	serverJSON := flag.String("server-json", "server.json", "the repository's server.json")
	flag.Parse()
	if *version == "" {
		fmt.Fprintln(os.Stderr, "mcpb: -version is required")
		os.Exit(2)
	}
	if err := run(*version, *dist, *serverJSON); err != nil {
		fmt.Fprintln(os.Stderr, "mcpb:", err)
		os.Exit(1)
	}
}

// epoch is the timestamp of every file in a bundle: 1980-01-01, the
// earliest a zip can hold, unless SOURCE_DATE_EPOCH says otherwise.
func epoch() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		var sec int64
		if _, err := fmt.Sscan(s, &sec); err == nil && sec >= 315532800 {
			return time.Unix(sec, 0).UTC()
		}
	}
	return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
}

func run(version, dist, serverJSON string) error {
	dirs, err := filepath.Glob(filepath.Join(dist, "lore_"+version+"_*_*"))
	if err != nil {
		return err
	}
	hashes := map[string]string{} // bundle file name -> sha256
	for _, dir := range dirs {
		info, err := os.Stat(dir)
		if err != nil || !info.IsDir() {
			continue
		}
		bin := filepath.Join(dir, "lore")
		if _, err := os.Stat(bin); err != nil {
			continue
		}
		name := filepath.Base(dir) + ".mcpb"
		platform := strings.TrimPrefix(filepath.Base(dir), "lore_"+version+"_")
		data, err := bundle(version, strings.SplitN(platform, "_", 2)[0], bin)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dist, name), data, 0o644); err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		hashes[name] = hex.EncodeToString(sum[:])
		fmt.Printf("%s  %s\n", hashes[name], name)
	}
	return writeServerJSON(version, serverJSON, filepath.Join(dist, "server.json"), hashes)
}

// manifest is the bundle's manifest.json: lore is a binary server that the
// host starts with serve --root and the folder the user picks.
func manifest(version, goos string) ([]byte, error) {
	platform := map[string]string{"linux": "linux", "darwin": "darwin"}[goos]
	m := map[string]any{
		"manifest_version": "0.3",
		"name":             "lore",
		"display_name":     "lore",
		"version":          version,
		"description":      "Local-first code search: ranked, deterministic search over code, docs, packages and specs",
		"author":           map[string]any{"name": "The lore authors", "url": "https://github.com/lore-dev/lore"},
		"repository":       map[string]any{"type": "git", "url": "https://github.com/lore-dev/lore"},
		"homepage":         "https://github.com/lore-dev/lore",
		"license":          "See the repository",
		"server": map[string]any{
			"type":        "binary",
			"entry_point": "server/lore",
			"mcp_config": map[string]any{
				"command": "${__dirname}/server/lore",
				"args":    []string{"serve", "--root", "${user_config.root}"},
			},
		},
		"user_config": map[string]any{
			"root": map[string]any{
				"type":        "directory",
				"title":       "Repository",
				"description": "The folder lore indexes and serves",
				"required":    true,
			},
		},
		"compatibility": map[string]any{"platforms": []string{platform}},
	}
	return json.MarshalIndent(m, "", "  ")
}

// bundle is the .mcpb zip for one platform: manifest.json and server/lore,
// in that order, with fixed times and modes.
func bundle(version, goos, bin string) ([]byte, error) {
	man, err := manifest(version, goos)
	if err != nil {
		return nil, err
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		mode os.FileMode
		data []byte
	}{
		{"manifest.json", 0o644, append(man, '\n')},
		{"server/lore", 0o755, exe},
	} {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: epoch()}
		h.SetMode(f.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var versionInURL = regexp.MustCompile(`/v[^/]+/lore_[^/]+_(linux|darwin)_(amd64|arm64)\.mcpb$`)

// writeServerJSON writes server.json for this version, with the bundles'
// hashes.
func writeServerJSON(version, from, to string, hashes map[string]string) error {
	raw, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	doc["version"] = version
	var missing []string
	pkgs, _ := doc["packages"].([]any)
	for _, p := range pkgs {
		pkg, ok := p.(map[string]any)
		if !ok {
			continue
		}
		id, _ := pkg["identifier"].(string)
		m := versionInURL.FindStringSubmatch(id)
		if m == nil {
			return fmt.Errorf("%s: package %q is not a lore release bundle", from, id)
		}
		name := "lore_" + version + "_" + m[1] + "_" + m[2] + ".mcpb"
		pkg["identifier"] = strings.TrimSuffix(id, m[0]) + "/v" + version + "/" + name
		pkg["version"] = version
		delete(pkg, "fileSha256")
		if sum, ok := hashes[name]; ok {
			pkg["fileSha256"] = sum
		} else {
			missing = append(missing, name)
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s\n", to)
	if len(missing) > 0 {
		sort.Strings(missing)
		missing = compact(missing)
		fmt.Printf("not built, so without fileSha256 in %s (the registry refuses MCPB packages without it): %s\n", path.Base(to), strings.Join(missing, ", "))
	}
	return nil
}

// compact drops repeated neighbours from a sorted list.
func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
