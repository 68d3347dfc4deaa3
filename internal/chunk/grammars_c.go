package chunk

import (
	"bytes"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/swift"
)

// ---- C and C++ ----

// cSpec serves C and C++ (the C++ grammar extends the C one).
func cSpec(grammar *sitter.Language) *langSpec {
	return &langSpec{
		grammar:  grammar,
		comments: set("comment"),
		preamble: set("preproc_include", "using_declaration", "preproc_call"),
		flatten: set("preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif",
			"preproc_elifdef", "linkage_specification", "declaration_list"),
		defs: map[string]defRule{
			"struct_specifier":     {kind: KindStruct, container: true},
			"union_specifier":      {kind: KindStruct, container: true},
			"enum_specifier":       {kind: KindEnum},
			"class_specifier":      {kind: KindClass, container: true},
			"namespace_definition": {kind: KindModule, container: true},
			"preproc_def":          {kind: KindConstant},
			"preproc_function_def": {kind: KindFunction},
			"alias_declaration":    {kind: KindType},
			"concept_definition":   {kind: KindType},
		},
		custom:      cCustom,
		repair:      cRepair,
		repairFirst: true,
	}
}

func cCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	switch n.Type() {
	case "function_definition":
		declarator := n.ChildByFieldName("declarator")
		if declarator == nil || c.cFunctionDeclarator(declarator) || declarator.Type() == "qualified_identifier" {
			it := item{role: roleDef, kind: KindFunction, node: n, body: n.ChildByFieldName("body")}
			c.cNameInto(&it, declarator)
			return it, true
		}
		// The C++ grammar reads a field with an initializer, "double x = 0;",
		// as a function with a pure-virtual clause.
		return item{role: roleOther, kind: KindVariable, noSignature: true}, true
	case "preproc_def":
		if n.ChildByFieldName("value") == nil {
			// "#define GUARD_H" is an include guard or a flag, not a constant.
			return item{role: roleOther, kind: KindPreamble, noSignature: true}, true
		}
		return item{}, false
	case "declaration", "field_declaration":
		// A class, struct, union or enum defined inside a class body (or
		// defined and declared at once, "struct point { … } origin;") is
		// that type's definition.
		if typ := n.ChildByFieldName("type"); typ != nil && typ.ChildByFieldName("body") != nil &&
			typ.ChildByFieldName("name") != nil {
			it := c.spec.classify(c, typ)
			it.node = n
			for _, d := range c.named(n) {
				if name := c.cDeclaratorName(d); name != "" && !sameNode(d, typ) {
					it.names = append(it.names, name)
				}
			}
			return it, true
		}
		// A prototype (or method declaration in a class) is a function;
		// anything else is a variable or field.
		for _, d := range c.named(n) {
			if c.cFunctionDeclarator(d) {
				it := item{role: roleDef, kind: KindFunction, node: n}
				c.cNameInto(&it, d)
				return it, true
			}
		}
		if n.Type() == "field_declaration" {
			return item{role: roleOther, kind: KindVariable, noSignature: true}, true
		}
		it := item{role: roleDef, kind: KindVariable, node: n}
		for _, q := range c.named(n) {
			if t := q.Type(); (t == "type_qualifier" || t == "storage_class_specifier") && strings.HasPrefix(c.text(q), "const") {
				it.kind = KindConstant
			}
		}
		for _, d := range c.named(n) {
			if name := c.cDeclaratorName(d); name != "" && !sameNode(d, n.ChildByFieldName("type")) {
				it.names = append(it.names, name)
			}
		}
		if len(it.names) == 0 {
			it.role = roleOther
		}
		return it, true
	case "type_definition":
		it := item{role: roleDef, kind: KindType, node: n}
		if name := c.cDeclaratorName(n.ChildByFieldName("declarator")); name != "" {
			it.names = []string{name}
		}
		if typ := n.ChildByFieldName("type"); typ != nil {
			if body := typ.ChildByFieldName("body"); body != nil {
				it.body = body
				it.container = typ.Type() != "enum_specifier"
				it.kind = KindStruct
				if typ.Type() == "enum_specifier" {
					it.kind = KindEnum
				}
				// "typedef enum {" does not say what it defines; add the name.
				prefix := strings.Join(strings.Fields(string(c.src[n.StartByte():body.StartByte()])), " ")
				if len(it.names) > 0 && !strings.Contains(prefix, it.names[0]) {
					prefix += " " + it.names[0]
				}
				it.sig = prefix
			}
		}
		return it, true
	case "template_declaration":
		named := c.named(n)
		if len(named) == 0 {
			return item{}, false
		}
		it := c.spec.classify(c, named[len(named)-1])
		it.node = n
		return it, true
	case "namespace_definition":
		it := c.define(n, KindModule, true)
		if len(it.names) == 0 {
			it.names = []string{"(anonymous)"}
		}
		return it, true
	case "access_specifier":
		return item{role: roleOther, kind: KindBlock, noSignature: true}, true
	}
	return item{}, false
}

