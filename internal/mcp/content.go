package mcp

import (
	"encoding/base64"
	"fmt"
	"math"
	"mime"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// linkHit is one search hit, as resource links see it.
type linkHit struct {
	root  string // the absolute root the path is relative to
	path  string // slash-separated, relative to root
	start int
	end   int
}

// resourceLinks returns one resource_link per distinct file among hits, in
// the order of each file's best hit, for the assistant, with a priority
// that falls with rank (1 for the first file, 0.1 for the last).
func resourceLinks(hits []linkHit) []sdk.Content {
	type fileLinks struct {
		abs   string
		rel   string
		spans []string
	}
	var files []*fileLinks
	byAbs := map[string]*fileLinks{}
	for _, h := range hits {
		abs := filepath.Join(h.root, filepath.FromSlash(h.path))
		f, ok := byAbs[abs]
		if !ok {
			f = &fileLinks{abs: abs, rel: h.path}
			byAbs[abs] = f
			files = append(files, f)
		}
		span := fmt.Sprintf("%d", h.start)
		if h.end > h.start {
			span = fmt.Sprintf("%d-%d", h.start, h.end)
		}
		f.spans = append(f.spans, span)
	}
	out := make([]sdk.Content, 0, len(files))
	for i, f := range files {
		label := "line"
		if len(f.spans) > 1 || strings.Contains(f.spans[0], "-") {
			label = "lines"
		}
		out = append(out, &sdk.ResourceLink{
			URI:         fileURI(f.abs),
			Name:        f.rel,
			MIMEType:    mimeType(f.rel),
			Description: fmt.Sprintf("%s %s", label, strings.Join(f.spans, ", ")),
			Annotations: &sdk.Annotations{Audience: []sdk.Role{"assistant"}, Priority: rankPriority(i, len(files))},
		})
	}
	return out
}

// rankPriority is 1 for the first of n and falls evenly to 0.1 for the
// last; it never reaches 0, which the SDK cannot send.
func rankPriority(i, n int) float64 {
	if n <= 1 {
		return 1
	}
	p := 1 - 0.9*float64(i)/float64(n-1)
	return math.Round(p*100) / 100
}

// fileURI is the file:// URI of an absolute path.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// mimeTypes covers source files the system MIME table may not know.
var mimeTypes = map[string]string{
	".go": "text/x-go", ".py": "text/x-python", ".rs": "text/x-rust", ".java": "text/x-java",
	".kt": "text/x-kotlin", ".swift": "text/x-swift", ".c": "text/x-c", ".h": "text/x-c",
	".cc": "text/x-c++", ".cpp": "text/x-c++", ".hpp": "text/x-c++", ".cs": "text/x-csharp",
	".js": "text/javascript", ".mjs": "text/javascript", ".ts": "text/x-typescript", ".tsx": "text/x-typescript",
	".jsx": "text/javascript", ".rb": "text/x-ruby", ".php": "text/x-php", ".scala": "text/x-scala",
	".ex": "text/x-elixir", ".exs": "text/x-elixir", ".sh": "text/x-shellscript", ".bash": "text/x-shellscript",
	".md": "text/markdown", ".markdown": "text/markdown", ".rst": "text/x-rst", ".adoc": "text/asciidoc",
	".txt": "text/plain", ".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml",
	".toml": "application/toml", ".html": "text/html", ".css": "text/css", ".sql": "application/sql",
	".xml": "application/xml", ".proto": "text/x-protobuf", ".lua": "text/x-lua", ".zig": "text/x-zig",
}

// mimeType guesses a file's MIME type from its name; text/plain otherwise,
// since lore only links text files.
func mimeType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := mimeTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return strings.TrimSuffix(t, "; charset=utf-8")
	}
	return "text/plain"
}

// Tool icons: small SVGs as data URIs, so they work offline.
var (
	iconSearch   = svgIcon(`<circle cx="10" cy="10" r="6" fill="none" stroke="#4a6" stroke-width="2.5"/><path d="M14.5 14.5L21 21" stroke="#4a6" stroke-width="2.5" stroke-linecap="round"/>`)
	iconFile     = svgIcon(`<path d="M6 2h9l5 5v15H6z" fill="none" stroke="#468" stroke-width="2"/><path d="M9 12h8M9 16h8" stroke="#468" stroke-width="2"/>`)
	iconFolder   = svgIcon(`<path d="M2 6h7l2 2h11v12H2z" fill="none" stroke="#a84" stroke-width="2"/>`)
	iconIndex    = svgIcon(`<path d="M4 4h16v4H4zM4 10h16v4H4zM4 16h16v4H4z" fill="none" stroke="#84a" stroke-width="2"/>`)
	iconResearch = svgIcon(`<circle cx="5" cy="6" r="2.5" fill="none" stroke="#a64" stroke-width="2"/><circle cx="19" cy="6" r="2.5" fill="none" stroke="#a64" stroke-width="2"/><circle cx="12" cy="18" r="2.5" fill="none" stroke="#a64" stroke-width="2"/><path d="M7 7.5l3.5 8.5M17 7.5l-3.5 8.5M7.5 6h9" stroke="#a64" stroke-width="2"/>`)
	iconDocs     = svgIcon(`<path d="M4 3h7a3 3 0 0 1 3 3v15a2 2 0 0 0-2-2H4zM20 3h-3a3 3 0 0 0-3 3v15a2 2 0 0 1 2-2h4z" fill="none" stroke="#468" stroke-width="2"/>`)
)

func svgIcon(body string) []sdk.Icon {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">` + body + `</svg>`
	return []sdk.Icon{{
		Source:   "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg)),
		MIMEType: "image/svg+xml",
		Sizes:    []string{"any"},
	}}
}
