package app

import (
	"testing"

	"github.com/lore-dev/lore/internal/search"
)

// TestDropShownDocs: a doc comment the chunk's content already shows is
// not sent again; one the content lacks is.
func TestDropShownDocs(t *testing.T) {
	cases := []struct {
		name, doc, content, want string
	}{
		{"go comment in the chunk", "Router dispatches requests by path.",
			"// Router dispatches requests by path.\ntype Router struct{}\n", ""},
		{"rust doc lines in the chunk", "Runs f on a thread.\n\nIt may block.",
			"/// Runs f on a thread.\n///\n/// It may block.\npub fn run() {}\n", ""},
		{"python docstring in the body", "\n    Parse the arguments.\n    ",
			"def parse(argv):\n    \"\"\"\n    Parse the arguments.\n    \"\"\"\n", ""},
		{"comment outside the chunk's lines", "Handles uploads.",
			"func upload() {}\n", "Handles uploads."},
		{"no comment", "", "func f() {}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			results := []search.Result{{DocComment: c.doc, Content: c.content}}
			dropShownDocs(results)
			if got := results[0].DocComment; got != c.want {
				t.Errorf("doc comment %q, want %q", got, c.want)
			}
		})
	}
}
