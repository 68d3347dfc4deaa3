package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/files"
	"github.com/lore-dev/lore/internal/fsroot"
	"github.com/lore-dev/lore/internal/testtree"
)

const secret = "TOP SECRET, never served"

// filesEnv is a served root with hidden, ignored, binary and escaping
// entries, separate docs and code roots, and a secret outside both.
func filesEnv(t testing.TB) (e *env, docs, code, outside string) {
	t.Helper()
	base := t.TempDir()
	outside = filepath.Join(base, "outside")
	writeTree(t, outside, map[string]string{"secret.txt": secret + "\n"})
	e = newEnv(t, map[string]string{
		"code/auth/login.go": fixtureFiles["auth/login.go"],
		"code/README.md":     "# Code\n\nneedle in code\n",
		"code/empty.txt":     "",
		"code/.hidden":       "hidden needle\n",
		"code/.gitignore":    "*.log\n",
		"code/ignored.log":   "ignored needle\n",
		"docs/guide.md":      "# Guide\n\nfirst needle\nsecond Needle\n",
		"docs/a/b.md":        "needle deep\n",
	})
	docs, code = filepath.Join(e.root, "docs"), filepath.Join(e.root, "code")
	if err := os.WriteFile(filepath.Join(code, "image.bin"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(code, "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(code, "secret-link.txt")); err != nil {
		t.Fatal(err)
	}
	return e, docs, code, outside
}

func filesServer(t testing.TB) (*Server, string, string, string) {
	t.Helper()
	e, docs, code, outside := filesEnv(t)
	s := e.server(t, func(o *Options) {
		d, err := fsroot.Open(docs)
		if err != nil {
			t.Fatal(err)
		}
		c, err := fsroot.Open(code)
		if err != nil {
			t.Fatal(err)
		}
		o.DocsRoot, o.CodeRoot = d, c
	})
	return s, docs, code, outside
}

// envelopeOf checks a files result's envelope and returns its result.
func envelopeOf(t *testing.T, res *sdk.CallToolResult, repo string) (map[string]any, map[string]any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("error: %s", textOf(res))
	}
	out := structured(t, res)
	meta, _ := out["meta"].(map[string]any)
	if meta["repo"] != repo || meta["duration_ms"] == nil || meta["truncated"] == nil {
		t.Errorf("meta = %v", meta)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(textOf(res)), &fromText); err != nil || fromText["result"] == nil {
		t.Errorf("text is not the JSON envelope: %.200q", textOf(res))
	}
	result, _ := out["result"].(map[string]any)
	return result, meta
}

func TestFilesTools(t *testing.T) {
	s, docs, code, _ := filesServer(t)
	cs := connectSDK(t, s, nil)
	sc := newSchemaChecker(t, cs)
	call := func(tool string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res := callTool(t, cs, tool, args)
		sc.check(t, tool, res)
		return res
	}

	t.Run("search", func(t *testing.T) {
		res := call("search", map[string]any{"query": "needle"})
		result, meta := envelopeOf(t, res, "both")
		var got []string
		for _, m := range result["matches"].([]any) {
			m := m.(map[string]any)
			got = append(got, m["repo"].(string)+":"+m["path"].(string)+":"+jsonString(m["line"])+":"+m["preview"].(string))
		}
		want := []string{"docs:a/b.md:1:needle deep", "docs:guide.md:3:first needle", "docs:guide.md:4:second Needle", "code:README.md:3:needle in code"}
		if !slices.Equal(got, want) || meta["truncated"] != false {
			t.Errorf("search needle = %q (meta %v), want %q", got, meta, want)
		}
		again := call("search", map[string]any{"query": "needle"})
		if textOf(again) == "" || !jsonEqual(structured(t, again)["result"], result) {
			t.Error("search is not deterministic")
		}
		var links []string
		for _, c := range res.Content[1:] {
			l := c.(*sdk.ResourceLink)
			links = append(links, strings.TrimPrefix(l.URI, "file://")+" "+l.Description)
		}
		wantLinks := []string{filepath.Join(docs, "a/b.md") + " line 1", filepath.Join(docs, "guide.md") + " lines 3, 4", filepath.Join(code, "README.md") + " line 3"}
		if !slices.Equal(links, wantLinks) {
			t.Errorf("links = %q, want %q", links, wantLinks)
		}

		limited := call("search", map[string]any{"query": "needle", "repo": "docs", "limit": 2})
		lr, lm := envelopeOf(t, limited, "docs")
		if len(lr["matches"].([]any)) != 2 || lm["truncated"] != true {
			t.Errorf("limit 2: %v %v", lr, lm)
		}
		cased := call("search", map[string]any{"query": "Needle", "case_sensitive": true})
		if cr, _ := envelopeOf(t, cased, "both"); len(cr["matches"].([]any)) != 1 {
			t.Errorf("case_sensitive: %v", cr)
		}
		re := call("search", map[string]any{"query": "^(first|second) ", "regex": true, "repo": "docs"})
		if rr, _ := envelopeOf(t, re, "docs"); len(rr["matches"].([]any)) != 2 {
			t.Errorf("regex: %v", rr)
		}
		scoped := call("search", map[string]any{"query": "needle", "repo": "docs", "path": "a"})
		if sr, _ := envelopeOf(t, scoped, "docs"); len(sr["matches"].([]any)) != 1 {
			t.Errorf("path a: %v", sr)
		}
		none := call("search", map[string]any{"query": "no such text anywhere"})
		if nr, _ := envelopeOf(t, none, "both"); len(nr["matches"].([]any)) != 0 || len(none.Content) != 1 {
			t.Errorf("no match: %v", nr)
		}
	})

	t.Run("open_file", func(t *testing.T) {
		result, meta := envelopeOf(t, call("open_file", map[string]any{"repo": "code", "path": "auth/login.go"}), "code")
		lines := result["lines"].([]any)
		if result["path"] != "auth/login.go" || len(lines) != int(result["total_lines"].(float64)) || meta["truncated"] != false {
			t.Errorf("open_file = %v", result)
		}
		if first := lines[0].(map[string]any); first["n"] != float64(1) || first["text"] != "package auth" {
			t.Errorf("first line = %v", first)
		}
		empty, _ := envelopeOf(t, call("open_file", map[string]any{"repo": "code", "path": "empty.txt"}), "code")
		if l, ok := empty["lines"].([]any); !ok || len(l) != 0 {
			t.Errorf("empty file lines = %v", empty["lines"])
		}
	})

	t.Run("get_snippet", func(t *testing.T) {
		result, _ := envelopeOf(t, call("get_snippet", map[string]any{"repo": "code", "path": "auth/login.go", "start_line": 3, "end_line": 4}), "code")
		lines := result["lines"].([]any)
		if len(lines) != 2 || lines[0].(map[string]any)["n"] != float64(3) {
			t.Errorf("snippet 3-4 = %v", lines)
		}
		clamped, _ := envelopeOf(t, call("get_snippet", map[string]any{"repo": "docs", "path": "guide.md", "start_line": 2, "end_line": 99}), "docs")
		cl := clamped["lines"].([]any)
		if len(cl) != 3 || cl[2].(map[string]any)["n"] != float64(4) {
			t.Errorf("clamped snippet = %v", cl)
		}
	})

	t.Run("list_dir", func(t *testing.T) {
		result, _ := envelopeOf(t, call("list_dir", map[string]any{"repo": "code"}), "code")
		var names []string
		for _, e := range result["entries"].([]any) {
			e := e.(map[string]any)
			names = append(names, e["type"].(string)+":"+e["path"].(string))
			if e["type"] == "file" && e["size"].(float64) <= 0 && e["name"] != "empty.txt" {
				t.Errorf("file without size: %v", e)
			}
		}
		want := []string{"dir:auth", "file:README.md", "file:empty.txt", "file:image.bin"}
		if result["path"] != "." || !slices.Equal(names, want) {
			t.Errorf("list_dir code = %v %q, want %q", result["path"], names, want)
		}
		sub, _ := envelopeOf(t, call("list_dir", map[string]any{"repo": "docs", "path": "a"}), "docs")
		if e := sub["entries"].([]any); len(e) != 1 || e[0].(map[string]any)["path"] != "a/b.md" {
			t.Errorf("list_dir docs/a = %v", sub)
		}
	})
}

func jsonString(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func jsonEqual(a, b any) bool { return jsonString(a) == jsonString(b) }

func TestFilesErrors(t *testing.T) {
	s, _, _, outside := filesServer(t)
	cs := connectSDK(t, s, nil)
	sc := newSchemaChecker(t, cs)
	tests := []struct {
		tool string
		args map[string]any
		code string
	}{
		// Path escapes: .., absolute, symlinks out, URL-encoded, NUL.
		{"open_file", map[string]any{"repo": "code", "path": "../docs/guide.md"}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": "../../outside/secret.txt"}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": filepath.Join(outside, "secret.txt")}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": "/etc/passwd"}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": "link-out/secret.txt"}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": "secret-link.txt"}, "PATH_OUTSIDE_ROOT"},
		{"get_snippet", map[string]any{"repo": "code", "path": "secret-link.txt", "start_line": 1, "end_line": 1}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": "%2e%2e/%2e%2e/outside/secret.txt"}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": "auth%2flogin.go"}, "PATH_OUTSIDE_ROOT"},
		{"open_file", map[string]any{"repo": "code", "path": "README.md\x00.txt"}, "PATH_OUTSIDE_ROOT"},
		{"list_dir", map[string]any{"repo": "code", "path": ".."}, "PATH_OUTSIDE_ROOT"},
		{"list_dir", map[string]any{"repo": "code", "path": "link-out"}, "PATH_OUTSIDE_ROOT"},
		{"search", map[string]any{"query": "SECRET", "path": "../../outside"}, "PATH_OUTSIDE_ROOT"},
		// Other errors.
		{"open_file", map[string]any{"repo": "nope", "path": "README.md"}, "REPO_INVALID"},
		{"list_dir", map[string]any{"repo": "both"}, "REPO_INVALID"},
		{"search", map[string]any{"query": "x", "repo": "all"}, "REPO_INVALID"},
		{"open_file", map[string]any{"repo": "code", "path": "missing.txt"}, "NOT_FOUND"},
		{"open_file", map[string]any{"repo": "code", "path": ".hidden"}, "NOT_FOUND"},
		{"open_file", map[string]any{"repo": "code", "path": "ignored.log"}, "NOT_FOUND"},
		{"open_file", map[string]any{"repo": "code", "path": "auth"}, "NOT_A_FILE"},
		{"list_dir", map[string]any{"repo": "code", "path": "README.md"}, "NOT_A_DIRECTORY"},
		{"get_snippet", map[string]any{"repo": "code", "path": "image.bin", "start_line": 1, "end_line": 1}, "BINARY_FILE"},
		{"get_snippet", map[string]any{"repo": "code", "path": "README.md", "start_line": 3, "end_line": 2}, "INVALID_RANGE"},
		{"get_snippet", map[string]any{"repo": "code", "path": "README.md", "start_line": 0, "end_line": 2}, "INVALID_RANGE"},
		{"get_snippet", map[string]any{"repo": "code", "path": "README.md", "start_line": 50, "end_line": 60}, "INVALID_RANGE"},
		{"get_snippet", map[string]any{"repo": "code", "path": "README.md", "start_line": "one", "end_line": 2}, "INVALID_RANGE"},
		{"search", map[string]any{"query": ""}, "QUERY_EMPTY"},
		{"search", map[string]any{"query": "   "}, "QUERY_EMPTY"},
		{"search", map[string]any{"query": "x", "limit": 0}, "LIMIT_INVALID"},
		{"search", map[string]any{"query": "x", "limit": -5}, "LIMIT_INVALID"},
		{"search", map[string]any{"query": "x", "limit": "many"}, "LIMIT_INVALID"},
		{"search", map[string]any{"query": "(", "regex": true}, "INVALID_ARGUMENT"},
		{"search", map[string]any{}, "INVALID_ARGUMENT"},
		{"open_file", map[string]any{"repo": "code"}, "INVALID_ARGUMENT"},
		{"list_dir", map[string]any{"path": ""}, "INVALID_ARGUMENT"},
	}
	for _, tt := range tests {
		res := callTool(t, cs, tt.tool, tt.args)
		sc.check(t, tt.tool, res)
		te := toolErrorOf(t, res)
		if te["code"] != tt.code || te["message"] == "" || te["details"] == nil {
			t.Errorf("%s %q: error %v, want code %s", tt.tool, tt.args, te, tt.code)
		}
		var fromText map[string]any
		if err := json.Unmarshal([]byte(textOf(res)), &fromText); err != nil || !jsonEqual(fromText["error"], te) {
			t.Errorf("%s %q: text %q is not the JSON error", tt.tool, tt.args, textOf(res))
		}
		if strings.Contains(textOf(res), "TOP SECRET") {
			t.Errorf("%s %q leaked the secret", tt.tool, tt.args)
		}
	}
}

