; Ruby tags for lore (tree-sitter-ruby as vendored by smacker/go-tree-sitter).
; "include" and "prepend" of a module implement it (a mixin), "extend" too
; (for the class's singleton); a superclass extends.

; ---- definitions ----

(class
  name: [(constant) (scope_resolution)] @name) @definition.class

(module
  name: [(constant) (scope_resolution)] @name) @definition.module

(method
  name: (_) @name) @definition.method

(singleton_method
  name: (_) @name) @definition.method

(assignment
  left: (constant) @name) @definition.constant

; ---- references ----

(superclass
  [(constant) (scope_resolution)] @name) @reference.extends

((call
  !receiver
  method: (identifier) @_mixin
  arguments: (argument_list
    [(constant) (scope_resolution)] @name @reference.implements))
  (#any-of? @_mixin "include" "prepend" "extend"))

((call
  !receiver
  method: (identifier) @_require
  arguments: (argument_list
    .
    (string
      (string_content) @target))) @reference.import
  (#any-of? @_require "require" "require_relative" "load" "autoload"))

((call
  receiver: [(constant) (scope_resolution)] @name
  method: (identifier) @_new) @reference.call
  (#eq? @_new "new"))

(call
  receiver: (_) @qualifier
  method: (identifier) @name) @reference.call

((call
  !receiver
  method: (identifier) @name) @reference.call
  (#not-any-of? @name
    "require" "require_relative" "load" "autoload" "include" "extend" "prepend"
    "attr_reader" "attr_writer" "attr_accessor" "private" "protected" "public"
    "module_function" "raise" "puts" "p" "lambda" "proc"))

; A bare identifier standing as a statement is a call without arguments.
((body_statement
  (identifier) @name @reference.call))

((program
  (identifier) @name @reference.call))

(scope_resolution
  scope: (_) @qualifier
  name: (constant) @name) @reference.reference

(constant) @name @reference.reference
