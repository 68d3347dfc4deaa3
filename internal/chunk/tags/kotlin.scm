; Kotlin tags for lore (tree-sitter-kotlin as vendored by smacker/go-tree-sitter).
; After ":", a supertype called as a constructor (Person()) is a superclass
; (extends); one without arguments is an interface (implements), except in
; an interface declaration, where it extends.

; ---- definitions ----

(class_declaration
  "interface"
  (type_identifier) @name) @definition.interface

(class_declaration
  "enum"
  (type_identifier) @name) @definition.enum

(class_declaration
  (type_identifier) @name) @definition.class

(object_declaration
  (type_identifier) @name) @definition.class

(companion_object
  (type_identifier) @name) @definition.class

; fun Guest.greet(): an extension function belongs to its receiver type.
(function_declaration
  (user_type
    (type_identifier) @container .)
  .
  (simple_identifier) @name) @definition.method

(function_declaration
  (simple_identifier) @name) @definition.function

(type_alias
  (type_identifier) @name) @definition.type

(enum_entry
  (simple_identifier) @name) @definition.constant

(source_file
  (property_declaration
    (binding_pattern_kind) @_kind
    (variable_declaration
      (simple_identifier) @name)) @definition.constant
  (#eq? @_kind "val"))

(source_file
  (property_declaration
    (variable_declaration
      (simple_identifier) @name)) @definition.variable)

; ---- references ----

(import_header
  (identifier) @target
  (import_alias
    (type_identifier) @alias)) @reference.import

(import_header
  (identifier) @target
  (wildcard_import) @name) @reference.import

(import_header
  (identifier) @target) @reference.import

(class_declaration
  "interface"
  (delegation_specifier
    (user_type) @name) @reference.extends)

(delegation_specifier
  (constructor_invocation
    (user_type) @name)) @reference.extends

(delegation_specifier
  (user_type) @name) @reference.implements

; Delegation: class C : I by impl
(delegation_specifier
  (explicit_delegation
    (user_type) @name)) @reference.implements

(call_expression
  (navigation_expression
    . (_) @qualifier
    (navigation_suffix
      (simple_identifier) @name) .)) @reference.call

(call_expression
  . (simple_identifier) @name) @reference.call

(callable_reference
  (simple_identifier) @name) @reference.call

((type_identifier) @name @reference.type
  (#not-any-of? @name
    "Int" "Long" "Short" "Byte" "Float" "Double" "Boolean" "Char" "String"
    "Unit" "Any" "Nothing"))