// FuzzFilesPath throws arbitrary paths at the files tools: none may panic,
// leak the file outside the roots, or answer anything but a result inside
// the root or a structured error.
func FuzzFilesPath(f *testing.F) {
	for _, seed := range []string{"", ".", "README.md", "auth/login.go", "../outside/secret.txt", "/etc/passwd",
		"link-out/secret.txt", "secret-link.txt", "%2e%2e/secret.txt", "a\x00b", "..\\..\\outside", "auth/../../outside",
		"auth/./login.go", "//double//slash", "C:\\Windows", "~/secret", "auth/login.go/", strings.Repeat("a/", 300)} {
		f.Add(seed)
	}
	s, _, _, _ := filesServer(f)
	known := map[string]bool{"PATH_OUTSIDE_ROOT": true, "NOT_FOUND": true, "NOT_A_FILE": true, "NOT_A_DIRECTORY": true,
		"BINARY_FILE": true, "FILE_TOO_LARGE": true, "INVALID_ARGUMENT": true, "UNREADABLE": true, "INVALID_RANGE": true}
	handlers := map[string]sdk.ToolHandler{}
	for _, name := range []string{"open_file", "list_dir", "get_snippet", "search"} {
		tl, _ := s.lookupTool(name)
		handlers[name] = s.toolHandler(tl)
	}
	f.Fuzz(func(t *testing.T, path string) {
		for name, h := range handlers {
			args := map[string]any{"repo": "code", "path": path}
			switch name {
			case "get_snippet":
				args["start_line"], args["end_line"] = 1, 3
			case "search":
				args = map[string]any{"query": "e", "path": path, "limit": 5}
			}
			raw, _ := json.Marshal(args)
			res, err := h(context.Background(), &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: name, Arguments: raw}})
			if err != nil {
				t.Fatalf("%s(%q): protocol error %v", name, path, err)
			}
			text := textOf(res)
			if strings.Contains(text, "TOP SECRET") {
				t.Fatalf("%s(%q) leaked the secret", name, path)
			}
			var out map[string]any
			if err := json.Unmarshal([]byte(text), &out); err != nil {
				t.Fatalf("%s(%q): text is not JSON: %q", name, path, text)
			}
			if res.IsError {
				e, _ := out["error"].(map[string]any)
				if code, _ := e["code"].(string); !known[code] {
					t.Fatalf("%s(%q): unexpected error %v", name, path, e)
				}
				continue
			}
			result, _ := out["result"].(map[string]any)
			if p, _ := result["path"].(string); strings.HasPrefix(p, "..") || strings.HasPrefix(p, "/") {
				t.Fatalf("%s(%q) answered for %q", name, path, p)
			}
		}
	})
}

