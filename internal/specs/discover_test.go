package specs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/errs"
	"github.com/lore-dev/lore/internal/testtree"
)

const smallOpenSpec = "# Small\n\n## Purpose\n\nA small spec.\n\n## Requirements\n\n### Requirement: One\n\nThe one requirement.\n\n#### Scenario: Only\n\n- **WHEN** asked\n- **THEN** answered\n"

// writeTree creates files (slash-separated paths → content) under a new
// temporary root and returns the root.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func ids(specs []Spec) []string {
	out := []string{}
	for _, s := range specs {
		out = append(out, s.ID)
	}
	return out
}

func TestDiscoverSpecsDir(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "repo"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		specsDir string
		want     []string
	}{
		{"", []string{"001-export-bookmarks", "002-notify", "add-2fa/auth", "add-2fa/session", "auth", "broken", "search", "variants"}},
		{".", []string{"001-export-bookmarks", "002-notify", "add-2fa/auth", "add-2fa/session", "auth", "broken", "search", "variants"}},
		{"openspec", []string{"add-2fa/auth", "add-2fa/session", "auth", "broken", "search", "variants"}},
		{"openspec/", []string{"add-2fa/auth", "add-2fa/session", "auth", "broken", "search", "variants"}},
		{"openspec/specs", []string{"auth", "broken", "search", "variants"}},
		{"specs", []string{"001-export-bookmarks", "002-notify"}},
		{"specs/../openspec/specs", []string{"auth", "broken", "search", "variants"}},
		{"openspec/changes/add-2fa/specs", []string{"auth", "session"}},
	}
	for _, tt := range tests {
		t.Run(tt.specsDir, func(t *testing.T) {
			specs, err := Discover(root, tt.specsDir)
			if err != nil {
				t.Fatalf("Discover(%q): %v", tt.specsDir, err)
			}
			if got := ids(specs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ids = %q, want %q", got, tt.want)
			}
		})
	}
	// Folders given directly keep the format of their files.
	specs, err := Discover(root, "openspec/specs")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		if s.Kind != KindOpenSpec {
			t.Errorf("%s: kind %q, want %q", s.ID, s.Kind, KindOpenSpec)
		}
	}
}

func TestDiscoverSpecsDirErrors(t *testing.T) {
	root := writeTree(t, map[string]string{"file.md": "x", "openspec/specs/a/spec.md": smallOpenSpec,
		".gitignore": "private/\n", "private/specs/p/spec.md": smallOpenSpec, ".design/specs/d/spec.md": smallOpenSpec})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		specsDir string
		kind     errs.Kind
		code     string
		message  string
	}{
		{"../other", errs.OutOfRoot, "PATH_OUTSIDE_ROOT", "Specs folder '../other' is outside the root"},
		{"openspec/../../x", errs.OutOfRoot, "PATH_OUTSIDE_ROOT", "Specs folder 'openspec/../../x' is outside the root"},
		{"..", errs.OutOfRoot, "PATH_OUTSIDE_ROOT", "Specs folder '..' is outside the root"},
		{"/etc", errs.OutOfRoot, "PATH_OUTSIDE_ROOT", "Specs folder '/etc' is outside the root"},
		{"escape", errs.OutOfRoot, "PATH_OUTSIDE_ROOT", "Specs folder 'escape' is outside the root"},
		{"missing", errs.NotFound, "SPECS_DIR_NOT_FOUND", "Specs folder 'missing' not found"},
		{"file.md", errs.Invalid, "SPECS_DIR_NOT_DIR", "Specs folder 'file.md' is not a directory"},
		{"private", errs.NotFound, "SPECS_DIR_NOT_FOUND", "Specs folder 'private' is hidden or ignored"},
		{".design", errs.NotFound, "SPECS_DIR_NOT_FOUND", "Specs folder '.design' is hidden or ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.specsDir, func(t *testing.T) {
			specs, err := Discover(root, tt.specsDir)
			if err == nil {
				t.Fatalf("Discover(%q) = %v, want an error", tt.specsDir, ids(specs))
			}
			e, ok := errs.As(err)
			if !ok {
				t.Fatalf("error %v is not an *errs.Error", err)
			}
			if e.Kind != tt.kind || e.Code != tt.code || e.Message != tt.message {
				t.Errorf("error = (%v, %s, %q), want (%v, %s, %q)", e.Kind, e.Code, e.Message, tt.kind, tt.code, tt.message)
			}
		})
	}
}

