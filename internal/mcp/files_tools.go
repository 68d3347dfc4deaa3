package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-dev/lore/internal/files"
)

// The files family: search, open_file, get_snippet, list_dir over the docs
// and code roots. Every answer is one envelope,
//
//	{"result": …, "meta": {"repo", "duration_ms", "truncated"}}
//
// and every error {"error": {"code", "message", "details"}}; the text
// content is that JSON. The tools only translate: internal/files does the
// work and names the errors (docs/errors.md lists them).

func registerFiles(s *Server) error {
	// The roots' indexes narrow each search to the files that can match.
	svc := files.New(s.opts.DocsRoot, s.opts.CodeRoot).WithIndex(s.opts.App.FileIndex)
	s.register(s.filesSearchTool(svc))
	s.register(s.openFileTool(svc))
	s.register(s.getSnippetTool(svc))
	s.register(s.listDirTool(svc))
	return nil
}

// envelope is the files family's success shape.
type envelope struct {
	Result any          `json:"result"`
	Meta   envelopeMeta `json:"meta"`
}

type envelopeMeta struct {
	Repo       string `json:"repo"`
	DurationMS int64  `json:"duration_ms"`
	Truncated  bool   `json:"truncated"`
}

// envelopeSchema is the output schema of a files tool whose result has
// the given schema.
func envelopeSchema(result map[string]any) map[string]any {
	return outputSchema(map[string]any{
		"result": result,
		"meta": sObject(map[string]any{
			"repo":        sString("the repository searched or read: docs, code or both"),
			"duration_ms": sInt("time taken"),
			"truncated":   sBool("true when a limit cut the result short"),
		}, "repo", "duration_ms", "truncated"),
	}, "result", "meta")
}

// filesSearchArgs are search's arguments.
type filesSearchArgs struct {
	Query         string `arg:"query,required" desc:"The text to find (a Go regular expression when regex is true)."`
	Repo          string `arg:"repo" default:"both" enum:"docs,code,both" code:"REPO_INVALID" desc:"Which roots to search: docs, code or both (docs first)."`
	Limit         int    `arg:"limit" default:"${files.DefaultSearchLimit}" min:"1" max:"${files.MaxSearchLimit}" code:"LIMIT_INVALID" desc:"Maximum number of matching lines."`
	Path          string `arg:"path" desc:"Only this folder or file, or the files matching a glob (*.go, internal/**/*_test.go)."`
	CaseSensitive bool   `arg:"case_sensitive" default:"false" desc:"Match case exactly."`
	Regex         bool   `arg:"regex" default:"false" desc:"Treat query as a regular expression (RE2 syntax), matched line by line."`
}

// fileArgs name one file: open_file's arguments, and get_snippet's first.
type fileArgs struct {
	Repo string `arg:"repo,required" enum:"docs,code" code:"REPO_INVALID" desc:"Which root: docs (DOCS_ROOT) or code (CODE_ROOT)."`
	Path string `arg:"path,required" desc:"The file, relative to the root."`
}

// getSnippetArgs are get_snippet's arguments: a file and a line range.
type getSnippetArgs struct {
	fileArgs
	StartLine int `arg:"start_line,required" code:"INVALID_RANGE" desc:"First line, 1-based."`
	EndLine   int `arg:"end_line,required" code:"INVALID_RANGE" desc:"Last line, inclusive."`
}

// listDirArgs are list_dir's arguments.
type listDirArgs struct {
	Repo string `arg:"repo,required" enum:"docs,code" code:"REPO_INVALID" desc:"Which root: docs (DOCS_ROOT) or code (CODE_ROOT)."`
	Path string `arg:"path" default:"" desc:"The folder, relative to the root; empty for the root itself."`
}

var linesSchema = sArray(sObject(map[string]any{
	"n":    sInt("1-based line number"),
	"text": sString("the line without its line ending"),
}, "n", "text"))

var fileContentSchema = sObject(map[string]any{
	"path":        sString("relative to the root"),
	"lines":       linesSchema,
	"total_lines": sInt("lines in the whole file"),
	"truncated":   sBool("fewer lines than asked for were returned (size caps)"),
}, "path", "lines", "total_lines")

