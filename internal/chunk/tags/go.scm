; Go tags for lore (tree-sitter-go as vendored by smacker/go-tree-sitter).
; Interfaces are satisfied structurally: the method sets that decide it are
; read by the chunker (goMethodSets), not here.

; ---- definitions ----

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @container
        (pointer_type (type_identifier) @container)
        (generic_type type: (type_identifier) @container)
        (pointer_type (generic_type type: (type_identifier) @container))
      ]))
  name: (field_identifier) @name) @definition.method

(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface

(type_spec
  name: (type_identifier) @name
  type: (struct_type)) @definition.struct

(type_spec
  name: (type_identifier) @name) @definition.type

(type_alias
  name: (type_identifier) @name) @definition.type

(method_elem
  name: (field_identifier) @name) @definition.method

(source_file
  (const_declaration
    (const_spec
      name: (identifier) @name) @definition.constant))

(source_file
  (var_declaration
    (var_spec
      name: (identifier) @name) @definition.variable))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec
        name: (identifier) @name) @definition.variable)))

; ---- references ----

; Embedding: an interface in an interface, a type in a struct.
(interface_type
  (type_elem
    .
    [
      (type_identifier) @name
      (qualified_type
        package: (package_identifier) @qualifier
        name: (type_identifier) @name)
    ]
    .) @reference.extends)

(field_declaration_list
  (field_declaration
    !name
    type: [
      (type_identifier) @name
      (qualified_type
        package: (package_identifier) @qualifier
        name: (type_identifier) @name)
      (pointer_type (type_identifier) @name)
      (pointer_type
        (qualified_type
          package: (package_identifier) @qualifier
          name: (type_identifier) @name))
      (generic_type type: (type_identifier) @name)
    ]) @reference.extends)

(import_spec
  name: (_) @alias
  path: (_) @target) @reference.import

(import_spec
  path: (_) @target) @reference.import

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (selector_expression
    operand: (_) @qualifier
    field: (field_identifier) @name)) @reference.call

(call_expression
  function: (parenthesized_expression
    (identifier) @name)) @reference.call

; Generic calls parse as conversions to a generic type: f[int](x).
(type_conversion_expression
  type: (generic_type
    type: (type_identifier) @name)) @reference.call

(type_conversion_expression
  type: (generic_type
    type: (qualified_type
      package: (package_identifier) @qualifier
      name: (type_identifier) @name))) @reference.call

(qualified_type
  package: (package_identifier) @qualifier
  name: (type_identifier) @name) @reference.type

((type_identifier) @name @reference.type
  (#not-any-of? @name
    "bool" "byte" "complex64" "complex128" "error" "float32" "float64"
    "int" "int8" "int16" "int32" "int64" "rune" "string"
    "uint" "uint8" "uint16" "uint32" "uint64" "uintptr" "any" "comparable"))
