package symbols

import (
	"sort"
	"strings"
)

// Go interfaces are satisfied structurally: nothing in the source says that
// a type implements one. The chunker records each method with its receiver
// and arity, each interface's method set and each named type's embedded
// fields; GoImplementations matches them by method name and arity.

// GoMethod is a method declared on a named Go type.
type GoMethod struct {
	Receiver string // the receiver's type name, without * and type parameters
	Pointer  bool   // the receiver is *Receiver
	Name     string
	Arity    int // number of parameters (a variadic one counts once)
	Line     int
}

// GoMethodSpec is a method as an interface lists it.
type GoMethodSpec struct {
	Name  string
	Arity int
}

// GoInterface is a named Go interface type.
type GoInterface struct {
	Name    string
	Methods []GoMethodSpec
	// Embeds are the interfaces it embeds, as written ("io.Reader",
	// "Named").
	Embeds []string
	// TypeSet marks a constraint (~int | float64): no ordinary type
	// implements it by its methods alone.
	TypeSet bool
	Line    int
}

// GoType is a named Go type other than an interface, with the fields it
// embeds (whose methods it gets).
type GoType struct {
	Name   string
	Embeds []GoEmbed
	Line   int
}

// GoEmbed is an embedded field.
type GoEmbed struct {
	Name    string // the embedded type as written, without * ("Base", "sync.Mutex")
	Pointer bool   // embedded as *Name
}

// GoImplementation says that a Go type satisfies an interface.
type GoImplementation struct {
	Type      string
	Interface string
	// Pointer is true when only *Type satisfies it (some of the methods it
	// needs have pointer receivers).
	Pointer bool
}

// goWellKnown are the method sets of interfaces from the standard library
// that code commonly embeds, so that embedding them does not make an
// interface undecidable.
var goWellKnown = map[string][]GoMethodSpec{
	"error":           {{"Error", 0}},
	"fmt.Stringer":    {{"String", 0}},
	"io.Reader":       {{"Read", 1}},
	"io.Writer":       {{"Write", 1}},
	"io.Closer":       {{"Close", 0}},
	"io.ReadWriter":   {{"Read", 1}, {"Write", 1}},
	"io.ReadCloser":   {{"Read", 1}, {"Close", 0}},
	"io.WriteCloser":  {{"Write", 1}, {"Close", 0}},
	"io.ReaderAt":     {{"ReadAt", 2}},
	"io.WriterTo":     {{"WriteTo", 1}},
	"io.ReaderFrom":   {{"ReadFrom", 1}},
	"io.Seeker":       {{"Seek", 2}},
	"sort.Interface":  {{"Len", 0}, {"Less", 2}, {"Swap", 2}},
	"context.Context": {{"Deadline", 0}, {"Done", 0}, {"Err", 0}, {"Value", 1}},
	"io.ReadWriteCloser": {
		{"Read", 1}, {"Write", 1}, {"Close", 0},
	},
	"io.StringWriter":        {{"WriteString", 1}},
	"io.ByteReader":          {{"ReadByte", 0}},
	"io.ByteWriter":          {{"WriteByte", 1}},
	"io.RuneReader":          {{"ReadRune", 0}},
	"io.WriterAt":            {{"WriteAt", 2}},
	"io.ReadSeeker":          {{"Read", 1}, {"Seek", 2}},
	"io.ReadSeekCloser":      {{"Read", 1}, {"Seek", 2}, {"Close", 0}},
	"io.WriteSeeker":         {{"Write", 1}, {"Seek", 2}},
	"fmt.Formatter":          {{"Format", 2}},
	"fmt.GoStringer":         {{"GoString", 0}},
	"sync.Locker":            {{"Lock", 0}, {"Unlock", 0}},
	"flag.Value":             {{"String", 0}, {"Set", 1}},
	"heap.Interface":         {{"Len", 0}, {"Less", 2}, {"Swap", 2}, {"Push", 1}, {"Pop", 0}},
	"encoding.TextMarshaler": {{"MarshalText", 0}},
	"encoding.TextUnmarshaler": {
		{"UnmarshalText", 1},
	},
	"json.Marshaler":   {{"MarshalJSON", 0}},
	"json.Unmarshaler": {{"UnmarshalJSON", 1}},
	"http.Handler":     {{"ServeHTTP", 2}},
	"http.ResponseWriter": {
		{"Header", 0}, {"Write", 1}, {"WriteHeader", 1},
	},
	"http.Flusher":      {{"Flush", 0}},
	"http.Hijacker":     {{"Hijack", 0}},
	"http.Pusher":       {{"Push", 2}},
	"http.RoundTripper": {{"RoundTrip", 1}},
	"net.Listener":      {{"Accept", 0}, {"Close", 0}, {"Addr", 0}},
	"net.Conn": {
		{"Read", 1}, {"Write", 1}, {"Close", 0}, {"LocalAddr", 0}, {"RemoteAddr", 0},
		{"SetDeadline", 1}, {"SetReadDeadline", 1}, {"SetWriteDeadline", 1},
	},
	"fs.FS":         {{"Open", 1}},
	"fs.File":       {{"Stat", 0}, {"Read", 1}, {"Close", 0}},
	"driver.Valuer": {{"Value", 0}},
	"sql.Scanner":   {{"Scan", 1}},
}

