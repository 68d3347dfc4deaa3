; Elixir tags for lore (tree-sitter-elixir as vendored by smacker/go-tree-sitter).
; "defimpl Proto, for: Type" is a definition (kind impl) named after Type
; with an implements reference to Proto; "@behaviour B" implements B.
; Dotted module names are split: Auth.Guest is Guest in container Auth.

; ---- definitions ----

((call
  target: (identifier) @_keyword
  (arguments
    .
    (alias) @name)) @definition.module
  (#eq? @_keyword "defmodule"))

((call
  target: (identifier) @_keyword
  (arguments
    .
    (alias) @name)) @definition.interface
  (#eq? @_keyword "defprotocol"))

((call
  target: (identifier) @_keyword
  (arguments
    (keywords
      (pair
        key: (keyword) @_for
        value: (alias) @name)))) @definition.impl
  (#eq? @_keyword "defimpl")
  (#match? @_for "^for:"))

((call
  target: (identifier) @_keyword
  (arguments
    .
    [
      (call target: (identifier) @name)
      (identifier) @name
      (binary_operator
        left: [
          (call target: (identifier) @name)
          (identifier) @name
        ])
    ])) @definition.function
  (#any-of? @_keyword
    "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate"
    "defn" "defnp"))

; ---- references ----

((call
  target: (identifier) @_keyword
  (arguments
    .
    (alias) @name @reference.implements))
  (#eq? @_keyword "defimpl"))

((unary_operator
  operand: (call
    target: (identifier) @_behaviour
    (arguments
      .
      (alias) @name))) @reference.implements
  (#eq? @_behaviour "behaviour"))

((call
  target: (identifier) @_keyword
  (arguments
    .
    (alias) @target
    (keywords
      (pair
        key: (keyword) @_as
        value: (alias) @alias)))) @reference.import
  (#eq? @_keyword "alias")
  (#match? @_as "^as:"))

((call
  target: (identifier) @_keyword
  (arguments
    .
    (dot
      left: (alias) @target
      right: (tuple
        (alias) @name @reference.import))))
  (#any-of? @_keyword "alias" "import" "require" "use"))

((call
  target: (identifier) @_keyword
  (arguments
    .
    (alias) @target)) @reference.import
  (#any-of? @_keyword "alias" "import" "require" "use"))

; A module attribute (@doc, @max 3) is no call.
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @name)) @reference.ignore

(call
  target: (dot
    left: (_) @qualifier
    right: (identifier) @name)) @reference.call

((call
  target: (identifier) @name) @reference.call
  (#not-any-of? @name
    "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate"
    "defn" "defnp" "defmodule" "defprotocol" "defimpl" "defstruct"
    "defexception" "alias" "import" "require" "use" "if" "unless" "case"
    "cond" "with" "for" "fn" "quote" "unquote" "raise" "receive" "try"))
