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
// blocks. The project's name comes from settings (see resolveGradle). A
// dependencies block of a test source set (Kotlin Multiplatform's
// commonTest.dependencies { … }, jvmTest { dependencies { … } }) holds dev
// dependencies.
func parseGradleBuild(m Manifest, _ string) (*draft, error) {
	s := &tokenStream{tokens: tokenize(string(m.Data), groovySyntax)}
	d := &draft{isPackage: true, pkg: Package{Kind: KindGradle, Metadata: map[string]any{}}}
	var blocks []string // the name of each enclosing block
	for ; !s.done(); s.pos++ {
		t := s.peek(0)
		switch {
		case t.kind == tokPunct && t.text == "{":
			blocks = append(blocks, blockName(s))
		case t.kind == tokPunct && t.text == "}":
			if len(blocks) > 0 {
				blocks = blocks[:len(blocks)-1]
			}
		case t.kind == tokIdent && t.text == "dependencies" && s.isPunct(1, "{"):
			test := isTestSourceSet(blocks)
			if s.isPunct(-1, ".") && s.peek(-2).kind == tokIdent { // commonTest.dependencies { … }
				test = test || isTestSourceSet([]string{s.peek(-2).text})
			}
			s.pos++
			end := blockEnd(s)
			d.deps = append(d.deps, gradleDependencies(&tokenStream{tokens: s.tokens[s.pos+1 : end]}, test)...)
			s.pos = end // on the closing brace, which the block count skips
		case len(blocks) == 0 && t.kind == tokIdent && (s.isPunct(1, "=") || s.peek(1).kind == tokString) &&
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

// blockName names the block whose opening brace is at the cursor: the
// identifier before it ("jvmTest {"), or the variable of
// "val jvmTest by getting {".
func blockName(s *tokenStream) string {
	prev := s.peek(-1)
	if prev.kind != tokIdent {
		return ""
	}
	if (prev.text == "getting" || prev.text == "creating") && s.isIdent(-2, "by") && s.peek(-3).kind == tokIdent {
		return s.peek(-3).text
	}
	return prev.text
}

// isTestSourceSet reports whether one of the enclosing blocks is a test
// source set (test, commonTest, jvmTest, androidUnitTest, …).
func isTestSourceSet(blocks []string) bool {
	for _, b := range blocks {
		if b == "test" || strings.HasSuffix(b, "Test") || strings.HasSuffix(b, "TestFixtures") {
			return true
		}
	}
	return false
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

// gradleDependencies reads the statements of one dependencies block; in a
// test source set's block, runtime dependencies are dev ones.
func gradleDependencies(s *tokenStream, test bool) []rawDep {
	var deps []rawDep
	for !s.done() {
		t := s.peek(0)
		if t.kind == tokIdent && t.text == "constraints" && s.isPunct(1, "{") {
			s.pos++
			s.skipBalanced() // constraints pin versions; they add no dependency
			continue
		}
		kind, isConfig := gradleConfigurationKind(t.text)
		if !isConfig && t.kind == tokIdent && pluginConfigurationCall(s) {
			// A configuration a plugin adds (dokka(projects.core),
			// kover(project(":core")), dokkaHtmlPlugin(libs.x)): a
			// dependency of the build.
			kind, isConfig = DepBuild, true
		}
		if t.kind != tokIdent || !isConfig || s.isPunct(1, ".") || s.isPunct(1, "=") {
			s.pos++
			continue
		}
		s.pos++
		parenthesised := s.isPunct(0, "(")
		if parenthesised {
			s.pos++
		}
		if test && kind == DepRuntime {
			kind = DepDev
		}
		if dep, ok := gradleDependencyNotation(s, kind); ok {
			deps = append(deps, dep)
		}
	}
	return deps
}

// pluginConfigurationCall reports whether the cursor is at `name(project(`,
// `name(projects.x` or `name(libs.x`: a call of a configuration lore does
// not know by name (one a plugin adds: dokka, kover, dokkaHtmlPlugin) with
// a project dependency or a catalog reference as its argument. Calls that
// take such arguments but add no dependency are left alone.
func pluginConfigurationCall(s *tokenStream) bool {
	if !s.isPunct(1, "(") || s.peek(2).kind != tokIdent || notConfigurations[s.peek(0).text] {
		return false
	}
	switch arg := s.peek(2).text; {
	case arg == "project":
		return s.isPunct(3, "(")
	case isGradleKeyword(arg):
		return false
	}
	return s.isPunct(3, ".") && s.peek(4).kind == tokIdent // projects.x, libs.x
}

// notConfigurations are calls in a dependencies block that are not
// configurations.
var notConfigurations = map[string]bool{
	"module": true, "platform": true, "enforcedPlatform": true, "testFixtures": true, "files": true, "fileTree": true,
	"exclude": true, "because": true, "substitute": true, "using": true, "project": true, "kotlin": true,
	"println": true, "require": true, "check": true, "listOf": true, "setOf": true, "add": true, "constraints": true,
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
	case t.text == "projects" && s.isPunct(1, ".") && s.peek(2).kind == tokIdent:
		// A type-safe project accessor: projects.fooBar, projects.libs.core.
		parts := dottedIdents(s)
		dep.gradleAccessor = strings.Join(parts[1:], ".")
		dep.Name = strings.Join(parts, ".") // until resolveGradle finds the project
		return dep, true
	case s.isPunct(1, ".") && s.peek(2).kind == tokIdent && !isGradleKeyword(t.text):
		// A version catalog reference: libs.guava, libs.kotlin.reflect,
		// libs.bundles.ktor. The catalog decides (see resolveGradle).
		parts := dottedIdents(s)
		if len(parts) < 2 || parts[len(parts)-1] == "get" && len(parts) < 3 {
			return dep, false
		}
		if parts[len(parts)-1] == "get" { // libs.foo.get()
			parts = parts[:len(parts)-1]
		}
		dep.catalogRef = strings.Join(parts, ".")
		dep.Name = dep.catalogRef
		return dep, true
	}
	return dep, false
}

// dottedIdents reads "a.b.c" at the cursor; the cursor ends after it.
func dottedIdents(s *tokenStream) []string {
	var parts []string
	for s.peek(0).kind == tokIdent {
		parts = append(parts, s.peek(0).text)
		s.pos++
		if !s.isPunct(0, ".") || s.peek(1).kind != tokIdent {
			break
		}
		s.pos++
	}
	return parts
}

// isGradleKeyword reports identifiers that start an expression but never a
// catalog reference.
func isGradleKeyword(name string) bool {
	switch name {
	case "project", "files", "fileTree", "gradleApi", "localGroovy", "gradleTestKit", "rootProject", "it", "this":
		return true
	}
	return false
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

// resolveGradle names Gradle projects from their settings, points
// project(":x") dependencies and type-safe project accessors (projects.x)
// at the folders those projects live in, and replaces version catalog
// references by the coordinates the catalog gives them.
func resolveGradle(drafts []*draft) {
	var settings []*gradleSettings
	catalogs := map[string]*versionCatalog{} // "folder\x00name" → catalog
	for _, d := range drafts {
		if d.gradle != nil {
			settings = append(settings, d.gradle)
		}
		if d.catalog != nil {
			catalogs[d.catalog.dir+"\x00"+d.catalog.name] = d.catalog
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

	var projects []*draft
	for _, d := range drafts {
		if d.pkg.Kind != KindGradle || !d.isPackage {
			continue
		}
		projects = append(projects, d)
		if o, ok := owners[d.pkg.Path]; ok {
			if o.projectPath == ":" {
				d.pkg.Name = o.settings.rootName
			} else {
				d.pkg.Name = o.projectPath[strings.LastIndex(o.projectPath, ":")+1:]
			}
			d.pkg.Metadata["gradle_path"] = o.projectPath
		}
	}
	// Folder names stand in for names settings do not give; the accessors
	// below need every project's name.
	buildOf := map[*draft]*gradleSettings{}
	for _, d := range projects {
		buildOf[d] = nearestSettings(d.pkg.Path)
		if d.pkg.Name == "" && d.pkg.Path != "." {
			d.pkg.Name = path.Base(d.pkg.Path)
		}
	}
	for _, d := range projects {
		st := buildOf[d]
		deps := d.deps[:0:0]
		for _, dep := range d.deps {
			switch {
			case dep.gradleProject != "":
				relative := strings.ReplaceAll(strings.TrimPrefix(dep.gradleProject, ":"), ":", "/")
				switch {
				case st != nil && st.projects[dep.gradleProject] != "":
					dep.localPath = st.projects[dep.gradleProject]
				case st != nil:
					dep.localPath = joinRel(st.dir, relative)
				default:
					dep.localPath = joinRel(".", relative)
				}
			case dep.gradleAccessor != "":
				if folder, name := resolveAccessor(dep.gradleAccessor, st, projects, buildOf); folder != "" {
					dep.localPath, dep.Name = folder, name
				}
			case dep.catalogRef != "":
				resolved, keep := resolveCatalogRef(dep, d.pkg.Path, catalogs)
				if keep {
					deps = append(deps, resolved...)
				}
				continue
			}
			deps = append(deps, dep)
		}
		d.deps = deps
	}
}

// accessorSeparators and aliasSeparators are built once: building a
// Replacer allocates its tables, which a build of a large Gradle root did
// per segment (about 200 MB of garbage on a 1M-line root).
var (
	accessorSeparators = strings.NewReplacer("-", "", "_", "", ".", "")
	aliasSeparators    = strings.NewReplacer("-", ".", "_", ".")
)

// accessorKey normalises a type-safe project accessor ("ktorClient.ktorClientCore")
// or a project path (":ktor-client:ktor-client-core") for comparison:
// Gradle spells each project name in camel case (kebab-case and snake_case
// words joined), so case and separators are dropped, segment by segment.
func accessorKey(segments []string) string {
	keys := make([]string, len(segments))
	for i, segment := range segments {
		keys[i] = accessorSeparators.Replace(strings.ToLower(segment))
	}
	return strings.Join(keys, "/")
}

// resolveAccessor finds the project a type-safe accessor names: among the
// projects its build's settings include, else (settings that include
// projects in ways lore cannot read, such as ktor's own DSL) among the
// Gradle projects of the same build, by name. It returns the project's
// folder and name, or "" when no project matches.
func resolveAccessor(accessor string, st *gradleSettings, projects []*draft, buildOf map[*draft]*gradleSettings) (folder, name string) {
	if folder, name = findAccessor(accessor, st, projects, buildOf); folder != "" || st == nil || st.rootName == "" {
		return folder, name
	}
	// Gradle also names the root project by its name: projects.exposed is
	// the root of a build named "exposed", projects.exposed.exposedCore its
	// child exposed-core.
	first, rest, _ := strings.Cut(accessor, ".")
	if accessorKey([]string{first}) != accessorKey([]string{st.rootName}) {
		return "", ""
	}
	if rest == "" {
		return st.dir, st.rootName
	}
	return findAccessor(rest, st, projects, buildOf)
}

// findAccessor is resolveAccessor for an accessor relative to the root.
func findAccessor(accessor string, st *gradleSettings, projects []*draft, buildOf map[*draft]*gradleSettings) (folder, name string) {
	want := accessorKey(strings.Split(accessor, "."))
	if st != nil {
		for _, projectPath := range sortedKeys(st.projects) {
			if accessorKey(strings.Split(strings.TrimPrefix(projectPath, ":"), ":")) == want && st.projects[projectPath] != "" {
				return st.projects[projectPath], projectPath[strings.LastIndex(projectPath, ":")+1:]
			}
		}
	}
	last := want[strings.LastIndex(want, "/")+1:]
	for _, p := range projects {
		if buildOf[p] == st && p.pkg.Name != "" && accessorKey([]string{p.pkg.Name}) == last {
			return p.pkg.Path, p.pkg.Name
		}
	}
	return "", ""
}

// resolveCatalogRef replaces a version catalog reference by what the
// nearest catalog of that name (gradle/<name>.versions.toml in the folder of
// the project or one above) defines: a library's coordinates and version,
// or every library of a bundle. keep is false for references that are no
// dependency (libs.versions.x, libs.plugins.x) and for references to an
// unknown catalog other than libs (a buildSrc constant, most likely).
func resolveCatalogRef(dep rawDep, dir string, catalogs map[string]*versionCatalog) (resolved []rawDep, keep bool) {
	parts := strings.Split(dep.catalogRef, ".")
	var catalog *versionCatalog
	for d := dir; ; d = path.Dir(d) {
		if c := catalogs[d+"\x00"+parts[0]]; c != nil {
			catalog = c
			break
		}
		if d == "." || d == "/" {
			break
		}
	}
	if catalog == nil {
		return []rawDep{dep}, parts[0] == "libs"
	}
	rest := parts[1:]
	switch rest[0] {
	case "versions", "plugins":
		return nil, false
	case "bundles":
		aliases, ok := catalog.bundles[catalogAlias(strings.Join(rest[1:], "."))]
		if !ok {
			return []rawDep{dep}, true
		}
		for _, alias := range aliases {
			if lib, ok := catalog.libraries[alias]; ok {
				resolved = append(resolved, rawDep{Dependency: Dependency{Name: lib.module, VersionReq: lib.version, DepKind: dep.DepKind}})
			}
		}
		return resolved, true
	}
	lib, ok := catalog.libraries[catalogAlias(strings.Join(rest, "."))]
	if !ok {
		return []rawDep{dep}, true
	}
	dep.Name, dep.VersionReq, dep.catalogRef = lib.module, lib.version, ""
	return []rawDep{dep}, true
}

// versionCatalog is a Gradle version catalog (gradle/libs.versions.toml).
type versionCatalog struct {
	name      string // the accessor's name: "libs" for libs.versions.toml
	dir       string // the build's folder, where gradle/ is
	libraries map[string]catalogLibrary
	bundles   map[string][]string // alias → library aliases
}

type catalogLibrary struct{ module, version string }

// catalogAlias normalises an alias the way Gradle turns it into an
// accessor: "kotlin-reflect", "kotlin_reflect" and "kotlin.reflect" are all
// libs.kotlin.reflect.
func catalogAlias(alias string) string {
	return aliasSeparators.Replace(strings.ToLower(alias))
}

// isVersionCatalog reports a version catalog file: gradle/<name>.versions.toml.
func isVersionCatalog(rel string) bool {
	dir, base := path.Split(rel)
	name, ok := strings.CutSuffix(base, ".versions.toml")
	return ok && name != "" && path.Base(strings.TrimSuffix(dir, "/")) == "gradle"
}

// parseVersionCatalog reads a version catalog's [versions], [libraries]
// and [bundles]. It declares no package.
func parseVersionCatalog(m Manifest, dir string) (*draft, error) {
	doc, err := decodeTOML(m.Data)
	if err != nil {
		return nil, err
	}
	c := &versionCatalog{
		name:      strings.TrimSuffix(path.Base(m.Path), ".versions.toml"),
		dir:       path.Dir(dir),
		libraries: map[string]catalogLibrary{},
		bundles:   map[string][]string{},
	}
	versions, _ := doc["versions"].(map[string]any)
	version := func(v any) string {
		switch t := v.(type) {
		case string:
			return t
		case map[string]any:
			if ref := stringValue(t["ref"]); ref != "" {
				return catalogVersion(versions[ref])
			}
			return catalogVersion(t)
		}
		return ""
	}
	libraries, _ := doc["libraries"].(map[string]any)
	for _, alias := range sortedKeys(libraries) {
		var lib catalogLibrary
		switch v := libraries[alias].(type) {
		case string:
			parts := strings.Split(v, ":")
			if len(parts) < 2 {
				continue
			}
			lib.module = parts[0] + ":" + parts[1]
			if len(parts) > 2 {
				lib.version = parts[2]
			}
		case map[string]any:
			lib.module = stringValue(v["module"])
			if lib.module == "" && stringValue(v["group"]) != "" && stringValue(v["name"]) != "" {
				lib.module = stringValue(v["group"]) + ":" + stringValue(v["name"])
			}
			lib.version = version(v["version"])
		}
		if lib.module != "" {
			c.libraries[catalogAlias(alias)] = lib
		}
	}
	bundles, _ := doc["bundles"].(map[string]any)
	for _, alias := range sortedKeys(bundles) {
		var members []string
		for _, member := range stringList(bundles[alias]) {
			members = append(members, catalogAlias(member))
		}
		c.bundles[catalogAlias(alias)] = members
	}
	return &draft{catalog: c}, nil
}

// catalogVersion reads a version: "1.2" or a rich version {strictly,
// require, prefer}.
func catalogVersion(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case map[string]any:
		for _, key := range []string{"strictly", "require", "prefer"} {
			if s := stringValue(t[key]); s != "" {
				return s
			}
		}
	}
	return ""
}
