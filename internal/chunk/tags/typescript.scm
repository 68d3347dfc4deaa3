; TypeScript and TSX tags for lore (see ecmascript.scm). These patterns come
; first so that they win over the shared ones.

; ---- definitions ----

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

(internal_module
  name: (_) @name) @definition.module

(module
  name: (_) @name) @definition.module

(method_signature
  name: (_) @name) @definition.method

(abstract_method_signature
  name: (_) @name) @definition.method

(function_signature
  name: (identifier) @name) @definition.function

(public_field_definition
  name: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; ---- references ----

(class_heritage
  (extends_clause
    value: [
      (identifier) @name
      (member_expression
        object: (_) @qualifier
        property: (property_identifier) @name)
    ]) @reference.extends)

(implements_clause
  [
    (type_identifier) @name
    (nested_type_identifier
      module: (_) @qualifier
      name: (type_identifier) @name)
    (generic_type
      name: [
        (type_identifier) @name
        (nested_type_identifier
          module: (_) @qualifier
          name: (type_identifier) @name)
      ])
  ] @reference.implements)

(extends_type_clause
  type: [
    (type_identifier) @name
    (nested_type_identifier
      module: (_) @qualifier
      name: (type_identifier) @name)
    (generic_type
      name: [
        (type_identifier) @name
        (nested_type_identifier
          module: (_) @qualifier
          name: (type_identifier) @name)
      ])
  ] @reference.extends)

(nested_type_identifier
  module: (_) @qualifier
  name: (type_identifier) @name) @reference.type

(type_identifier) @name @reference.type