// cFunctionDeclarator reports a declarator that declares a function,
// possibly behind pointers or references.
func (c *syntaxChunker) cFunctionDeclarator(d *sitter.Node) bool {
	for depth := 0; d != nil && depth < 6; depth++ {
		switch d.Type() {
		case "function_declarator":
			return true
		case "pointer_declarator", "reference_declarator", "init_declarator":
			d = c.innerDeclarator(d)
		default:
			return false
		}
	}
	return false
}

// cNameInto names a function from its declarator. A qualified C++ name
// ("ns::Router::handle") makes a method of its scope.
func (c *syntaxChunker) cNameInto(it *item, declarator *sitter.Node) {
	name := c.cDeclaratorName(declarator)
	if name == "" {
		return
	}
	scope, last := lastSegment(name, "::")
	if scope != "" {
		it.kind = KindMethod
		it.crumb = strings.ReplaceAll(scope, "::", " > ")
	}
	it.names = []string{last}
}

// cDeclaratorName digs the declared name out of a (nested) declarator.
func (c *syntaxChunker) cDeclaratorName(d *sitter.Node) string {
	for depth := 0; d != nil && depth < 8; depth++ {
		switch d.Type() {
		case "identifier", "field_identifier", "type_identifier", "qualified_identifier",
			"destructor_name", "operator_name", "primitive_type":
			return c.text(d)
		case "parenthesized_declarator", "pointer_declarator", "reference_declarator",
			"function_declarator", "array_declarator", "init_declarator", "attributed_declarator":
			d = c.innerDeclarator(d)
		default:
			return ""
		}
	}
	return ""
}

func (c *syntaxChunker) innerDeclarator(d *sitter.Node) *sitter.Node {
	if inner := d.ChildByFieldName("declarator"); inner != nil {
		return inner
	}
	for _, child := range c.named(d) {
		if strings.HasSuffix(child.Type(), "declarator") || child.Type() == "identifier" ||
			child.Type() == "field_identifier" || child.Type() == "qualified_identifier" {
			return child
		}
	}
	return nil
}

// ---- Java ----

func javaSpec() *langSpec {
	return &langSpec{
		grammar:  java.GetLanguage(),
		comments: set("line_comment", "block_comment"),
		preamble: set("package_declaration", "import_declaration", "module_declaration"),
		flatten:  set("enum_body_declarations"),
		defs: map[string]defRule{
			"class_declaration":                   {kind: KindClass, container: true},
			"record_declaration":                  {kind: KindClass, container: true},
			"interface_declaration":               {kind: KindInterface, container: true},
			"annotation_type_declaration":         {kind: KindInterface, container: true},
			"enum_declaration":                    {kind: KindEnum, container: true},
			"method_declaration":                  {kind: KindFunction},
			"constructor_declaration":             {kind: KindFunction},
			"compact_constructor_declaration":     {kind: KindFunction},
			"annotation_type_element_declaration": {kind: KindFunction},
		},
		custom: func(c *syntaxChunker, n *sitter.Node) (item, bool) {
			switch n.Type() {
			case "field_declaration", "constant_declaration":
				return item{role: roleOther, kind: KindVariable, noSignature: true}, true
			case "enum_constant":
				return item{role: roleOther, kind: KindConstant, noSignature: true}, true
			}
			return item{}, false
		},
	}
}

// ---- C# ----

