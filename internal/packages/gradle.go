package packages

import (
	"path"
	"sort"
	"strings"
)

// gradleSettings is what a settings.gradle(.kts) declares.
type gradleSettings struct {
	dir      string            // folder of the settings file
	rootName string            // rootProject.name
	projects map[string]string // project path (":libs:core") → folder relative to the repository root
}

// parseGradleSettings reads rootProject.name, include(…) and
// project(…).projectDir = file(…) from a settings script. The included
// projects are members of a workspace rooted at the settings folder.
func parseGradleSettings(m Manifest, dir string) (*draft, error) {
	s := &tokenStream{tokens: tokenize(string(m.Data), groovySyntax)}
	settings := &gradleSettings{dir: dir, projects: map[string]string{}}
	for ; !s.done(); s.pos++ {
		switch {
		case s.isIdent(0, "rootProject") && s.isPunct(1, ".") && s.isIdent(2, "name") && s.isPunct(3, "=") && s.peek(4).kind == tokString:
			settings.rootName = strings.TrimSpace(s.peek(4).text)
			s.pos += 4
		case s.isIdent(0, "include") && (s.isPunct(1, "(") || s.peek(1).kind == tokString):
			s.pos++
			for _, projectPath := range readStringArgs(s) {
				projectPath = normalizeGradlePath(projectPath)
				if projectPath != ":" {
					if _, set := settings.projects[projectPath]; !set {
						settings.projects[projectPath] = joinRel(dir, strings.ReplaceAll(strings.TrimPrefix(projectPath, ":"), ":", "/"))
					}
				}
			}
			s.pos-- // the loop advances
		case s.isIdent(0, "project") && s.isPunct(1, "(") && s.peek(2).kind == tokString && s.isPunct(3, ")") &&
			s.isPunct(4, ".") && s.isIdent(5, "projectDir") && s.isPunct(6, "="):
			projectPath := normalizeGradlePath(s.peek(2).text)
			s.pos += 7
			// file("libs/x"), File(settingsDir, "libs/x"), new File(rootDir, 'libs/x')
			if s.isIdent(0, "new") {
				s.pos++
			}
			if (s.isIdent(0, "file") || s.isIdent(0, "File")) && s.isPunct(1, "(") {
				s.pos++
				if args := readStringArgs(s); len(args) > 0 {
					if folder := joinRel(dir, args[len(args)-1]); folder != "" {
						settings.projects[projectPath] = folder
					}
				}
				s.pos--
			}
		}
	}
	d := &draft{gradle: settings}
	decl := workspaceDecl{root: dir, kind: KindGradle, rootIsPackage: true}
	for _, projectPath := range sortedKeys(settings.projects) {
		folder := settings.projects[projectPath]
		if folder == "" {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(folder, dir), "/")
		if dir == "." {
			rel = folder
		}
		decl.include = append(decl.include, escapeGlob(rel))
	}
	if len(decl.include) > 0 {
		d.workspaces = append(d.workspaces, decl)
	}
	return d, nil
}

// normalizeGradlePath turns "libs:core" and ":libs:core" into ":libs:core".
func normalizeGradlePath(p string) string {
	p = strings.TrimSpace(p)
	if !strings.HasPrefix(p, ":") {
		p = ":" + p
	}
	return p
}

// readStringArgs reads string arguments at the cursor: `("a", "b")` or
// Groovy's unparenthesised `'a', 'b'`. The cursor ends after them.
func readStringArgs(s *tokenStream) []string {
	parenthesised := s.isPunct(0, "(")
	if parenthesised {
		s.pos++
	}
	var args []string
	for !s.done() {
		t := s.peek(0)
		switch {
		case t.kind == tokString:
			args = append(args, t.text)
			s.pos++
		case t.kind == tokIdent && !parenthesised:
			return args // the next statement
		case t.kind == tokPunct && t.text == ",":
			s.pos++
		case parenthesised && t.kind == tokPunct && t.text == ")":
			s.pos++
			return args
		case parenthesised:
			s.pos++ // settingsDir, rootDir and other non-string arguments
		default:
			return args
		}
	}
	return args
}

