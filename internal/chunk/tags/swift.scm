; Swift tags for lore (tree-sitter-swift as vendored by smacker/go-tree-sitter).
; After ":", the grammar cannot tell a superclass from a protocol: a
; protocol extends the protocols it lists; a class extends the first type
; it lists (where Swift requires a superclass to stand) and implements the
; rest; a struct, enum, actor or extension implements all it lists. An
; extension is a definition (kind impl) named after the type it extends,
; so "extension Guest: Authenticatable" is an implements reference from
; Guest.

; ---- definitions ----

(class_declaration
  declaration_kind: "class"
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "actor"
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name) @definition.enum

(class_declaration
  declaration_kind: "extension"
  name: (user_type
    (type_identifier) @name .)) @definition.impl

(protocol_declaration
  name: (type_identifier) @name) @definition.interface

(protocol_function_declaration
  name: (simple_identifier) @name) @definition.method

(function_declaration
  name: (simple_identifier) @name) @definition.function

(init_declaration
  "init" @name) @definition.method

(deinit_declaration
  "deinit" @name) @definition.method

(subscript_declaration
  "subscript" @name) @definition.method

(typealias_declaration
  name: (type_identifier) @name) @definition.type

(associatedtype_declaration
  name: (type_identifier) @name) @definition.type

(enum_entry
  name: (simple_identifier) @name) @definition.constant

(source_file
  (property_declaration
    (value_binding_pattern
      mutability: "let")
    name: (pattern
      bound_identifier: (simple_identifier) @name)) @definition.constant)

(source_file
  (property_declaration
    name: (pattern
      bound_identifier: (simple_identifier) @name)) @definition.variable)

; ---- references ----

(import_declaration
  (identifier) @target) @reference.import

(protocol_declaration
  (inheritance_specifier
    inherits_from: (user_type) @name) @reference.extends)

(class_declaration
  declaration_kind: "class"
  name: (_)
  .
  (type_parameters)?
  .
  (inheritance_specifier
    inherits_from: (user_type) @name) @reference.extends)

(class_declaration
  (inheritance_specifier
    inherits_from: (user_type) @name) @reference.implements)

; A call passes arguments in parentheses or a trailing closure; brackets
; are a subscript.
((call_expression
  .
  (simple_identifier) @name
  (call_suffix
    [
      (value_arguments "(")
      (lambda_literal)
    ])) @reference.call
  (#not-eq? @name "defer"))

; a.b(): a pattern for the call around the navigation makes this
; grammar's query take seconds to compile, so the navigation is matched
; alone and is a call when arguments or a closure follow it.
(navigation_expression
  target: (_) @qualifier
  suffix: (navigation_suffix
    suffix: (simple_identifier) @name)) @reference.maybe_call

((type_identifier) @name @reference.type
  (#not-any-of? @name
    "String" "Int" "Int8" "Int16" "Int32" "Int64" "UInt" "UInt8" "UInt16"
    "UInt32" "UInt64" "Double" "Float" "Bool" "Character" "Void" "Any"
    "AnyObject" "Self"))
