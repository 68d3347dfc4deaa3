// Package fsroot is the only place in lore that turns a user-supplied path
// into a file-system path.
//
// A Root is a directory that lore may read. Resolve confines relative paths
// to it (refusing absolute paths, ".." segments, NUL bytes, URL-encoded
// escapes and symlinks that lead outside), Walk visits the files lore should
// index in a deterministic order while honouring ignore files, hidden names
// and a list of dependency/generated folders, and Ignored/ReadDir answer the
// same visibility question for single paths and directory listings.
//
// Nothing in this package writes to a root.
package fsroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
)

// Error codes returned by this package (as *errs.Error codes).
const (
	CodeNotFound        = errs.CodeNotFound
	CodeNotADirectory   = errs.CodeNotADirectory
	CodeNotAFile        = errs.CodeNotAFile
	CodeOutsideRoot     = errs.CodeOutsideRoot
	CodeUnreadable      = errs.CodeUnreadable
	CodeInvalidArgument = errs.CodeInvalidArgument
)

// maxSymlinkHops bounds symlink resolution so that link cycles end with an
// error instead of a hang (Linux uses 40; being generous costs nothing).
const maxSymlinkHops = 255

// Root is a directory lore may read from. The zero value is not usable; use
// Open.
type Root struct {
	path string // absolute, symlinks resolved

	// Ignore files above the root apply when the root lies inside a git work
	// tree (as git and ripgrep do): top is that work tree's top directory and
	// base the root's path components below it. Without an enclosing work
	// tree top == path and base is empty.
	top    string
	base   []string
	gitDir string // top's git directory, for info/exclude; "" when none
}

// Open returns the Root for the directory at path, which is made absolute
// and has its own symlinks resolved.
func Open(path string) (*Root, error) {
	if path == "" {
		return nil, errs.New(errs.Invalid, CodeInvalidArgument, "root path is empty")
	}
	if strings.IndexByte(path, 0) >= 0 {
		return nil, errs.New(errs.Invalid, CodeInvalidArgument, "root path %q contains a NUL byte", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, errs.New(errs.Invalid, CodeInvalidArgument, "root path %q cannot be made absolute: %v", path, err).Wrap(err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errs.New(errs.NotFound, CodeNotFound, "root does not exist: %s", abs).With("path", abs).Wrap(err)
		}
		return nil, errs.New(errs.Internal, CodeUnreadable, "cannot resolve root %s: %v", abs, err).With("path", abs).Wrap(err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, errs.New(errs.Internal, CodeUnreadable, "cannot stat root %s: %v", abs, err).With("path", abs).Wrap(err)
	}
	if !info.IsDir() {
		return nil, errs.New(errs.Invalid, CodeNotADirectory, "root is not a directory: %s", abs).With("path", abs)
	}
	r := &Root{path: real, top: real}
	r.findWorkTree()
	return r, nil
}

// Path returns the root's absolute path with symlinks resolved.
func (r *Root) Path() string { return r.path }

// findWorkTree looks for the git work tree that contains the root, so that
// ignore files between its top and the root apply too.
func (r *Root) findWorkTree() {
	dir := r.path
	var below []string // components from dir down to the root, innermost last
	for {
		gitPath := filepath.Join(dir, ".git")
		if info, err := os.Lstat(gitPath); err == nil {
			r.top = dir
			r.base = below
			r.gitDir = gitDirOf(gitPath, info)
			return
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return // no enclosing work tree: only ignore files at and below the root apply
		}
		below = append([]string{filepath.Base(dir)}, below...)
		dir = parent
	}
}

// gitDirOf returns the git directory for a ".git" entry: the entry itself,
// or the directory named by a "gitdir:" file (worktrees, submodules).
func gitDirOf(gitPath string, info fs.FileInfo) string {
	if info.IsDir() {
		return gitPath
	}
	data, err := readSmallFile(gitPath)
	if err != nil {
		return ""
	}
	line, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	dir := strings.TrimSpace(line)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(gitPath), dir)
	}
	return dir
}

// CleanRel validates a user-supplied relative path and returns it in
// canonical form: slash-separated, without "." or empty segments, "" for the
// root itself. It applies the same refusals as Resolve but does not touch
// the file system.
func (r *Root) CleanRel(rel string) (string, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return "", err
	}
	return strings.Join(parts, "/"), nil
}