// gradleConfigurationKind maps a dependency configuration to a kind; ok is
// false for identifiers that are not configurations.
func gradleConfigurationKind(config string) (kind string, ok bool) {
	switch config {
	case "implementation", "api", "compile", "runtime", "runtimeOnly", "compileOnlyApi":
		return DepRuntime, true
	case "compileOnly", "annotationProcessor", "kapt", "ksp", "classpath", "developmentOnly":
		return DepBuild, true
	}
	lower := strings.ToLower(config)
	isConfig := false
	for _, suffix := range []string{"implementation", "api", "runtimeonly", "compileonly", "compile"} {
		if strings.HasSuffix(lower, suffix) && len(lower) > len(suffix) {
			isConfig = true
		}
	}
	switch {
	case !isConfig:
		return "", false
	case strings.HasPrefix(lower, "test") || strings.Contains(config, "Test"):
		return DepDev, true
	case strings.HasSuffix(lower, "compileonly"):
		return DepBuild, true
	}
	return DepRuntime, true
}

// parseGradleBuild reads a build.gradle or build.gradle.kts: top-level
// group, version and description assignments and the dependencies { … }
// blocks. The project's name comes from settings (see resolveGradle).
func parseGradleBuild(m Manifest, _ string) (*draft, error) {
	s := &tokenStream{tokens: tokenize(string(m.Data), groovySyntax)}
	d := &draft{isPackage: true, pkg: Package{Kind: KindGradle, Metadata: map[string]any{}}}
	depth := 0
	for ; !s.done(); s.pos++ {
		t := s.peek(0)
		switch {
		case t.kind == tokPunct && t.text == "{":
			depth++
		case t.kind == tokPunct && t.text == "}":
			depth--
		case t.kind == tokIdent && t.text == "dependencies" && s.isPunct(1, "{"):
			s.pos++
			end := blockEnd(s)
			d.deps = append(d.deps, gradleDependencies(&tokenStream{tokens: s.tokens[s.pos+1 : end]})...)
			s.pos = end // on the closing brace, which the depth count skips
		case depth == 0 && t.kind == tokIdent && (s.isPunct(1, "=") || s.peek(1).kind == tokString) &&
			(t.text == "group" || t.text == "version" || t.text == "description"):
			value := s.peek(1)
			if value.kind != tokString {
				value = s.peek(2)
			}
			if value.kind != tokString {
				continue
			}
			switch t.text {
			case "group":
				d.pkg.Metadata["group"] = strings.TrimSpace(value.text)
			case "version":
				d.pkg.Version = strings.TrimSpace(value.text)
			case "description":
				d.pkg.Description = strings.TrimSpace(value.text)
			}
		}
	}
	return d, nil
}

// blockEnd returns the index of the brace closing the block whose opening
// brace is at the cursor (or the last index).
func blockEnd(s *tokenStream) int {
	start := s.pos
	s.skipBalanced()
	end := s.pos - 1
	s.pos = start
	if end < start || end >= len(s.tokens) {
		return len(s.tokens) - 1
	}
	return end
}

// gradleDependencies reads the statements of one dependencies block.
func gradleDependencies(s *tokenStream) []rawDep {
	var deps []rawDep
	for !s.done() {
		t := s.peek(0)
		if t.kind == tokIdent && t.text == "constraints" && s.isPunct(1, "{") {
			s.pos++
			s.skipBalanced() // constraints pin versions; they add no dependency
			continue
		}
		kind, isConfig := gradleConfigurationKind(t.text)
		if t.kind != tokIdent || !isConfig || s.isPunct(1, ".") || s.isPunct(1, "=") {
			s.pos++
			continue
		}
		s.pos++
		parenthesised := s.isPunct(0, "(")
		if parenthesised {
			s.pos++
		}
		if dep, ok := gradleDependencyNotation(s, kind); ok {
			deps = append(deps, dep)
		}
	}
	return deps
}

