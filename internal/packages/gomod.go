package packages

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// parseGoMod reads a go.mod: the module path is the package name and every
// require (indirect ones too, listed in Metadata["indirect"]) is a runtime
// dependency. A replace directive pointing at a local folder makes the
// replaced module a path dependency on that folder.
func parseGoMod(m Manifest, dir string) (*draft, error) {
	file, err := modfile.Parse(path.Base(m.Path), m.Data, nil)
	if err != nil {
		return nil, fmt.Errorf("invalid go.mod: %w", err)
	}
	if file.Module == nil || file.Module.Mod.Path == "" {
		return nil, fmt.Errorf("go.mod has no module directive")
	}
	modulePath := file.Module.Mod.Path
	d := &draft{isPackage: true, pkg: Package{Kind: KindGo, Name: modulePath, Metadata: map[string]any{"module_path": modulePath}}}
	if file.Go != nil {
		d.pkg.Metadata["go_version"] = file.Go.Version
	}
	if file.Toolchain != nil {
		d.pkg.Metadata["toolchain"] = file.Toolchain.Name
	}
	if file.Module.Deprecated != "" {
		d.pkg.Metadata["deprecated"] = file.Module.Deprecated
	}

	// A replace without an old version applies to every version; one with a
	// version applies to that version only. Only local targets matter here.
	localReplacement := map[string]string{} // "path" or "path@version" → folder
	replacements := map[string]any{}
	for _, r := range file.Replace {
		target := r.New.Path
		if r.New.Version != "" {
			target += "@" + r.New.Version
		}
		key := r.Old.Path
		if r.Old.Version != "" {
			key += "@" + r.Old.Version
		}
		replacements[key] = target
		if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
			localReplacement[key] = joinRel(dir, r.New.Path)
		}
	}
	if len(replacements) > 0 {
		d.pkg.Metadata["replace"] = replacements
	}

	var indirect []string
	for _, req := range file.Require {
		dep := rawDep{Dependency: Dependency{Name: req.Mod.Path, VersionReq: req.Mod.Version, DepKind: DepRuntime}}
		if folder, ok := localReplacement[req.Mod.Path+"@"+req.Mod.Version]; ok {
			dep.localPath = folder
		} else if folder, ok := localReplacement[req.Mod.Path]; ok {
			dep.localPath = folder
		}
		if req.Indirect {
			indirect = append(indirect, req.Mod.Path)
		}
		d.deps = append(d.deps, dep)
	}
	if len(indirect) > 0 {
		sort.Strings(indirect)
		d.pkg.Metadata["indirect"] = indirect
	}
	var tools []string
	for _, t := range file.Tool {
		tools = append(tools, t.Path)
	}
	if len(tools) > 0 {
		sort.Strings(tools)
		d.pkg.Metadata["tools"] = tools
	}
	return d, nil
}

// parseGoWork reads a go.work: the modules in its use directives are
// members of the workspace rooted at its folder.
func parseGoWork(m Manifest, dir string) (*draft, error) {
	file, err := modfile.ParseWork(path.Base(m.Path), m.Data, nil)
	if err != nil {
		return nil, fmt.Errorf("invalid go.work: %w", err)
	}
	decl := workspaceDecl{root: dir, kind: KindGo}
	for _, use := range file.Use {
		decl.include = append(decl.include, escapeGlob(strings.ReplaceAll(use.Path, "\\", "/")))
	}
	if len(decl.include) == 0 {
		return nil, nil
	}
	return &draft{workspaces: []workspaceDecl{decl}}, nil
}

// escapeGlob quotes glob metacharacters so that a literal folder name
// matches only itself.
func escapeGlob(p string) string {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?', '[', '\\':
			out = append(out, '\\')
		}
		out = append(out, p[i])
	}
	return string(out)
}
