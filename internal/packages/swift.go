package packages

import (
	"path"
	"strings"
)

// parseSwift reads a Package.swift best effort: the name: argument of
// Package(…) and its .package(…) dependencies, named after the last element
// of their URL (or local path).
func parseSwift(m Manifest, dir string) (*draft, error) {
	s := &tokenStream{tokens: tokenize(string(m.Data), swiftSyntax)}
	d := &draft{isPackage: true, pkg: Package{Kind: KindSwift, Metadata: map[string]any{}}}
	for ; !s.done(); s.pos++ {
		switch {
		case d.pkg.Name == "" && s.isIdent(0, "Package") && s.isPunct(1, "("):
			// Package(name: "X", …): the name is the first argument.
			if s.isIdent(2, "name") && s.isPunct(3, ":") && s.peek(4).kind == tokString {
				d.pkg.Name = strings.TrimSpace(s.peek(4).text)
				s.pos += 4
			}
		case s.isPunct(0, ".") && s.isIdent(1, "package") && s.isPunct(2, "("):
			s.pos += 2
			start := s.pos
			s.skipBalanced()
			end := s.pos // an unterminated call runs to the end
			if end-1 > start && s.isPunct(-1, ")") {
				end--
			}
			if dep, ok := swiftDependency(s.tokens[start+1:end], dir); ok {
				d.deps = append(d.deps, dep)
			}
			s.pos--
		}
	}
	return d, nil
}

// swiftDependency interprets the arguments of one .package(…) call:
// url: or path:, then from:, exact:, branch:, revision:, a range "a"..<"b",
// or .upToNextMajor(from:) and friends.
func swiftDependency(args []token, dir string) (rawDep, bool) {
	dep := rawDep{Dependency: Dependency{DepKind: DepRuntime}}
	var location string
	var requirement []string
	for i := 0; i < len(args); i++ {
		t := args[i]
		labelled := t.kind == tokIdent && i+2 < len(args) && args[i+1].kind == tokPunct && args[i+1].text == ":" && args[i+2].kind == tokString
		switch {
		case labelled && (t.text == "url" || t.text == "path"):
			location = args[i+2].text
			if t.text == "path" {
				dep.localPath = joinRel(dir, location)
			}
			i += 2
		case labelled && t.text == "name":
			dep.Name = args[i+2].text
			i += 2
		case labelled: // from:, exact:, branch:, revision:, upToNextMajor(from:)…
			requirement = append(requirement, t.text+" "+args[i+2].text)
			i += 2
		case t.kind == tokString && location != "": // "1.0.0"..<"2.0.0" and bare versions
			if n := len(requirement); n > 0 && (strings.HasSuffix(requirement[n-1], "..<") || strings.HasSuffix(requirement[n-1], "...")) {
				requirement[n-1] += t.text
			} else {
				requirement = append(requirement, t.text)
			}
		case t.kind == tokPunct && (t.text == "." || t.text == "<") && len(requirement) > 0 &&
			(args[i-1].kind == tokString || args[i-1].kind == tokPunct && args[i-1].text == "."): // the range operators ..< and ...
			requirement[len(requirement)-1] += t.text
		}
	}
	if location == "" {
		return dep, false
	}
	if dep.Name == "" {
		dep.Name = strings.TrimSuffix(path.Base(strings.TrimRight(location, "/")), ".git")
	}
	dep.VersionReq = strings.Join(requirement, " ")
	return dep, dep.Name != "" && dep.Name != "." && dep.Name != "/"
}
