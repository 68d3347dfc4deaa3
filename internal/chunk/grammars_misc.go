package chunk

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/elixir"
	"github.com/smacker/go-tree-sitter/lua"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
)

// ---- Rust ----

func rustSpec() *langSpec {
	return &langSpec{
		grammar:      rust.GetLanguage(),
		unwrapMacros: true,
		comments:     set("line_comment", "block_comment"),
		attributes:   set("attribute_item"),
		preamble:     set("use_declaration", "extern_crate_declaration", "inner_attribute_item"),
		defs: map[string]defRule{
			"function_item":           {kind: KindFunction},
			"function_signature_item": {kind: KindFunction},
			"struct_item":             {kind: KindStruct},
			"union_item":              {kind: KindStruct},
			"enum_item":               {kind: KindEnum},
			"trait_item":              {kind: KindTrait, container: true},
			"mod_item":                {kind: KindModule, container: true},
			"foreign_mod_item":        {kind: KindModule, container: true},
			"const_item":              {kind: KindConstant},
			"static_item":             {kind: KindConstant},
			"type_item":               {kind: KindType},
			"associated_type":         {kind: KindType},
			"macro_definition":        {kind: KindFunction},
		},
		custom: func(c *syntaxChunker, n *sitter.Node) (item, bool) {
			if n.Type() != "impl_item" {
				return item{}, false
			}
			// "impl<T> Display for Foo<T>" is named and contains Foo's
			// methods: its type without generics.
			it := item{role: roleDef, kind: KindImpl, container: true, node: n, body: n.ChildByFieldName("body")}
			if typ := n.ChildByFieldName("type"); typ != nil {
				name := c.text(typ)
				if typ.Type() == "generic_type" {
					if base := typ.ChildByFieldName("type"); base != nil {
						name = c.text(base)
					}
				}
				it.names = []string{name}
			}
			return it, true
		},
	}
}

// ---- Ruby ----

func rubySpec() *langSpec {
	return &langSpec{
		grammar:       ruby.GetLanguage(),
		comments:      set("comment"),
		moduleMethods: true,
		// Methods defined under a condition in a class or module body
		// (if RUBY_VERSION >= "3.0", unless method_defined?(:x)).
		flatten:     set("if", "unless", "elsif", "else"),
		flattenBody: set("then"),
		defs: map[string]defRule{
			"class":            {kind: KindClass, container: true},
			"singleton_class":  {kind: KindClass, container: true},
			"module":           {kind: KindModule, container: true},
			"method":           {kind: KindFunction},
			"singleton_method": {kind: KindFunction},
		},
		custom: func(c *syntaxChunker, n *sitter.Node) (item, bool) {
			switch n.Type() {
			case "call":
				method := n.ChildByFieldName("method")
				if method == nil || n.ChildByFieldName("receiver") != nil {
					return item{}, false
				}
				switch c.text(method) {
				case "require", "require_relative", "load", "include", "extend", "prepend", "using":
					return item{role: roleOther, kind: KindPreamble, noSignature: true}, true
				}
			case "assignment":
				return c.assignment(n, "assignment", "left"), true
			case "singleton_class":
				it := c.define(n, KindClass, true)
				it.names = []string{"self"}
				return it, true
			}
			return item{}, false
		},
	}
}

// ---- PHP ----

