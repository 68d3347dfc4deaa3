package chunk

import (
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/symbols"
)

// TestComponentScript: the scripts of a component are kept where they
// stand and everything else is blanked, line breaks kept.
func TestComponentScript(t *testing.T) {
	cases := []struct {
		name, language, src string
		grammar             string
		kept                []string // texts the masked source still holds
		blanked             []string // texts it must not hold
	}{
		{"vue with typescript setup", "vue", "<template>\n  <p>{{ n }}</p>\n</template>\n<script setup lang=\"ts\">\nconst n: number = 1\n</script>\n<style>p { color: red }</style>\n",
			"typescript", []string{"const n: number = 1"}, []string{"<template>", "<script", "</script>", "color: red"}},
		{"vue with two scripts, plain", "vue", "<script>\nexport default { name: 'A' }\n</script>\n<SCRIPT setup>\nconst a = 1\n</SCRIPT>\n",
			"javascript", []string{"export default", "const a = 1"}, []string{"setup>"}},
		{"svelte with tsx", "svelte", "<script lang='tsx'>\nlet x = <b/>\n</script>\n<h1>{x}</h1>\n", "tsx", []string{"let x = <b/>"}, []string{"<h1>"}},
		{"astro frontmatter", "astro", "---\nconst posts = []\n---\n<ul>{posts}</ul>\n", "typescript", []string{"const posts = []"}, []string{"<ul>"}},
		{"external and self-closing scripts only", "vue", "<template><p/></template>\n<script src=\"./a.js\" />\n<scripts>no</scripts>\n", "", nil, nil},
		{"no script", "svelte", "<h1>hello</h1>\n", "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			grammar, masked := componentScript(c.language, []byte(c.src))
			if grammar != c.grammar {
				t.Fatalf("grammar %q, want %q", grammar, c.grammar)
			}
			if grammar == "" {
				return
			}
			if len(masked) != len(c.src) || strings.Count(string(masked), "\n") != strings.Count(c.src, "\n") {
				t.Fatalf("masked source lost offsets or lines: %q", masked)
			}
			for _, k := range c.kept {
				if !strings.Contains(string(masked), k) || strings.Index(string(masked), k) != strings.Index(c.src, k) {
					t.Errorf("%q is not kept where it stands in %q", k, masked)
				}
			}
			for _, b := range c.blanked {
				if strings.Contains(string(masked), b) {
					t.Errorf("%q is not blanked in %q", b, masked)
				}
			}
		})
	}
}

// TestComponentsAreParsed: a component's script definitions are chunks
// and symbols, its markup stays in chunks too.
func TestComponentsAreParsed(t *testing.T) {
	src := readFixture(t, "Counter.vue")
	chunks, file := Analyze("Counter.vue", "vue", src)
	checkCoverage(t, src, chunks)
	if !slices.ContainsFunc(chunks, func(c Chunk) bool { return slices.Contains(c.Symbols, "increment") }) {
		t.Errorf("no chunk defines increment: %+v", chunks)
	}
	if !slices.ContainsFunc(file.Definitions, func(d symbols.Definition) bool { return d.Name == "increment" && d.Kind == KindFunction }) {
		t.Errorf("increment is not a function definition: %+v", file.Definitions)
	}
	if !slices.ContainsFunc(chunks, func(c Chunk) bool { return strings.Contains(c.Content, "Clicked {{ count }} times") }) {
		t.Errorf("the template is in no chunk")
	}
}