// TestOpenFileMedia: through the SDK's client, open_file answers an image
// as image content and an audio file as audio content (base64, the MIME
// type told by the bytes), any other binary file by its type and size with
// a resource link and no bytes, an image over the cap by FILE_TOO_LARGE,
// and SVG as text; hidden and ignored images stay invisible.
func TestOpenFileMedia(t *testing.T) {
	pngData, jpegData, wavData := testtree.PNG(4, 3), testtree.JPEG(8, 8), testtree.WAV(400)
	pdf := "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n\x00trailer\n"
	huge := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", files.MaxMediaBytes)
	e := newEnv(t, map[string]string{
		".gitignore":       "ignored.png\n",
		"docs/diagram.png": string(pngData),
		"docs/photo.png":   string(jpegData), // a JPEG whatever its name says
		"docs/flow.svg":    `<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>` + "\n",
		"sounds/beep.wav":  string(wavData),
		"manual.pdf":       pdf,
		"huge.png":         huge,
		".secret.png":      string(pngData),
		"ignored.png":      string(pngData),
	})
	cs := connectSDK(t, e.server(t, nil), nil)
	sc := newSchemaChecker(t, cs)

	for _, tc := range []struct {
		path, mime, sentAs string
		data               []byte
		size               int
	}{
		{"docs/diagram.png", "image/png", "image", pngData, len(pngData)},
		{"docs/photo.png", "image/jpeg", "image", jpegData, len(jpegData)},
		{"sounds/beep.wav", "audio/wav", "audio", wavData, len(wavData)},
		{"manual.pdf", "application/pdf", "none", nil, len(pdf)},
	} {
		t.Run(tc.path, func(t *testing.T) {
			res := callTool(t, cs, "open_file", map[string]any{"repo": "code", "path": tc.path})
			sc.check(t, "open_file", res)
			result, meta := envelopeOf(t, res, "code")
			if result["path"] != tc.path || result["mime_type"] != tc.mime || result["sent_as"] != tc.sentAs ||
				result["size"] != float64(tc.size) || result["lines"] != nil || meta["truncated"] != false {
				t.Errorf("result = %v", result)
			}
			if len(res.Content) != 2 {
				t.Fatalf("%d content blocks, want the envelope and one more", len(res.Content))
			}
			switch c := res.Content[1].(type) {
			case *sdk.ImageContent:
				if tc.sentAs != "image" || c.MIMEType != tc.mime || !bytes.Equal(c.Data, tc.data) {
					t.Errorf("image content %s, %d bytes; want %s, %s", c.MIMEType, len(c.Data), tc.sentAs, tc.mime)
				}
			case *sdk.AudioContent:
				if tc.sentAs != "audio" || c.MIMEType != tc.mime || !bytes.Equal(c.Data, tc.data) {
					t.Errorf("audio content %s, %d bytes; want %s, %s", c.MIMEType, len(c.Data), tc.sentAs, tc.mime)
				}
			case *sdk.ResourceLink:
				if tc.sentAs != "none" || c.MIMEType != tc.mime || c.Size == nil || *c.Size != int64(tc.size) ||
					c.URI != "file://"+filepath.Join(e.root, tc.path) || !strings.Contains(c.Description, tc.mime) {
					t.Errorf("resource link %+v", c)
				}
			default:
				t.Errorf("content %T", c)
			}
			if len(textOf(res)) > 1000 {
				t.Errorf("the text content carries the bytes too: %d characters", len(textOf(res)))
			}
		})
	}

	t.Run("svg is text", func(t *testing.T) {
		res := callTool(t, cs, "open_file", map[string]any{"repo": "code", "path": "docs/flow.svg"})
		sc.check(t, "open_file", res)
		result, _ := envelopeOf(t, res, "code")
		if lines, _ := result["lines"].([]any); len(lines) != 1 || result["mime_type"] != nil || len(res.Content) != 1 {
			t.Errorf("result = %v, %d content blocks", result, len(res.Content))
		}
	})

	for _, tc := range []struct {
		path, code string
		details    map[string]any
	}{
		{"huge.png", "FILE_TOO_LARGE", map[string]any{"repo": "code", "path": "huge.png", "mime_type": "image/png",
			"size": float64(len(huge)), "max_size": float64(files.MaxMediaBytes)}},
		{".secret.png", "NOT_FOUND", map[string]any{"repo": "code", "path": ".secret.png"}},
		{"ignored.png", "NOT_FOUND", map[string]any{"repo": "code", "path": "ignored.png"}},
		{"../outside.png", "PATH_OUTSIDE_ROOT", map[string]any{"repo": "code", "path": "../outside.png"}},
	} {
		t.Run("error "+tc.path, func(t *testing.T) {
			res := callTool(t, cs, "open_file", map[string]any{"repo": "code", "path": tc.path})
			sc.check(t, "open_file", res)
			te := toolErrorOf(t, res)
			if te["code"] != tc.code || !jsonEqual(te["details"], tc.details) || len(res.Content) != 1 {
				t.Errorf("error %v, %d content blocks; want %s with details %v", te, len(res.Content), tc.code, tc.details)
			}
		})
	}
}

