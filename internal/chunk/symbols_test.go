package chunk

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/lang"
	"github.com/lore-dev/lore/internal/symbols"
)

// wantDef is a definition a fixture must have.
type wantDef struct {
	name, kind, container string
	line                  int // of its name
}

// wantRef is a reference a fixture must have.
type wantRef struct {
	kind, name, qualifier, target string
	source                        string // extends and implements: who
	enclosing                     string // name of the enclosing definition, "" at top level
	line                          int
}

// symbolFixture is a file under testdata with what Analyze must find in it.
type symbolFixture struct {
	file string
	defs []wantDef
	refs []wantRef
}

// checkSymbols asserts what holds for every file: Analyze returns Split's
// chunks, and every definition and reference points at a chunk holding it
// and at definitions around it.
func checkSymbols(t *testing.T, path, language string, src []byte) ([]Chunk, symbols.File) {
	t.Helper()
	chunks, file := Analyze(path, language, src)
	if split := Split(path, language, src); !reflect.DeepEqual(chunks, split) {
		t.Fatalf("%s: Analyze's chunks differ from Split's", path)
	}
	holds := func(chunk, line int) bool {
		return chunk >= 0 && chunk < len(chunks) && chunks[chunk].StartLine <= line && line <= chunks[chunk].EndLine
	}
	defs := file.Definitions
	for i, d := range defs {
		if d.Name == "" || strings.TrimSpace(d.Name) != d.Name || d.Kind == "" {
			t.Errorf("%s: definition %d has name %q kind %q", path, i, d.Name, d.Kind)
		}
		if !(1 <= d.StartLine && d.StartLine <= d.NameLine && d.NameLine <= d.EndLine) {
			t.Errorf("%s: definition %s spans %d-%d, name on %d", path, d.Name, d.StartLine, d.EndLine, d.NameLine)
		}
		if !holds(d.Chunk, d.NameLine) {
			t.Errorf("%s: definition %s on line %d in chunk %d", path, d.Name, d.NameLine, d.Chunk)
		}
		if p := d.Parent; p >= i || p < -1 || p >= 0 && !(defs[p].StartLine <= d.StartLine && d.EndLine <= defs[p].EndLine) {
			t.Errorf("%s: definition %s (%d-%d) has parent %d", path, d.Name, d.StartLine, d.EndLine, p)
		}
	}
	for _, r := range file.References {
		if r.Name == "" || r.Kind == "" {
			t.Errorf("%s: reference %+v", path, r)
		}
		if !holds(r.Chunk, r.Line) {
			t.Errorf("%s: reference %s on line %d in chunk %d", path, r.Name, r.Line, r.Chunk)
		}
		if e := r.Enclosing; e < -1 || e >= len(defs) || e >= 0 && !(defs[e].StartLine <= r.Line && r.Line <= defs[e].EndLine) {
			t.Errorf("%s: reference %s on line %d enclosed by %d", path, r.Name, r.Line, e)
		}
		if r.Kind == symbols.RefImport && r.Target == "" {
			t.Errorf("%s: import %s on line %d has no target", path, r.Name, r.Line)
		}
	}
	return chunks, file
}

// enclosingName is the name of a reference's enclosing definition.
func enclosingName(file symbols.File, r symbols.Reference) string {
	if r.Enclosing < 0 {
		return ""
	}
	return file.Definitions[r.Enclosing].Name
}

// findRef returns the reference of the given kind and name on line (any
// line when 0).
func findRef(file symbols.File, kind, name string, line int) (symbols.Reference, bool) {
	for _, r := range file.References {
		if r.Kind == kind && r.Name == name && (line == 0 || r.Line == line) {
			return r, true
		}
	}
	return symbols.Reference{}, false
}

