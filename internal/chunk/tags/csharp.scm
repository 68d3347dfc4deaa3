; C# tags for lore (tree-sitter-c-sharp as vendored by smacker/go-tree-sitter).
; After ":", the grammar cannot tell a base class from an interface: the
; first base of a class or record extends it unless it is named like an
; interface (IName); the others, and the bases of a struct, implement; an
; interface extends its bases.

; ---- definitions ----

(namespace_declaration
  name: (_) @name) @definition.module

(file_scoped_namespace_declaration
  name: (_) @name) @definition.module

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(delegate_declaration
  name: (identifier) @name) @definition.type

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(destructor_declaration
  name: (identifier) @name) @definition.method

(local_function_statement
  name: (identifier) @name) @definition.function

(enum_member_declaration
  name: (identifier) @name) @definition.constant

((field_declaration
  (modifier) @_const
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.constant
  (#eq? @_const "const"))

; ---- references ----

(using_directive
  name: (identifier) @alias
  [(identifier) (qualified_name)] @target) @reference.import

(using_directive
  [(identifier) (qualified_name)] @target) @reference.import

(interface_declaration
  (base_list
    [
      (identifier) @name
      (qualified_name) @name
      (generic_name (identifier) @name)
    ] @reference.extends))

((class_declaration
  (base_list
    .
    [
      (identifier) @name
      (qualified_name) @name
      (generic_name (identifier) @name)
    ] @reference.extends))
  (#not-match? @name "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]"))

(record_declaration
  (base_list
    (primary_constructor_base_type
      type: [
        (identifier) @name
        (qualified_name) @name
        (generic_name (identifier) @name)
      ]) @reference.extends))

((record_declaration
  (base_list
    .
    [
      (identifier) @name
      (qualified_name) @name
      (generic_name (identifier) @name)
    ] @reference.extends))
  (#not-match? @name "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]"))

(base_list
  [
    (identifier) @name
    (qualified_name) @name
    (generic_name (identifier) @name)
  ] @reference.implements)

(invocation_expression
  function: [
    (identifier) @name
    (generic_name (identifier) @name)
  ]) @reference.call

(invocation_expression
  function: (member_access_expression
    expression: (_) @qualifier
    name: [
      (identifier) @name
      (generic_name (identifier) @name)
    ])) @reference.call

(object_creation_expression
  type: [
    (identifier) @name
    (qualified_name) @name
    (generic_name (identifier) @name)
  ]) @reference.call

(attribute
  name: [(identifier) (qualified_name)] @name) @reference.type

(_
  type: [
    (identifier) @name
    (qualified_name) @name
    (generic_name (identifier) @name)
    (nullable_type type: [(identifier) (qualified_name)] @name)
    (array_type type: [(identifier) (qualified_name)] @name)
  ] @reference.type)

(method_declaration
  returns: [
    (identifier) @name
    (qualified_name) @name
    (generic_name (identifier) @name)
    (nullable_type type: [(identifier) (qualified_name)] @name)
    (array_type type: [(identifier) (qualified_name)] @name)
  ] @reference.type)

(type_argument_list
  [
    (identifier) @name
    (qualified_name) @name
  ] @reference.type)