func phpSpec() *langSpec {
	return &langSpec{
		grammar:    php.GetLanguage(),
		comments:   set("comment"),
		attributes: set("attribute_list"),
		preamble:   set("php_tag", "namespace_use_declaration", "text_interpolation", "declare_statement"),
		// Functions declared under a guard, if (! function_exists('app'))
		// { function app() … }, are chunked as if declared at that level.
		flatten:     set("if_statement", "else_if_clause", "else_clause"),
		flattenBody: set("compound_statement", "colon_block"),
		defs: map[string]defRule{
			"class_declaration":     {kind: KindClass, container: true},
			"interface_declaration": {kind: KindInterface, container: true},
			"trait_declaration":     {kind: KindTrait, container: true},
			"enum_declaration":      {kind: KindEnum, container: true},
			"function_definition":   {kind: KindFunction},
			"method_declaration":    {kind: KindFunction},
		},
		custom: func(c *syntaxChunker, n *sitter.Node) (item, bool) {
			switch n.Type() {
			case "namespace_definition":
				if n.ChildByFieldName("body") == nil {
					return item{role: roleOther, kind: KindPreamble, noSignature: true}, true
				}
				return c.define(n, KindModule, true), true
			case "property_declaration", "use_declaration":
				return item{role: roleOther, kind: KindVariable, noSignature: true}, true
			case "const_declaration":
				it := item{role: roleDef, kind: KindConstant, node: n}
				for _, el := range c.named(n) {
					if el.Type() == "const_element" {
						if name := c.childOfType(el, "name"); name != nil {
							it.names = append(it.names, c.text(name))
						}
					}
				}
				return it, true
			}
			return item{}, false
		},
	}
}

// ---- Lua ----

func luaSpec() *langSpec {
	return &langSpec{
		grammar: lua.GetLanguage(),
		// The Lua scanner keeps the long bracket it is in ([==[) in
		// globals.
		parseLock: &sync.Mutex{},
		comments:  set("comment"),
		bodies:    set("function_body"),
		custom:    luaCustom,
		repair:    luaRepair,
	}
}

// luaRepair rewrites, keeping every offset, what the Lua grammar cannot
// read and which can swallow the rest of a file into one error (in
// telescope, 730 lines of pickers.lua and 800 of actions/init.lua lost
// every definition to it):
//   - LuaCATS/EmmyLua annotations ("---@field border table<1|2|3|4,
//     integer>") become plain comments ("-- @field …");
//   - a statement calling what a call returns, "f(a)()" at the end of a
//     line, loses its second, empty call: the grammar has no call of a
//     call as a statement.
func luaRepair(src []byte) []byte {
	out := slices.Clone(src)
	for i := 0; i < len(out); {
		end := bytes.IndexByte(out[i:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += i
		}
		line := out[i:end]
		j := 0
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		if bytes.HasPrefix(line[j:], []byte("---")) {
			line[j+2] = ' '
		} else if trimmed := bytes.TrimRight(line, " \t\r"); bytes.HasSuffix(trimmed, []byte(")()")) {
			n := len(trimmed)
			trimmed[n-2], trimmed[n-1] = ' ', ' '
		}
		i = end + 1
	}
	return out
}

func luaCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	switch n.Type() {
	case "function_statement", "function_declaration", "local_function":
		it := item{role: roleDef, kind: KindFunction, node: n, body: c.bodyOf(n)}
		it.doc, it.sigFrom = c.luaDoc(n)
		// "function M.new()" and "function M:greet()" belong to table M.
		name := c.text(n.ChildByFieldName("name"))
		if name == "" {
			name = c.text(c.childOfType(n, "identifier", "function_name"))
		}
		scope, last := lastSegment(name, ".", ":")
		if scope != "" {
			it.crumb = luaCrumb(scope)
			if strings.Contains(name, ":") {
				it.kind = KindMethod
			}
		}
		if last != "" {
			it.names = []string{last}
		}
		return it, true
	case "variable_declaration", "local_variable_declaration", "assignment_statement":
		it := item{role: roleDef, kind: KindVariable, node: n}
		it.doc, it.sigFrom = c.luaDoc(n)
		var names []string
		for _, child := range c.named(n) {
			if child.Type() == "variable_declarator" || child.Type() == "identifier" && len(names) == 0 {
				names = append(names, strings.TrimSpace(c.text(child)))
			}
			if child.Type() == "variable_list" {
				for _, v := range c.named(child) {
					names = append(names, strings.TrimSpace(c.text(v)))
				}
			}
		}
		if value := n.ChildByFieldName("value"); len(names) == 1 && value != nil && (value.Type() == "function" || value.Type() == "function_definition") {
			// "M.f = function() … end" is a function of table M.
			scope, last := lastSegment(names[0], ".", ":")
			it.kind, it.body, it.crumb = KindFunction, c.bodyOf(value), luaCrumb(scope)
			it.names = []string{last}
			return it, true
		}
		for _, name := range names {
			if name == "" || strings.ContainsAny(name, ".:[(") {
				// Setting a field of a table defines nothing new.
				return item{role: roleOther, kind: KindBlock, noSignature: true}, true
			}
			if isConstantName(name) {
				it.kind = KindConstant
			}
		}
		it.names = names
		return it, true
	}
	return item{}, false
}