func (s *Server) filesSearchTool(svc *files.Service) *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "search",
			Title: "Search files",
			Description: "Deterministic keyword (or regex) search over the text files of the docs and code roots: one entry " +
				"per matching line with repo, path, line and preview, ordered by repo (docs first), path, then line. " +
				"Binary, hidden and ignored files are skipped. Use it for exact strings; use search_code for ranked search.",
			Annotations: readOnlyAnnotations("Search files"),
			Icons:       iconSearch,
			OutputSchema: envelopeSchema(sObject(map[string]any{
				"matches": sArray(sObject(map[string]any{
					"repo":    sEnum("", "docs", "code"),
					"path":    sString("relative to the repo's root"),
					"line":    sInt("1-based"),
					"preview": sString("the matching line, trimmed and cut around the match"),
				}, "repo", "path", "line", "preview")),
			}, "matches")),
		},
		jsonText: true,
	}, func(ctx context.Context, c *call, in *filesSearchArgs) (*outcome, error) {
		start := time.Now()
		c.logAs("repo", in.Repo)
		res, err := svc.Search(ctx, files.SearchQuery{
			Query: in.Query, Repo: in.Repo, Limit: in.Limit, Path: in.Path,
			CaseSensitive: in.CaseSensitive, Regex: in.Regex,
		})
		if err != nil {
			return nil, err
		}
		matches := res.Results
		if matches == nil {
			matches = []files.SearchHit{}
		}
		links := make([]linkHit, 0, len(matches))
		for _, m := range matches {
			links = append(links, linkHit{root: s.repoPath(m.Repo), path: m.Path, start: m.Line, end: m.Line})
		}
		return &outcome{
			structured: envelope{Result: map[string]any{"matches": matches}, Meta: meta(in.Repo, start, res.Truncated)},
			content:    resourceLinks(links),
		}, nil
	})
}

// openedSchema is open_file's result: a text file's lines, or a binary
// file's type and size (its bytes, for an image or audio file, follow as
// image or audio content).
var openedSchema = func() map[string]any {
	s := sObject(map[string]any{
		"path":        sString("relative to the root"),
		"lines":       linesSchema,
		"total_lines": sInt("lines in the whole file"),
		"truncated":   sBool("fewer lines than asked for were returned (size caps)"),
		"mime_type":   sString("a binary file's MIME type, told by its bytes"),
		"size":        sInt("a binary file's size in bytes"),
		"sent_as": sEnum("how a binary file's bytes are sent: as image content (PNG, JPEG, GIF, WebP), "+
			"as audio content (WAV, MP3, Ogg, FLAC), or not at all", files.SentAsImage, files.SentAsAudio, files.SentAsNone),
	})
	s["anyOf"] = []any{
		map[string]any{"required": []string{"path", "lines", "total_lines"}},
		map[string]any{"required": []string{"path", "mime_type", "size", "sent_as"}},
	}
	return s
}()

func (s *Server) openFileTool(svc *files.Service) *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "open_file",
			Title: "Open a file",
			Description: fmt.Sprintf("The full content of a text file with line numbers: {path, lines: [{n, text}], total_lines}; "+
				"large files are cut (meta.truncated). SVG is text. An image (PNG, JPEG, GIF, WebP) or audio file (WAV, MP3, Ogg, FLAC) "+
				"of at most %d bytes answers {path, mime_type, size, sent_as} and its bytes as image or audio content "+
				"(a larger one: FILE_TOO_LARGE); any other binary file answers its mime_type and size only (sent_as: none). "+
				"Prefer get_snippet for a known range of a text file.", files.MaxMediaBytes),
			Annotations:  readOnlyAnnotations("Open a file"),
			Icons:        iconFile,
			OutputSchema: envelopeSchema(openedSchema),
		},
		jsonText: true,
	}, func(ctx context.Context, c *call, in *fileArgs) (*outcome, error) {
		start := time.Now()
		c.logAs("repo", in.Repo)
		opened, err := svc.OpenFile(ctx, in.Repo, in.Path)
		if err != nil {
			return nil, err
		}
		if opened.Text != nil {
			return fileOutcome(in.Repo, start, opened.Text), nil
		}
		// Audio content came with 2025-03-26: an older session gets the
		// same bytes as an embedded resource.
		audio := c.req == nil || protocolVersion(c.req) != "2024-11-05"
		return s.binaryOutcome(in.Repo, start, opened.Binary, audio), nil
	})
}