// Resolve turns a user-supplied relative path (slash or OS separators; "" or
// "." for the root itself) into an absolute path inside the root, with
// symlinks resolved. A path that does not exist is not an error; callers
// stat the result. Paths that are absolute, contain ".." segments, NUL bytes
// or URL-encoded escapes, or whose real location lies outside the root are
// refused with kind errs.OutOfRoot and code PATH_OUTSIDE_ROOT.
func (r *Root) Resolve(rel string) (string, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return "", err
	}
	real, rerr := r.realPath(parts)
	if rerr != nil {
		return "", errs.New(rerr.Kind, rerr.Code, "path %q cannot be resolved: %s", rel, rerr.Message).With("path", rel).Wrap(rerr.Err)
	}
	if !r.contains(real) {
		// Never say where: the real location is the server's business
		// (a link to /proc/self/cwd would reveal its working folder).
		return "", outsideRoot(rel, "it leads outside the root")
	}
	return real, nil
}

// contains reports whether the absolute, cleaned path p is the root or lies
// below it.
func (r *Root) contains(p string) bool {
	if p == r.path {
		return true
	}
	prefix := r.path
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}

func outsideRoot(rel, why string, args ...any) *errs.Error {
	return errs.New(errs.OutOfRoot, CodeOutsideRoot, "path %q is outside the root: %s", rel, fmt.Sprintf(why, args...)).With("path", rel)
}

// splitRel validates rel and splits it into its segments. It is purely
// lexical; symlinks are the business of realPath.
func splitRel(rel string) ([]string, error) {
	if strings.IndexByte(rel, 0) >= 0 {
		return nil, outsideRoot(rel, "it contains a NUL byte")
	}
	if hasEncodedEscape(rel) {
		// Never decode: a path that needs decoding to mean something is an
		// attempt to smuggle separators or dots past these checks.
		return nil, outsideRoot(rel, "it contains a URL-encoded escape")
	}
	slashed := strings.ReplaceAll(rel, `\`, "/")
	switch {
	case strings.HasPrefix(slashed, "/"):
		return nil, outsideRoot(rel, "absolute paths are not allowed")
	case len(slashed) >= 2 && slashed[1] == ':' && isASCIILetter(slashed[0]):
		return nil, outsideRoot(rel, "absolute paths (drive letters) are not allowed")
	case filepath.IsAbs(rel) || filepath.VolumeName(rel) != "":
		return nil, outsideRoot(rel, "absolute paths are not allowed")
	}
	var parts []string
	for _, seg := range strings.Split(slashed, "/") {
		switch {
		case seg == "" || seg == ".":
			continue
		case seg == "..":
			// Even a ".." that stays inside (a/../b) is refused: it is
			// never needed and refusing it keeps the check obvious.
			return nil, outsideRoot(rel, "'..' segments are not allowed")
		case runtime.GOOS == "windows" && strings.Trim(seg, ". ") == "":
			// Windows treats "...", ". ." and the like as "..".
			return nil, outsideRoot(rel, "segment %q is not allowed", seg)
		}
		parts = append(parts, seg)
	}
	return parts, nil
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// hasEncodedEscape reports whether s contains a percent-encoding of a byte
// that could change how the path is split or resolved: '.', '/', '\', NUL,
// '%' itself (double encoding) and the overlong UTF-8 lead bytes C0/C1.
func hasEncodedEscape(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			continue
		}
		switch hi<<4 | lo {
		case '.', '/', '\\', 0, '%', 0xc0, 0xc1:
			return true
		}
	}
	return false
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// realPath resolves the root-relative segments component by component,
// following symlinks like the kernel would, and returns the real absolute
// path. Unlike filepath.EvalSymlinks it tolerates missing components: once a
// component does not exist, the rest is appended lexically (nothing below a
// missing component can be a symlink).
func (r *Root) realPath(parts []string) (string, *errs.Error) {
	real := r.path
	pending := append([]string(nil), parts...)
	hops := 0
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		switch name {
		case "", ".":
			continue
		case "..": // only from symlink targets
			real = filepath.Dir(real)
			continue
		}
		next := filepath.Join(real, name)
		info, err := os.Lstat(next)
		if err != nil {
			// Missing (or not searchable): the rest cannot contain links
			// we could see, so finish lexically. Callers report the stat
			// error themselves.
			return filepath.Join(append([]string{next}, pending...)...), nil
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			real = next
			continue
		}
		hops++
		if hops > maxSymlinkHops {
			return "", errs.New(errs.Internal, CodeUnreadable, "too many levels of symbolic links")
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", errs.New(errs.Internal, CodeUnreadable, "cannot read a symbolic link on the way").Wrap(err)
		}
		target = filepath.FromSlash(target)
		if filepath.IsAbs(target) {
			real = filepath.VolumeName(target) + string(filepath.Separator)
			target = target[len(real):]
		}
		pending = append(strings.Split(filepath.ToSlash(target), "/"), pending...)
	}
	return real, nil
}
