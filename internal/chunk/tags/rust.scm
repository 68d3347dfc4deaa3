; Rust tags for lore (tree-sitter-rust as vendored by smacker/go-tree-sitter).
; An impl block is a definition named after its type (kind impl), so that
; its methods have that type as container; "impl Trait for Type" is an
; implements reference from Type to Trait.

; ---- definitions ----

(function_item
  name: (identifier) @name) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name) @definition.trait

(impl_item
  type: [
    (type_identifier) @name
    (generic_type
      type: [
        (type_identifier) @name
        (scoped_type_identifier
          name: (type_identifier) @name)
      ])
    (scoped_type_identifier
      name: (type_identifier) @name)
  ]) @definition.impl

(mod_item
  name: (identifier) @name) @definition.module

(const_item
  name: (identifier) @name) @definition.constant

(static_item
  name: (identifier) @name) @definition.constant

(type_item
  name: (type_identifier) @name) @definition.type

(associated_type
  name: (type_identifier) @name) @definition.type

(macro_definition
  name: (identifier) @name) @definition.macro

(enum_variant
  name: (identifier) @name) @definition.constant

; ---- references ----

(impl_item
  trait: [
    (type_identifier) @name
    (scoped_type_identifier
      path: (_) @qualifier
      name: (type_identifier) @name)
    (generic_type
      type: [
        (type_identifier) @name
        (scoped_type_identifier
          path: (_) @qualifier
          name: (type_identifier) @name)
      ])
  ]
  type: (_) @source) @reference.implements

(trait_item
  bounds: (trait_bounds
    [
      (type_identifier) @name
      (scoped_type_identifier
        path: (_) @qualifier
        name: (type_identifier) @name)
      (generic_type
        type: (type_identifier) @name)
    ] @reference.extends))

(use_declaration
  argument: (use_as_clause
    path: (_) @target
    alias: (identifier) @alias)) @reference.import

(use_declaration
  argument: (use_wildcard
    (_) @target
    "*" @name)) @reference.import

(use_declaration
  argument: [
    (identifier)
    (scoped_identifier)
    (crate)
    (self)
    (super)
  ] @target) @reference.import

(scoped_use_list
  path: (_) @target
  list: (use_list
    [
      (identifier) @name
      (self) @name
      (use_as_clause
        path: (_) @name
        alias: (identifier) @alias)
      (use_wildcard "*" @name)
    ] @reference.import))

(extern_crate_declaration
  name: (identifier) @target) @reference.import

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
      field: (field_identifier) @name)
    (generic_function
      function: (field_expression
        value: (_) @qualifier
        field: (field_identifier) @name))
  ]) @reference.call

(call_expression
  function: [
    (scoped_identifier
      path: (_) @qualifier
      name: (identifier) @name)
    (generic_function
      function: (scoped_identifier
        path: (_) @qualifier
        name: (identifier) @name))
  ]) @reference.call

(macro_invocation
  macro: [
    (identifier) @name
    (scoped_identifier
      path: (_) @qualifier
      name: (identifier) @name)
  ]) @reference.call

(scoped_type_identifier
  path: (_) @qualifier
  name: (type_identifier) @name) @reference.type

((type_identifier) @name @reference.type
  (#not-eq? @name "Self"))
