package specs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/fsroot"
)

// MaxFileSize is the largest spec file Discover reads; a larger one is
// listed with a warning and no requirements.
const MaxFileSize = 1 << 20

// specFileName is the file that holds a spec in every layout.
const specFileName = "spec.md"

// Discover finds and parses the specs under root (an absolute directory the
// caller has validated). specsDir "" looks in openspec/ and specs/ directly
// under root; otherwise specsDir, relative to root, is the folder to look in
// (see the package documentation for the layouts). Discover only reads,
// never follows a symbolic link out of root, and returns the specs sorted
// by ID. A file that cannot be read or parsed is still listed, with
// Warnings; only a bad specsDir or a root that cannot be resolved fails.
func Discover(root, specsDir string) ([]Spec, error) {
	return DiscoverCached(root, specsDir, nil)
}

// ParserVersion changes whenever the spec parsers read files differently;
// a CachedFile kept from another version is not used.
const ParserVersion = "2"

// Cache lets Discover skip the spec files (and change proposals) that did
// not change since an earlier run: an index keeps what Discover made of
// each file (Next) and hands it back next time (Prev).
type Cache struct {
	Prev map[string]CachedFile // by path, from the earlier run
	// Filled by DiscoverCached: every file it used (read or kept), how many
	// it read, whether a file is new, changed or gone (the specs differ),
	// and whether a kept file has a new modification time to remember.
	Next    map[string]CachedFile
	Read    int
	Changed bool
	Touched bool
}

// CachedFile is what Discover made of one file, with what identifies its
// content.
type CachedFile struct {
	Path    string // relative to the root, slash-separated
	Size    int64
	MTimeNS int64
	Hash    string
	Data    []byte
}

// DiscoverCached is Discover reading only the files cache does not hold
// unchanged; a nil cache reads every file.
func DiscoverCached(root, specsDir string, cache *Cache) ([]Spec, error) {
	if cache != nil {
		cache.Next = map[string]CachedFile{}
	}
	specs, err := discover(root, specsDir, cache)
	if err != nil || cache == nil {
		return specs, err
	}
	for p := range cache.Prev {
		if _, ok := cache.Next[p]; !ok {
			cache.Changed = true
		}
	}
	return specs, nil
}

func discover(root, specsDir string, cache *Cache) ([]Spec, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("resolving root %s: %w", root, err)
	}
	fsr, err := fsroot.Open(realRoot)
	if err != nil {
		return nil, fmt.Errorf("opening root %s: %w", root, err)
	}
	d := &discoverer{root: root, realRoot: realRoot, fsr: fsr, seen: map[string]bool{}, cache: cache}
	if specsDir == "" {
		d.scanBase("", false)
	} else {
		base, err := d.checkSpecsDir(specsDir)
		if err != nil {
			return nil, err
		}
		if _, err := os.ReadDir(d.abs(base)); err != nil {
			return nil, fmt.Errorf("reading specs folder %s: %w", specsDir, err)
		}
		d.scanBase(base, true)
	}
	return uniqueSorted(d.specs), nil
}

type discoverer struct {
	root     string       // as given
	realRoot string       // with symbolic links resolved, for confinement checks
	fsr      *fsroot.Root // what is hidden or ignored, also through links
	seen     map[string]bool
	specs    []Spec
	cache    *Cache // nil: read every file
}

// abs turns a slash-separated path relative to the root into a file path.
func (d *discoverer) abs(rel string) string {
	return filepath.Join(d.root, filepath.FromSlash(rel))
}

