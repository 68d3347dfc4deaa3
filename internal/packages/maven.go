package packages

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// pomProject is the part of a Maven pom.xml lore reads.
type pomProject struct {
	Parent struct {
		GroupID      string `xml:"groupId"`
		ArtifactID   string `xml:"artifactId"`
		Version      string `xml:"version"`
		RelativePath string `xml:"relativePath"`
	} `xml:"parent"`
	GroupID              string           `xml:"groupId"`
	ArtifactID           string           `xml:"artifactId"`
	Version              string           `xml:"version"`
	Packaging            string           `xml:"packaging"`
	Name                 string           `xml:"name"`
	Description          string           `xml:"description"`
	Modules              []string         `xml:"modules>module"`
	Properties           pomProperties    `xml:"properties"`
	Dependencies         []pomDependency  `xml:"dependencies>dependency"`
	DependencyManagement []pomDependency  `xml:"dependencyManagement>dependencies>dependency"`
	Profiles             []pomProfileDeps `xml:"profiles>profile"`
}

type pomProfileDeps struct {
	Modules []string `xml:"modules>module"`
}

type pomDependency struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
	Scope      string `xml:"scope"`
	Optional   string `xml:"optional"`
	Type       string `xml:"type"`
}

// pomProperties collects the free-form children of <properties>.
type pomProperties map[string]string

func (p *pomProperties) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	*p = pomProperties{}
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			var value string
			if err := d.DecodeElement(&value, &t); err != nil {
				return err
			}
			(*p)[t.Name.Local] = strings.TrimSpace(value)
		case xml.EndElement:
			return nil
		}
	}
}

// parsePOM reads a pom.xml. The package is named "groupId:artifactId";
// groupId and version are inherited from <parent> when absent. Properties
// and dependency versions are resolved later, when parent poms of the same
// repository are known (see resolvePOMs).
func parsePOM(m Manifest, dir string) (*draft, error) {
	var pom pomProject
	decoder := xml.NewDecoder(bytes.NewReader(m.Data))
	decoder.Strict = true
	if err := decoder.Decode(&pom); err != nil {
		return nil, xmlError(err)
	}
	pom.GroupID = strings.TrimSpace(pom.GroupID)
	pom.ArtifactID = strings.TrimSpace(pom.ArtifactID)
	pom.Version = strings.TrimSpace(pom.Version)
	if pom.GroupID == "" {
		pom.GroupID = strings.TrimSpace(pom.Parent.GroupID)
	}
	if pom.Version == "" {
		pom.Version = strings.TrimSpace(pom.Parent.Version)
	}
	if pom.ArtifactID == "" {
		return nil, fmt.Errorf("pom.xml has no <artifactId>")
	}
	d := &draft{isPackage: true, pom: &pom, pkg: Package{Kind: KindMaven, Metadata: map[string]any{}}}
	modules := append([]string(nil), pom.Modules...)
	for _, profile := range pom.Profiles {
		modules = append(modules, profile.Modules...)
	}
	if len(modules) > 0 {
		decl := workspaceDecl{root: dir, kind: KindMaven, rootIsPackage: true}
		for _, module := range modules {
			module = strings.ReplaceAll(strings.TrimSpace(module), "\\", "/")
			if strings.HasSuffix(module, ".xml") { // a module may name its pom file
				module = path.Dir(module)
			}
			decl.include = append(decl.include, escapeGlob(module))
		}
		d.workspaces = append(d.workspaces, decl)
	}
	return d, nil
}

