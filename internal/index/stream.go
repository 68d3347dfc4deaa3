package index

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/lore-dev/lore/internal/fsroot"
)

// fileStream hands the files of a run to the parse workers as the walk
// finds them, so that parsing starts with the first file instead of after
// the whole walk. The files come in exactly the order walk would list
// them (dedupeLinked's), so the index is the same as when the list is
// made first.
type fileStream struct {
	files <-chan fsroot.File // in walk order; closed when the walk ends
	// scanned counts the files handed on that are not generated, so far:
	// the progress total while the walk goes on.
	scanned atomic.Int64
	end     chan struct{} // closed once all and err are set
	all     []fsroot.File // every file handed on, in order
	err     error
}

// wait waits for the walk's end and returns its list and error.
func (s *fileStream) wait(ctx context.Context) ([]fsroot.File, error) {
	select {
	case <-s.end:
		return s.all, s.err
	default:
	}
	select {
	case <-s.end:
		return s.all, s.err
	case <-ctx.Done():
		return nil, cancelled(ctx.Err())
	}
}

// listStream hands on a list made beforehand.
func listStream(files []fsroot.File) *fileStream {
	ch := make(chan fsroot.File, len(files))
	s := &fileStream{files: ch, end: make(chan struct{}), all: files}
	for _, f := range files {
		ch <- f
		if !generatedName(f.Rel) {
			s.scanned.Add(1)
		}
	}
	close(ch)
	close(s.end)
	return s
}

// streamWalk walks root in the background (see walk), handing each file
// on as soon as its place in the list is certain. Until the walk meets a
// file reached through a symlink, every file is certain: dedupeLinked
// changes a list only where a linked file and another path share a real
// file, and the file met first that way is always the linked one (a file
// reached by its own path has itself as real path, and the walk meets
// each path once). From the first linked file on, files are held until
// the walk ends and the list is de-duplicated. The walk stops when ctx
// ends; a reader must drain files or cancel ctx.
func streamWalk(ctx context.Context, root *fsroot.Root, location string, opts fsroot.WalkOptions) *fileStream {
	ch := make(chan fsroot.File, 256)
	s := &fileStream{files: ch, end: make(chan struct{})}
	go func() {
		defer close(s.end)
		defer close(ch)
		send := func(f fsroot.File) error {
			if !generatedName(f.Rel) {
				s.scanned.Add(1) // before the file can reach the writer
			}
			select {
			case ch <- f:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		indexAbs, _ := filepath.Abs(location)
		var files []fsroot.File
		sent, held := 0, false
		err := root.Walk(ctx, opts, func(f fsroot.File) error {
			if strings.HasPrefix(f.Abs, indexAbs) {
				return nil // the index file and its -wal/-shm companions
			}
			files = append(files, f)
			held = held || f.Linked
			if held {
				return nil
			}
			sent++
			return send(f)
		})
		if err == nil {
			files = dedupeLinked(root.Path(), files)
			for _, f := range files[sent:] {
				if err = send(f); err != nil {
					break
				}
			}
		}
		switch {
		case err == nil:
			s.all = files
		case ctx.Err() != nil:
			s.err = cancelled(ctx.Err())
		default:
			s.err = fmt.Errorf("walking %s: %w", root.Path(), err)
		}
	}()
	return s
}
