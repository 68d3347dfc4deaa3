package packages

import (
	"path"
	"strings"
)

// gemDependencyMethods maps Gem::Specification methods to kinds.
var gemDependencyMethods = map[string]string{
	"add_dependency":             DepRuntime,
	"add_runtime_dependency":     DepRuntime,
	"add_development_dependency": DepDev,
}

// parseGemspec reads a *.gemspec best effort. Gemspecs are Ruby programs;
// lore recognises literal assignments (spec.name = "x", version, summary,
// description, license) and add_*dependency calls with literal arguments.
// The gem is named after the file when its name is not a literal.
func parseGemspec(m Manifest, _ string) (*draft, error) {
	s := &tokenStream{tokens: tokenize(string(m.Data), rubySyntax)}
	receiver := gemspecReceiver(s.tokens)
	d := &draft{isPackage: true, pkg: Package{Kind: KindGem, Metadata: map[string]any{}}}
	var summary string
	for ; !s.done(); s.pos++ {
		t := s.peek(0)
		if t.kind != tokIdent || (receiver != "" && t.text != receiver) || !s.isPunct(1, ".") || s.peek(2).kind != tokIdent {
			continue
		}
		method := s.peek(2).text
		if kind, ok := gemDependencyMethods[method]; ok {
			s.pos += 3
			if args := gemStringArgs(s); len(args) > 0 {
				d.deps = append(d.deps, rawDep{Dependency: Dependency{Name: args[0], VersionReq: strings.Join(args[1:], ", "), DepKind: kind}})
			}
			s.pos--
			continue
		}
		if !s.isPunct(3, "=") || s.peek(4).kind != tokString {
			continue
		}
		value := strings.TrimSpace(s.peek(4).text)
		switch method {
		case "name":
			d.pkg.Name = value
		case "version":
			d.pkg.Version = value
		case "summary":
			summary = value
		case "description":
			d.pkg.Description = strings.Join(strings.Fields(value), " ")
		case "license":
			d.pkg.Metadata["license"] = value
		case "homepage":
			d.pkg.Metadata["homepage"] = value
		}
		s.pos += 4
	}
	if d.pkg.Description == "" {
		d.pkg.Description = summary
	}
	if d.pkg.Name == "" {
		d.pkg.Name = strings.TrimSuffix(path.Base(m.Path), ".gemspec")
	}
	return d, nil
}

// gemspecReceiver finds the block variable of
// `Gem::Specification.new do |spec|`, or "" to accept any receiver.
func gemspecReceiver(tokens []token) string {
	for i := 0; i+1 < len(tokens); i++ {
		if tokens[i].kind != tokIdent || tokens[i].text != "Specification" {
			continue
		}
		for j := i + 1; j+2 < len(tokens) && j < i+40; j++ {
			if tokens[j].kind == tokPunct && tokens[j].text == "|" && tokens[j+1].kind == tokIdent &&
				tokens[j+2].kind == tokPunct && tokens[j+2].text == "|" {
				return tokens[j+1].text
			}
		}
	}
	return ""
}

// gemStringArgs reads literal string arguments at the cursor, with or
// without parentheses, flattening [..] arrays and skipping .freeze.
func gemStringArgs(s *tokenStream) []string {
	if s.isPunct(0, "(") {
		s.pos++
	}
	var args []string
	for !s.done() {
		t := s.peek(0)
		switch {
		case t.kind == tokString:
			args = append(args, strings.TrimSpace(t.text))
		case t.kind == tokPunct && (t.text == "," || t.text == "[" || t.text == "]"):
		case t.kind == tokPunct && t.text == "." && s.isIdent(1, "freeze"):
			s.pos++
		default:
			return args
		}
		s.pos++
	}
	return args
}
