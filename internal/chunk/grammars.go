package chunk

import (
	"bytes"
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
	"strings"
)

// specs holds the chunking rules of every language with a grammar, keyed by
// the names lang.Detect returns.
var specs = map[string]*langSpec{
	"go":         goSpec(),
	"python":     pythonSpec(),
	"javascript": jsSpec(javascript.GetLanguage()),
	"typescript": jsSpec(typescript.GetLanguage()),
	"tsx":        jsSpec(tsx.GetLanguage()),
	"java":       javaSpec(),
	"kotlin":     kotlinSpec(),
	"c":          cSpec(c.GetLanguage()),
	"cpp":        cSpec(cpp.GetLanguage()),
	"csharp":     csharpSpec(),
	"rust":       rustSpec(),
	"ruby":       rubySpec(),
	"php":        phpSpec(),
	"scala":      scalaSpec(),
	"swift":      swiftSpec(),
	"lua":        luaSpec(),
	"elixir":     elixirSpec(),
	"bash":       bashSpec(),
}

// ---- Go ----

func goSpec() *langSpec {
	return &langSpec{
		grammar:  golang.GetLanguage(),
		comments: set("comment"),
		preamble: set("package_clause", "import_declaration"),
		defs: map[string]defRule{
			"function_declaration": {kind: KindFunction},
		},
		custom: goCustom,
	}
}

func goCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	switch n.Type() {
	case "method_declaration":
		it := c.define(n, KindMethod, false)
		if recv := n.ChildByFieldName("receiver"); recv != nil {
			if t := c.descendantOfType(recv, 4, "type_identifier"); t != nil {
				it.crumb = c.text(t)
			}
		}
		return it, true
	case "type_declaration":
		it := item{role: roleDef, kind: KindType, node: n}
		specs := c.named(n)
		for _, spec := range specs {
			if name := spec.ChildByFieldName("name"); name != nil {
				it.names = append(it.names, c.text(name))
			}
		}
		if len(specs) == 1 {
			if typ := specs[0].ChildByFieldName("type"); typ != nil {
				switch typ.Type() {
				case "struct_type":
					it.kind = KindStruct
					it.body = c.childOfType(typ, "field_declaration_list")
				case "interface_type":
					it.kind = KindInterface
					it.body = typ
					// The methods are the interface type's children, so
					// the signature stops at its brace instead.
					head := c.src[n.StartByte():typ.EndByte()]
					if i := bytes.IndexByte(head, '{'); i >= 0 {
						it.sig = strings.Join(strings.Fields(string(head[:i])), " ")
					}
				}
			}
		}
		return it, true
	case "const_declaration", "var_declaration":
		it := item{role: roleDef, kind: KindConstant, node: n, body: n}
		if n.Type() == "var_declaration" {
			it.kind = KindVariable
		}
		specs := c.named(n)
		if len(specs) == 1 && strings.HasSuffix(specs[0].Type(), "_spec_list") {
			it.body = specs[0]
			specs = c.named(specs[0])
		}
		for _, spec := range specs {
			for _, child := range c.named(spec) {
				if child.Type() == "identifier" {
					it.names = append(it.names, c.text(child))
				}
			}
		}
		if len(specs) > 1 || !sameNode(it.body, n) {
			// A group: "var (A, B)" says more than its first line "var (".
			keyword := strings.TrimSuffix(n.Type(), "_declaration")
			it.sig = keyword + " (" + strings.Join(it.names, ", ") + ")"
		}
		return it, true
	}
	return item{}, false
}

// ---- Python ----

func pythonSpec() *langSpec {
	return &langSpec{
		grammar:  python.GetLanguage(),
		comments: set("comment"),
		preamble: set("import_statement", "import_from_statement", "future_import_statement"),
		// Definitions under a condition (a fallback in "except
		// ImportError:", a version or platform test, "if TYPE_CHECKING:")
		// are chunked as if they stood at the level of the condition.
		flatten:     set("if_statement", "elif_clause", "else_clause", "try_statement", "except_clause", "finally_clause"),
		flattenBody: set("block"),
		defs: map[string]defRule{
			"function_definition": {kind: KindFunction},
			"class_definition":    {kind: KindClass, container: true},
		},
		custom: pythonCustom,
	}
}

func pythonCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	switch n.Type() {
	case "decorated_definition":
		inner := n.ChildByFieldName("definition")
		if inner == nil {
			return item{}, false
		}
		it := c.spec.classify(c, inner)
		return it, true
	case "function_definition", "class_definition":
		kind, container := KindFunction, false
		if n.Type() == "class_definition" {
			kind, container = KindClass, true
		}
		it := c.define(n, kind, container)
		it.doc = c.pythonDocstring(it.body)
		return it, true
	case "expression_statement":
		return c.assignment(n, "assignment", "left"), true
	}
	return item{}, false
}

// pythonDocstring returns the docstring opening a block, if any.
func (c *syntaxChunker) pythonDocstring(body *sitter.Node) string {
	if body == nil {
		return ""
	}
	stmts := c.named(body)
	if len(stmts) == 0 || stmts[0].Type() != "expression_statement" {
		return ""
	}
	parts := c.named(stmts[0])
	if len(parts) != 1 || parts[0].Type() != "string" {
		return ""
	}
	return stripDocstring(c.text(parts[0]))
}

// assignment describes a statement assigning to a plain name as a constant
// (UPPER_CASE) or variable definition; anything else is a plain statement.
func (c *syntaxChunker) assignment(n *sitter.Node, assignType, leftField string) item {
	other := item{role: roleOther, kind: KindBlock, noSignature: true}
	assign := n
	if n.Type() != assignType {
		assign = c.childOfType(n, assignType)
	}
	if assign == nil {
		return other
	}
	left := assign.ChildByFieldName(leftField)
	if left == nil || (left.Type() != "identifier" && left.Type() != "constant") {
		return other
	}
	name := c.text(left)
	kind := KindVariable
	if isConstantName(name) {
		kind = KindConstant
	}
	return item{role: roleDef, kind: kind, names: []string{name}, node: n}
}
