package packages

import (
	"bytes"
	"encoding/xml"
	"path"
	"strings"
)

// msbuildProject is the part of a .csproj/.fsproj/.vbproj lore reads.
type msbuildProject struct {
	Sdk            string `xml:"Sdk,attr"`
	PropertyGroups []struct {
		AssemblyName     string `xml:"AssemblyName"`
		PackageID        string `xml:"PackageId"`
		Version          string `xml:"Version"`
		PackageVersion   string `xml:"PackageVersion"`
		Description      string `xml:"Description"`
		TargetFramework  string `xml:"TargetFramework"`
		TargetFrameworks string `xml:"TargetFrameworks"`
		OutputType       string `xml:"OutputType"`
		IsTestProject    string `xml:"IsTestProject"`
	} `xml:"PropertyGroup"`
	ItemGroups []struct {
		PackageReferences []struct {
			Include       string `xml:"Include,attr"`
			Version       string `xml:"Version,attr"`
			VersionChild  string `xml:"Version"`
			PrivateAssets string `xml:"PrivateAssets,attr"`
		} `xml:"PackageReference"`
		ProjectReferences []struct {
			Include string `xml:"Include,attr"`
		} `xml:"ProjectReference"`
	} `xml:"ItemGroup"`
}

// parseMSBuild reads a .NET project file. The package is named after
// AssemblyName, else PackageId, else the file's base name. PackageReference
// items are NuGet dependencies (dev when the project is a test project or
// the reference is PrivateAssets="all", i.e. a build-time tool);
// ProjectReference items point at other project files of the repository.
func parseMSBuild(m Manifest, dir string) (*draft, error) {
	var project msbuildProject
	decoder := xml.NewDecoder(bytes.NewReader(m.Data))
	decoder.Strict = true
	if err := decoder.Decode(&project); err != nil {
		return nil, xmlError(err)
	}
	base := strings.TrimSuffix(path.Base(m.Path), path.Ext(m.Path))
	d := &draft{isPackage: true, pkg: Package{Kind: KindNuGet, Metadata: map[string]any{}}}
	var assemblyName, packageID string
	isTest := false
	var frameworks []string
	for _, group := range project.PropertyGroups {
		assemblyName = firstNonEmpty(assemblyName, group.AssemblyName)
		packageID = firstNonEmpty(packageID, group.PackageID)
		d.pkg.Version = firstNonEmpty(d.pkg.Version, group.Version, group.PackageVersion)
		d.pkg.Description = firstNonEmpty(d.pkg.Description, group.Description)
		if outputType := strings.TrimSpace(group.OutputType); outputType != "" {
			d.pkg.Metadata["output_type"] = outputType
		}
		for _, list := range []string{group.TargetFramework, group.TargetFrameworks} {
			for _, framework := range strings.Split(list, ";") {
				if framework = strings.TrimSpace(framework); framework != "" {
					frameworks = append(frameworks, framework)
				}
			}
		}
		isTest = isTest || strings.EqualFold(strings.TrimSpace(group.IsTestProject), "true")
	}
	d.pkg.Name = firstNonEmpty(assemblyName, packageID, base)
	if packageID != "" {
		d.pkg.Metadata["package_id"] = packageID
	}
	if len(frameworks) > 0 {
		d.pkg.Metadata["target_frameworks"] = frameworks
	}
	if sdk := strings.TrimSpace(project.Sdk); sdk != "" {
		d.pkg.Metadata["sdk"] = sdk
	}
	for _, group := range project.ItemGroups {
		for _, ref := range group.PackageReferences {
			name := strings.TrimSpace(ref.Include)
			if name == "" {
				continue // Update= items adjust references declared elsewhere
			}
			kind := DepRuntime
			if isTest || strings.EqualFold(strings.TrimSpace(ref.PrivateAssets), "all") {
				kind = DepDev
			}
			d.deps = append(d.deps, rawDep{Dependency: Dependency{Name: name, VersionReq: firstNonEmpty(ref.Version, ref.VersionChild), DepKind: kind}})
		}
		for _, ref := range group.ProjectReferences {
			target := strings.ReplaceAll(strings.TrimSpace(ref.Include), "\\", "/")
			if target == "" {
				continue
			}
			kind := DepRuntime
			if isTest {
				kind = DepDev
			}
			d.deps = append(d.deps, rawDep{
				Dependency:    Dependency{Name: strings.TrimSuffix(path.Base(target), path.Ext(target)), DepKind: kind},
				localManifest: joinRel(dir, target),
			})
		}
	}
	return d, nil
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