var luaScope = strings.NewReplacer(".", " > ", ":", " > ")

func luaCrumb(scope string) string {
	return luaScope.Replace(scope)
}

// luaDoc returns the comments the grammar folds into the start of a
// declaration, and the first node after them, where the code starts.
func (c *syntaxChunker) luaDoc(n *sitter.Node) (string, *sitter.Node) {
	var docs []string
	for _, child := range c.named(n) {
		if t := child.Type(); t != "emmy_documentation" && t != "comment" {
			return stripComment(strings.TrimSpace(strings.Join(docs, "\n"))), child
		}
		docs = append(docs, strings.TrimSpace(c.text(child)))
	}
	return "", nil
}

// ---- Elixir ----

func elixirSpec() *langSpec {
	return &langSpec{
		grammar:      elixir.GetLanguage(),
		comments:     set("comment"),
		custom:       elixirCustom,
		attributeDoc: elixirAttributeDoc,
	}
}

// elixirCall returns the name of the macro a call invokes (def, defmodule,
// alias, …) or "".
func (c *syntaxChunker) elixirCall(n *sitter.Node) string {
	if n.Type() != "call" {
		return ""
	}
	if target := n.ChildByFieldName("target"); target != nil && target.Type() == "identifier" {
		return c.text(target)
	}
	return ""
}

// elixirAttribute returns the name of a module attribute (@doc → "doc").
func (c *syntaxChunker) elixirAttribute(n *sitter.Node) (string, *sitter.Node) {
	if n.Type() != "unary_operator" {
		return "", nil
	}
	op := n.ChildByFieldName("operator")
	operand := n.ChildByFieldName("operand")
	if (op != nil && c.text(op) != "@") || operand == nil {
		return "", nil
	}
	if operand.Type() == "identifier" {
		return c.text(operand), operand
	}
	return c.elixirCall(operand), operand
}

func elixirCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	if attr, operand := c.elixirAttribute(n); attr != "" {
		switch attr {
		case "doc", "spec", "impl", "typedoc", "deprecated", "since", "decorate":
			return item{role: roleAttribute}, true
		case "moduledoc", "enforce_keys", "behaviour", "derive", "compile", "on_load",
			"before_compile", "after_compile", "external_resource", "dialyzer", "vsn":
			// Directives to the compiler rather than definitions.
			return item{role: roleOther, kind: KindBlock, noSignature: true}, true
		case "type", "typep", "opaque", "callback", "macrocallback":
			it := item{role: roleDef, kind: KindType, node: n}
			if args := c.childOfType(operand, "arguments"); args != nil {
				if name := c.descendantOfType(args, 3, "identifier"); name != nil {
					it.names = []string{c.text(name)}
				}
			}
			return it, true
		}
		return item{role: roleDef, kind: KindConstant, node: n, names: []string{"@" + attr}}, true
	}
	macro := c.elixirCall(n)
	switch macro {
	case "":
		return item{}, false
	case "defmodule", "defprotocol", "defimpl":
		kind := map[string]string{"defmodule": KindModule, "defprotocol": KindInterface, "defimpl": KindImpl}[macro]
		it := item{role: roleDef, kind: kind, container: true, node: n, body: c.childOfType(n, "do_block")}
		if args := c.childOfType(n, "arguments"); args != nil {
			if alias := c.childOfType(args, "alias"); alias != nil {
				it.names = []string{c.text(alias)}
			}
		}
		if it.body != nil {
			for _, member := range c.named(it.body) {
				if attr, operand := c.elixirAttribute(member); attr == "moduledoc" {
					it.doc = c.elixirDocString(operand)
					break
				}
			}
		}
		return it, true
	case "def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp":
		it := item{role: roleDef, kind: KindFunction, node: n, body: c.childOfType(n, "do_block")}
		if it.body == nil {
			// One-line form: the head is what comes before ", do:".
			line, _, _ := strings.Cut(c.text(n), "\n")
			if head, _, found := strings.Cut(line, ", do:"); found {
				it.sig = strings.TrimSpace(head)
			}
		}
		if args := c.childOfType(n, "arguments"); args != nil {
			if head := c.named(args); len(head) > 0 {
				if name := c.elixirFunctionName(head[0]); name != "" {
					it.names = []string{name}
				}
			}
		}
		return it, true
	case "defstruct", "defexception":
		return item{role: roleDef, kind: KindStruct, node: n}, true
	case "use", "import", "require", "alias":
		return item{role: roleOther, kind: KindPreamble, noSignature: true}, true
	}
	return item{}, false
}

// elixirFunctionName names a def head: "greet(name)", "greet(name) when …",
// or a bare "greet".
func (c *syntaxChunker) elixirFunctionName(head *sitter.Node) string {
	for depth := 0; head != nil && depth < 4; depth++ {
		switch head.Type() {
		case "identifier":
			return c.text(head)
		case "call":
			if target := head.ChildByFieldName("target"); target != nil {
				return c.text(target)
			}
			return ""
		case "binary_operator":
			head = head.ChildByFieldName("left")
		default:
			return ""
		}
	}
	return ""
}

func elixirAttributeDoc(c *syntaxChunker, n *sitter.Node) string {
	attr, operand := c.elixirAttribute(n)
	if attr != "doc" && attr != "typedoc" {
		return ""
	}
	return c.elixirDocString(operand)
}

// elixirDocString returns the string argument of @doc/@moduledoc; false
// (hidden docs) gives "".
func (c *syntaxChunker) elixirDocString(call *sitter.Node) string {
	args := c.childOfType(call, "arguments")
	if args == nil {
		return ""
	}
	s := c.childOfType(args, "string", "sigil")
	if s == nil {
		return ""
	}
	raw := c.text(s)
	if s.Type() == "sigil" && len(raw) > 2 {
		raw = raw[2:] // ~S"""…""" → """…"""
	}
	return stripDocstring(raw)
}

// ---- Bash ----

func bashSpec() *langSpec {
	return &langSpec{
		grammar:  bash.GetLanguage(),
		comments: set("comment"),
		defs: map[string]defRule{
			"function_definition": {kind: KindFunction},
		},
		custom: func(c *syntaxChunker, n *sitter.Node) (item, bool) {
			switch n.Type() {
			case "variable_assignment", "declaration_command":
				assign := n
				if n.Type() == "declaration_command" {
					assign = c.childOfType(n, "variable_assignment")
				}
				if assign == nil {
					return item{}, false
				}
				name := c.text(assign.ChildByFieldName("name"))
				if name == "" {
					return item{}, false
				}
				kind := KindVariable
				if isConstantName(name) {
					kind = KindConstant
				}
				return item{role: roleDef, kind: kind, names: []string{name}, node: n}, true
			case "command":
				// `source lib.sh` and `. lib.sh` pull in other scripts.
				if name := n.ChildByFieldName("name"); name != nil {
					if t := c.text(name); t == "source" || t == "." {
						return item{role: roleOther, kind: KindPreamble, noSignature: true}, true
					}
				}
			}
			return item{}, false
		},
	}
}