func checkWants(t *testing.T, file symbols.File, defs []wantDef, refs []wantRef) {
	t.Helper()
	for _, w := range defs {
		found := false
		for _, d := range file.Definitions {
			if d.Name == w.name && d.NameLine == w.line {
				found = true
				if d.Kind != w.kind || d.Container != w.container {
					t.Errorf("definition %s on line %d: kind %q container %q, want %q %q", w.name, w.line, d.Kind, d.Container, w.kind, w.container)
				}
			}
		}
		if !found {
			t.Errorf("no definition %s on line %d", w.name, w.line)
		}
	}
	for _, w := range refs {
		r, ok := findRef(file, w.kind, w.name, w.line)
		if !ok {
			t.Errorf("no %s reference to %s on line %d", w.kind, w.name, w.line)
			continue
		}
		got := wantRef{r.Kind, r.Name, r.Qualifier, r.Target, r.Source, enclosingName(file, r), r.Line}
		if got != w {
			t.Errorf("reference\n got: %+v\nwant: %+v", got, w)
		}
	}
}

// TestTagQueries compiles the tags query of every language with a grammar.
func TestTagQueries(t *testing.T) {
	for _, language := range lang.Grammars() {
		t.Run(language, func(t *testing.T) {
			spec := specs[language]
			if spec == nil {
				t.Fatal("no chunking rules")
			}
			if _, err := compileTags(language, spec.grammar); err != nil {
				t.Fatal(err)
			}
		})
	}
	for language := range tagSources {
		if !lang.HasGrammar(language) {
			t.Errorf("tags query for %q, which has no grammar", language)
		}
	}
}

// TestSymbolFixtures checks what Analyze finds in the realistic file of
// every grammar language.
func TestSymbolFixtures(t *testing.T) {
	covered := map[string]bool{}
	for _, fx := range symbolFixtures {
		t.Run(fx.file, func(t *testing.T) {
			src := readFixture(t, fx.file)
			language := lang.Detect(fx.file, src)
			covered[language] = true
			_, file := checkSymbols(t, fx.file, language, src)
			checkWants(t, file, fx.defs, fx.refs)
		})
	}
	for _, g := range lang.Grammars() {
		if !covered[g] {
			t.Errorf("no symbol fixture for grammar language %q", g)
		}
	}
}

// TestAnalyzeEveryFixture runs Analyze on every file under testdata,
// documentation included.
func TestAnalyzeEveryFixture(t *testing.T) {
	names := fixtureFiles(t)
	for _, name := range names {
		src := readFixture(t, name)
		language := lang.Detect(name, src)
		_, file := checkSymbols(t, name, language, src)
		parsed := lang.HasGrammar(language) || lang.IsComponent(language) // a component's scripts are parsed
		if parsed && (len(file.Definitions) == 0 || len(file.References) == 0) {
			t.Errorf("%s: %d definitions, %d references", name, len(file.Definitions), len(file.References))
		}
		if !parsed && !file.Empty() {
			t.Errorf("%s (%s): symbols without a grammar", name, language)
		}
	}
}

// conformance is one language's version of the Authenticatable fixture:
// who extends and implements what.
type conformance struct {
	language, src string
	want          []wantRef // kind, name, source (the rest is not compared)
}