func joinRel(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

// confined resolves rel's symbolic links and reports whether the result
// stays inside the root.
func (d *discoverer) confined(rel string) (real string, inside bool, err error) {
	real, err = filepath.EvalSymlinks(d.abs(rel))
	if err != nil {
		return "", false, err
	}
	return real, within(d.realRoot, real), nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// checkSpecsDir validates a configured specs folder and returns it cleaned,
// slash-separated ("." for the root itself).
func (d *discoverer) checkSpecsDir(specsDir string) (string, error) {
	outside := errs.New(errs.OutOfRoot, errs.CodeOutsideRoot, "Specs folder '%s' is outside the root", specsDir)
	slashed := filepath.ToSlash(specsDir)
	if filepath.IsAbs(specsDir) || strings.HasPrefix(slashed, "/") || filepath.VolumeName(specsDir) != "" {
		return "", outside
	}
	clean := path.Clean(slashed)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", outside
	}
	real, inside, err := d.confined(clean)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", errs.New(errs.NotFound, errs.CodeSpecsDirNotFound, "Specs folder '%s' not found", specsDir)
		}
		return "", fmt.Errorf("resolving specs folder %s: %w", specsDir, err)
	}
	if !inside {
		return "", outside
	}
	if d.fsr.Ignored(clean, true) {
		return "", errs.New(errs.NotFound, errs.CodeSpecsDirNotFound, "Specs folder '%s' is hidden or ignored", specsDir)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("reading specs folder %s: %w", specsDir, err)
	}
	if !info.IsDir() {
		return "", errs.New(errs.Invalid, errs.CodeSpecsDirNotDir, "Specs folder '%s' is not a directory", specsDir)
	}
	return clean, nil
}

// isDir reports whether rel is a directory inside the root (through
// symbolic links that stay inside).
func (d *discoverer) isDir(rel string) bool {
	real, inside, err := d.confined(rel)
	if err != nil || !inside {
		return false
	}
	info, err := os.Stat(real)
	return err == nil && info.IsDir()
}

// subdirs lists the visible subdirectories of rel, sorted by name. An
// unreadable directory has none: one bad folder must not hide the others.
func (d *discoverer) subdirs(rel string) []string {
	entries, err := os.ReadDir(d.abs(rel))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || d.fsr.Ignored(joinRel(rel, name), true) {
			continue
		}
		if e.IsDir() || (e.Type()&fs.ModeSymlink != 0 && d.isDir(joinRel(rel, name))) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// scanBase looks for the layouts under base. An explicit base may also be
// an OpenSpec folder itself or a folder of <id>/spec.md.
func (d *discoverer) scanBase(base string, explicit bool) {
	if dir := joinRel(base, "openspec"); d.isDir(dir) {
		d.scanOpenSpec(dir)
	}
	if explicit && d.isDir(joinRel(base, "changes")) {
		d.scanOpenSpec(base)
	} else if dir := joinRel(base, "specs"); d.isDir(dir) {
		d.scanSpecFolders(dir, "")
	}
	if explicit {
		d.scanSpecFolders(base, "")
	}
}

// scanOpenSpec reads an OpenSpec folder: specs/<id>/spec.md and
// changes/<change>/specs/<id>/spec.md, skipping changes/archive.
func (d *discoverer) scanOpenSpec(dir string) {
	d.scanSpecFolders(joinRel(dir, "specs"), KindOpenSpec)
	changes := joinRel(dir, "changes")
	for _, change := range d.subdirs(changes) {
		if change == "archive" {
			continue
		}
		changeDir := joinRel(changes, change)
		specsDir := joinRel(changeDir, "specs")
		for _, id := range d.subdirs(specsDir) {
			spec, ok := d.load(joinRel(joinRel(specsDir, id), specFileName), id, KindOpenSpecChange)
			if !ok {
				continue
			}
			spec.ID = change + "/" + id
			spec.Change = change
			if spec.Title == "" {
				spec.Title = fmt.Sprintf("%s (change %s)", id, change)
			}
			if spec.Purpose == "" {
				spec.Purpose = d.proposalWhy(joinRel(changeDir, "proposal.md"))
			}
			d.specs = append(d.specs, spec)
		}
	}
}

// scanSpecFolders reads dir/<id>/spec.md for every subdirectory. kind ""
// decides the format from the file.
func (d *discoverer) scanSpecFolders(dir, kind string) {
	for _, id := range d.subdirs(dir) {
		spec, ok := d.load(joinRel(joinRel(dir, id), specFileName), id, kind)
		if !ok {
			continue
		}
		if spec.Title == "" {
			spec.Title = id
		}
		d.specs = append(d.specs, spec)
	}
}

// load reads and parses one spec file. ok is false when there is no such
// file (or it was already read through another base); a file that exists
// but cannot be read yields a Spec with a warning.
func (d *discoverer) load(rel, id, kind string) (Spec, bool) {
	spec := Spec{ID: id, Kind: kind, Path: rel, Requirements: []Requirement{}}
	if spec.Kind == "" {
		spec.Kind = KindSpecKit
	}
	real, inside, err := d.confined(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Spec{}, false
		}
		spec.Warnings = append(spec.Warnings, "cannot read "+specFileName+": "+rootCause(err))
		return spec, true
	}
	// A link is judged by where it leads: a spec.md whose real file is
	// outside the root, hidden or ignored is as absent as that file.
	if !inside || d.fsr.Ignored(rel, false) {
		return Spec{}, false
	}
	if d.seen[real] {
		return Spec{}, false
	}
	d.seen[real] = true
	parsed, err := d.cached(rel, real, "spec "+kind, func(content string) ([]byte, error) {
		p := spec
		if kind == "" && !looksLikeSpecKit(id, content) {
			p.Kind = KindOpenSpec
		}
		if p.Kind == KindSpecKit {
			parseSpecKit(&p, content)
		} else {
			parseOpenSpec(&p, content)
		}
		return json.Marshal(p)
	})
	switch {
	case errors.Is(err, errNotRegular):
		return Spec{}, false
	case errors.Is(err, errTooLarge):
		spec.Warnings = append(spec.Warnings, fmt.Sprintf("%s is larger than %d bytes; not read", specFileName, MaxFileSize))
		return spec, true
	case err != nil:
		spec.Warnings = append(spec.Warnings, "cannot read "+specFileName+": "+rootCause(err))
		return spec, true
	}
	if err := json.Unmarshal(parsed, &spec); err != nil {
		spec.Warnings = append(spec.Warnings, "cannot read "+specFileName+": "+err.Error())
		return spec, true
	}
	// A change delta has no title of its own; every other spec should.
	if spec.Title == "" && spec.Kind != KindOpenSpecChange && !spec.Template {
		spec.Warnings = append(spec.Warnings, "no title (expected a '# ' heading); using the spec id")
	}
	return spec, true
}