// gradleDependencyNotation reads one dependency notation at the cursor:
// "g:a:v", project(":x"), project(path: ":x"), platform("g:a:v"),
// group: "g", name: "a", version: "v" (also with =), kotlin("stdlib"), or a
// version catalog reference such as libs.guava.
func gradleDependencyNotation(s *tokenStream, kind string) (rawDep, bool) {
	t := s.peek(0)
	dep := rawDep{Dependency: Dependency{DepKind: kind}}
	switch {
	case t.kind == tokString:
		s.pos++
		return gradleCoordinates(t.text, kind)
	case t.kind != tokIdent:
		return dep, false
	case t.text == "project" && s.isPunct(1, "("):
		s.pos += 2
		if s.peek(0).kind == tokIdent && (s.isPunct(1, ":") || s.isPunct(1, "=")) { // path: ":x"
			s.pos += 2
		}
		if s.peek(0).kind != tokString {
			return dep, false
		}
		dep.gradleProject = normalizeGradlePath(s.peek(0).text)
		dep.Name = dep.gradleProject[strings.LastIndex(dep.gradleProject, ":")+1:]
		s.pos++
		return dep, dep.Name != ""
	case (t.text == "platform" || t.text == "enforcedPlatform" || t.text == "testFixtures") && s.isPunct(1, "("):
		s.pos += 2
		return gradleDependencyNotation(s, kind)
	case t.text == "kotlin" && s.isPunct(1, "(") && s.peek(2).kind == tokString:
		s.pos += 3
		dep.Name = "org.jetbrains.kotlin:kotlin-" + s.peek(-1).text
		return dep, true
	case (t.text == "group" || t.text == "name") && (s.isPunct(1, ":") || s.isPunct(1, "=")):
		fields := map[string]string{}
		for s.peek(0).kind == tokIdent && (s.isPunct(1, ":") || s.isPunct(1, "=")) && s.peek(2).kind == tokString {
			fields[s.peek(0).text] = s.peek(2).text
			s.pos += 3
			if s.isPunct(0, ",") {
				s.pos++
			}
		}
		if fields["name"] == "" {
			return dep, false
		}
		dep.Name = fields["name"]
		if fields["group"] != "" {
			dep.Name = fields["group"] + ":" + fields["name"]
		}
		dep.VersionReq = fields["version"]
		return dep, true
	case t.text == "libs" && s.isPunct(1, "."):
		var parts []string
		for s.peek(0).kind == tokIdent {
			parts = append(parts, s.peek(0).text)
			s.pos++
			if !s.isPunct(0, ".") || s.peek(1).kind != tokIdent {
				break
			}
			s.pos++
		}
		dep.Name = strings.Join(parts, ".")
		return dep, true
	}
	return dep, false
}

// gradleCoordinates splits "group:artifact:version[:classifier][@ext]".
func gradleCoordinates(notation, kind string) (rawDep, bool) {
	if at := strings.LastIndex(notation, "@"); at > 0 {
		notation = notation[:at]
	}
	parts := strings.Split(strings.TrimSpace(notation), ":")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return rawDep{}, false
	}
	dep := rawDep{Dependency: Dependency{Name: parts[0] + ":" + parts[1], DepKind: kind}}
	if len(parts) > 2 {
		dep.VersionReq = parts[2]
	}
	return dep, true
}

// resolveGradle names Gradle projects from their settings and points
// project(":x") dependencies at the folders those projects live in.
func resolveGradle(drafts []*draft) {
	var settings []*gradleSettings
	for _, d := range drafts {
		if d.gradle != nil {
			settings = append(settings, d.gradle)
		}
	}
	// Deeper settings files describe nested builds and take precedence.
	sort.SliceStable(settings, func(i, j int) bool { return depth(settings[i].dir) < depth(settings[j].dir) })
	type owner struct {
		settings    *gradleSettings
		projectPath string
	}
	owners := map[string]owner{} // folder → the settings that declare it
	for _, st := range settings {
		owners[st.dir] = owner{st, ":"}
		for _, projectPath := range sortedKeys(st.projects) {
			owners[st.projects[projectPath]] = owner{st, projectPath}
		}
	}
	nearestSettings := func(dir string) *gradleSettings {
		if o, ok := owners[dir]; ok {
			return o.settings
		}
		for d := dir; d != "." && d != "/"; {
			d = path.Dir(d)
			if o, ok := owners[d]; ok && o.projectPath == ":" {
				return o.settings
			}
		}
		return nil
	}

	for _, d := range drafts {
		if d.pkg.Kind != KindGradle || !d.isPackage {
			continue
		}
		if o, ok := owners[d.pkg.Path]; ok {
			if o.projectPath == ":" {
				d.pkg.Name = o.settings.rootName
			} else {
				d.pkg.Name = o.projectPath[strings.LastIndex(o.projectPath, ":")+1:]
			}
			d.pkg.Metadata["gradle_path"] = o.projectPath
		}
		st := nearestSettings(d.pkg.Path)
		for i := range d.deps {
			dep := &d.deps[i]
			if dep.gradleProject == "" {
				continue
			}
			relative := strings.ReplaceAll(strings.TrimPrefix(dep.gradleProject, ":"), ":", "/")
			switch {
			case st != nil && st.projects[dep.gradleProject] != "":
				dep.localPath = st.projects[dep.gradleProject]
			case st != nil:
				dep.localPath = joinRel(st.dir, relative)
			default:
				dep.localPath = joinRel(".", relative)
			}
		}
	}
}
