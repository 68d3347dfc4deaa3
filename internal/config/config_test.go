package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestIndexPath(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(EnvCacheDir, cache)
	t.Setenv(EnvIndex, "")

	def, err := IndexPath("", "/home/me/src/my repo")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(def, filepath.Join(cache, "indexes", "my_repo-")) || filepath.Base(def) != "index.db" {
		t.Errorf("default index path = %q, want it under %s/indexes/my_repo-*", def, cache)
	}
	other, _ := IndexPath("", "/home/me/other/my repo")
	if other == def {
		t.Errorf("two roots with the same base name share an index: %q", def)
	}

	t.Setenv(EnvIndex, filepath.Join(cache, "env.db"))
	if got, _ := IndexPath("", "/x"); got != filepath.Join(cache, "env.db") {
		t.Errorf("LORE_INDEX ignored: got %q", got)
	}
	if got, _ := IndexPath(filepath.Join(cache, "flag.db"), "/x"); got != filepath.Join(cache, "flag.db") {
		t.Errorf("--index flag does not win over LORE_INDEX: got %q", got)
	}
}
