; Scala tags for lore (tree-sitter-scala as vendored by smacker/go-tree-sitter).
; The type after "extends" is extended; those after "with" are mixed in
; (implements).

; ---- definitions ----

(class_definition
  name: (identifier) @name) @definition.class

(object_definition
  name: (identifier) @name) @definition.class

(trait_definition
  name: (identifier) @name) @definition.trait

(enum_definition
  name: (identifier) @name) @definition.enum

(given_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(type_definition
  name: (type_identifier) @name) @definition.type

(package_clause
  name: (package_identifier) @name
  body: (_)) @definition.module

[
  (simple_enum_case name: (identifier) @name)
  (full_enum_case name: (identifier) @name)
] @definition.constant

(compilation_unit
  (val_definition
    pattern: (identifier) @name) @definition.constant)

(compilation_unit
  (var_definition
    pattern: (identifier) @name) @definition.variable)

(object_definition
  body: (template_body
    (val_definition
      pattern: (identifier) @name) @definition.constant))

; ---- references ----

; The path's segments are separate children: each is a @target, and the
; matches merge into one target spanning them.
(import_declaration
  (identifier) @target
  (namespace_selectors
    [
      (identifier) @name
      (arrow_renamed_identifier
        name: (identifier) @name
        alias: (_) @alias)
      (as_renamed_identifier
        name: (identifier) @name
        alias: (_) @alias)
      (namespace_wildcard) @name
    ])) @reference.import

(import_declaration
  (identifier) @target
  (namespace_wildcard) @name) @reference.import

(import_declaration
  (identifier) @target) @reference.import

; The grammar gives every type of the clause the field "type", which this
; tree-sitter matches on the first only: the patterns do without it.
(extends_clause
  .
  [
    (type_identifier) @name
    (stable_type_identifier) @name
    (generic_type
      type: [(type_identifier) (stable_type_identifier)] @name)
  ] @reference.extends)

(extends_clause
  [
    (type_identifier) @name
    (stable_type_identifier) @name
    (generic_type
      type: [(type_identifier) (stable_type_identifier)] @name)
  ] @reference.implements)

(call_expression
  function: [
    (identifier) @name
    (generic_function
      function: (identifier) @name)
  ]) @reference.call

(call_expression
  function: [
    (field_expression
      value: (_) @qualifier
      field: (identifier) @name)
    (generic_function
      function: (field_expression
        value: (_) @qualifier
        field: (identifier) @name))
  ]) @reference.call

(instance_expression
  [
    (type_identifier) @name
    (stable_type_identifier) @name
    (generic_type
      type: [(type_identifier) (stable_type_identifier)] @name)
  ]) @reference.call

(field_expression
  value: (_) @qualifier
  field: (identifier) @name) @reference.reference

(stable_type_identifier) @name @reference.type

((type_identifier) @name @reference.type
  (#not-any-of? @name
    "Int" "Long" "Short" "Byte" "Float" "Double" "Boolean" "Char" "String"
    "Unit" "Any" "AnyRef" "Nothing"))