// TestOpenFileAudioAt20241105: a session at 2024-11-05, whose protocol
// has no audio content, gets an audio file's bytes as an embedded
// resource; images are image content at every version.
func TestOpenFileAudioAt20241105(t *testing.T) {
	wavData, pngData := testtree.WAV(100), testtree.PNG(2, 2)
	e := newEnv(t, map[string]string{"beep.wav": string(wavData), "dot.png": string(pngData)})
	cs := connectSDKAt(t, e.server(t, nil), nil, "2024-11-05")
	res := callTool(t, cs, "open_file", map[string]any{"repo": "code", "path": "beep.wav"})
	if r, ok := res.Content[len(res.Content)-1].(*sdk.EmbeddedResource); !ok || r.Resource.MIMEType != "audio/wav" ||
		!bytes.Equal(r.Resource.Blob, wavData) || r.Resource.URI != "file://"+filepath.Join(e.root, "beep.wav") {
		t.Errorf("audio at 2024-11-05: %#v", res.Content[len(res.Content)-1])
	}
	res = callTool(t, cs, "open_file", map[string]any{"repo": "code", "path": "dot.png"})
	if img, ok := res.Content[len(res.Content)-1].(*sdk.ImageContent); !ok || !bytes.Equal(img.Data, pngData) {
		t.Errorf("image at 2024-11-05: %#v", res.Content[len(res.Content)-1])
	}
}
