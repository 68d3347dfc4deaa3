; Python tags for lore (tree-sitter-python as vendored by smacker/go-tree-sitter).

; ---- definitions ----

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

; Module-level assignments: UPPER_CASE names are constants.
(module
  (expression_statement
    (assignment
      left: (identifier) @name) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (expression_statement
    (assignment
      left: (identifier) @name) @definition.variable))

; ---- references ----

(class_definition
  superclasses: (argument_list
    [
      (identifier) @name
      (attribute
        object: (_) @qualifier
        attribute: (identifier) @name)
      (subscript
        value: [
          (identifier) @name
          (attribute
            object: (_) @qualifier
            attribute: (identifier) @name)
        ])
    ] @reference.extends))

(import_statement
  name: (dotted_name) @target @reference.import)

(import_statement
  name: (aliased_import
    name: (dotted_name) @target
    alias: (identifier) @alias) @reference.import)

(import_from_statement
  module_name: (_) @target
  name: (aliased_import
    name: (dotted_name) @name
    alias: (identifier) @alias) @reference.import)

(import_from_statement
  module_name: (_) @target
  name: (dotted_name) @name @reference.import)

(import_from_statement
  module_name: (_) @target
  (wildcard_import) @name @reference.import)

(future_import_statement
  "__future__" @target
  name: (dotted_name) @name @reference.import)

(decorator
  [
    (identifier) @name
    (attribute
      object: (_) @qualifier
      attribute: (identifier) @name)
  ]) @reference.call

(call
  function: (identifier) @name) @reference.call

(call
  function: (attribute
    object: (_) @qualifier
    attribute: (identifier) @name)) @reference.call

(type
  (attribute
    object: (_) @qualifier
    attribute: (identifier) @name) @reference.type)

((type
  [
    (identifier) @name
    (generic_type (identifier) @name)
    (binary_operator left: (identifier) @name)
    (binary_operator right: (identifier) @name)
  ] @reference.type)
  (#not-any-of? @name
    "str" "int" "float" "bool" "bytes" "complex" "object" "list" "dict"
    "set" "frozenset" "tuple" "type" "None"))
