package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/querylimit"
)

// fillerWords returns n distinct words, first ones first, then words
// that match nothing ("qaaaa qaaab …").
func fillerWords(n int, first ...string) string {
	out := append([]string{}, first...)
	for i := 0; len(out) < n; i++ {
		w := []byte("aaaa")
		for j, k := len(w)-1, i; j >= 0; j, k = j-1, k/26 {
			w[j] = byte('a' + k%26)
		}
		out = append(out, "q"+string(w))
	}
	return strings.Join(out, " ")
}

// TestQueryLimitsCLI runs every search command with queries over each
// limit (QUERY_TOO_LONG's message, exit 1, at once even for 200,000
// words), exactly at the byte limit (an answer), and then over a damaged
// index, where the cause is printed after what lore was doing.
func TestQueryLimitsCLI(t *testing.T) {
	f := newFactsFixture(t)
	root := []string{"--root", f.root}
	overBytes := strings.Repeat("x", querylimit.MaxBytes+1)
	huge := fillerWords(200000)
	overTerms := fillerWords(querylimit.MaxTerms + 1)
	atLimit := func(first, last string) string {
		return first + strings.Repeat(" ", querylimit.MaxBytes-len(first)-len(last)) + last
	}
	bytesMessage := func(q string) string {
		return fmt.Sprintf("lore: query is too long: %d bytes (limit %d)\n", len(q), querylimit.MaxBytes)
	}
	termsMessage := fmt.Sprintf("lore: query is too long: %d distinct terms (limit %d)\n", querylimit.MaxTerms+1, querylimit.MaxTerms)

	var tests []cliCase
	for _, cmd := range [][]string{{"search"}, {"packages", "search"}, {"specs", "search"}} {
		with := func(query string) []string { return append(append(append([]string{}, cmd...), root...), query) }
		name := strings.Join(cmd, " ")
		tests = append(tests,
			cliCase{name: name + " bytes", args: with(overBytes), code: exitUsage, stderr: bytesMessage(overBytes)},
			cliCase{name: name + " 200000 words", args: with(huge), code: exitUsage, stderr: bytesMessage(huge)},
			cliCase{name: name + " terms", args: with(overTerms), code: exitUsage, stderr: termsMessage},
		)
	}
	tests = append(tests,
		cliCase{name: "search at the limit", args: append([]string{"search"}, append(root, atLimit("button", "ui"))...), stdout: []string{" 1. "}},
		cliCase{name: "packages search at the limit", args: append([]string{"packages", "search"}, append(root, atLimit("ui", "ui"))...), stdout: []string{"@acme/ui"}},
		cliCase{name: "specs search at the limit", args: append([]string{"specs", "search"}, append(root, atLimit("password", "login"))...), stdout: []string{" 1. ", "Password Login"}},
	)
	runCases(t, f, tests)

	// A damaged index (every page but the first overwritten): the
	// driver's message, after what lore was doing.
	file, err := os.OpenFile(f.index, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := file.Stat()
	if _, err := file.WriteAt(bytes.Repeat([]byte{0xa5}, int(info.Size())-4096), 4096); err != nil {
		t.Fatal(err)
	}
	file.Close()
	runCases(t, f, []cliCase{{name: "search a damaged index", args: append([]string{"search"}, append(root, "ui")...), code: 1,
		stderr: "lore: searching the index of " + realPath(t, f.root) + ": "}})
}
