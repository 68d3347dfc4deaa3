package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"
)

// sqliteErr stands for modernc.org/sqlite's *Error, which has no exported
// constructor: NotWritable reads only its Code method.
type sqliteErr struct{ code int }

func (e sqliteErr) Error() string { return fmt.Sprintf("sqlite error (%d)", e.code) }
func (e sqliteErr) Code() int     { return e.code }

// TestNotWritable maps the errors that a read-only index location gives
// (the real SQLite codes 14, 8 and the extended 1544, EACCES, EROFS) to
// one message that names the file and the folder and says what to do,
// and leaves every other error alone. The real-process test is
// cmd/lore's TestReadOnlyIndexFolder; this one runs as any user.
func TestNotWritable(t *testing.T) {
	const file = "/srv/idx/index.db"
	const hint = "; choose another location with --index or LORE_CACHE_DIR"
	denied := &fs.PathError{Op: "open", Path: "/srv/idx/x", Err: syscall.EACCES}
	rofs := &fs.PathError{Op: "open", Path: "/srv/idx/x", Err: syscall.EROFS}
	missing := &fs.PathError{Op: "open", Path: "/srv/idx/x", Err: syscall.ENOENT}
	tests := []struct {
		name            string
		err             error
		dirErr, fileErr error
		want            string // "" means not mapped
	}{
		{"CANTOPEN (14) in a read-only folder", sqliteErr{14}, denied, nil,
			"cannot write the index /srv/idx/index.db: its folder /srv/idx is read-only (permission denied)" + hint},
		{"READONLY_DIRECTORY (1544)", fmt.Errorf("migrating: %w", sqliteErr{1544}), denied, denied,
			"cannot write the index /srv/idx/index.db: its folder /srv/idx is read-only (permission denied)" + hint},
		{"READONLY (8) on a read-only file", sqliteErr{8}, nil, denied,
			"cannot write the index /srv/idx/index.db: the file is read-only (permission denied); make it writable or choose another location with --index or LORE_CACHE_DIR"},
		{"lock file in a read-only folder (EACCES)", denied, denied, nil,
			"cannot write the index /srv/idx/index.db: its folder /srv/idx is read-only (permission denied)" + hint},
		{"read-only file system", rofs, rofs, rofs,
			"cannot write the index /srv/idx/index.db: its folder /srv/idx is read-only (read-only file system)" + hint},
		{"folder cannot be created", &fs.PathError{Op: "mkdir", Path: "/srv/idx", Err: syscall.EACCES}, missing, nil,
			"cannot write the index /srv/idx/index.db: its folder /srv/idx cannot be created (permission denied)" + hint},
		{"access error but writable after all", sqliteErr{14}, nil, nil, ""},
		{"SQLITE_ERROR (1)", sqliteErr{1}, denied, denied, ""},
		{"SQLITE_CORRUPT (11)", sqliteErr{11}, denied, denied, ""},
		{"SQLITE_FULL (13)", sqliteErr{13}, denied, denied, ""},
		{"not an access error", errors.New("disk on fire"), denied, denied, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probe := func(dir, f string) (error, error) {
				if dir != "/srv/idx" || f != file {
					t.Errorf("probed %s, %s", dir, f)
				}
				return tt.dirErr, tt.fileErr
			}
			e := notWritable(file, tt.err, probe)
			if tt.want == "" {
				if e != nil {
					t.Errorf("mapped to %q, want the error left alone", e.Message)
				}
				return
			}
			if e == nil {
				t.Fatalf("not mapped, want %q", tt.want)
			}
			if e.Message != tt.want || e.Code != "INDEX_NOT_WRITABLE" {
				t.Errorf("got %s %q\nwant INDEX_NOT_WRITABLE %q", e.Code, e.Message, tt.want)
			}
			if !errors.Is(e, tt.err) {
				t.Errorf("the cause is not kept")
			}
			if strings.Contains(e.Message, "(14)") || strings.Contains(e.Message, "(8)") {
				t.Errorf("raw SQLite text in %q", e.Message)
			}
		})
	}
}

// TestProbeAccess checks the probe on a writable folder and a missing one
// (read-only ones need another user: see TestReadOnlyIndexFolder).
func TestProbeAccess(t *testing.T) {
	dir := t.TempDir()
	if dirErr, fileErr := probeAccess(dir, dir+"/index.db"); dirErr != nil || fileErr != nil {
		t.Errorf("writable folder: %v, %v", dirErr, fileErr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the probe left %v behind", entries)
	}
	if dirErr, _ := probeAccess(dir+"/missing", dir+"/missing/index.db"); !errors.Is(dirErr, fs.ErrNotExist) {
		t.Errorf("missing folder: %v", dirErr)
	}
}
