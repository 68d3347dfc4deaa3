; Java tags for lore (tree-sitter-java as vendored by smacker/go-tree-sitter).

; ---- definitions ----

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(compact_constructor_declaration
  name: (identifier) @name) @definition.method

(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

(enum_constant
  name: (identifier) @name) @definition.constant

((field_declaration
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant

; ---- references ----

(import_declaration
  (scoped_identifier) @target
  (asterisk) @name) @reference.import

(import_declaration
  [(scoped_identifier) (identifier)] @target) @reference.import

(superclass
  [
    (type_identifier) @name
    (scoped_type_identifier
      . (_) @qualifier
      (type_identifier) @name .)
    (generic_type
      [
        (type_identifier) @name
        (scoped_type_identifier
          . (_) @qualifier
          (type_identifier) @name .)
      ])
  ]) @reference.extends

(super_interfaces
  (type_list
    [
      (type_identifier) @name
      (scoped_type_identifier
        . (_) @qualifier
        (type_identifier) @name .)
      (generic_type
        [
          (type_identifier) @name
          (scoped_type_identifier
            . (_) @qualifier
            (type_identifier) @name .)
        ])
    ] @reference.implements))

(extends_interfaces
  (type_list
    [
      (type_identifier) @name
      (scoped_type_identifier
        . (_) @qualifier
        (type_identifier) @name .)
      (generic_type
        [
          (type_identifier) @name
          (scoped_type_identifier
            . (_) @qualifier
            (type_identifier) @name .)
        ])
    ] @reference.extends))

(method_invocation
  object: (_) @qualifier
  name: (identifier) @name) @reference.call

(method_invocation
  name: (identifier) @name) @reference.call

(method_reference
  . (_) @qualifier
  (identifier) @name .) @reference.call

(object_creation_expression
  type: [
    (type_identifier) @name
    (scoped_type_identifier
      . (_) @qualifier
      (type_identifier) @name .)
    (generic_type
      [
        (type_identifier) @name
        (scoped_type_identifier
          . (_) @qualifier
          (type_identifier) @name .)
      ])
  ]) @reference.call

(marker_annotation
  name: (_) @name) @reference.type

(annotation
  name: (_) @name) @reference.type

(scoped_type_identifier
  . (_) @qualifier
  (type_identifier) @name .) @reference.type

((type_identifier) @name @reference.type
  (#not-any-of? @name "String" "Object"))
