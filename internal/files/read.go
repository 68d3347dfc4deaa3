package files

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
)

// Caps on what OpenFile and GetSnippet return; beyond them the result is
// marked Truncated. They keep a single answer within what an assistant's
// context can usefully take.
const (
	MaxReadLines = 2000
	MaxReadBytes = 256 << 10
)

// FileContent is (part of) a text file.
type FileContent struct {
	Path       string `json:"path"`        // relative to the repo root, slash-separated
	Lines      []Line `json:"lines"`       // the lines returned, in order
	TotalLines int    `json:"total_lines"` // lines in the whole file
	Truncated  bool   `json:"truncated"`   // fewer lines (or bytes) than asked for were returned
}

// Line is one numbered line of a file, without its line ending.
type Line struct {
	N    int    `json:"n"`    // 1-based line number
	Text string `json:"text"` // invalid UTF-8 is replaced by U+FFFD
}

// OpenFile returns a text file from its first line, up to MaxReadLines
// lines or MaxReadBytes bytes; or a binary file's MIME type and size, with
// its bytes when it is an image or audio file (see BinaryFile). An image
// or audio file over MaxMediaBytes is FILE_TOO_LARGE.
func (s *Service) OpenFile(ctx context.Context, repo, path string) (*Opened, error) {
	f, rel, size, err := s.open(repo, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(fsroot.BinarySniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, unreadable(repo, path, err)
	}
	mimeType, sentAs := mediaType(head)
	binary := fsroot.IsBinary(head)
	if sentAs != "" && !binary && !notUTF8(head) {
		sentAs = "" // text that starts like a media file
	}
	if sentAs == "" && !binary {
		text, err := readLines(ctx, br, repo, path, 1, math.MaxInt, false)
		if err != nil {
			return nil, err
		}
		text.Path = rel
		return &Opened{Text: text}, nil
	}
	bin := &BinaryFile{Path: rel, MIMEType: mimeType, Size: size, SentAs: sentAs}
	if sentAs == "" {
		bin.MIMEType, bin.SentAs = binaryType(rel, head), SentAsNone
		return &Opened{Binary: bin}, nil
	}
	tooLarge := func(size int64) error {
		return errs.New(errs.Invalid, CodeFileTooLarge, "path %q in %s is too large to send: %d bytes of %s; images and audio are sent up to %d bytes",
			path, repo, size, bin.MIMEType, MaxMediaBytes).
			With("repo", repo).With("path", path).With("mime_type", bin.MIMEType).With("size", size).With("max_size", MaxMediaBytes)
	}
	if size > MaxMediaBytes {
		return nil, tooLarge(size)
	}
	// The file may have grown since it was opened: read one byte past the cap.
	data, err := io.ReadAll(io.LimitReader(br, MaxMediaBytes+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("reading %s in %s: %w", path, repo, ctx.Err())
		}
		return nil, unreadable(repo, path, err)
	}
	if len(data) > MaxMediaBytes {
		return nil, tooLarge(int64(len(data)))
	}
	bin.Data, bin.Size = data, int64(len(data))
	return &Opened{Binary: bin}, nil
}

// GetSnippet returns lines start..end (1-based, inclusive) of a text file;
// end is clamped to the last line. start < 1, end < start and a start past
// the last line are INVALID_RANGE.
func (s *Service) GetSnippet(ctx context.Context, repo, path string, start, end int) (*FileContent, error) {
	if start < 1 || end < start {
		return nil, errs.New(errs.Invalid, CodeInvalidRange, "invalid line range %d-%d: lines start at 1 and end must not be before start", start, end).
			With("repo", repo).With("path", path).With("start", start).With("end", end)
	}
	return s.readRange(ctx, repo, path, start, end, true)
}

func (s *Service) readRange(ctx context.Context, repo, path string, start, end int, strictStart bool) (*FileContent, error) {
	f, rel, _, err := s.open(repo, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(fsroot.BinarySniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, unreadable(repo, path, err)
	}
	if fsroot.IsBinary(head) {
		return nil, errs.New(errs.Invalid, CodeBinaryFile, "path %q in %s is a binary file", path, repo).With("repo", repo).With("path", path)
	}
	content, err := readLines(ctx, br, repo, path, start, end, strictStart)
	if err != nil {
		return nil, err
	}
	content.Path = rel
	return content, nil
}

// open opens a visible regular file of a repository, and returns it with
// its cleaned relative path and its size. Paths outside the root are
// PATH_OUTSIDE_ROOT; hidden and ignored ones NOT_FOUND, whatever they are.
func (s *Service) open(repo, path string) (*os.File, string, int64, error) {
	root, err := s.root(repo)
	if err != nil {
		return nil, "", 0, err
	}
	rel, err := root.CleanRel(path)
	if err != nil {
		return nil, "", 0, withRepo(err, repo, path)
	}
	f, info, err := root.OpenFile(rel)
	if err != nil {
		// A hidden or ignored path is NOT_FOUND whatever it is, so that
		// errors do not reveal what lies in invisible places.
		if e, ok := errs.As(err); ok && (e.Code == CodeNotAFile || e.Code == CodeUnreadable) && root.Ignored(rel, e.Code == CodeNotAFile) {
			return nil, "", 0, invisible(repo, path)
		}
		return nil, "", 0, withRepo(err, repo, path)
	}
	if root.Ignored(rel, false) {
		f.Close()
		return nil, "", 0, invisible(repo, path)
	}
	return f, rel, info.Size(), nil
}

// readLines reads the lines start..end of a text file from br (see
// collectLines); strictStart makes a start past the end INVALID_RANGE.
func readLines(ctx context.Context, br *bufio.Reader, repo, path string, start, end int, strictStart bool) (*FileContent, error) {
	content, err := collectLines(ctx, br, start, end)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("reading %s in %s: %w", path, repo, ctx.Err())
		}
		return nil, unreadable(repo, path, err)
	}
	if strictStart && start > content.TotalLines {
		return nil, errs.New(errs.Invalid, CodeInvalidRange, "start line %d is past the end of %q (%d lines)", start, path, content.TotalLines).
			With("repo", repo).With("path", path).With("start", start).With("end", end).With("total_lines", content.TotalLines)
	}
	return content, nil
}

