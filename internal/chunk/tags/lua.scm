; Lua tags for lore (tree-sitter-lua as vendored by smacker/go-tree-sitter).
; "function M:f()" is a method of table M, "function M.f()" a function of
; it. The grammar gives a call's prefix segments as separate children:
; each is a @qualifier or @container, and the matches merge into one span.

; ---- definitions ----

(function_statement
  name: (function_name
    (identifier) @container
    (table_colon)
    .
    (identifier) @name .)) @definition.method

(function_statement
  name: (function_name
    (identifier) @container
    (identifier) @name .)) @definition.function

(function_statement
  name: (function_name
    .
    (identifier) @name .)) @definition.function

(function_statement
  name: (identifier) @name) @definition.function

; M.f = function () … end
(variable_declaration
  name: (variable_declarator
    (identifier) @container
    .
    (identifier) @name .)
  value: (function)) @definition.function

(variable_declaration
  name: (variable_declarator
    .
    (identifier) @name .)
  value: (function)) @definition.function

((program
  (variable_declaration
    name: (variable_declarator
      .
      (identifier) @name .)) @definition.constant)
  (#match? @name "^\\s*[A-Z][A-Z0-9_]*$"))

(program
  (variable_declaration
    name: (variable_declarator
      .
      (identifier) @name .)) @definition.variable)

; ---- references ----

((function_call
  .
  (identifier) @_require
  [
    (function_arguments . (string) @target)
    (string_argument) @target
  ]) @reference.import
  (#match? @_require "^\\s*require$"))

; a.b.c(), a.b:c(): the identifier right before the arguments.
(function_call
  (identifier) @qualifier
  (identifier) @name
  .
  [(function_call_paren) (function_arguments) (string_argument) (table_argument)]) @reference.call

((function_call
  .
  (identifier) @name
  .
  [(function_call_paren) (function_arguments) (string_argument) (table_argument)]) @reference.call
  (#not-match? @name "^\\s*require$"))