// goUniverse indexes the method-set facts of a set of Go files.
type goUniverse struct {
	interfaces map[string]GoInterface
	types      map[string]GoType
	methods    map[string][]GoMethod // by receiver
}

func newGoUniverse(files []File) *goUniverse {
	u := &goUniverse{
		interfaces: map[string]GoInterface{},
		types:      map[string]GoType{},
		methods:    map[string][]GoMethod{},
	}
	for _, f := range files {
		for _, i := range f.GoInterfaces {
			u.interfaces[i.Name] = i
		}
		for _, t := range f.GoTypes {
			u.types[t.Name] = t
		}
		for _, m := range f.GoMethods {
			u.methods[m.Receiver] = append(u.methods[m.Receiver], m)
		}
	}
	return u
}

// interfaceMethods flattens the method set of the named interface with
// those of the interfaces it embeds. ok is false when it cannot be known:
// an embedded interface is unknown, or it is a constraint.
func (u *goUniverse) interfaceMethods(name string, seen map[string]bool) (methods []GoMethodSpec, ok bool) {
	if known, found := goWellKnown[name]; found {
		if _, local := u.interfaces[name]; !local {
			return known, true
		}
	}
	i, found := u.interfaces[name]
	if !found || i.TypeSet {
		return nil, false
	}
	if seen[name] {
		return nil, true // a cycle (invalid Go): add nothing more
	}
	seen[name] = true
	methods = append(methods, i.Methods...)
	for _, e := range i.Embeds {
		inner, ok := u.interfaceMethods(e, seen)
		if !ok {
			return nil, false
		}
		methods = append(methods, inner...)
	}
	return methods, true
}

// typeMethods returns the method set of the named type (of *name when
// pointer is true): its own methods, then those promoted from embedded
// fields, a shallower method hiding a deeper one of the same name.
func (u *goUniverse) typeMethods(name string, pointer bool) map[string]int {
	set := map[string]int{}
	type level struct {
		name    string
		pointer bool // the method set of *name is wanted
	}
	current := []level{{name, pointer}}
	seen := map[string]bool{}
	for depth := 0; len(current) > 0 && depth < 8; depth++ {
		found := map[string]int{}
		var next []level
		for _, l := range current {
			if seen[l.name] {
				continue
			}
			seen[l.name] = true
			for _, m := range u.methods[l.name] {
				if !m.Pointer || l.pointer {
					found[m.Name] = m.Arity
				}
			}
			if _, isInterface := u.interfaces[l.name]; isInterface {
				// An embedded interface promotes all its methods.
				if ms, ok := u.interfaceMethods(l.name, map[string]bool{}); ok {
					for _, m := range ms {
						found[m.Name] = m.Arity
					}
				}
			}
			if t, ok := u.types[l.name]; ok {
				for _, e := range t.Embeds {
					// An embedded *E brings all of E's methods; an
					// embedded E brings its value methods, or all of them
					// when the outer value is addressable (*T).
					next = append(next, level{e.Name, e.Pointer || l.pointer})
				}
			}
		}
		for m, arity := range found {
			if _, shadowed := set[m]; !shadowed {
				set[m] = arity
			}
		}
		current = next
	}
	return set
}

