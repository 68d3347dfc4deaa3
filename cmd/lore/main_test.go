package main

import (
	"fmt"
	"os"
	"testing"
)

// testBinDir holds what the tests share for the whole run: the lore
// binary loreBinary builds.
var testBinDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lore-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBinDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
