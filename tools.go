//go:build tools

// This file pins the modules lore's packages are being built on, so that
// `go mod tidy` keeps them while those packages are written.
package tools

import (
	_ "github.com/go-git/go-git/v5/plumbing/format/gitignore"
	_ "github.com/mattn/go-isatty"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/pelletier/go-toml/v2"
	_ "github.com/smacker/go-tree-sitter"
	_ "golang.org/x/mod/modfile"
	_ "golang.org/x/sync/errgroup"
	_ "gopkg.in/yaml.v3"
	_ "modernc.org/sqlite"
)
