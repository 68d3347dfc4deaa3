package search

import (
	"strings"

	"github.com/lore-dev/lore/internal/store"
)

// testModuleNames are the names of a module or namespace that holds a
// file's own tests: Rust's `#[cfg(test)] mod tests`, a `module Tests` kept
// beside the code it exercises. Only the whole name of a module counts: a
// class Test (mocha's lib/test.js), TestCase or TestRunner in a test
// framework is its implementation.
var testModuleNames = map[string]bool{"test": true, "tests": true, "testing": true, "spec": true, "specs": true}

// isTestContainer reports a chunk that opens a file's test module.
func isTestContainer(row *store.ChunkMeta) bool {
	if row.Kind != "module" {
		return false
	}
	first, _, _ := strings.Cut(row.Symbols, "\n")
	return first != "" && testModuleNames[strings.ToLower(lastSegment(first))]
}

// markTestRegions finds the chunks of implementation files that are the
// file's own tests: the chunks from a test module's opening chunk
// (isTestContainer) to the end of the file. A test module closes its file
// by convention (Rust's clippy warns about items after it), and the
// chunker records the module's opening lines as a chunk of its own, then
// its members; so what follows it belongs to it, modules included: a
// module after the tests is nested in them (ratatui's `mod tests { mod
// no_scrolling_regions { … } }`), which the chunks' lines cannot tell from
// a sibling. (With weights.testsToEnd off, the next module closes the
// region, as it did before.) These chunks name what they test in every line
// (line_composer_word_wrapper_nbsp in reflow.rs) and outrank the
// definitions they exercise. chunkFile is the file slot of each chunk by
// position (-1: dead); the result is a flag per position, nil when no file has a test
// module.
func markTestRegions(meta []store.ChunkMeta, chunkFile []int32, files int) []bool {
	var from []int32 // per file slot: the first line of its test module, 0 when none
	for pos := range meta {
		if chunkFile[pos] < 0 || !isTestContainer(&meta[pos]) {
			continue // dead, or no test module
		}
		if from == nil {
			from = make([]int32, files)
		}
		slot := chunkFile[pos]
		if line := meta[pos].StartLine; from[slot] == 0 || line < from[slot] {
			from[slot] = line
		}
	}
	if from == nil {
		return nil
	}
	until := make([]int32, files) // per file slot: the next sibling module's first line, 0 when none
	for pos := range meta {
		row, slot := &meta[pos], chunkFile[pos]
		if weights.testsToEnd || slot < 0 || from[slot] == 0 || row.Kind != "module" || row.StartLine <= from[slot] || isTestContainer(row) {
			continue
		}
		if until[slot] == 0 || row.StartLine < until[slot] {
			until[slot] = row.StartLine
		}
	}
	in := make([]bool, len(meta))
	for pos := range meta {
		slot, line := chunkFile[pos], meta[pos].StartLine
		in[pos] = slot >= 0 && from[slot] != 0 && line >= from[slot] && (until[slot] == 0 || line < until[slot])
	}
	return in
}
