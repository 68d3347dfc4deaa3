; JSX tags for lore (JavaScript and TSX): a capitalised element is a
; component, which rendering calls.

((jsx_opening_element
  name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))

((jsx_self_closing_element
  name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))

(jsx_opening_element
  name: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.call

(jsx_self_closing_element
  name: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.call