// GoSatisfies reports whether a method set (name → arity) holds every
// method of an interface by name and arity.
func GoSatisfies(set map[string]int, iface []GoMethodSpec) bool {
	for _, m := range iface {
		if arity, ok := set[m.Name]; !ok || arity != m.Arity {
			return false
		}
	}
	return true
}

// GoImplementations computes which named types of the given Go files (one
// package, typically; names are matched as written) implement which of
// their interfaces: a type implements an interface when its method set,
// methods on T and *T and those promoted from embedded fields, holds every
// method of the interface (embedded interfaces included) by name and
// arity. Parameter and result types are not compared, so the answer may
// hold a pair the compiler would reject; it never misses one whose methods
// are all declared in these files.
//
// Interfaces without methods, constraints and interfaces embedding an
// interface the files do not define (other than a few from the standard
// library such as error and io.Reader) are left out. The result is sorted
// by interface, then type.
func GoImplementations(files ...File) []GoImplementation {
	u := newGoUniverse(files)
	var typeNames []string
	candidates := map[string]bool{}
	for name := range u.types {
		candidates[name] = true
	}
	for name := range u.methods {
		candidates[name] = true
	}
	for name := range candidates {
		if _, isInterface := u.interfaces[name]; !isInterface {
			typeNames = append(typeNames, name)
		}
	}
	sort.Strings(typeNames)
	var ifaceNames []string
	for name := range u.interfaces {
		ifaceNames = append(ifaceNames, name)
	}
	sort.Strings(ifaceNames)

	valueSets := make([]map[string]int, len(typeNames))
	pointerSets := make([]map[string]int, len(typeNames))
	for i, t := range typeNames {
		valueSets[i] = u.typeMethods(t, false)
		pointerSets[i] = u.typeMethods(t, true)
	}
	var out []GoImplementation
	for _, iname := range ifaceNames {
		methods, ok := u.interfaceMethods(iname, map[string]bool{})
		if !ok || len(methods) == 0 {
			continue
		}
		for i, t := range typeNames {
			switch {
			case GoSatisfies(valueSets[i], methods):
				out = append(out, GoImplementation{Type: t, Interface: iname})
			case GoSatisfies(pointerSets[i], methods):
				out = append(out, GoImplementation{Type: t, Interface: iname, Pointer: true})
			}
		}
	}
	return out
}

// GoMethodSet returns the method set (name → arity) of the named type in
// the given files: its value methods, or with pointer all its methods,
// plus those promoted from embedded fields.
func GoMethodSet(typeName string, pointer bool, files ...File) map[string]int {
	return newGoUniverse(files).typeMethods(typeName, pointer)
}

// GoInterfaceMethods returns the full method set of the named interface in
// the given files, embedded interfaces included; ok is false when that
// cannot be known (see GoImplementations).
func GoInterfaceMethods(name string, files ...File) (methods []GoMethodSpec, ok bool) {
	return newGoUniverse(files).interfaceMethods(name, map[string]bool{})
}

// GoBaseName strips a qualifier and type arguments from a type as written:
// "pkg.Stack[T]" → "Stack".
func GoBaseName(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimPrefix(name, "*")
}