func csharpSpec() *langSpec {
	return &langSpec{
		grammar:  csharp.GetLanguage(),
		comments: set("comment"),
		preamble: set("using_directive", "extern_alias_directive", "file_scoped_namespace_declaration"),
		// Members under #if FEATURE_X … #else … #endif are chunked as if
		// they stood at the conditional's level.
		flatten: set("preproc_if", "preproc_elif", "preproc_else"),
		defs: map[string]defRule{
			"namespace_declaration":           {kind: KindModule, container: true},
			"class_declaration":               {kind: KindClass, container: true},
			"record_declaration":              {kind: KindClass, container: true},
			"record_struct_declaration":       {kind: KindStruct, container: true},
			"struct_declaration":              {kind: KindStruct, container: true},
			"interface_declaration":           {kind: KindInterface, container: true},
			"enum_declaration":                {kind: KindEnum},
			"delegate_declaration":            {kind: KindType},
			"method_declaration":              {kind: KindFunction},
			"constructor_declaration":         {kind: KindFunction},
			"destructor_declaration":          {kind: KindFunction},
			"operator_declaration":            {kind: KindFunction},
			"conversion_operator_declaration": {kind: KindFunction},
			"local_function_statement":        {kind: KindFunction},
		},
		custom: func(c *syntaxChunker, n *sitter.Node) (item, bool) {
			switch n.Type() {
			case "field_declaration", "property_declaration", "event_field_declaration",
				"event_declaration", "indexer_declaration":
				return item{role: roleOther, kind: KindVariable, noSignature: true}, true
			}
			return item{}, false
		},
	}
}

// ---- Kotlin ----

func kotlinSpec() *langSpec {
	return &langSpec{
		grammar:  kotlin.GetLanguage(),
		comments: set("comment", "multiline_comment", "line_comment"),
		preamble: set("package_header", "import_list", "import_header", "file_annotation", "shebang_line"),
		bodies:   set("class_body", "enum_class_body", "function_body"),
		defs: map[string]defRule{
			"object_declaration":    {kind: KindClass, container: true},
			"companion_object":      {kind: KindClass, container: true},
			"function_declaration":  {kind: KindFunction},
			"secondary_constructor": {kind: KindFunction},
			"anonymous_initializer": {kind: KindFunction},
			"type_alias":            {kind: KindType},
		},
		custom: kotlinCustom,
		repair: kotlinRepair,
	}
}

// kotlinRepair rewrites, keeping every offset, the functional interface
// declaration Kotlin 1.4 added ("fun interface Interceptor { … }"), which
// the grammar predates: it reads "fun interface" as an error and the body
// as a lambda, so the interface loses its name and kind (okhttp's
// Interceptor, a symbol query's answer, became an anonymous block). The
// "fun" modifier is blanked; what is left is a plain interface.
func kotlinRepair(src []byte) []byte {
	word := func(b byte) bool { return isWordByte(b) || b >= 0x80 } // a byte of an identifier, ASCII or not
	out := slices.Clone(src)
	for i := 0; ; {
		j := bytes.Index(out[i:], []byte("fun"))
		if j < 0 {
			return out
		}
		at := i + j
		i = at + 3
		if at > 0 && word(out[at-1]) {
			continue
		}
		k := i
		for k < len(out) && (out[k] == ' ' || out[k] == '\t') {
			k++
		}
		if k == i || !bytes.HasPrefix(out[k:], []byte("interface")) || k+9 < len(out) && word(out[k+9]) {
			continue
		}
		copy(out[at:], "   ")
	}
}

func kotlinCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	switch n.Type() {
	case "class_declaration":
		it := c.define(n, KindClass, true)
		for _, child := range c.keywords(n) {
			switch child {
			case "interface":
				it.kind = KindInterface
			case "enum":
				it.kind = KindEnum
			}
		}
		return it, true
	case "getter", "setter", "anonymous_initializer":
		// Accessors follow their property; init blocks belong to the class
		// header.
		return item{role: roleOther, kind: KindVariable, noSignature: true}, true
	case "companion_object":
		it := c.define(n, KindClass, true)
		if len(it.names) == 0 {
			it.names = []string{"Companion"}
		}
		return it, true
	case "property_declaration":
		it := item{role: roleDef, kind: KindVariable, node: n}
		if v := c.childOfType(n, "variable_declaration"); v != nil {
			if id := c.childOfType(v, "simple_identifier"); id != nil {
				it.names = []string{c.text(id)}
			}
		}
		if k := c.childOfType(n, "binding_pattern_kind"); k != nil && c.text(k) == "val" {
			it.kind = KindConstant
		}
		return it, true
	}
	return item{}, false
}