// cached returns what parse makes of the file rel (real: its resolved
// path): kept from an earlier run when the file's size and modification
// time, or its content, are unchanged and it was parsed the same way (tag);
// else read and parsed now, and kept for the next run.
func (d *discoverer) cached(rel, real, tag string, parse func(content string) ([]byte, error)) ([]byte, error) {
	c := d.cache
	info, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errNotRegular
	}
	prev, known := CachedFile{}, false
	if c != nil {
		prev, known = c.Prev[rel]
		prev.Data = unwrapVersion(tag, prev.Data)
		known = known && prev.Data != nil
		if known && prev.Size == info.Size() && prev.MTimeNS == info.ModTime().UnixNano() {
			c.Next[rel] = c.Prev[rel]
			return prev.Data, nil
		}
	}
	content, err := readLimited(real)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(content))
	entry := CachedFile{Path: rel, Size: int64(len(content)), MTimeNS: info.ModTime().UnixNano(), Hash: hex.EncodeToString(sum[:16])}
	if c != nil {
		c.Read++
		if known && prev.Hash == entry.Hash {
			entry.Data = c.Prev[rel].Data
			c.Next[rel], c.Touched = entry, true
			return prev.Data, nil
		}
	}
	data, err := parse(content)
	if err != nil {
		return nil, err
	}
	if c != nil {
		entry.Data = wrapVersion(tag, data)
		c.Next[rel], c.Changed = entry, true
	}
	return data, nil
}

// wrapVersion prefixes kept data with ParserVersion and how the file was
// parsed; unwrapVersion returns the data kept by this version the same way,
// nil for any other.
func wrapVersion(tag string, data []byte) []byte {
	return append([]byte(ParserVersion+"\x00"+tag+"\n"), data...)
}

func unwrapVersion(tag string, data []byte) []byte {
	rest, ok := bytes.CutPrefix(data, []byte(ParserVersion+"\x00"+tag+"\n"))
	if !ok {
		return nil
	}
	return rest
}