var conformances = []conformance{
	{"swift", `
protocol Authenticatable: Principal {
    func authenticate(user: String) -> Bool
}
class Person {}
class Guest: Person {}
extension Guest: Authenticatable {
    func authenticate(user: String) -> Bool { return true }
}
struct Member: Authenticatable, Codable {
    func authenticate(user: String) -> Bool { return false }
}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Member"},
		{kind: "implements", name: "Codable", source: "Member"},
	}},
	{"java", `
interface Authenticatable extends Principal {
    boolean authenticate(String user);
}
class Guest extends Person implements Authenticatable, java.io.Serializable {
    public boolean authenticate(String user) { return true; }
}
enum Bot implements Authenticatable {
    ONE;
    public boolean authenticate(String user) { return false; }
}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Serializable", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Bot"},
	}},
	{"typescript", `
export interface Authenticatable extends Principal {
  authenticate(user: string): boolean;
}
export class Guest extends Person implements Authenticatable, auth.Session {
  authenticate(user: string): boolean { return true; }
}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Session", source: "Guest"},
	}},
	{"rust", `
pub trait Authenticatable: Principal {
    fn authenticate(&self, user: &str) -> bool;
}
pub struct Guest;
impl Authenticatable for Guest {
    fn authenticate(&self, user: &str) -> bool { true }
}
impl<T> auth::Authenticatable for Wrapper<T> {
    fn authenticate(&self, user: &str) -> bool { false }
}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Wrapper"},
	}},
	{"python", `
class Authenticatable(Protocol):
    def authenticate(self, user: str) -> bool: ...

class Guest(Person, Authenticatable):
    def authenticate(self, user: str) -> bool:
        return True
`, []wantRef{
		{kind: "extends", name: "Protocol", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "extends", name: "Authenticatable", source: "Guest"},
	}},
	{"kotlin", `
interface Authenticatable : Principal {
    fun authenticate(user: String): Boolean
}
class Guest : Person(), Authenticatable {
    override fun authenticate(user: String): Boolean = true
}
object Robot : Authenticatable {
    override fun authenticate(user: String): Boolean = false
}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Robot"},
	}},
	{"csharp", `
public interface IAuthenticatable : IPrincipal {
    bool Authenticate(string user);
}
public class Guest : Person, IAuthenticatable {
    public bool Authenticate(string user) => true;
}
public class Member : IAuthenticatable {
    public bool Authenticate(string user) => false;
}
public struct Token : IAuthenticatable {
    public bool Authenticate(string user) => false;
}
`, []wantRef{
		{kind: "extends", name: "IPrincipal", source: "IAuthenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "IAuthenticatable", source: "Guest"},
		{kind: "implements", name: "IAuthenticatable", source: "Member"},
		{kind: "implements", name: "IAuthenticatable", source: "Token"},
	}},
	{"php", `<?php
interface Authenticatable extends Principal {
    public function authenticate(string $user): bool;
}
class Guest extends Person implements Authenticatable, \Auth\Session {
    use Loggable;
    public function authenticate(string $user): bool { return true; }
}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Session", source: "Guest"},
		{kind: "implements", name: "Loggable", source: "Guest"},
	}},
	{"scala", `
trait Authenticatable extends Principal {
  def authenticate(user: String): Boolean
}
class Guest extends Person with Authenticatable with Serializable {
  def authenticate(user: String): Boolean = true
}
object Robot extends Authenticatable {
  def authenticate(user: String): Boolean = false
}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Serializable", source: "Guest"},
		{kind: "extends", name: "Authenticatable", source: "Robot"},
	}},
	{"ruby", `
module Authenticatable
  def authenticate(user) = true
end
class Guest < Person
  include Authenticatable
  extend Auth::ClassMethods
end
`, []wantRef{
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "ClassMethods", source: "Guest"},
	}},
	{"go", `package auth

type Authenticatable interface {
	Principal
	Authenticate(user, pass string) (bool, error)
	Logout()
}

type Guest struct{ Person }

func (g *Guest) Authenticate(user, pass string) (bool, error) { return true, nil }
func (g Guest) Logout() {}
`, []wantRef{
		{kind: "extends", name: "Principal", source: "Authenticatable"},
		{kind: "extends", name: "Person", source: "Guest"},
	}},
	{"cpp", `
class Authenticatable {
public:
    virtual bool authenticate(const char* user) = 0;
};
class Guest : public Person, public auth::Authenticatable {
public:
    bool authenticate(const char* user) override { return true; }
};
`, []wantRef{
		{kind: "extends", name: "Person", source: "Guest"},
		{kind: "extends", name: "Authenticatable", source: "Guest"},
	}},
	{"elixir", `
defprotocol Authenticatable do
  def authenticate(user)
end
defimpl Authenticatable, for: Guest do
  def authenticate(_guest), do: true
end
defmodule Robot do
  @behaviour Auth.Authenticatable
end
`, []wantRef{
		{kind: "implements", name: "Authenticatable", source: "Guest"},
		{kind: "implements", name: "Authenticatable", source: "Robot"},
	}},
}

// TestConformance checks the extends and implements references of the
// Authenticatable fixture in every language that declares them, and Go's
// structural implementation.
func TestConformance(t *testing.T) {
	for _, tt := range conformances {
		t.Run(tt.language, func(t *testing.T) {
			_, file := checkSymbols(t, "auth", tt.language, []byte(tt.src))
			var got []wantRef
			for _, r := range file.References {
				if r.Kind == symbols.RefExtends || r.Kind == symbols.RefImplements {
					got = append(got, wantRef{kind: r.Kind, name: r.Name, source: r.Source})
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("conformance\n got: %+v\nwant: %+v", got, tt.want)
			}
		})
	}
}

// TestGoStructuralConformance: Guest's methods (on T and *T) satisfy
// Authenticatable; Robot has a same-named method of another arity and does
// not; Admin gets Guest's methods by embedding it.
func TestGoStructuralConformance(t *testing.T) {
	const auth = `package auth

import "fmt"

// Authenticatable is anyone who can log in.
type Authenticatable interface {
	fmt.Stringer
	Authenticate(user, pass string) (bool, error)
	Logout()
}

type Number interface {
	~int | ~float64
}

type Guest struct {
	name string
}

func (g *Guest) Authenticate(user, pass string) (bool, error) { return user == pass, nil }
func (g Guest) Logout()                                      {}
func (g Guest) String() string                               { return g.name }
`
	const other = `package auth

type Robot struct{}

func (r Robot) Authenticate(token string) (bool, error) { return token != "", nil }
func (r Robot) Logout()                                 {}
func (r Robot) String() string                          { return "robot" }

type Admin struct {
	*Guest
	level int
}
`
	_, a := checkSymbols(t, "auth.go", "go", []byte(auth))
	_, b := checkSymbols(t, "robot.go", "go", []byte(other))
	wantMethods := []symbols.GoMethod{
		{Receiver: "Guest", Pointer: true, Name: "Authenticate", Arity: 2, Line: 20},
		{Receiver: "Guest", Name: "Logout", Line: 21},
		{Receiver: "Guest", Name: "String", Line: 22},
	}
	if !reflect.DeepEqual(a.GoMethods, wantMethods) {
		t.Errorf("methods\n got: %+v\nwant: %+v", a.GoMethods, wantMethods)
	}
	wantInterfaces := []symbols.GoInterface{
		{Name: "Authenticatable", Methods: []symbols.GoMethodSpec{{Name: "Authenticate", Arity: 2}, {Name: "Logout"}}, Embeds: []string{"fmt.Stringer"}, Line: 6},
		{Name: "Number", TypeSet: true, Line: 12},
	}
	if !reflect.DeepEqual(a.GoInterfaces, wantInterfaces) {
		t.Errorf("interfaces\n got: %+v\nwant: %+v", a.GoInterfaces, wantInterfaces)
	}
	wantTypes := []symbols.GoType{{Name: "Robot", Line: 3}, {Name: "Admin", Embeds: []symbols.GoEmbed{{Name: "Guest", Pointer: true}}, Line: 9}}
	if !reflect.DeepEqual(b.GoTypes, wantTypes) {
		t.Errorf("types\n got: %+v\nwant: %+v", b.GoTypes, wantTypes)
	}
	got := symbols.GoImplementations(a, b)
	want := []symbols.GoImplementation{
		{Type: "Admin", Interface: "Authenticatable"},
		{Type: "Guest", Interface: "Authenticatable", Pointer: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GoImplementations\n got: %+v\nwant: %+v", got, want)
	}
}

// callChain is main → Route → HandleLogin → authenticate in one language.
type callChain struct {
	language, src string
}

var callChains = []callChain{
	{"go", `package main

func main() {
	Route("/login")
}

func Route(path string) {
	if path == "/login" {
		HandleLogin()
	}
}

func HandleLogin() {
	ok := authenticate("guest", "secret")
	_ = ok
}

func authenticate(user, pass string) bool { return user == pass }
`},
	{"python", `
def main():
    Route("/login")


def Route(path):
    if path == "/login":
        HandleLogin()


def HandleLogin():
    return authenticate("guest", "secret")


def authenticate(user, password):
    return user == password
`},
	{"typescript", `
function main(): void {
  Route("/login");
}

export function Route(path: string): void {
  if (path === "/login") {
    HandleLogin();
  }
}

export const HandleLogin = (): boolean => {
  return authenticate("guest", "secret");
};

function authenticate(user: string, pass: string): boolean {
  return user === pass;
}
`},
	{"java", `
public class App {
    public static void main(String[] args) {
        Route("/login");
    }

    static void Route(String path) {
        if (path.equals("/login")) {
            HandleLogin();
        }
    }

    static boolean HandleLogin() {
        return new Auth().authenticate("guest", "secret");
    }
}

class Auth {
    boolean authenticate(String user, String pass) { return user.equals(pass); }
}
`},
}

// TestCallChain checks that each call of main → Route → HandleLogin →
// authenticate is enclosed by its caller.
func TestCallChain(t *testing.T) {
	chain := [][2]string{{"main", "Route"}, {"Route", "HandleLogin"}, {"HandleLogin", "authenticate"}}
	for _, tt := range callChains {
		t.Run(tt.language, func(t *testing.T) {
			_, file := checkSymbols(t, "chain", tt.language, []byte(tt.src))
			for _, link := range chain {
				r, ok := findRef(file, symbols.RefCall, link[1], 0)
				if !ok {
					t.Errorf("no call of %s", link[1])
					continue
				}
				if got := enclosingName(file, r); got != link[0] {
					t.Errorf("call of %s on line %d is enclosed by %q, want %q", link[1], r.Line, got, link[0])
				}
				caller := file.Definitions[r.Enclosing]
				if caller.Kind != symbols.KindFunction && caller.Kind != symbols.KindMethod {
					t.Errorf("caller %s is a %s", caller.Name, caller.Kind)
				}
			}
		})
	}
}

// TestImports checks the imported module as written, per language.
func TestImports(t *testing.T) {
	type imp struct{ name, target, alias string }
	tests := []struct {
		language, src string
		want          []imp
	}{
		{"go", "package p\n\nimport (\n\t\"fmt\"\n\th \"net/http\"\n)\n", []imp{{"fmt", "fmt", ""}, {"http", "net/http", "h"}}},
		{"python", "import os.path\nimport numpy as np\nfrom a.b import c, d as e\nfrom .. import sibling\n", []imp{
			{"path", "os.path", ""}, {"numpy", "numpy", "np"}, {"c", "a.b", ""}, {"d", "a.b", "e"}, {"sibling", "..", ""}}},
		{"javascript", "import fs from 'fs';\nimport { a, b as c } from './x.js';\nconst lodash = require('lodash');\nimport('./lazy');\n", []imp{
			{"fs", "fs", ""}, {"a", "./x.js", ""}, {"b", "./x.js", "c"}, {"lodash", "lodash", ""}, {"lazy", "./lazy", ""}}},
		{"typescript", "import * as path from 'path';\nimport type { T } from './types';\nexport { z } from './z';\n", []imp{
			{"path", "path", ""}, {"T", "./types", ""}, {"z", "./z", ""}}},
		{"java", "import java.util.List;\nimport static java.util.Collections.emptyList;\nimport com.acme.*;\n", []imp{
			{"List", "java.util.List", ""}, {"emptyList", "java.util.Collections.emptyList", ""}, {"*", "com.acme", ""}}},
		{"kotlin", "import java.time.Clock\nimport com.acme.Thing as T\nimport kotlinx.coroutines.*\n", []imp{
			{"Clock", "java.time.Clock", ""}, {"Thing", "com.acme.Thing", "T"}, {"*", "kotlinx.coroutines", ""}}},
		{"scala", "import scala.collection.mutable\nimport com.acme.{Thing, Other => O}\nimport com.acme.util._\n", []imp{
			{"mutable", "scala.collection.mutable", ""}, {"Thing", "com.acme", ""}, {"Other", "com.acme", "O"}, {"*", "com.acme.util", ""}}},
		{"rust", "use std::collections::HashMap;\nuse crate::auth::{Guest as G, Token};\nuse super::*;\nextern crate serde;\n", []imp{
			{"HashMap", "std::collections::HashMap", ""}, {"Guest", "crate::auth", "G"}, {"Token", "crate::auth", ""}, {"*", "super", ""}, {"serde", "serde", ""}}},
		{"c", "#include <stdio.h>\n#include \"auth/guest.h\"\n", []imp{{"stdio", "stdio.h", ""}, {"guest", "auth/guest.h", ""}}},
		{"cpp", "#include <vector>\nusing std::string;\n", []imp{{"vector", "vector", ""}, {"string", "std::string", ""}}},
		{"ruby", "require 'json'\nrequire_relative \"auth/guest\"\n", []imp{{"json", "json", ""}, {"guest", "auth/guest", ""}}},
		{"php", "<?php\nuse App\\Models\\User;\nuse App\\Contracts\\{Authenticatable as Auth, Other};\nrequire_once 'vendor/autoload.php';\n", []imp{
			{"User", `App\Models\User`, ""}, {"Authenticatable", `App\Contracts`, "Auth"}, {"Other", `App\Contracts`, ""}, {"autoload", "vendor/autoload.php", ""}}},
		{"csharp", "using System.Linq;\nusing Json = Newtonsoft.Json;\n", []imp{{"Linq", "System.Linq", ""}, {"Json", "Newtonsoft.Json", "Json"}}},
		{"swift", "import Foundation\nimport struct Auth.Token\n", []imp{{"Foundation", "Foundation", ""}, {"Token", "Auth.Token", ""}}},
		{"elixir", "defmodule A do\n  alias Auth.Session, as: S\n  alias Auth.{Repo, User}\n  import Ecto.Query\n  use GenServer\nend\n", []imp{
			{"Session", "Auth.Session", "S"}, {"Repo", "Auth", ""}, {"User", "Auth", ""}, {"Query", "Ecto.Query", ""}, {"GenServer", "GenServer", ""}}},
		{"lua", "local json = require(\"json\")\nlocal util = require \"lib.util\"\n", []imp{{"json", "json", ""}, {"util", "lib.util", ""}}},
		{"bash", "source ./lib.sh\n. \"$HOME/env.sh\"\n", []imp{{"lib", "./lib.sh", ""}, {"env", "$HOME/env.sh", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.language, func(t *testing.T) {
			_, file := checkSymbols(t, "imports", tt.language, []byte(tt.src))
			var got []imp
			for _, r := range file.References {
				if r.Kind == symbols.RefImport {
					got = append(got, imp{r.Name, r.Target, r.Alias})
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("imports\n got: %+v\nwant: %+v", got, tt.want)
			}
		})
	}
}

// TestSignaturesAndContainers checks how definitions are worded and where
// they belong, where the query or the grammar needs help.
func TestSignaturesAndContainers(t *testing.T) {
	tests := []struct {
		language, src                    string
		name, kind, container, signature string
	}{
		{"go", "package p\n\ntype Stack[T any] struct{ items []T }\n\nfunc (s *Stack[T]) Push(v T) {}\n", "Push", "method", "Stack", "func (s *Stack[T]) Push(v T)"},
		{"go", "package p\n\ntype (\n\tA int\n)\n", "A", "type", "", "type A int"},
		{"typescript", "export const handler = async (req: Request) => {\n  return 1;\n};\n", "handler", "function", "", "export const handler = async (req: Request) =>"},
		{"javascript", "Foo.prototype.bar = function () {\n  return 1;\n};\n", "bar", "method", "Foo", "Foo.prototype.bar = function ()"},
		{"python", "class A:\n    @staticmethod\n    def make(url='http://x') -> 'A':  # a factory\n        return A()\n", "make", "method", "A", "def make(url='http://x') -> 'A'"},
		{"cpp", "namespace geo {\nstruct Rect {};\n}\ndouble geo::Rect::area() const { return 0; }\n", "area", "method", "geo > Rect", "double geo::Rect::area() const"},
		{"rust", "impl<T> Display for Wrapper<T> {\n    fn fmt(&self) {}\n}\n", "fmt", "method", "Wrapper", "fn fmt(&self)"},
		{"kotlin", "fun <T> RateLimiter.guard(key: Key): T = TODO()\n", "guard", "method", "RateLimiter", "fun <T> RateLimiter.guard(key: Key): T"},
		{"lua", "function M.a.b()\nend\n", "b", "function", "M > a", "function M.a.b()"},
		{"ruby", "class Auth::Guest < Person\nend\n", "Guest", "class", "Auth", "class Auth::Guest < Person"},
		{"elixir", "defmodule Auth.Guest do\n  def greet(name), do: name\nend\n", "greet", "function", "Auth > Guest", "def greet(name)"},
		{"swift", "extension Guest: Authenticatable {\n  func log() {}\n}\n", "log", "method", "Guest", "func log()"},
		{"csharp", "namespace Shop.Orders { class Order { void Pay() {} } }\n", "Pay", "method", "Shop > Orders > Order", "void Pay()"},
	}
	for _, tt := range tests {
		t.Run(tt.language+"/"+tt.name, func(t *testing.T) {
			_, file := checkSymbols(t, "sig", tt.language, []byte(tt.src))
			for _, d := range file.Definitions {
				if d.Name == tt.name {
					got := [3]string{d.Kind, d.Container, d.Signature}
					if want := [3]string{tt.kind, tt.container, tt.signature}; got != want {
						t.Errorf("%s: got %q, want %q", tt.name, got, want)
					}
					return
				}
			}
			t.Errorf("no definition %s in %+v", tt.name, file.Definitions)
		})
	}
}

// TestSyntaxErrors: a file that does not parse cleanly still gives what its
// well-formed parts define and call.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		language, src string
		defs          []string
		calls         []string
	}{
		{"go", "package p\n\nfunc Good() { helper() }\n\nfunc Broken() {\n\tx := ) + \n}\n\nfunc After() { other() }\n", []string{"Good", "After"}, []string{"helper", "other"}},
		{"python", "def good():\n    helper()\n\ndef broken(:\n    pass\n\nclass After:\n    def m(self):\n        other()\n", []string{"good", "After", "m"}, []string{"helper", "other"}},
		{"typescript", "function good() { helper(); }\nclass { broken\nfunction after() { other(); }\n", []string{"good", "after"}, []string{"helper", "other"}},
		{"java", "class A { void good() { helper(); } void broken( { } }\nclass B { void after() { other(); } }\n", []string{"A", "good", "B", "after"}, []string{"helper", "other"}},
	}
	for _, tt := range tests {
		t.Run(tt.language, func(t *testing.T) {
			spec := specs[tt.language]
			tree, err := spec.parser().ParseCtx(context.Background(), nil, []byte(tt.src))
			if err != nil || !tree.RootNode().HasError() {
				t.Fatalf("the fixture parses cleanly (%v)", err)
			}
			tree.Close()
			_, file := checkSymbols(t, "broken", tt.language, []byte(tt.src))
			for _, name := range tt.defs {
				if !slices.ContainsFunc(file.Definitions, func(d symbols.Definition) bool { return d.Name == name }) {
					t.Errorf("no definition %s in %+v", name, file.Definitions)
				}
			}
			for _, name := range tt.calls {
				if _, ok := findRef(file, symbols.RefCall, name, 0); !ok {
					t.Errorf("no call of %s in %+v", name, file.References)
				}
			}
		})
	}
}

// TestSymbolsStayLinear: big files and deeply nested code neither blow the
// stack nor take quadratic time (the bound is generous; a quadratic
// algorithm takes minutes on these inputs).
func TestSymbolsStayLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	nested := func(n int, open, close string) []byte {
		return []byte(strings.Repeat(open, n) + strings.Repeat(close, n))
	}
	tests := []struct {
		name, language string
		src            []byte
		minDefs        int
		minRefs        int
	}{
		{"many go definitions", "go", syntheticGo(3000), 9000, 9000},
		{"many python classes", "python", syntheticPython(3000), 9000, 9000},
		{"many typescript classes", "typescript", syntheticTS(2500), 7500, 7500},
		{"nested go closures", "go", append([]byte("package p\n\nfunc f() {\n"), nested(3000, "g(func() {\n", "})\n")...), 1, 3000},
		{"nested python functions", "python", func() []byte {
			var b strings.Builder
			for i := 0; i < 500; i++ {
				fmt.Fprintf(&b, "%sdef f%d():\n%s    call%d()\n", strings.Repeat("    ", i), i, strings.Repeat("    ", i), i)
			}
			return []byte(b.String())
		}(), 1, 500},
		{"nested javascript", "javascript", append([]byte("const x = "), nested(5000, "[", "]")...), 1, 0},
		{"deep c expression", "c", append([]byte("int x = "), append(nested(5000, "(", ")"), ";\n"...)...), 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, file := checkSymbols(t, tt.name, tt.language, tt.src)
			if elapsed := time.Since(start); elapsed > 30*time.Second {
				t.Errorf("%d bytes took %v", len(tt.src), elapsed)
			}
			if len(file.Definitions) < tt.minDefs || len(file.References) < tt.minRefs {
				t.Errorf("%d definitions, %d references; want at least %d, %d", len(file.Definitions), len(file.References), tt.minDefs, tt.minRefs)
			}
		})
	}
}

// TestConcurrentAnalyze runs Analyze on every fixture from many goroutines
// and compares with a sequential run (with -race it also checks the query
// cache and the parser pool).
func TestConcurrentAnalyze(t *testing.T) {
	type result struct {
		chunks []Chunk
		file   symbols.File
	}
	type input struct {
		name, language string
		src            []byte
		want           result
	}
	var inputs []input
	for _, fx := range symbolFixtures {
		src := readFixture(t, fx.file)
		language := lang.Detect(fx.file, src)
		chunks, file := Analyze(fx.file, language, src)
		inputs = append(inputs, input{fx.file, language, src, result{chunks, file}})
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(inputs)*8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range inputs {
				in := inputs[(i+g)%len(inputs)]
				chunks, file := Analyze(in.name, in.language, in.src)
				if !reflect.DeepEqual(result{chunks, file}, in.want) {
					errs <- in.name
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for name := range errs {
		t.Errorf("%s: concurrent Analyze differs from sequential Analyze", name)
	}
}

// FuzzAnalyze checks Analyze's invariants on arbitrary input in every
// language: go test -fuzz=FuzzAnalyze ./internal/chunk
func FuzzAnalyze(f *testing.F) {
	names := fixtureFiles(f)
	languages := lang.Grammars()
	for _, name := range names {
		src := readFixture(f, name)
		if i := slices.Index(languages, lang.Detect(name, src)); i >= 0 {
			f.Add(uint8(i), src)
		}
	}
	for i, c := range conformances {
		f.Add(uint8(slices.Index(languages, c.language)), []byte(c.src))
		f.Add(uint8(i), []byte(c.src)) // in another language's grammar
	}
	f.Add(uint8(0), []byte("func (\n"))
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		language := languages[int(which)%len(languages)]
		checkSymbols(t, "fuzz", language, src)
	})
}

// TestCountItemsAtTheEnd reads argument lists cut off by the end of the
// file inside a string: they are not closed, and reading them stays in
// bounds (a file's last bytes can be anything).
func TestCountItemsAtTheEnd(t *testing.T) {
	for _, tc := range []struct {
		src          string
		items        int
		closed       bool
		lineComments bool
	}{
		{`(a, "b")`, 2, true, false},
		{`(a, "b\")", c)`, 3, true, false},
		{`(a, "b`, 0, false, false},
		{`(a, "b\`, 0, false, false},
		{`(a, 'b\`, 0, false, false},
		{"(a, `b", 0, false, false},
		{"(a, // b", 0, false, true},
		{`(`, 0, false, false},
	} {
		items, closed := countItems([]byte(tc.src), 0, 1<<14, tc.lineComments)
		if closed != tc.closed || closed && items != tc.items {
			t.Errorf("countItems(%q) = %d, %v; want %d, %v", tc.src, items, closed, tc.items, tc.closed)
		}
	}
	// Through Analyze: a call whose string argument runs to the end of
	// the file keeps the file's other symbols.
	for _, tc := range []struct{ path, language, src string }{
		{"cut.rs", "rust", "fn main() {\n    helper();\n}\n\nfn cut() {\n    run(\"abc\\"},
		{"cut.js", "javascript", "function main() {\n  helper();\n}\n\nfunction cut() {\n  run('abc\\"},
		{"cut.go", "go", "package p\n\nfunc main() {\n\thelper()\n}\n\nfunc cut() {\n\trun(\"abc\\"},
	} {
		_, file := Analyze(tc.path, tc.language, []byte(tc.src))
		found := false
		for _, d := range file.Definitions {
			found = found || d.Name == "main"
		}
		if !found {
			t.Errorf("%s: main is not defined in %+v", tc.path, file.Definitions)
		}
	}
}