// keywords lists the text of n's children (anonymous tokens included) and
// of its modifiers, which is where Kotlin and Swift keep "enum", "interface".
func (c *syntaxChunker) keywords(n *sitter.Node) []string {
	var out []string
	for i := 0; i < int(n.ChildCount()) && i < 12; i++ {
		child := n.Child(i)
		if child == nil {
			continue
		}
		switch t := child.Type(); {
		case t == "modifiers":
			for _, m := range c.named(child) {
				out = append(out, strings.Fields(c.text(m))...)
			}
		case !child.IsNamed():
			out = append(out, t)
		}
	}
	return out
}

// ---- Scala ----

func scalaSpec() *langSpec {
	return &langSpec{
		grammar:  scala.GetLanguage(),
		comments: set("comment", "block_comment"),
		preamble: set("package_clause", "import_declaration", "export_declaration"),
		defs: map[string]defRule{
			"class_definition":     {kind: KindClass, container: true},
			"object_definition":    {kind: KindClass, container: true},
			"trait_definition":     {kind: KindTrait, container: true},
			"enum_definition":      {kind: KindEnum, container: true},
			"given_definition":     {kind: KindClass, container: true},
			"extension_definition": {kind: KindImpl, container: true},
			"function_definition":  {kind: KindFunction},
			"function_declaration": {kind: KindFunction},
			"type_definition":      {kind: KindType},
		},
		custom: func(c *syntaxChunker, n *sitter.Node) (item, bool) {
			switch n.Type() {
			case "val_definition", "var_definition", "val_declaration", "var_declaration":
				it := item{role: roleDef, kind: KindVariable, node: n}
				if strings.HasPrefix(n.Type(), "val") {
					it.kind = KindConstant
				}
				pattern := n.ChildByFieldName("pattern")
				if pattern == nil {
					pattern = n.ChildByFieldName("name")
				}
				if pattern != nil && pattern.Type() == "identifier" {
					it.names = []string{c.text(pattern)}
				}
				return it, true
			case "package_clause":
				// A package clause with a body (package a { … }) is a module.
				if body := n.ChildByFieldName("body"); body != nil {
					return c.define(n, KindModule, true), true
				}
			}
			return item{}, false
		},
	}
}

// ---- Swift ----

func swiftSpec() *langSpec {
	return &langSpec{
		grammar:  swift.GetLanguage(),
		comments: set("comment", "multiline_comment"),
		preamble: set("import_declaration", "shebang_line"),
		defs: map[string]defRule{
			"protocol_declaration":          {kind: KindInterface, container: true},
			"function_declaration":          {kind: KindFunction},
			"protocol_function_declaration": {kind: KindFunction},
			"init_declaration":              {kind: KindFunction},
			"deinit_declaration":            {kind: KindFunction},
			"subscript_declaration":         {kind: KindFunction},
			"typealias_declaration":         {kind: KindType},
			"associatedtype_declaration":    {kind: KindType},
		},
		custom: swiftCustom,
	}
}

func swiftCustom(c *syntaxChunker, n *sitter.Node) (item, bool) {
	switch n.Type() {
	case "class_declaration":
		it := c.define(n, KindClass, true)
		if k := n.ChildByFieldName("declaration_kind"); k != nil {
			switch c.text(k) {
			case "struct":
				it.kind = KindStruct
			case "enum":
				it.kind = KindEnum
			case "extension":
				it.kind = KindImpl
			case "protocol":
				it.kind = KindInterface
			}
		}
		return it, true
	case "deinit_declaration":
		it := c.define(n, KindFunction, false)
		it.names = []string{"deinit"}
		return it, true
	case "property_declaration":
		it := item{role: roleDef, kind: KindVariable, node: n}
		if name := n.ChildByFieldName("name"); name != nil {
			it.names = []string{c.text(name)}
		}
		for _, child := range c.named(n) {
			if child.Type() == "value_binding_pattern" && c.text(child) == "let" {
				it.kind = KindConstant
			}
		}
		if len(it.names) == 0 {
			it.role = roleOther
		}
		return it, true
	}
	return item{}, false
}
