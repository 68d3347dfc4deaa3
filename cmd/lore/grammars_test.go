package main

import (
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/lang"
)

// TestOnlyUsedGrammarsAreBuilt: the tree-sitter grammars are most of the C
// a first build compiles (docs/build.md), so lore links exactly one
// grammar package per language that lang.Grammars lists: no grammar the
// chunker does not use, and no language without its grammar.
func TestOnlyUsedGrammarsAreBuilt(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const prefix = "github.com/smacker/go-tree-sitter/"
	// Package folder → language name, where they differ.
	names := map[string]string{"golang": "go", "typescript/typescript": "typescript", "typescript/tsx": "tsx"}
	var built []string
	for _, pkg := range strings.Fields(string(out)) {
		dir, ok := strings.CutPrefix(pkg, prefix)
		if !ok {
			continue
		}
		if name, ok := names[dir]; ok {
			dir = name
		}
		built = append(built, dir)
	}
	sort.Strings(built)
	if want := lang.Grammars(); !slices.Equal(built, want) {
		t.Errorf("grammar packages built into lore: %v\nlanguages with a grammar: %v", built, want)
	}
}
