package packages

import (
	"encoding/json"
	"strings"
)

// parseComposer reads a composer.json: require (runtime) and require-dev
// (dev), without the platform requirements (php, ext-*, lib-*, composer
// APIs), which are not packages.
func parseComposer(m Manifest, _ string) (*draft, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(m.Data, &doc); err != nil {
		return nil, jsonError(m.Data, err)
	}
	name, err := jsonString(doc, "name")
	if err != nil {
		return nil, err
	}
	d := &draft{isPackage: true, pkg: Package{Kind: KindComposer, Name: name, Metadata: map[string]any{}}}
	d.pkg.Version, _ = jsonString(doc, "version")
	d.pkg.Description, _ = jsonString(doc, "description")
	if kind, _ := jsonString(doc, "type"); kind != "" {
		d.pkg.Metadata["type"] = kind
	}
	var license any
	if json.Unmarshal(doc["license"], &license) == nil {
		if names := stringList(license); len(names) > 0 {
			d.pkg.Metadata["license"] = strings.Join(names, " OR ")
		}
	}
	for _, section := range []struct{ field, kind string }{{"require", DepRuntime}, {"require-dev", DepDev}} {
		deps := jsonStringMap(doc[section.field])
		for _, depName := range sortedKeys(deps) {
			if isComposerPlatform(depName) {
				continue
			}
			d.deps = append(d.deps, rawDep{Dependency: Dependency{Name: depName, VersionReq: deps[depName], DepKind: section.kind}})
		}
	}
	return d, nil
}

// isComposerPlatform reports Composer's platform packages.
func isComposerPlatform(name string) bool {
	lower := strings.ToLower(name)
	switch lower {
	case "php", "php-64bit", "php-ipv6", "php-zts", "php-debug", "hhvm", "composer", "composer-plugin-api", "composer-runtime-api":
		return true
	}
	return strings.HasPrefix(lower, "ext-") || strings.HasPrefix(lower, "lib-")
}