// binaryOutcome answers a binary file: its type and size in the envelope,
// then its bytes as image or audio content (audio as an embedded resource
// when the session's protocol has no audio content), or, for any other
// binary file, a resource_link naming its type and size.
func (s *Server) binaryOutcome(repo string, start time.Time, bin *files.BinaryFile, audio bool) *outcome {
	uri := fileURI(filepath.Join(s.repoPath(repo), filepath.FromSlash(bin.Path)))
	var content sdk.Content
	switch {
	case bin.SentAs == files.SentAsImage:
		content = &sdk.ImageContent{Data: bin.Data, MIMEType: bin.MIMEType}
	case bin.SentAs == files.SentAsAudio && audio:
		content = &sdk.AudioContent{Data: bin.Data, MIMEType: bin.MIMEType}
	case bin.SentAs == files.SentAsAudio:
		content = &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: bin.MIMEType, Blob: bin.Data}}
	default:
		size := bin.Size
		content = &sdk.ResourceLink{
			URI: uri, Name: bin.Path, MIMEType: bin.MIMEType, Size: &size,
			Description: fmt.Sprintf("binary file, %s, %d bytes; open_file sends the bytes of images and audio only", bin.MIMEType, bin.Size),
		}
	}
	return &outcome{structured: envelope{Result: bin, Meta: meta(repo, start, false)}, content: []sdk.Content{content}}
}

func (s *Server) getSnippetTool(svc *files.Service) *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "get_snippet",
			Title: "Read lines of a file",
			Description: "Lines start_line..end_line (1-based, inclusive) of a text file, with line numbers. The end is clamped " +
				"to the file; start_line < 1, end_line < start_line or a start past the end answer INVALID_RANGE.",
			Annotations:  readOnlyAnnotations("Read lines of a file"),
			Icons:        iconFile,
			OutputSchema: envelopeSchema(fileContentSchema),
		},
		jsonText: true,
	}, func(ctx context.Context, c *call, in *getSnippetArgs) (*outcome, error) {
		start := time.Now()
		c.logAs("repo", in.Repo)
		content, err := svc.GetSnippet(ctx, in.Repo, in.Path, in.StartLine, in.EndLine)
		if err != nil {
			return nil, err
		}
		return fileOutcome(in.Repo, start, content), nil
	})
}

func (s *Server) listDirTool(svc *files.Service) *tool {
	return newTool(&tool{
		def: &sdk.Tool{
			Name:  "list_dir",
			Title: "List a folder",
			Description: "The entries of a folder, relative to the root: {name, path, type: file|dir, size}, folders first, " +
				"each group sorted by name. Hidden and ignored entries are left out.",
			Annotations: readOnlyAnnotations("List a folder"),
			Icons:       iconFolder,
			OutputSchema: envelopeSchema(sObject(map[string]any{
				"path": sString("the folder, relative to the root; \".\" for the root"),
				"entries": sArray(sObject(map[string]any{
					"name": sString(""),
					"path": sString("relative to the root"),
					"type": sEnum("", "file", "dir"),
					"size": sInt("bytes; 0 for folders"),
				}, "name", "path", "type", "size")),
			}, "path", "entries")),
		},
		jsonText: true,
	}, func(ctx context.Context, c *call, in *listDirArgs) (*outcome, error) {
		start := time.Now()
		c.logAs("repo", in.Repo)
		listing, err := svc.ListDir(ctx, in.Repo, in.Path)
		if err != nil {
			return nil, err
		}
		return &outcome{structured: envelope{
			Result: map[string]any{"path": listing.Path, "entries": listing.Entries},
			Meta:   meta(in.Repo, start, listing.Truncated),
		}}, nil
	})
}

func fileOutcome(repo string, start time.Time, content *files.FileContent) *outcome {
	if content.Lines == nil {
		content.Lines = []files.Line{} // an empty file: no lines, not null
	}
	return &outcome{structured: envelope{Result: content, Meta: meta(repo, start, content.Truncated)}}
}

func meta(repo string, start time.Time, truncated bool) envelopeMeta {
	return envelopeMeta{Repo: repo, DurationMS: time.Since(start).Milliseconds(), Truncated: truncated}
}

// repoPath is the absolute folder of a files repository.
func (s *Server) repoPath(repo string) string {
	if repo == files.RepoDocs && s.opts.DocsRoot != nil {
		return s.opts.DocsRoot.Path()
	}
	if s.opts.CodeRoot != nil {
		return s.opts.CodeRoot.Path()
	}
	return s.opts.Root
}
