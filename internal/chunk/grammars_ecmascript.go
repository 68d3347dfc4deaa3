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
			if left != nil && left.Type() == "member_expression" {
				if obj := c.jsObjectOf(right); obj != nil {
					return c.jsAssignedObject(n, c.text(left), obj), true
				}
			}
		}
		if call := c.childOfType(n, "call_expression", "new_expression"); call != nil {
			if obj := c.jsObjectOf(call); obj != nil {
				return c.jsCalledObject(n, call, obj), true
			}
		}
		return c.jsWrapper(n)
	case "export_statement", "ambient_declaration":
		return c.jsWrapper(n)
	case "function_expression", "function", "arrow_function", "generator_function":
		// Only reached as the value of `export default`.
		return item{role: roleDef, kind: KindFunction, node: n, body: n.ChildByFieldName("body")}, true
	case "object", "call_expression", "new_expression", "as_expression", "satisfies_expression", "type_assertion", "parenthesized_expression":
		// Only reached as the value of `export default`: a Vue
		// component's options, defineComponent({…}), named by its
		// `name` option when it has one.
		obj := c.jsObjectOf(n)
		if obj == nil {
			return item{}, false
		}
		it := objectItem(n, obj, KindVariable)
		if name := c.jsObjectName(obj); name != "" {
			it.names = []string{name}
		}
		return it, true
	case "pair":
		return c.jsPair(n), true
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
			case name.Type() == "identifier":
				if obj := c.jsObjectOf(value); obj != nil {
					it := objectItem(n, obj, kind)
					it.names = []string{c.text(name)}
					return it
				}
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

// objectItem describes a statement n defining the object literal obj, whose
// functions are methods (see item.object).
func objectItem(n, obj *sitter.Node, kind string) item {
	return item{role: roleDef, kind: kind, node: n, body: obj, container: true, object: true}
}

// jsObjectOf returns the object literal value is, or holds inside
// TypeScript's `as`, `satisfies` and `<T>`, parentheses, or as the last
// argument of a call (defineComponent({…}), Object.assign(target, {…}),
// new Vue({…})), when it defines a function; nil otherwise.
func (c *syntaxChunker) jsObjectOf(value *sitter.Node) *sitter.Node {
	for depth := 0; value != nil && depth < 4; depth++ {
		switch value.Type() {
		case "object":
			if c.jsHoldsFunctions(value, 0) {
				return value
			}
			return nil
		case "as_expression", "satisfies_expression", "parenthesized_expression", "non_null_expression":
			value = value.NamedChild(0)
		case "type_assertion":
			value = value.NamedChild(int(value.NamedChildCount()) - 1)
		case "call_expression", "new_expression":
			args := c.named(value.ChildByFieldName("arguments"))
			if len(args) == 0 {
				return nil
			}
			value = args[len(args)-1]
			if value.Type() != "object" {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// jsHoldsFunctions reports whether the object literal obj has a method or a
// function-valued property, itself or in an object it holds (Vue's
// `methods: { save() {…} }`).
func (c *syntaxChunker) jsHoldsFunctions(obj *sitter.Node, depth int) bool {
	for _, m := range c.named(obj) {
		switch m.Type() {
		case "method_definition":
			return true
		case "pair":
			value := m.ChildByFieldName("value")
			if value == nil {
				continue
			}
			if isJSFunction(value) || (depth < 2 && value.Type() == "object" && c.jsHoldsFunctions(value, depth+1)) {
				return true
			}
		}
	}
	return false
}

// jsObjectName is the string of the object literal's `name` property (a
// Vue component's name), or "".
func (c *syntaxChunker) jsObjectName(obj *sitter.Node) string {
	for _, m := range c.named(obj) {
		if m.Type() != "pair" || c.jsKey(m) != "name" {
			continue
		}
		if value := m.ChildByFieldName("value"); value != nil && value.Type() == "string" {
			return unquote(c.text(value))
		}
	}
	return ""
}

// jsKey is the name of a property: its identifier, or its string without
// quotes.
func (c *syntaxChunker) jsKey(pair *sitter.Node) string {
	key := pair.ChildByFieldName("key")
	if key == nil {
		return ""
	}
	if key.Type() == "string" {
		return unquote(c.text(key))
	}
	return c.text(key)
}

// jsPair describes a property of an object literal: a function is a
// definition named by its key (a method, inside an object), an object
// holding functions a container whose key joins the breadcrumb (Vue's
// `methods`, `computed`), anything else data.
func (c *syntaxChunker) jsPair(n *sitter.Node) item {
	value := n.ChildByFieldName("value")
	key := c.jsKey(n)
	switch {
	case value == nil || key == "":
	case isJSFunction(value):
		return item{role: roleDef, kind: KindFunction, names: []string{key}, node: n, body: value.ChildByFieldName("body")}
	case value.Type() == "object" && c.jsHoldsFunctions(value, 0):
		it := objectItem(n, value, KindVariable)
		it.crumb = key
		return it
	}
	return item{role: roleOther, kind: KindBlock, noSignature: true}
}

// jsAssignedObject describes `target = {…}` for an object literal holding
// functions: `module.exports = {…}` defines the module's functions,
// `X.prototype = {…}` the methods of X, `exports.util = {…}` an object
// named util.
func (c *syntaxChunker) jsAssignedObject(n *sitter.Node, target string, obj *sitter.Node) item {
	it := objectItem(n, obj, KindVariable)
	scope, name := lastSegment(target, ".")
	switch {
	case target == "module.exports":
	case name == "prototype":
		it.crumb = strings.ReplaceAll(scope, ".", " > ")
	default:
		it.names = []string{name}
		if scope != "module.exports" && scope != "exports" {
			it.crumb = strings.ReplaceAll(scope, ".", " > ")
		}
	}
	return it
}

// jsCalledObject describes a call statement whose last argument is an
// object literal holding functions: `Object.assign(X.prototype, {…})`
// adds methods to X, `Vue.component('todo-item', {…})` defines what its
// string names.
func (c *syntaxChunker) jsCalledObject(n, call, obj *sitter.Node) item {
	it := objectItem(n, obj, KindVariable)
	args := c.named(call.ChildByFieldName("arguments"))
	if len(args) < 2 {
		return it
	}
	first := args[0]
	switch first.Type() {
	case "string":
		if name := unquote(c.text(first)); name != "" {
			it.names = []string{name}
		}
	case "identifier", "member_expression":
		it.crumb = strings.ReplaceAll(strings.TrimSuffix(c.text(first), ".prototype"), ".", " > ")
	}
	return it
}