func unreadable(repo, path string, err error) error {
	return errs.New(errs.Internal, CodeUnreadable, "cannot read %q in %s: %v", path, repo, err).With("repo", repo).With("path", path).Wrap(err)
}

// collectLines reads r to the end, counting lines and keeping those in
// start..end within the caps. A line is what ends in "\n" (a trailing "\r"
// is dropped too); a last line without "\n" counts.
func collectLines(ctx context.Context, r *bufio.Reader, start, end int) (*FileContent, error) {
	out := &FileContent{Lines: []Line{}}
	budget := MaxReadBytes
	var cur []byte      // the line being collected
	collecting := false // whether cur belongs to a wanted line
	lineNo := 0         // number of the current (possibly unfinished) line
	atLineStart := true // whether the next byte starts a new line
	chunks := 0
	cutShort := false // collecting stopped at the byte cap before the line ended
	finish := func() {
		if !collecting {
			return
		}
		text := bytes.TrimSuffix(bytes.TrimSuffix(cur, []byte("\n")), []byte("\r"))
		out.Lines = append(out.Lines, Line{N: lineNo, Text: strings.ToValidUTF8(string(text), "\uFFFD")})
		collecting = false
		cur = cur[:0]
	}
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			if !atLineStart && cutShort {
				out.Truncated = true // the rest of a line cut at the byte cap
			}
			if atLineStart {
				cutShort = false
				lineNo++
				wanted := lineNo >= start && lineNo <= end
				switch {
				case wanted && len(out.Lines) < MaxReadLines && budget > 0:
					collecting = true
				case wanted:
					out.Truncated = true // asked for but over a cap
				}
			}
			if collecting {
				take := chunk
				if len(take) > budget {
					take = take[:runeStart(take, budget)]
					out.Truncated = true
				}
				cur = append(cur, take...)
				budget -= len(take)
			}
			atLineStart = chunk[len(chunk)-1] == '\n'
			if collecting && !atLineStart && budget <= 0 {
				cutShort = true
				finish()
			} else if atLineStart {
				finish()
			}
		}
		switch {
		case err == nil || errors.Is(err, bufio.ErrBufferFull):
			if chunks++; chunks%64 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
		case err == io.EOF:
			finish()
			out.TotalLines = lineNo
			return out, nil
		default:
			return nil, err
		}
	}
}

// runeStart returns the largest index <= n that does not split a UTF-8
// sequence in b.
func runeStart(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for i := n; i > 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return n
}
