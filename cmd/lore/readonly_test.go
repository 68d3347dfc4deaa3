//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	svc "github.com/lore-dev/lore/internal/app"
)

// nobody is the user a root test runs lore as, so that file permissions
// apply to it (they do not to root: chmod alone proves nothing in CI).
const nobody = 65534

// TestReadOnlyIndexFolder runs a real lore against an index it may not
// write: searching it works (reads only; WAL mode must not need a -shm
// file it cannot create), and indexing says what is read-only and what to
// do, never SQLite's "unable to open database file (14)" or "attempt to
// write a readonly database (8)". As root it runs lore as user nobody;
// otherwise it chmods the folder and file.
func TestReadOnlyIndexFolder(t *testing.T) {
	bin := loreBinary(t)
	root := realPath(t, cliRepo(t))
	roDir := realPath(t, t.TempDir()) // holds an index; read-only for lore
	indexPath := filepath.Join(roDir, "index.db")
	services := svc.New(svc.Options{IndexFor: svc.DefaultIndexFor(indexPath)})
	defer services.Close()
	if _, err := services.Index(context.Background(), svc.IndexRequest{Root: root}); err != nil {
		t.Fatal(err)
	}
	rwDir := realPath(t, t.TempDir()) // writable for lore, with a read-only index file
	roFile := filepath.Join(rwDir, "index.db")
	data, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(roFile, data, 0o644); err != nil {
		t.Fatal(err)
	}

	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: nobody, Gid: nobody}
		// nobody must reach the binary, the root and both folders (test
		// folders are 0700), may write rwDir but not the root-owned file
		// in it, and may not write roDir (root-owned, 0755).
		for _, d := range []string{filepath.Dir(bin), root, roDir, rwDir} {
			for _, p := range []string{d, filepath.Dir(d)} {
				if err := os.Chmod(p, 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := os.Chown(rwDir, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := os.Chmod(roDir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(roDir, 0o755) })
		if err := os.Chmod(roFile, 0o444); err != nil {
			t.Fatal(err)
		}
		if f, err := os.CreateTemp(roDir, "probe"); err == nil {
			f.Close()
			t.Skip("chmod 0555 does not stop this user from writing")
		}
	}

	const hint = "; choose another location with --index or LORE_CACHE_DIR"
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string // a substring
		wantStderr string // exactly
	}{
		{"search an index in a read-only folder", []string{"--index", indexPath, "search", "--root", root, "Router"},
			exitOK, "router.go", ""},
		{"status of an index in a read-only folder", []string{"--index", indexPath, "status", "--root", root},
			exitOK, "index           " + indexPath + "\n", ""},
		{"search a read-only index file", []string{"--index", roFile, "search", "--root", root, "Router"},
			exitOK, "router.go", ""},
		{"update an index in a read-only folder", []string{"--index", indexPath, "index", root},
			exitError, "", "lore: cannot write the index " + indexPath + ": its folder " + roDir + " is read-only (permission denied)" + hint + "\n"},
		{"create an index in a read-only folder", []string{"--index", filepath.Join(roDir, "new.db"), "index", root},
			exitError, "", "lore: cannot write the index " + filepath.Join(roDir, "new.db") + ": its folder " + roDir + " is read-only (permission denied)" + hint + "\n"},
		{"create an index folder in a read-only folder", []string{"--index", filepath.Join(roDir, "sub", "index.db"), "index", root},
			exitError, "", "lore: cannot write the index " + filepath.Join(roDir, "sub", "index.db") + ": its folder " + filepath.Join(roDir, "sub") + " cannot be created (permission denied)" + hint + "\n"},
		{"update a read-only index file", []string{"--index", roFile, "index", root},
			exitError, "", "lore: cannot write the index " + roFile + ": the file is read-only (permission denied); make it writable or choose another location with --index or LORE_CACHE_DIR\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var stdout, stderr bytes.Buffer
			cmd := exec.CommandContext(ctx, bin, tt.args...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "LORE_CACHE_DIR=/nonexistent/lore"}
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if cred != nil {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
			}
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				if cred != nil {
					t.Skipf("cannot run lore as user %d: %v", nobody, err)
				}
				t.Fatal(err)
			}
			code := exitCode(t, err)
			if code != tt.wantCode || !strings.Contains(stdout.String(), tt.wantStdout) || stderr.String() != tt.wantStderr {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit %d, stdout with %q, stderr %q",
					code, stdout.String(), stderr.String(), tt.wantCode, tt.wantStdout, tt.wantStderr)
			}
		})
	}
	// Nothing was written into the read-only folder.
	entries, _ := os.ReadDir(roDir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "index.db index.db.lock" {
		t.Errorf("read-only folder holds %s, want index.db index.db.lock", got)
	}
}