// resolvePOMs completes Maven drafts once all poms are parsed: ${…}
// properties and managed dependency versions are looked up in the pom and
// then up its chain of parents that are part of the repository.
func resolvePOMs(drafts []*draft) {
	byCoordinates := map[string]*draft{}
	byManifest := map[string]*draft{}
	for _, d := range drafts {
		if d.pom != nil {
			key := d.pom.GroupID + ":" + d.pom.ArtifactID
			if _, taken := byCoordinates[key]; !taken {
				byCoordinates[key] = d
			}
			byManifest[d.manifest] = d
		}
	}
	parentOf := func(d *draft) *draft {
		p := d.pom.Parent
		if p.ArtifactID == "" {
			return nil
		}
		relative := strings.TrimSpace(p.RelativePath)
		if relative == "" {
			relative = "../pom.xml"
		}
		if !strings.HasSuffix(relative, ".xml") {
			relative = path.Join(relative, "pom.xml")
		}
		if byPath := byManifest[joinRel(d.pkg.Path, relative)]; byPath != nil &&
			byPath.pom.ArtifactID == strings.TrimSpace(p.ArtifactID) {
			return byPath
		}
		return byCoordinates[strings.TrimSpace(p.GroupID)+":"+strings.TrimSpace(p.ArtifactID)]
	}

	for _, d := range drafts {
		if d.pom == nil {
			continue
		}
		// The pom and its ancestors, nearest first; cycles stop the walk.
		chain := []*draft{d}
		seen := map[*draft]bool{d: true}
		for parent := parentOf(d); parent != nil && !seen[parent] && len(chain) < 32; parent = parentOf(parent) {
			seen[parent] = true
			chain = append(chain, parent)
		}
		lookup := func(key string) (string, bool) {
			for _, p := range chain {
				if value, ok := p.pom.Properties[key]; ok {
					return value, true
				}
			}
			pom := d.pom
			switch key {
			case "project.groupId", "pom.groupId", "groupId":
				return pom.GroupID, pom.GroupID != ""
			case "project.artifactId", "pom.artifactId", "artifactId":
				return pom.ArtifactID, true
			case "project.version", "pom.version", "version":
				return pom.Version, pom.Version != ""
			case "project.parent.groupId", "parent.groupId":
				return pom.Parent.GroupID, pom.Parent.GroupID != ""
			case "project.parent.version", "parent.version":
				return pom.Parent.Version, pom.Parent.Version != ""
			}
			return "", false
		}
		resolve := func(s string) string { return expandProperties(strings.TrimSpace(s), lookup) }

		pom := d.pom
		group, artifact := resolve(pom.GroupID), resolve(pom.ArtifactID)
		d.pkg.Name = artifact
		if group != "" {
			d.pkg.Name = group + ":" + artifact
			d.pkg.Metadata["group_id"] = group
		}
		d.pkg.Metadata["artifact_id"] = artifact
		d.pkg.Version = resolve(pom.Version)
		d.pkg.Description = strings.Join(strings.Fields(resolve(pom.Description)), " ")
		if display := strings.TrimSpace(resolve(pom.Name)); display != "" {
			d.pkg.Metadata["display_name"] = display
		}
		if packaging := strings.TrimSpace(pom.Packaging); packaging != "" {
			d.pkg.Metadata["packaging"] = packaging
		}
		if pom.Parent.ArtifactID != "" {
			d.pkg.Metadata["parent"] = strings.TrimSpace(pom.Parent.GroupID) + ":" + strings.TrimSpace(pom.Parent.ArtifactID)
		}

		managed := map[string]string{}
		for i := len(chain) - 1; i >= 0; i-- { // nearer poms override farther ones
			for _, dm := range chain[i].pom.DependencyManagement {
				if version := resolve(dm.Version); version != "" {
					managed[resolve(dm.GroupID)+":"+resolve(dm.ArtifactID)] = version
				}
			}
		}
		for _, dep := range pom.Dependencies {
			name := resolve(dep.GroupID) + ":" + resolve(dep.ArtifactID)
			version := resolve(dep.Version)
			if version == "" {
				version = managed[name]
			}
			d.deps = append(d.deps, rawDep{Dependency: Dependency{Name: name, VersionReq: version, DepKind: mavenDepKind(dep)}})
		}
	}
}

// mavenDepKind maps a Maven scope: test → dev; provided and system
// (supplied by the environment at build time) → build; optional → optional;
// compile and runtime → runtime.
func mavenDepKind(dep pomDependency) string {
	switch strings.TrimSpace(dep.Scope) {
	case "test":
		return DepDev
	case "provided", "system":
		return DepBuild
	}
	if strings.TrimSpace(dep.Optional) == "true" {
		return DepOptional
	}
	return DepRuntime
}

// maxExpandedLen bounds a property-expanded value: properties referring to
// each other several times could otherwise grow a value exponentially.
const maxExpandedLen = 4096

// expandProperties replaces ${key} references using lookup; unknown or
// self-referencing properties are left as written, and expansion stops
// once a value grows beyond maxExpandedLen.
func expandProperties(s string, lookup func(string) (string, bool)) string {
	for round := 0; round < 8 && strings.Contains(s, "${") && len(s) <= maxExpandedLen; round++ {
		var b strings.Builder
		changed := false
		rest := s
		for {
			start := strings.Index(rest, "${")
			if start < 0 {
				b.WriteString(rest)
				break
			}
			end := strings.Index(rest[start:], "}")
			if end < 0 {
				b.WriteString(rest)
				break
			}
			key := rest[start+2 : start+end]
			b.WriteString(rest[:start])
			if value, ok := lookup(key); ok && value != "${"+key+"}" && b.Len()+len(value) <= maxExpandedLen {
				b.WriteString(value)
				changed = true
			} else {
				b.WriteString(rest[start : start+end+1])
			}
			rest = rest[start+end+1:]
		}
		s = b.String()
		if !changed {
			break
		}
	}
	return s
}

// xmlError describes an XML decoding failure with its line.
func xmlError(err error) error {
	var syntax *xml.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("invalid XML at line %d: %s", syntax.Line, syntax.Msg)
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("invalid XML: the file has no root element")
	}
	return fmt.Errorf("invalid XML: %w", err)
}
