package chunk

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// jsSpec serves JavaScript, TypeScript and TSX, whose grammars share their
// node types (TypeScript adds interfaces, enums, namespaces and signatures).
func jsSpec(grammar *sitter.Language) *langSpec {
	return &langSpec{
		grammar:  grammar,
		comments: set("comment", "html_comment"),
		preamble: set("import_statement", "hash_bang_line"),
		// Declarations under a condition at the top level or in a
		// namespace (if (typeof window !== "undefined") { function … })
		// are chunked as if they stood at that level.
		flatten:     set("if_statement", "else_clause"),
		flattenBody: set("statement_block"),
		defs: map[string]defRule{
			"function_declaration":           {kind: KindFunction},
			"generator_function_declaration": {kind: KindFunction},
			"function_signature":             {kind: KindFunction},
			"method_definition":              {kind: KindFunction},
			"method_signature":               {kind: KindFunction},
			"abstract_method_signature":      {kind: KindFunction},
			"class_declaration":              {kind: KindClass, container: true},
			"abstract_class_declaration":     {kind: KindClass, container: true},
			"class":                          {kind: KindClass, container: true},
			"interface_declaration":          {kind: KindInterface, container: true},
			"enum_declaration":               {kind: KindEnum},
			"type_alias_declaration":         {kind: KindType},
			"internal_module":                {kind: KindModule, container: true},
			"module":                         {kind: KindModule, container: true},
		},
		custom: jsCustom,
	}
}

func jsCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	switch n.Type() {
	case "expression_statement":
		// obj.name = function () {…}, the old way of defining methods.
		if assign := c.childOfType(n, "assignment_expression"); assign != nil {
			left, right := assign.ChildByFieldName("left"), assign.ChildByFieldName("right")
			if left != nil && right != nil && isJSFunction(right) && left.Type() == "member_expression" {
				scope, name := lastSegment(c.text(left), ".")
				if own := right.ChildByFieldName("name"); own != nil && (scope == "module" || scope == "") {
					// module.exports = function createApp() {…}
					scope, name = "", c.text(own)
				}
				kind := KindFunction
				if base, isProto := strings.CutSuffix(scope, ".prototype"); isProto {
					scope, kind = base, KindMethod
				}
				return item{role: roleDef, kind: kind, names: []string{name}, node: n,
					body: right.ChildByFieldName("body"), crumb: strings.ReplaceAll(scope, ".", " > ")}, true
			}
		}
		return c.jsWrapper(n)
	case "export_statement", "ambient_declaration":
		return c.jsWrapper(n)
	case "function_expression", "function", "arrow_function", "generator_function":
		// Only reached as the value of `export default`.
		return item{role: roleDef, kind: KindFunction, node: n, body: n.ChildByFieldName("body")}, true
	case "lexical_declaration", "variable_declaration":
		return c.jsVariables(n), true
	case "public_field_definition", "field_definition", "property_signature":
		name := n.ChildByFieldName("name")
		if name == nil {
			name = n.ChildByFieldName("property")
		}
		if value := n.ChildByFieldName("value"); value != nil && isJSFunction(value) {
			it := item{role: roleDef, kind: KindFunction, node: n, body: value.ChildByFieldName("body")}
			if name != nil {
				it.names = []string{c.text(name)}
			}
			return it, true
		}
		return item{role: roleOther, kind: KindVariable, node: n}, true
	}
	return item{}, false
}

func isJSFunction(n *sitter.Node) bool {
	switch n.Type() {
	case "arrow_function", "function_expression", "function", "generator_function":
		return true
	}
	return false
}

// jsVariables describes `const`, `let` and `var` declarations: a single
// declarator holding a function or class is that function or class.
func (c *syntaxChunker) jsVariables(n *sitter.Node) item {
	kind := KindVariable
	if k := n.ChildByFieldName("kind"); k != nil && c.text(k) == "const" {
		kind = KindConstant
	}
	var declarators []*sitter.Node
	for _, child := range c.named(n) {
		if child.Type() == "variable_declarator" {
			declarators = append(declarators, child)
		}
	}
	if len(declarators) == 1 {
		d := declarators[0]
		name := d.ChildByFieldName("name")
		if value := d.ChildByFieldName("value"); value != nil && name != nil {
			switch {
			case value.Type() == "call_expression" && c.text(value.ChildByFieldName("function")) == "require":
				// const fs = require('fs') is CommonJS's import.
				return item{role: roleOther, kind: KindPreamble, noSignature: true}
			case isJSFunction(value):
				return item{role: roleDef, kind: KindFunction, names: []string{c.text(name)}, node: n, body: value.ChildByFieldName("body")}
			case value.Type() == "class":
				return item{role: roleDef, kind: KindClass, container: true, names: []string{c.text(name)}, node: n, body: value.ChildByFieldName("body")}
			}
		}
	}
	it := item{role: roleDef, kind: kind, node: n}
	for _, d := range declarators {
		if name := d.ChildByFieldName("name"); name != nil && name.Type() == "identifier" {
			it.names = append(it.names, c.text(name))
		}
	}
	if len(it.names) == 0 {
		it.role = roleOther
	}
	return it
}

// jsWrapper describes the declaration inside `export …`, `declare …` or the
// statement around a `namespace` block. The signature keeps the wrapper's
// keywords.
func (c *syntaxChunker) jsWrapper(n *sitter.Node) (item, bool) {
	inner := n.ChildByFieldName("declaration")
	if inner == nil {
		inner = n.ChildByFieldName("value")
	}
	if inner == nil {
		for _, child := range c.named(n) {
			if child.Type() != "comment" && child.Type() != "decorator" {
				inner = child
				break
			}
		}
	}
	if inner == nil {
		return item{}, false
	}
	it := c.spec.classify(c, inner)
	if it.role != roleDef {
		if n.Type() == "export_statement" {
			return item{role: roleOther, kind: KindBlock, noSignature: true}, true
		}
		return item{}, false
	}
	if len(it.names) == 0 {
		it.names = []string{"default"}
	}
	it.node = n
	return it, true
}
