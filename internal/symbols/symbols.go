// Package symbols holds what a source file defines and what it refers to:
// the plain data behind callers, callees, implementations and dependencies.
//
// The chunker extracts it from the same parse that makes chunks
// (chunk.Analyze); the store persists it and resolution reads it. Nothing
// here parses or queries: these are values, and the pure functions that
// reason over them (GoImplementations).
//
// Lines are 1-based and inclusive. Indexes (Definition.Parent,
// Reference.Enclosing) point into the same File's Definitions, -1 meaning
// none; Chunk fields are indexes into the file's chunks as chunk.Analyze
// returns them.
package symbols

// Kinds of definitions. They follow the chunk kinds, so that a chunk
// holding one definition and the definition agree.
const (
	KindFunction  = "function"  // a free function
	KindMethod    = "method"    // a function that belongs to a type (also an interface or protocol method)
	KindClass     = "class"     // a class, object or record
	KindStruct    = "struct"    // a struct or union
	KindInterface = "interface" // an interface or protocol
	KindTrait     = "trait"     // a trait or mixin
	KindEnum      = "enum"      // an enumeration
	KindImpl      = "impl"      // an implementation block or extension of a type defined elsewhere
	KindModule    = "module"    // a module, namespace or package body
	KindType      = "type"      // a type alias or other type declaration
	KindConstant  = "constant"  // a constant
	KindVariable  = "variable"  // a top-level variable or a property
	KindMacro     = "macro"     // a preprocessor or language macro
)

// Kinds of references.
const (
	// RefCall is a call of a function, method or constructor.
	RefCall = "call"
	// RefType is a use of a type name (a parameter, a field, a new
	// expression, a cast).
	RefType = "type"
	// RefImport is an import, include, require or use; Target holds the
	// module or path as written.
	RefImport = "import"
	// RefExtends says that Source inherits from Name: a superclass, an
	// interface extending another, a Go struct or interface embedding.
	RefExtends = "extends"
	// RefImplements says that Source implements or conforms to Name: an
	// interface, protocol, trait or mixin.
	RefImplements = "implements"
	// RefReference is any other use of a name that may be a definition.
	RefReference = "reference"
)

// Definition is a named thing a file defines.
type Definition struct {
	Name string
	Kind string
	// Container is the path of what holds the definition, outermost first,
	// joined by " > " like chunk breadcrumbs: "Router" for a method of
	// Router (a Go method's receiver type, a C++ method defined outside its
	// class by its qualified name), "" at top level.
	Container string
	// Parent is the index of the innermost definition whose lines hold
	// this one, -1 at top level. It may differ from Container (a Go
	// method's receiver is not a definition that holds it).
	Parent    int
	Signature string // the declaration without its body, on one line
	StartLine int    // first line of the definition (without doc comments)
	EndLine   int    // last line, inclusive
	NameLine  int    // the line of its name
	Chunk     int    // index of the chunk holding NameLine
}

// Reference is a use of a name.
type Reference struct {
	Name string // the name used, unqualified: "Println" in fmt.Println
	Kind string // one of the Ref constants
	// Qualifier is what the name is reached through, as written:
	// "fmt" in fmt.Println, "self.repo" in self.repo.save(), "std::io" in
	// std::io::stdin(); "" when the name stands alone.
	Qualifier string
	// Target is, for imports, the module, package or path as written
	// (quotes removed): "net/http", "a.b", "./x", "stdio.h".
	Target string
	// Alias is, for imports, the local name the import binds when it
	// renames what it imports: "h" in import h "net/http", "np" in import
	// numpy as np.
	Alias string
	// Source is, for extends and implements, the name of the type that
	// extends or implements Name (the class declaring it, the type of an
	// extension or of a Rust impl).
	Source string
	Line   int
	// Args is, for a call written with parentheses, the number of
	// arguments between them (a trailing closure or block not counted);
	// -1 when unknown (no parentheses, or not a call).
	Args int
	// Enclosing is the index of the innermost definition whose lines hold
	// the reference, -1 at top level.
	Enclosing int
	Chunk     int // index of the chunk holding Line
}

// File is what one source file defines and refers to, in source order.
type File struct {
	Definitions []Definition
	References  []Reference
	// Go method sets, for structural implementation (GoImplementations);
	// empty for other languages.
	GoMethods    []GoMethod
	GoInterfaces []GoInterface
	GoTypes      []GoType
}

// Empty reports whether f holds nothing.
func (f File) Empty() bool {
	return len(f.Definitions) == 0 && len(f.References) == 0 &&
		len(f.GoMethods) == 0 && len(f.GoInterfaces) == 0 && len(f.GoTypes) == 0
}
