package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	svc "github.com/lore-dev/lore/internal/app"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/httpapi"
)

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestIndexStatsOneVocabulary: lore index --format json, the
// index_codebase tool (its structured content and its output schema) and
// a REST index job's stats name the statistics of an index run with the
// same keys.
func TestIndexStatsOneVocabulary(t *testing.T) {
	cache, root := t.TempDir(), cliRepo(t)
	want := []string{"chunks_written", "collection", "duration_ms", "errors", "file_errors", "files_deleted", "files_indexed",
		"files_scanned", "files_unchanged", "index_path", "packages", "root", "specs", "warnings"}

	code, out, errOut := runLore(t, cache, "index", "--format", "json", root)
	if code != exitOK {
		t.Fatalf("lore index: exit %d: %s", code, errOut)
	}
	var cli map[string]any
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatal(err)
	}

	services := svc.New(svc.Options{IndexFor: svc.IndexUnder(t.TempDir()), Collections: filepath.Join(t.TempDir(), "c.db")})
	t.Cleanup(func() { services.Close() })
	cs := mcpSession(t, root, services)
	tool := callStructured(t, cs, "index_codebase", map[string]any{"path": realPath(t, root)})
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var schemaKeys []string
	for _, tl := range tools.Tools {
		if tl.Name == "index_codebase" {
			props := tl.OutputSchema.(map[string]any)["properties"].(map[string]any)
			delete(props, "error") // every tool's schema describes its errors too
			schemaKeys = sortedKeys(props)
		}
	}

	allowed, err := fsroot.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	api := httptest.NewServer(httpapi.NewAPI(httpapi.APIOptions{Services: services, Allowed: fsroot.NewAllowed(allowed)}))
	t.Cleanup(api.Close)
	resp, err := http.Post(api.URL+"/api/v1/collections", "application/json", strings.NewReader(`{"name": "web", "path": `+jsonString(root)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	var job svc.Job
	json.NewDecoder(resp.Body).Decode(&job)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST /api/v1/collections: %d", resp.StatusCode)
	}
	if _, err := services.WaitJob(context.Background(), job.ID); err != nil {
		t.Fatal(err)
	}
	resp, err = http.Get(api.URL + "/api/v1/jobs/" + job.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rest struct {
		State string         `json:"state"`
		Stats map[string]any `json:"stats"`
	}
	json.NewDecoder(resp.Body).Decode(&rest)
	resp.Body.Close()
	if rest.State != svc.JobSucceeded {
		t.Fatalf("REST job %s", rest.State)
	}

	for _, got := range []struct {
		where string
		keys  []string
	}{
		{"lore index --format json", sortedKeys(cli)},
		{"index_codebase structured content", sortedKeys(tool)},
		{"index_codebase output schema", schemaKeys},
		{"REST job stats", sortedKeys(rest.Stats)},
	} {
		if !slices.Equal(got.keys, want) {
			t.Errorf("%s: keys %v, want %v", got.where, got.keys, want)
		}
	}
	for _, m := range []map[string]any{cli, tool, rest.Stats} {
		if m["files_scanned"] != float64(2) || m["files_indexed"] != float64(2) || m["chunks_written"] == float64(0) {
			t.Errorf("stats of a first run: %v", m)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestReindexWithoutChanges: a run that finds nothing to do says "no
// changes" rather than a row of zeros (chunks 0 read as an empty index).
func TestReindexWithoutChanges(t *testing.T) {
	cache, root := t.TempDir(), cliRepo(t)
	if code, out, errOut := runLore(t, cache, "index", root); code != exitOK || strings.Contains(out, "no changes") ||
		!strings.Contains(out, "chunks written") {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runLore(t, cache, "index", root)
	if code != exitOK {
		t.Fatalf("second run: exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "indexed "+realPath(t, root)+": no changes\n") || !strings.Contains(out, "files unchanged 2\n") ||
		strings.Contains(out, "chunks") || strings.Contains(out, "files indexed") {
		t.Errorf("a run without changes says:\n%s", out)
	}
}
