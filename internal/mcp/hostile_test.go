package mcp

import (
	"encoding/json"
	"log/slog"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/config"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/testtree"
)

// hostileClient serves a Hostile tree with every family and returns a
// client; every result it gets is checked for the secret marker.
func hostileClient(t *testing.T) (*testtree.Hostile, func(tool string, args map[string]any) *sdk.CallToolResult) {
	t.Helper()
	h := testtree.WriteHostile(t)
	r, err := fsroot.Open(h.Root)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{root: h.Root, cache: t.TempDir(), log: &syncBuffer{}}
	s, err := New(Options{
		Name: config.DefaultServerName, Version: "test", Root: h.Root, CodeRoot: r, DocsRoot: r,
		App: e.services(t, nil), Logger: slog.New(slog.NewTextHandler(e.log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs := connectSDK(t, s, nil)
	call := func(tool string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res := callTool(t, cs, tool, args)
		data, _ := json.Marshal(res)
		text := string(data)
		for _, v := range args { // the query echoed back is not a leak
			if s, ok := v.(string); ok && s != "" {
				text = strings.ReplaceAll(text, s, "")
			}
		}
		if strings.Contains(text, testtree.SecretMarker) {
			t.Fatalf("%s %v leaked a secret: %s", tool, args, data)
		}
		return res
	}
	t.Cleanup(func() {
		if strings.Contains(e.log.String(), testtree.SecretMarker) {
			t.Errorf("the server log holds a secret")
		}
	})
	return h, call
}

// TestHostileRepositoryFilesTools: through MCP, the files tools treat a
// link into a hidden, ignored, .git or skipped place exactly like its
// target (NOT_FOUND), refuse links out of the root without saying where
// they lead, and never return a byte of a secret.
func TestHostileRepositoryFilesTools(t *testing.T) {
	h, call := hostileClient(t)
	wantCode := func(res *sdk.CallToolResult, code, what string) {
		t.Helper()
		te := toolErrorOf(t, res)
		if te["code"] != code {
			t.Errorf("%s: code %v (%v), want %s", what, te["code"], te["message"], code)
		}
		msg, _ := te["message"].(string)
		for _, where := range []string{h.Outside, "/etc", "/proc"} {
			if strings.Contains(msg, where) {
				t.Errorf("%s: message %q reveals %s", what, msg, where)
			}
		}
	}
	for _, repo := range []string{"code", "docs"} {
		for _, secret := range h.Secrets {
			wantCode(call("open_file", map[string]any{"repo": repo, "path": secret}), "NOT_FOUND", "open_file "+secret)
		}
		for link, isDir := range h.Invisible {
			p := link
			if isDir {
				p = path.Join(link, "config") // g/config, s/k.txt-like names under the link
				wantCode(call("list_dir", map[string]any{"repo": repo, "path": link}), "NOT_FOUND", "list_dir "+link)
			}
			wantCode(call("open_file", map[string]any{"repo": repo, "path": p}), "NOT_FOUND", "open_file "+p)
			wantCode(call("get_snippet", map[string]any{"repo": repo, "path": p, "start_line": 1, "end_line": 3}), "NOT_FOUND", "get_snippet "+p)
		}
		for _, p := range []string{"s/k.txt", "g/config", "h/h.txt", "nm/pkg/index.js", "src/deep/h.txt", "lib/util/gen.go"} {
			wantCode(call("open_file", map[string]any{"repo": repo, "path": p}), "NOT_FOUND", "open_file "+p)
		}
		for link, isDir := range h.Outward {
			p := link
			if isDir {
				p = path.Join(link, "secret.txt")
				wantCode(call("list_dir", map[string]any{"repo": repo, "path": link}), "PATH_OUTSIDE_ROOT", "list_dir "+link)
			}
			wantCode(call("open_file", map[string]any{"repo": repo, "path": p}), "PATH_OUTSIDE_ROOT", "open_file "+p)
		}
		// Visible files, also through visible links, still open.
		for _, p := range append(slices.Clone(h.Visible), "self/src/main.go") {
			if res := call("open_file", map[string]any{"repo": repo, "path": p}); res.IsError {
				t.Errorf("open_file %s: %s", p, textOf(res))
			}
		}
	}

	// list_dir shows no link to an invisible or outside place.
	var listed []string
	var list func(dir string)
	list = func(dir string) {
		res := call("list_dir", map[string]any{"repo": "code", "path": dir})
		if res.IsError {
			t.Fatalf("list_dir %q: %s", dir, textOf(res))
		}
		result, _ := structured(t, res)["result"].(map[string]any)
		entries, _ := result["entries"].([]any)
		for _, raw := range entries {
			entry := raw.(map[string]any)
			rel := path.Join(dir, entry["name"].(string))
			listed = append(listed, rel)
			if entry["type"] == "dir" {
				list(rel)
			}
		}
	}
	list("")
	sort.Strings(listed)
	for _, rel := range listed {
		if _, bad := h.Invisible[rel]; bad {
			t.Errorf("list_dir shows %s, a link to an invisible place", rel)
		}
		if _, bad := h.Outward[rel]; bad {
			t.Errorf("list_dir shows %s, a link out of the root", rel)
		}
	}
	if !slices.Contains(listed, "lib/util/helper.go") || !slices.Contains(listed, "readme-link.md") {
		t.Errorf("visible links are missing from list_dir: %v", listed)
	}

	// The files search finds nothing of the secrets, whatever it is asked.
	for _, q := range []string{testtree.SecretMarker, "API_KEY", "secret", "outside"} {
		for _, regex := range []bool{false, true} {
			res := call("search", map[string]any{"query": q, "regex": regex})
			if res.IsError {
				t.Fatalf("search %q: %s", q, textOf(res))
			}
		}
	}
	for _, p := range []string{"s", "g", "h", "nm", "src/deep"} {
		res := call("search", map[string]any{"query": "secret", "path": p})
		if !res.IsError {
			result, _ := structured(t, res)["result"].(map[string]any)
			if matches, _ := result["matches"].([]any); len(matches) > 0 {
				t.Errorf("search in %s found %v", p, matches)
			}
		}
	}
}

// TestHostileRepositoryCodeTools: index_codebase indexes only the visible
// files of a hostile tree, search_code and search_docs return no secret,
// and the code tools refuse every path outside the allowed roots or into
// a hidden or ignored place with the code family's message shape.
func TestHostileRepositoryCodeTools(t *testing.T) {
	h, call := hostileClient(t)
	res := call("index_codebase", map[string]any{"path": h.Root})
	if res.IsError {
		t.Fatalf("index_codebase: %s", textOf(res))
	}
	if files := structured(t, res)["files_scanned"]; files != float64(len(h.Indexed)) {
		t.Errorf("indexed %v files, want %d (%v)", files, len(h.Indexed), h.Indexed)
	}
	for _, q := range []string{"API_KEY secret", testtree.SecretMarker, "secret", "git core", "outside", "hidden", "ignored"} {
		for _, tool := range []string{"search_code", "search_docs"} {
			out := call(tool, map[string]any{"query": q})
			if out.IsError {
				t.Fatalf("%s %q: %s", tool, q, textOf(out))
			}
			for _, hit := range hitsOf(t, out) {
				if !slices.Contains(h.Indexed, hit["path"].(string)) {
					t.Errorf("%s %q returned %v, which is not an indexed file", tool, q, hit["path"])
				}
			}
		}
	}
	for _, spec := range structured(t, call("list_specs", map[string]any{}))["specs"].([]any) {
		if id := spec.(map[string]any)["id"]; id != "auth" {
			t.Errorf("list_specs lists %v, reached through a link to a secret", id)
		}
	}

	refused := []string{
		"..", "../outside", h.Outside, "/etc", "/", filepath.Dir(h.Root), "/does/not/exist",
		".git", ".hidden", "secrets", "node_modules", "g", "s", "h", "nm", "src/deep", "git-abs",
		"out", "etc", "src/cwd", "self/.git", filepath.Join(h.Root, ".git"), "loop1",
	}
	for _, p := range refused {
		for _, tc := range []struct {
			tool string
			args map[string]any
		}{
			{"index_codebase", map[string]any{"path": p}},
			{"search_code", map[string]any{"path": p, "query": "secret"}},
			{"search_docs", map[string]any{"path": p, "query": "secret"}},
		} {
			res := call(tc.tool, tc.args)
			te := toolErrorOf(t, res)
			want := "Path is outside the allowed roots: " + p
			if te["code"] != "PATH_OUTSIDE_ROOT" || textOf(res) != want {
				t.Errorf("%s %q: %v %q, want PATH_OUTSIDE_ROOT %q", tc.tool, p, te["code"], textOf(res), want)
			}
		}
	}
	// A visible subfolder, also through a link, may be indexed on its own.
	for _, p := range []string{"src", "lib/util"} {
		if res := call("index_codebase", map[string]any{"path": p}); res.IsError {
			t.Errorf("index_codebase %s: %s", p, textOf(res))
		}
	}
}
