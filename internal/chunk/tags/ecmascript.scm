; JavaScript, TypeScript and TSX tags for lore: the patterns all three
; grammars share (tree-sitter-javascript and tree-sitter-typescript as
; vendored by smacker/go-tree-sitter). javascript.scm, typescript.scm and
; jsx.scm add what only some of them have.

; ---- definitions ----

; const fs = require('fs') binds an import, not a definition.
(variable_declarator
  name: (identifier) @name
  value: (call_expression
    function: (identifier) @_require)
  (#eq? @_require "require")) @definition.ignore

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(class_declaration
  name: (_) @name) @definition.class

(method_definition
  name: (_) @name) @definition.method

; { load: function () {}, onKey: (e) => {} }: a function-valued property of
; an object literal is a method, as `save() {}` there is.
(pair
  key: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; const f = () => {}, const f = function () {}, const C = class {}
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

; Foo.prototype.bar = function () {}
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @container
      property: (property_identifier) @_prototype)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#eq? @_prototype "prototype")) @definition.method

; obj.name = function () {}
(assignment_expression
  left: (member_expression
    object: (identifier) @container
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#not-any-of? @container "module" "exports")) @definition.function

(assignment_expression
  left: (member_expression
    object: (identifier) @_exports
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#eq? @_exports "exports")) @definition.function

; Top-level constants and variables, exported or not.
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name) @definition.constant))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name) @definition.constant)))

(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name) @definition.variable)
  ])

(program
  (export_statement
    declaration: [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name) @definition.variable)
      (variable_declaration
        (variable_declarator
          name: (identifier) @name) @definition.variable)
    ]))

; ---- references ----

(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @name
        alias: (identifier) @alias)))
  source: (string (string_fragment) @target)) @reference.import

(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @name)))
  source: (string (string_fragment) @target)) @reference.import

; import * as path from 'path', import React from 'react': the name is the
; local binding.
(import_statement
  (import_clause
    (namespace_import (identifier) @name))
  source: (string (string_fragment) @target)) @reference.import

(import_statement
  (import_clause
    (identifier) @name)
  source: (string (string_fragment) @target)) @reference.import

(import_statement
  source: (string (string_fragment) @target)) @reference.import

(export_statement
  source: (string (string_fragment) @target)) @reference.import

; CommonJS require('x') and dynamic import('x').
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @target))
  (#eq? @_require "require")) @reference.import

(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @target))) @reference.import

((call_expression
  function: (identifier) @name) @reference.call
  (#not-eq? @name "require"))

(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: (_) @name)) @reference.call

(new_expression
  constructor: (identifier) @name) @reference.call

(new_expression
  constructor: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.call
