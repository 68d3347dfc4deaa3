; PHP tags for lore (tree-sitter-php as vendored by smacker/go-tree-sitter).
; A trait used in a class ("use Loggable;") is implemented by it.

; ---- definitions ----

(namespace_definition
  name: (namespace_name) @name) @definition.module

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(function_definition
  name: (name) @name) @definition.function

(method_declaration
  name: (name) @name) @definition.method

(const_element
  (name) @name) @definition.constant

(enum_case
  name: (name) @name) @definition.constant

; ---- references ----

(namespace_use_clause
  [(qualified_name) (name)] @target
  (namespace_aliasing_clause
    (name) @alias)) @reference.import

(namespace_use_clause
  [(qualified_name) (name)] @target) @reference.import

(namespace_use_declaration
  (namespace_name) @target
  (namespace_use_group
    (namespace_use_group_clause
      (namespace_name) @name
      (namespace_aliasing_clause
        (name) @alias)) @reference.import))

(namespace_use_declaration
  (namespace_name) @target
  (namespace_use_group
    (namespace_use_group_clause
      (namespace_name) @name) @reference.import))

([
  (require_expression (string (string_content) @target))
  (require_once_expression (string (string_content) @target))
  (include_expression (string (string_content) @target))
  (include_once_expression (string (string_content) @target))
] @reference.import)

(interface_declaration
  (base_clause
    [(name) (qualified_name)] @name @reference.extends))

(base_clause
  [(name) (qualified_name)] @name @reference.extends)

(class_interface_clause
  [(name) (qualified_name)] @name @reference.implements)

(use_declaration
  [(name) (qualified_name)] @name @reference.implements)

(function_call_expression
  function: [(name) (qualified_name)] @name) @reference.call

(member_call_expression
  object: (_) @qualifier
  name: (name) @name) @reference.call

(nullsafe_member_call_expression
  object: (_) @qualifier
  name: (name) @name) @reference.call

(scoped_call_expression
  scope: (_) @qualifier
  name: (name) @name) @reference.call

(object_creation_expression
  [(name) (qualified_name)] @name) @reference.call

(named_type
  [(name) (qualified_name)] @name) @reference.type

(attribute
  [(name) (qualified_name)] @name) @reference.type
