package fsroot

import (
	"os"
	"path"
	"strings"
)

// Opener opens many files of one root for reading, as OpenFile does, for
// a caller that opens a whole list of them in path order (a search over
// the files an index lists). OpenFile resolves every component of the
// path with lstat, opens the root, stats the file through it and opens it
// (about 25 system calls for a file five folders deep); an Opener opens
// the root once, as an os.Root, and the folder of the last file it opened,
// so that the next file of that folder takes one openat and one fstat.
// os.Root keeps every open inside the root (inside the folder, for a file
// opened through the folder's), links included, however the tree changes
// meanwhile; a path it will not open (an absolute link, a link that leaves
// the folder or the root, a missing file) goes through OpenFile, so errors
// and refusals are OpenFile's. On Linux, where openat2(2) resolves a path
// below a folder in one call with the same confinement, it opens each
// file with that instead (see beneath).
//
// An Opener is for one goroutine; Close it when done.
type Opener struct {
	r         *Root
	opened    bool
	beneath   beneath  // openat2 below the root, where available
	rootsOnly bool     // tests: no openat2, os.Root only
	root      *os.Root // nil when the root could not be opened: every open goes through OpenFile
	dir       string   // the folder of dirRoot, relative to the root
	dirRoot   *os.Root
}

// Opener returns an Opener of r's files.
func (r *Root) Opener() *Opener { return &Opener{r: r} }

// OpenFile opens the regular file rel (slash-separated) for reading, like
// Root.OpenFile.
func (o *Opener) OpenFile(rel string) (*os.File, error) {
	if f := o.fast(rel); f != nil {
		return f, nil
	}
	f, _, err := o.r.OpenFile(rel)
	return f, err
}

// fast opens rel through the open root or folder; nil when it cannot.
func (o *Opener) fast(rel string) *os.File {
	if !fastPath(rel) {
		return nil
	}
	if !o.opened {
		o.opened = true
		if !o.rootsOnly {
			o.beneath = openBeneath(o.r.path)
		}
		if root, err := os.OpenRoot(o.r.path); err == nil {
			o.root = root
		}
	}
	if f, ok := o.beneath.open(rel); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			return f
		}
		f.Close()
		return nil
	}
	if o.root == nil {
		return nil
	}
	in, base := o.root, rel
	if dir, name := path.Split(rel); dir != "" {
		dir = strings.TrimSuffix(dir, "/")
		if dir != o.dir || o.dirRoot == nil {
			o.closeDir()
			sub, err := o.root.OpenRoot(dir)
			if err != nil {
				return nil
			}
			o.dir, o.dirRoot = dir, sub
		}
		in, base = o.dirRoot, name
	}
	f, err := in.OpenFile(base, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil
	}
	return f
}

// fastPath reports whether rel may be opened through os.Root as it is: a
// plain slash-separated relative path, which Resolve would accept, with
// no "." or ".." parts, no NUL and no URL-encoded escape.
func fastPath(rel string) bool {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.IndexByte(rel, 0) >= 0 || strings.ContainsRune(rel, '\\') ||
		hasEncodedEscape(rel) {
		return false
	}
	for part := range strings.SplitSeq(rel, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

func (o *Opener) closeDir() {
	if o.dirRoot != nil {
		o.dirRoot.Close()
	}
	o.dir, o.dirRoot = "", nil
}

// Close releases the root and folder the Opener holds; files it opened
// stay open. Opens after Close go through Root.OpenFile.
func (o *Opener) Close() error {
	o.closeDir()
	o.beneath.close()
	o.opened = true
	if o.root != nil {
		err := o.root.Close()
		o.root = nil
		return err
	}
	return nil
}
