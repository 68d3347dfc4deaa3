; JavaScript-only tags for lore (see ecmascript.scm).

(field_definition
  property: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

(class_heritage
  [
    (identifier) @name
    (member_expression
      object: (_) @qualifier
      property: (property_identifier) @name)
  ] @reference.extends)