func TestDiscoverEmpty(t *testing.T) {
	root := writeTree(t, map[string]string{"README.md": "# nothing here", "specs/notes.md": "no folders"})
	specs, err := Discover(root, "")
	if err != nil {
		t.Fatal(err)
	}
	if specs == nil || len(specs) != 0 {
		t.Fatalf("specs = %#v, want an empty non-nil slice", specs)
	}
	b, err := json.Marshal(List(specs))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "[]" {
		t.Errorf("JSON = %s, want []", b)
	}
}

func TestDiscoverSymlinks(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret/spec.md": smallOpenSpec, "spec.md": smallOpenSpec})
	root := writeTree(t, map[string]string{
		"openspec/specs/real/spec.md":    smallOpenSpec,
		"openspec/specs/linked/.keep":    "",
		"openspec/specs/outfile/.keep":   "",
		"shared/inside/spec.md":          smallOpenSpec,
		"openspec/specs/.hidden/spec.md": smallOpenSpec,
	})
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(outside, "secret"), "openspec/specs/escaped")           // a folder outside: not listed
	link(filepath.Join(outside, "spec.md"), "openspec/specs/outfile/spec.md")  // a file outside: as absent as its target
	link(filepath.Join(root, "shared", "inside"), "openspec/specs/insidelink") // inside the root: followed
	link(filepath.Join(root, "openspec/specs/real/spec.md"), "openspec/specs/linked/spec.md")
	link(filepath.Join(outside, "nowhere"), "openspec/specs/dangling")

	specs, err := Discover(root, "")
	if err != nil {
		t.Fatal(err)
	}
	// linked/spec.md is the same file as real/spec.md; it is read once,
	// under the first name in order.
	if got, want := ids(specs), []string{"insidelink", "linked"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ids = %q, want %q", got, want)
	}
	if len(specs[0].Requirements) != 1 {
		t.Errorf("symlink inside the root not followed: %+v", specs[0])
	}
}

