package chunk

import (
	"bytes"
	"regexp"
	"sort"

	"github.com/lore-dev/lore/internal/symbols"
)

// luaTypeAnnotation matches a LuaCATS (lua-language-server) line that
// declares a type: "---@class LazyPlugin: LazyPluginBase",
// "---@class (exact) Foo", "---@alias LazyPluginKind \"normal\"|…".
var luaTypeAnnotation = regexp.MustCompile(`^[ \t]*---[ \t]*@(class|alias)[ \t]+(?:\([a-z]+\)[ \t]+)?([A-Za-z_][A-Za-z0-9_.]*)`)

// addLuaTypes makes the types a Lua file declares in LuaCATS annotations
// definitions of the chunks holding them. Lua has no type declarations;
// Neovim plugins and other typed Lua code declare their types in comments
// (lazy.nvim's types.lua is nothing but "---@class LazyPlugin …" and its
// "---@field" lines), which the grammar reads as comments, so a search for
// the type's name found no definition. A class annotation above a table
// ("---@class LazySpecLoader" over "local Spec = {}") names that table's
// chunk too: the chunk that holds the line holds the type. The class
// spans its annotation lines: the "---" comment lines that follow it.
func addLuaTypes(src []byte, chunks []Chunk, file *symbols.File) {
	if len(chunks) == 0 || !bytes.Contains(src, []byte("@class")) && !bytes.Contains(src, []byte("@alias")) {
		return
	}
	lines := bytes.Split(src, []byte("\n"))
	for i, line := range lines {
		m := luaTypeAnnotation.FindSubmatch(line)
		if m == nil {
			continue
		}
		start, kind, name := i+1, KindClass, string(m[2])
		if string(m[1]) == "alias" {
			kind = KindType
		}
		end := start
		for end < len(lines) && bytes.HasPrefix(bytes.TrimLeft(lines[end], " \t"), []byte("---")) &&
			luaTypeAnnotation.Find(lines[end]) == nil {
			end++
		}
		at := sort.Search(len(chunks), func(k int) bool { return chunks[k].EndLine >= start })
		if at == len(chunks) {
			continue
		}
		c := &chunks[at]
		c.Symbols = append(c.Symbols, name)
		if c.Kind == KindBlock {
			c.Kind = kind
		}
		file.Definitions = append(file.Definitions, symbols.Definition{Name: name, Kind: kind, Parent: -1,
			Signature: string(bytes.TrimSpace(line)), StartLine: start, EndLine: end, NameLine: start})
	}
}
