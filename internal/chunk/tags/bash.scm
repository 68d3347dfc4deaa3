; Bash tags for lore (tree-sitter-bash as vendored by smacker/go-tree-sitter).
; "source f" and ". f" import f; any other command calls what it names.

; ---- definitions ----

(function_definition
  name: (word) @name) @definition.function

((program
  [
    (variable_assignment
      name: (variable_name) @name)
    (declaration_command
      (variable_assignment
        name: (variable_name) @name))
  ] @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(program
  [
    (variable_assignment
      name: (variable_name) @name)
    (declaration_command
      (variable_assignment
        name: (variable_name) @name))
  ] @definition.variable)

; ---- references ----

((command
  name: (command_name
    (word) @_source)
  .
  argument: [(word) (string) (raw_string) (concatenation)] @target) @reference.import
  (#any-of? @_source "source" "."))

((command
  name: (command_name
    (word) @name)) @reference.call
  (#not-any-of? @name
    "source" "." "echo" "printf" "cd" "test" "[" "[[" "exit" "return" "local"
    "export" "set" "unset" "shift" "read" "true" "false" ":" "eval" "exec"
    "trap" "wait"))
