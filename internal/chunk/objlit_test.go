package chunk

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/symbols"
)

// objectMethods writes n methods of an object literal, each long enough
// (6 lines) not to merge with its neighbours, named prefix0, prefix1, ….
func objectMethods(prefix, indent string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s%s%d(item) {\n%s  const index = this.items.indexOf(item)\n%s  if (index !== -1) {\n%s    this.items.splice(index, 1)\n%s  }\n%s},\n",
			indent, prefix, i, indent, indent, indent, indent, indent)
	}
	return b.String()
}

// TestObjectLiteralMethodsAreChunks: the methods and function-valued
// properties of an object literal (a Vue component's options, a CommonJS
// module's exports, an object of handlers) are definitions of the chunk
// holding them, and, when the object is too big for one chunk, chunks of
// their own, methods named within the object, as a class's are.
func TestObjectLiteralMethodsAreChunks(t *testing.T) {
	type def struct{ symbol, kind, crumb string }
	cases := []struct {
		name, language, src string
		defines             []def // each the first symbol of a chunk of its own
		lists               []string
	}{
		{"vue options api", "javascript", "import api from './api'\n\nexport default {\n  name: 'OrderList',\n  props: { items: Array },\n" +
			"  data() {\n    return { loading: false }\n  },\n  computed: {\n    total() {\n      return this.items.length\n    },\n  },\n" +
			"  methods: {\n" + objectMethods("remove", "    ", 16) + "    load: function (page) {\n      this.loading = true\n      return api.get(page)\n    },\n  },\n}\n",
			[]def{{"remove0", KindMethod, "OrderList > methods"}, {"remove15", KindMethod, "OrderList > methods"}, {"load", KindMethod, "OrderList > methods"}},
			[]string{"OrderList", "data", "total"}},
		{"commonjs exports", "javascript", "'use strict'\n\nmodule.exports = {\n" + objectMethods("parse", "  ", 16) +
			"  format: function (x) {\n    return x.join(',')\n  },\n  helper: (a) => a * 2,\n}\n",
			[]def{{"parse0", KindMethod, ""}, {"parse15", KindMethod, ""}}, []string{"format", "helper"}},
		{"exported constant in typescript", "typescript", "export const api = {\n" + objectMethods("get", "  ", 14) + "} satisfies Api\n",
			[]def{{"get0", KindMethod, "api"}, {"get13", KindMethod, "api"}}, []string{"api"}},
		{"small object of handlers", "typescript", "const handlers = {\n  onClick(e: MouseEvent) {\n    e.preventDefault()\n  },\n" +
			"  onKey: (e: KeyboardEvent) => {\n    submit(e)\n  },\n}\n", nil, []string{"handlers", "onClick", "onKey"}},
		{"prototype assigned an object", "javascript", "function View() {}\n\nView.prototype = {\n  constructor: View,\n" + objectMethods("render", "  ", 14) + "}\n",
			[]def{{"render0", KindMethod, "View"}, {"render13", KindMethod, "View"}}, nil},
		{"object assign", "javascript", "Object.assign(Store.prototype, {\n" + objectMethods("commit", "  ", 14) + "})\n",
			[]def{{"commit0", KindMethod, "Store"}}, nil},
		{"define component", "typescript", "export default defineComponent({\n  name: 'TodoList',\n  methods: {\n" + objectMethods("toggle", "    ", 14) + "  },\n})\n",
			[]def{{"toggle0", KindMethod, "TodoList > methods"}}, []string{"TodoList"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			chunks, _ := Analyze("f", c.language, src)
			checkCoverage(t, src, chunks)
			for _, d := range c.defines {
				i := slices.IndexFunc(chunks, func(ch Chunk) bool { return len(ch.Symbols) > 0 && ch.Symbols[0] == d.symbol })
				if i < 0 {
					t.Errorf("no chunk of its own defines %s; chunks: %+v", d.symbol, chunks)
					continue
				}
				if ch := chunks[i]; ch.Kind != d.kind || ch.Breadcrumb != d.crumb {
					t.Errorf("%s: kind %q in %q, want %q in %q", d.symbol, ch.Kind, ch.Breadcrumb, d.kind, d.crumb)
				}
			}
			checkDefines(t, chunks, c.lists...)
		})
	}
}

// TestObjectLiteralsWithoutFunctionsStayData: an object literal holding
// only data (a configuration, a table) is a constant as before, its keys
// no definitions.
func TestObjectLiteralsWithoutFunctionsStayData(t *testing.T) {
	src := []byte("export const defaults = {\n" + strings.Repeat("  retries: 3,\n  timeout: 1000,\n  nested: { deep: true },\n", 30) + "}\n")
	chunks, _ := Analyze("f.ts", "typescript", src)
	checkCoverage(t, src, chunks)
	for _, ch := range chunks {
		for _, s := range ch.Symbols {
			if s != "defaults" {
				t.Errorf("chunk %d-%d defines %s", ch.StartLine, ch.EndLine, s)
			}
		}
	}
}

// TestObjectLiteralMethodSymbols: in the symbol graph a function-valued
// property is a method as a shorthand method is, both held by the object
// they are defined in.
func TestObjectLiteralMethodSymbols(t *testing.T) {
	src := []byte("const handlers = {\n  onClick(e) {\n    stop(e)\n  },\n  onKey: (e) => {\n    submit(e)\n  },\n  onBlur: function () {},\n}\n")
	_, file := Analyze("f.js", "javascript", src)
	for _, name := range []string{"onClick", "onKey", "onBlur"} {
		i := slices.IndexFunc(file.Definitions, func(d symbols.Definition) bool { return d.Name == name })
		if i < 0 {
			t.Errorf("%s is no definition; definitions: %+v", name, file.Definitions)
			continue
		}
		if d := file.Definitions[i]; d.Kind != KindMethod || d.Container != "handlers" {
			t.Errorf("%s: kind %q in %q, want a method in handlers", name, d.Kind, d.Container)
		}
	}
}

// TestComponentOptionsAreChunks: a Vue component written with the options
// API (testdata/TaskBoard.vue) is split as a class is: its name, its
// hooks as methods, its methods and computed properties under the option
// that holds them.
func TestComponentOptionsAreChunks(t *testing.T) {
	src := readFixture(t, "TaskBoard.vue")
	chunks, file := Analyze("TaskBoard.vue", "vue", src)
	checkCoverage(t, src, chunks)
	wants := []struct{ symbol, crumb, kind, signature string }{
		{"TaskBoard", "", KindVariable, "export default"},
		{"data", "TaskBoard", KindMethod, "data()"},
		{"visible", "TaskBoard > computed", KindVariable, "computed"},
		{"toggle", "TaskBoard > methods", KindVariable, "methods"},
		{"byPriority", "TaskBoard > methods", KindVariable, "methods"},
		{"mounted", "TaskBoard", KindMethod, "mounted()"},
	}
	for _, w := range wants {
		c, ok := findChunk(chunks, w.symbol, w.crumb)
		if !ok {
			t.Errorf("no chunk defines %q with breadcrumb %q; chunks: %+v", w.symbol, w.crumb, chunks)
			continue
		}
		if c.Kind != w.kind || c.Signature != w.signature {
			t.Errorf("%s: %s %q, want %s %q", w.symbol, c.Kind, c.Signature, w.kind, w.signature)
		}
	}
	for _, name := range []string{"reload", "toggle", "byPriority"} {
		if !slices.ContainsFunc(file.Definitions, func(d symbols.Definition) bool { return d.Name == name && d.Kind == KindMethod }) {
			t.Errorf("%s is not a method definition: %+v", name, file.Definitions)
		}
	}
}
