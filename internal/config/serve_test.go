package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadServe(t *testing.T) {
	work := t.TempDir()
	served := filepath.Join(work, "served")
	code := filepath.Join(work, "code")
	docs := filepath.Join(work, "docs")
	file := filepath.Join(work, "a-file.txt")
	for _, d := range []string{served, code, docs} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A config file in another folder: its relative paths are relative to it.
	cfgDir := filepath.Join(work, "cfg")
	if err := os.Mkdir(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile := func(name, body string) string {
		p := filepath.Join(cfgDir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := writeFile("good.toml", "[serve]\ncode_root = \"../code\"\ndocs_root = \"../docs\"\nserver_name = \"my-lore\"\n[index]\nother = 1\n")
	missing := writeFile("missing.toml", "[serve]\ndocs_root = \"../nope\"\n")
	unknown := writeFile("unknown.toml", "[serve]\ncode_rot = \"../code\"\n")
	badType := writeFile("badtype.toml", "[serve]\ncode_root = 3\n")
	broken := writeFile("broken.toml", "[serve\n")
	allow := writeFile("allow.toml", "[serve]\nallow_roots = [\"../docs\"]\n")
	allowBad := writeFile("allowbad.toml", "[serve]\nallow_roots = \"../docs\"\n")
	allowMissing := writeFile("allowmissing.toml", "[serve]\nallow_roots = [\"../gone\"]\n")

	tests := []struct {
		name    string
		in      ServeInputs
		env     map[string]string
		want    *Serve
		wantErr []string // substrings the error must contain
	}{
		{
			name: "defaults: both roots are the served root",
			in:   ServeInputs{Root: "served", DefaultVersion: "1.0.0"},
			want: &Serve{Root: served, CodeRoot: served, DocsRoot: served, ServerName: "lore", ServerVersion: "1.0.0"},
		},
		{
			name: "unset DOCS_ROOT follows CODE_ROOT",
			in:   ServeInputs{Root: "served"},
			env:  map[string]string{EnvCodeRoot: code},
			want: &Serve{Root: served, CodeRoot: code, DocsRoot: code, ServerName: "lore", ServerVersion: "dev"},
		},
		{
			name: "env sets everything",
			in:   ServeInputs{Root: served},
			env:  map[string]string{EnvCodeRoot: "code", EnvDocsRoot: docs, EnvServerName: "x", EnvServerVersion: "9"},
			want: &Serve{Root: served, CodeRoot: code, DocsRoot: docs, ServerName: "x", ServerVersion: "9"},
		},
		{
			name: "config file, relative to its folder; other sections ignored",
			in:   ServeInputs{Root: "served", ConfigFile: good},
			want: &Serve{Root: served, CodeRoot: code, DocsRoot: docs, ServerName: "my-lore", ServerVersion: "dev", ConfigFile: good},
		},
		{
			name: "env wins over the config file",
			in:   ServeInputs{Root: "served", ConfigFile: good},
			env:  map[string]string{EnvCodeRoot: served},
			want: &Serve{Root: served, CodeRoot: served, DocsRoot: docs, ServerName: "my-lore", ServerVersion: "dev", ConfigFile: good},
		},
		{
			name:    "CODE_ROOT missing",
			in:      ServeInputs{Root: "served"},
			env:     map[string]string{EnvCodeRoot: filepath.Join(work, "nope")},
			wantErr: []string{"CODE_ROOT=", "nope", "does not exist"},
		},
		{
			name:    "DOCS_ROOT is a file",
			in:      ServeInputs{Root: "served"},
			env:     map[string]string{EnvDocsRoot: file},
			wantErr: []string{"DOCS_ROOT=", "not a directory"},
		},
		{
			name:    "DOCS_ROOT missing, set in the config file",
			in:      ServeInputs{Root: "served", ConfigFile: missing},
			wantErr: []string{"DOCS_ROOT=../nope", "missing.toml [serve] docs_root", "does not exist"},
		},
		{
			name:    "--root missing",
			in:      ServeInputs{Root: "gone"},
			wantErr: []string{"--root=gone", "does not exist"},
		},
		{
			name:    "explicit config file missing",
			in:      ServeInputs{ConfigFile: filepath.Join(cfgDir, "absent.toml")},
			wantErr: []string{"reading config file", "absent.toml"},
		},
		{
			name:    "unknown key",
			in:      ServeInputs{ConfigFile: unknown},
			wantErr: []string{`unknown key "code_rot"`},
		},
		{
			name:    "wrong type",
			in:      ServeInputs{ConfigFile: badType},
			wantErr: []string{"code_root must be a string"},
		},
		{
			name: "--allow-root, then the config file's allow_roots",
			in:   ServeInputs{Root: "served", ConfigFile: allow, AllowRoots: []string{"code"}},
			want: &Serve{Root: served, CodeRoot: served, DocsRoot: served, ServerName: "lore", ServerVersion: "dev", ConfigFile: allow, AllowRoots: []string{code, docs}},
		},
		{
			name:    "--allow-root missing",
			in:      ServeInputs{Root: "served", AllowRoots: []string{"gone"}},
			wantErr: []string{"--allow-root=gone", "does not exist"},
		},
		{
			name:    "allow_roots not a list",
			in:      ServeInputs{Root: "served", ConfigFile: allowBad},
			wantErr: []string{"allow_roots must be a list"},
		},
		{
			name:    "allow_roots entry missing",
			in:      ServeInputs{Root: "served", ConfigFile: allowMissing},
			wantErr: []string{"allow_roots=../gone", "allowmissing.toml [serve] allow_roots", "does not exist"},
		},
		{
			name:    "broken toml",
			in:      ServeInputs{ConfigFile: broken},
			wantErr: []string{"parsing config file", "broken.toml"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.WorkDir = work
			in.Getenv = func(k string) string { return tt.env[k] }
			got, err := LoadServe(in)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("LoadServe succeeded (%+v), want an error containing %q", got, tt.wantErr)
				}
				for _, s := range tt.wantErr {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not contain %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadServe: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LoadServe = %+v\nwant        %+v", *got, *tt.want)
			}
		})
	}
}

func TestLoadServeDefaultConfigFile(t *testing.T) {
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, DefaultConfigFile), []byte("[serve]\ncode_root = \"code\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadServe(ServeInputs{WorkDir: work, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if got.CodeRoot != filepath.Join(work, "code") || got.DocsRoot != got.CodeRoot || got.Root != work {
		t.Errorf("lore.toml in the working directory not used: %+v", got)
	}
	if got.ConfigFile != filepath.Join(work, DefaultConfigFile) {
		t.Errorf("ConfigFile = %q", got.ConfigFile)
	}
}

func TestLoadServeUnreadableRoot(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read any directory")
	}
	work := t.TempDir()
	locked := filepath.Join(work, "locked")
	if err := os.Mkdir(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	_, err := LoadServe(ServeInputs{WorkDir: work, Getenv: func(k string) string {
		if k == EnvCodeRoot {
			return locked
		}
		return ""
	}})
	if err == nil || !strings.Contains(err.Error(), "CODE_ROOT=") || !strings.Contains(err.Error(), "not readable") {
		t.Errorf("unreadable CODE_ROOT: err = %v", err)
	}
}