func TestDiscoverLargeAndUnreadableFiles(t *testing.T) {
	large := "# Large\n" + strings.Repeat("x", MaxFileSize)
	root := writeTree(t, map[string]string{
		"openspec/specs/large/spec.md":      large,
		"openspec/specs/locked/spec.md":     smallOpenSpec,
		"openspec/specs/ok/spec.md":         smallOpenSpec,
		"openspec/specs/dir/spec.md/nested": "a directory named spec.md is not a spec",
	})
	// A spec.md that is a loop of symbolic links exists but cannot be read.
	loopDir := filepath.Join(root, "openspec", "specs", "loop")
	if err := os.MkdirAll(loopDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("other.md", filepath.Join(loopDir, "spec.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("spec.md", filepath.Join(loopDir, "other.md")); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(root, "openspec", "specs", "locked", "spec.md")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	specs, err := Discover(root, "")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Spec{}
	for _, s := range specs {
		byID[s.ID] = s
	}
	if _, ok := byID["dir"]; ok {
		t.Error("a directory named spec.md was listed")
	}
	if got := byID["large"].Warnings; !reflect.DeepEqual(got, []string{"spec.md is larger than 1048576 bytes; not read"}) {
		t.Errorf("large file warnings = %q", got)
	}
	if got := byID["loop"].Warnings; len(got) != 1 || !strings.HasPrefix(got[0], "cannot read spec.md: ") || strings.Contains(got[0], root) {
		t.Errorf("symlink loop warnings = %q, want one 'cannot read' warning without the absolute path", got)
	}
	if len(byID["ok"].Requirements) != 1 {
		t.Errorf("ok spec = %+v", byID["ok"])
	}
	if os.Geteuid() == 0 {
		return // root reads any file; the permission case cannot happen
	}
	if got := byID["locked"].Warnings; len(got) == 0 || got[0] != "cannot read spec.md: permission denied" {
		t.Errorf("unreadable file warnings = %q", got)
	}
}

func TestDiscoverDuplicateIDs(t *testing.T) {
	root := writeTree(t, map[string]string{
		"openspec/specs/auth/spec.md": smallOpenSpec,
		"specs/auth/spec.md":          smallOpenSpec, // OpenSpec style under specs/: parsed as OpenSpec
	})
	specs, err := Discover(root, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(specs), []string{"auth", "specs/auth"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ids = %q, want %q", got, want)
	}
	if specs[1].Kind != KindOpenSpec {
		t.Errorf("kind = %q, want %q", specs[1].Kind, KindOpenSpec)
	}
	if want := []string{"spec id 'auth' is also used by openspec/specs/auth/spec.md; listed as 'specs/auth'"}; !reflect.DeepEqual(specs[1].Warnings, want) {
		t.Errorf("warnings = %q, want %q", specs[1].Warnings, want)
	}
}

func TestDiscoverIsDeterministic(t *testing.T) {
	first := fixtureSpecs(t)
	for i := 0; i < 3; i++ {
		if again := fixtureSpecs(t); !reflect.DeepEqual(first, again) {
			t.Fatal("two discoveries of the same tree differ")
		}
	}
}

func TestDiscoverBadRoot(t *testing.T) {
	if _, err := Discover(filepath.Join(t.TempDir(), "missing"), ""); err == nil {
		t.Error("Discover on a missing root succeeded")
	}
}

// TestDiscoverHostileTree: spec files reached through links into hidden,
// ignored or outside places are as absent as their targets, and a
// gitignored spec folder is not read.
func TestDiscoverHostileTree(t *testing.T) {
	h := testtree.WriteHostile(t)
	testtree.Write(t, h.Root, map[string]string{"secrets/specs/x/spec.md": smallOpenSpec})
	specs, err := Discover(h.Root, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(specs); !reflect.DeepEqual(got, []string{"auth"}) {
		t.Fatalf("ids = %q, want only the visible spec", got)
	}
	data, _ := json.Marshal(specs)
	if strings.Contains(string(data), testtree.SecretMarker) {
		t.Fatalf("a secret reached the specs: %s", data)
	}
	if _, err := Discover(h.Root, "secrets"); err == nil {
		t.Fatal("an ignored specs folder was read")
	}
}

// TestDiscoverUnfilledTemplate: a spec-kit template nobody filled in is
// listed under its folder name and marked, without placeholder title,
// purpose or requirements.
func TestDiscoverUnfilledTemplate(t *testing.T) {
	root := writeTree(t, map[string]string{
		"specs/003-new-feature/spec.md": "# Feature Specification: [FEATURE NAME]\n\n**Input**: User description: \"$ARGUMENTS\"\n\n" +
			"### User Story 1 - [Brief Title] (Priority: P1)\n\n- **FR-001**: System MUST [specific capability]\n",
		"specs/004-tables/spec.md": "# Feature Specification: Tables\n\n| ID | Requirement |\n|---|---|\n| FR-01 | Rows are requirements. |\n",
	})
	found, err := Discover(root, "")
	if err != nil {
		t.Fatal(err)
	}
	got := List(found)
	want := []Summary{
		{ID: "003-new-feature", Title: "003-new-feature", Kind: KindSpecKit, Template: true,
			Warnings: []string{"unfilled spec-kit template: the title and purpose are placeholders; 1 requirement(s) still holding placeholders left out"}},
		{ID: "004-tables", Title: "Tables", Kind: KindSpecKit},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List =\n%+v\nwant\n%+v", got, want)
	}
	if reqs, err := Requirements(found, "004-tables"); err != nil || len(reqs) != 1 || reqs[0].Name != "FR-01" {
		t.Errorf("requirements of the table spec = %+v, %v", reqs, err)
	}
	b, _ := json.Marshal(got[0])
	if !strings.Contains(string(b), `"template":true`) {
		t.Errorf("summary JSON %s has no template mark", b)
	}
}
