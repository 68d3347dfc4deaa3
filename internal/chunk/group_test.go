package chunk

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// declared writes n documented member declarations named prefix0…, each
// with a doc comment of docLines lines and a blank line after it.
func declared(prefix string, n, docLines int) string {
	var b strings.Builder
	for i := range n {
		for j := range docLines {
			fmt.Fprintf(&b, "  // %s%d waits for the queue to drain, line %d.\n", prefix, i, j)
		}
		fmt.Fprintf(&b, "  bool %s%d(int timeout_ms) const;\n\n", prefix, i)
	}
	return b.String()
}

// longBody writes a member function with a body of n statements.
func longBody(name string, n int) string {
	return "  // " + name + " runs every pending task.\n  void " + name + "() {\n" +
		strings.Repeat("    step();\n", n) + "  }\n\n"
}

// TestMembersAreGrouped: in C++, a class body or a namespace too big for
// one chunk is chunked as documented groups of its declarations (up to
// groupMaxLines, their names as symbols, their comments as doc), while a
// member with a longer body stays a chunk of its own; C is chunked one
// definition at a time as before.
func TestMembersAreGrouped(t *testing.T) {
	cases := []struct {
		name, language, src string
		// groups are the symbols each grouped chunk must hold, in order.
		groups [][]string
		// alone are names that must be a chunk's only symbol.
		alone []string
		crumb string // the breadcrumb of the groups
	}{
		{"class of documented declarations", "cpp",
			"namespace pool {\n\nclass Scheduler {\n public:\n" + declared("Wait", 12, 6) + "};\n\n}  // namespace pool\n",
			[][]string{{"Wait0", "Wait1", "Wait2", "Wait3", "Wait4", "Wait5", "Wait6"}, {"Wait7", "Wait8", "Wait9", "Wait10", "Wait11"}},
			nil, "pool > Scheduler"},
		{"a long body stays apart", "cpp",
			"class Scheduler {\n public:\n" + declared("Wait", 6, 6) + longBody("Drain", 12) + declared("Post", 6, 6) + "};\n",
			[][]string{{"Wait0", "Wait1", "Wait2", "Wait3", "Wait4", "Wait5"}, {"Post0", "Post1", "Post2", "Post3", "Post4", "Post5"}},
			[]string{"Drain"}, "Scheduler"},
		{"short inline bodies join", "cpp",
			"class Counter {\n public:\n" + declared("Get", 6, 6) +
				"  // Reset sets the count to zero.\n  void Reset() { count_ = 0; }\n\n" + declared("Add", 6, 6) + " private:\n  int count_;\n};\n",
			[][]string{{"Get0", "Get1", "Get2", "Get3", "Get4", "Get5", "Reset", "Add0"}, {"Add1", "Add2", "Add3", "Add4", "Add5"}},
			nil, "Counter"},
		{"C prototypes stay one a chunk", "c",
			strings.NewReplacer("  ", "", " const;", ";").Replace(declared("wait", 12, 6)),
			nil, []string{"wait0", "wait5", "wait11"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			chunks, _ := Analyze("pool."+c.language, c.language, src)
			checkCoverage(t, src, chunks)
			for _, want := range c.groups {
				i := slices.IndexFunc(chunks, func(ch Chunk) bool { return slices.Contains(ch.Symbols, want[0]) })
				if i < 0 {
					t.Fatalf("no chunk defines %s; chunks: %+v", want[0], chunks)
				}
				ch := chunks[i]
				if !slices.Equal(ch.Symbols, want) {
					t.Errorf("group of %s has symbols %v, want %v", want[0], ch.Symbols, want)
				}
				if ch.Breadcrumb != c.crumb {
					t.Errorf("group of %s has breadcrumb %q, want %q", want[0], ch.Breadcrumb, c.crumb)
				}
				if lines := ch.EndLine - ch.StartLine + 1; lines > groupMaxLines {
					t.Errorf("group of %s spans %d lines, over %d", want[0], lines, groupMaxLines)
				}
				for _, name := range want {
					if name != "Reset" && !strings.Contains(ch.DocComment, name+" waits") {
						t.Errorf("group of %s: the doc lacks %s's comment: %q", want[0], name, ch.DocComment)
					}
				}
			}
			for _, name := range c.alone {
				if !slices.ContainsFunc(chunks, func(ch Chunk) bool { return slices.Equal(ch.Symbols, []string{name}) }) {
					t.Errorf("%s is not a chunk of its own; chunks: %+v", name, chunks)
				}
			}
		})
	}
}
