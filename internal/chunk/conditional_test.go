package chunk

import (
	"slices"
	"strings"
	"testing"
)

// TestConditionalDefinitionsAreChunks: definitions under a condition at
// a module's or a class's level (a fallback in "except ImportError:", a
// version test, "if TYPE_CHECKING:") are chunks that name them, as
// definitions at that level are.
func TestConditionalDefinitionsAreChunks(t *testing.T) {
	long := strings.Repeat("        total += step\n", 30)
	cases := []struct {
		name    string
		src     string
		defines []string // each the symbol of a chunk of its own
	}{
		{"version test with else", "import sys\n\nif sys.version_info >= (3, 11):\n    def utcnow():\n" + long +
			"        return total\nelse:\n    def utcnow_compat():\n" + long + "        return total\n",
			[]string{"utcnow", "utcnow_compat"}},
		{"import fallback", "try:\n    from ._speedups import escape\nexcept ImportError:\n    def escape(s):\n" + long +
			"        return s\n", []string{"escape"}},
		{"elif", "if WINDOWS:\n    def home():\n" + long + "        return 1\nelif MAC:\n    def home_mac():\n" + long +
			"        return 2\n", []string{"home", "home_mac"}},
		{"type checking block in a class", "class Console:\n    if TYPE_CHECKING:\n        def render(self):\n" + long +
			"            pass\n    def print(self):\n" + long + "        pass\n", []string{"render", "print"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			chunks, _ := Analyze("m.py", "python", src)
			checkCoverage(t, src, chunks)
			checkDefines(t, chunks, c.defines...)
		})
	}
}

// TestGuardedDeclarationsAreChunks: the same in PHP, JavaScript and
// Ruby: a function under a guard, a method under a version test.
func TestGuardedDeclarationsAreChunks(t *testing.T) {
	body := func(line string, n int) string { return strings.Repeat(line, n) }
	cases := []struct {
		name, language, src string
		defines             []string
	}{
		{"php function_exists guard", "php", "<?php\n\nif (! function_exists('app')) {\n    /**\n     * The container.\n     */\n    function app($abstract = null)\n    {\n" +
			body("        $x = $x + 1;\n", 30) + "        return $x;\n    }\n}\n\nif (! function_exists('config')) {\n    function config($key = null)\n    {\n" +
			body("        $y = $y + 1;\n", 30) + "        return $y;\n    }\n}\n", []string{"app", "config"}},
		{"javascript browser guard", "javascript", "if (typeof window !== 'undefined') {\n  function onResize(handler) {\n" +
			body("    handler();\n", 30) + "  }\n} else {\n  function onResizeServer() {\n" + body("    noop();\n", 30) + "  }\n}\n",
			[]string{"onResize", "onResizeServer"}},
		{"ruby version test in a class", "ruby", "class Request\n  if RUBY_VERSION >= \"3.0\"\n    def params\n" +
			body("      a = 1\n", 30) + "    end\n  else\n    def legacy_params\n" + body("      b = 2\n", 30) + "    end\n  end\n\n  unless method_defined?(:host)\n    def host\n" +
			body("      c = 3\n", 30) + "    end\n  end\nend\n", []string{"params", "legacy_params", "host"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			chunks, _ := Analyze("f", c.language, src)
			checkCoverage(t, src, chunks)
			checkDefines(t, chunks, c.defines...)
		})
	}
}

// checkDefines fails t for each of names that no chunk lists among its
// symbols.
func checkDefines(t *testing.T, chunks []Chunk, names ...string) {
	t.Helper()
	for _, name := range names {
		if !slices.ContainsFunc(chunks, func(ch Chunk) bool { return slices.Contains(ch.Symbols, name) }) {
			t.Errorf("no chunk defines %s; chunks: %+v", name, chunks)
		}
	}
}
