; C++ tags for lore (tree-sitter-cpp as vendored by smacker/go-tree-sitter).
; These patterns come before those of c.scm, which C++ shares.

; ---- definitions ----

(class_specifier
  name: (type_identifier) @name
  body: (_)) @definition.class

(struct_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(namespace_definition
  name: (_) @name) @definition.module

(alias_declaration
  name: (type_identifier) @name) @definition.type

(concept_definition
  name: (identifier) @name) @definition.type

; Methods defined outside their class: the name is qualified (A::f).
(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier) @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier) @name))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier) @name))
  ]) @definition.method

(function_definition
  declarator: [
    (function_declarator
      declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator
      (function_declarator
        declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
  ]) @definition.method

(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: (identifier) @name))) @definition.function

; Method declarations in a class.
(field_declaration
  declarator: [
    (function_declarator
      declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
    (reference_declarator
      (function_declarator
        declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
  ]) @definition.method

(field_declaration_list
  (declaration
    declarator: (function_declarator
      declarator: [(identifier) (destructor_name) (operator_name)] @name)) @definition.method)

; ---- references ----

(base_class_clause
  [
    (type_identifier) @name
    (qualified_identifier) @name
    (template_type
      name: [(type_identifier) (qualified_identifier)] @name)
  ] @reference.extends)

(using_declaration
  [(identifier) (qualified_identifier)] @target) @reference.import

(call_expression
  function: (qualified_identifier) @name) @reference.call

(call_expression
  function: (template_function
    name: [(identifier) (qualified_identifier)] @name)) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @qualifier
    field: (template_method
      name: (field_identifier) @name))) @reference.call

(new_expression
  type: [
    (type_identifier) @name
    (qualified_identifier) @name
    (template_type
      name: [(type_identifier) (qualified_identifier)] @name)
  ]) @reference.call

(qualified_identifier
  scope: (_) @qualifier
  name: (type_identifier) @name) @reference.type

(template_type
  name: (type_identifier) @name) @reference.type