var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("file too large")
)

// readLimited reads a regular file of at most MaxFileSize bytes.
func readLimited(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", errNotRegular
	}
	if info.Size() > MaxFileSize {
		return "", errTooLarge
	}
	// The size may change between Stat and Read; never read more than the limit.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return "", err
	}
	if len(data) > MaxFileSize {
		return "", errTooLarge
	}
	return string(data), nil
}

// rootCause drops the absolute path from a file error: warnings name files
// relative to the root.
func rootCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

var (
	numberedFolderRE  = lazyRegexp(`^\d+-`)
	specKitMarkerRE   = lazyRegexp(`(?im)^(?:#{1,6}[ \t]+user[ \t]+story\b|[ \t]*[-*+][ \t]+(?:\*\*)?N?FR-\d+|[ \t]*\|[ \t]*(?:\*\*)?N?FR-\d+)`)
	requirementLineRE = lazyRegexp(`(?im)^ {0,3}#{2,6}[ \t]+requirement[ \t]*:`)
	firstTitleRE      = lazyRegexp(`(?m)^ {0,3}#[ \t]+(.*)$`)
)

// looksLikeSpecKit decides the format of a spec found under specs/: a
// "# Feature Specification" title means spec-kit; "### Requirement:"
// headings mean OpenSpec; otherwise a numbered folder, user stories or
// FR-### bullets mean spec-kit.
func looksLikeSpecKit(folder, content string) bool {
	if m := firstTitleRE().FindStringSubmatch(content); m != nil && featureTitleRE().MatchString(unemphasized(m[1])) {
		return true
	}
	if requirementLineRE().MatchString(content) {
		return false
	}
	return numberedFolderRE().MatchString(folder) || specKitMarkerRE().MatchString(content)
}

// proposalWhy returns the "## Why" section of a change's proposal.md, the
// purpose of its deltas; "" when there is none or it cannot be read.
func (d *discoverer) proposalWhy(rel string) string {
	real, inside, err := d.confined(rel)
	if err != nil || !inside || d.fsr.Ignored(rel, false) {
		return ""
	}
	why, err := d.cached(rel, real, "proposal", func(content string) ([]byte, error) {
		return []byte(sectionWhy(content)), nil
	})
	if err != nil {
		return ""
	}
	return string(why)
}

// sectionWhy returns the "## Why" section of a proposal.
func sectionWhy(content string) string {
	var lines []string
	var f fence
	inWhy := false
	for _, line := range splitLines(content) {
		if !f.update(line) {
			if level, text, ok := heading(line); ok && level <= 2 {
				if inWhy {
					break
				}
				inWhy = level == 2 && strings.EqualFold(unemphasized(text), "why")
				continue
			}
		}
		if inWhy {
			lines = append(lines, line)
		}
	}
	return textBlock(lines)
}

// uniqueSorted sorts specs by ID and path and gives each spec whose ID is
// already taken its folder path instead, with a warning, so every spec can
// be addressed.
func uniqueSorted(specs []Spec) []Spec {
	sortSpecs(specs)
	taken := make(map[string]string, len(specs)) // id → path of its spec
	for _, s := range specs {
		if _, ok := taken[s.ID]; !ok {
			taken[s.ID] = s.Path
		}
	}
	renamed := false
	for i := range specs {
		s := &specs[i]
		if first := taken[s.ID]; first != s.Path {
			newID := path.Dir(s.Path)
			s.Warnings = append(s.Warnings, fmt.Sprintf("spec id '%s' is also used by %s; listed as '%s'", s.ID, first, newID))
			s.ID = newID
			renamed = true
		}
	}
	if renamed {
		sortSpecs(specs)
	}
	if specs == nil {
		specs = []Spec{}
	}
	return specs
}

func sortSpecs(specs []Spec) {
	sort.SliceStable(specs, func(i, j int) bool {
		if specs[i].ID != specs[j].ID {
			return specs[i].ID < specs[j].ID
		}
		return specs[i].Path < specs[j].Path
	})
}
