; C tags for lore (tree-sitter-c as vendored by smacker/go-tree-sitter).
; C++ uses these patterns too, after cpp.scm.

; ---- definitions ----

(function_definition
  declarator: (function_declarator
    declarator: (identifier) @name)) @definition.function

(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (identifier) @name))) @definition.function

(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name)))) @definition.function

; Prototypes.
(declaration
  declarator: (function_declarator
    declarator: (identifier) @name)) @definition.function

(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (identifier) @name))) @definition.function

(struct_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_)) @definition.enum

(type_definition
  declarator: (type_identifier) @name) @definition.type

(enumerator
  name: (identifier) @name) @definition.constant

(preproc_def
  name: (identifier) @name
  value: (_)) @definition.constant

(preproc_function_def
  name: (identifier) @name) @definition.macro

(translation_unit
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator
        declarator: (identifier) @name)
      (init_declarator
        declarator: (array_declarator
          declarator: (identifier) @name))
      (init_declarator
        declarator: (pointer_declarator
          declarator: (identifier) @name))
    ]) @definition.variable)

; ---- references ----

(preproc_include
  path: (_) @target) @reference.import

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @qualifier
    field: (field_identifier) @name)) @reference.call

(type_identifier) @name @reference.type
