package search

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/symbols"
)

// A file's name says it is a test, a mock, a benchmark or a test helper;
// what imports it can say otherwise. In a test framework the
// implementation is named like test support (vitest's
// integrations/mock/timers.ts, runtime/benchmark/, runBaseTests.ts,
// utils/test-helpers.ts), and demoting it as tests hides the answer of
// "fake timers that advance the clock". Implementation does not import
// tests: a file named like test support that code not so named imports is
// implementation (markImportedByCode).
//
// Only imports written as relative paths are resolved (`./mock/timers`,
// `../utils/index.js` for index.ts): that needs no module resolution and
// cannot name the wrong file. They are read from the stored symbols'
// string tables (store.SymbolStrings), and only for a snapshot that has a
// file they could clear: one named like test support, not a stand-in, of
// a language whose imports name files by relative path without their
// extension (JavaScript, TypeScript).

// importExts are the endings a relative import may leave out, in the
// order a resolver tries them: `./timers` is timers.ts, `./mock` is
// mock/index.ts.
var importExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
	"/index.ts", "/index.tsx", "/index.js", "/index.mjs"}

// importLanguages are the languages whose files importExts reach.
var importLanguages = map[string]bool{"typescript": true, "tsx": true, "javascript": true,
	"vue": true, "svelte": true, "astro": true}

// resolveRelative returns the slot of the file a relative import written
// in from names, or -1.
func resolveRelative(from, target string, slots map[string]int32) int32 {
	if !strings.HasPrefix(target, "./") && !strings.HasPrefix(target, "../") {
		return -1
	}
	p := path.Join(path.Dir(from), target)
	if s, ok := slots[p]; ok {
		return s
	}
	for _, ext := range importExts {
		if s, ok := slots[p+ext]; ok {
			return s
		}
	}
	// TypeScript's ESM style: `./x.js` for x.ts.
	if ext := path.Ext(p); ext == ".js" || ext == ".mjs" || ext == ".cjs" {
		for _, alt := range []string{".ts", ".tsx", ".mts", ".cts"} {
			if s, ok := slots[strings.TrimSuffix(p, ext)+alt]; ok {
				return s
			}
		}
	}
	return -1
}

// clearable reports a file that import evidence could clear: named like
// test support, not a stand-in (a stub is what its name says whoever
// includes it: libuv's darwin-stub.h), of a language importExts reach.
func clearable(f *fileFacts, language string) bool {
	return f.namedLowValue() && !f.stubOnly && importLanguages[language]
}

// importedByCode flags, by slot, the clearable files that files not
// named like test support import at least as often as files so named do
// (a helper a config file also loads is still the tests' when they
// import it more); nil when there are none.
func importedByCode(ctx context.Context, r store.Reader, files []store.FileRow, facts []*fileFacts) ([]bool, error) {
	any := false
	for i, f := range files {
		if clearable(facts[i], f.Language) {
			any = true
			break
		}
	}
	if !any {
		return nil, nil
	}
	slots := make(map[string]int32, len(files))
	ids := make(map[int64]int32, len(files))
	for i, f := range files {
		slots[f.Path] = int32(i)
		ids[f.ID] = int32(i)
	}
	byCode := make([]int32, len(files))
	byTests := make([]int32, len(files))
	// seen dedupes a file's imports of one target (a value and a type
	// import of the same module).
	seen := map[int32]bool{}
	add := func(from int32, target string) {
		to := resolveRelative(files[from].Path, target, slots)
		if to < 0 || to == from || seen[to] {
			return
		}
		seen[to] = true
		if facts[from].namedLowValue() || facts[from].doc {
			byTests[to]++
		} else {
			byCode[to]++
		}
	}
	var err error
	if br, ok := r.(store.SymbolBlobReader); ok {
		err = br.SymbolBlobs(ctx, func(id int64, blob []byte) error {
			from, ok := ids[id]
			if !ok {
				return nil
			}
			clear(seen)
			return store.SymbolStrings(blob, func(s []byte) {
				// Only an import target starts with a dot and a slash.
				if len(s) > 2 && s[0] == '.' && (s[1] == '/' || s[1] == '.' && s[2] == '/') {
					add(from, string(s))
				}
			})
		})
	} else {
		err = r.Symbols(ctx, func(fs store.FileSymbols) error {
			from, ok := ids[fs.FileID]
			if !ok {
				return nil
			}
			clear(seen)
			for _, ref := range fs.Symbols.References {
				if ref.Kind == symbols.RefImport {
					add(from, ref.Target)
				}
			}
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("reading imports: %w", err)
	}
	var out []bool
	for i, f := range files {
		if clearable(facts[i], f.Language) && byCode[i] > 0 && byCode[i] >= byTests[i] {
			if out == nil {
				out = make([]bool, len(files))
			}
			out[i] = true
		}
	}
	return out, nil
}

// markImportedByCode sets fileFacts.usedByCode from importedByCode, and
// counts implChunks again when a mark changed. The facts may be shared
// with the snapshot this one was made from, so they are copied before any
// is changed.
func (snap *snapshot) markImportedByCode(ctx context.Context, r store.Reader) error {
	used, err := importedByCode(ctx, r, snap.files, snap.facts)
	if err != nil {
		return err
	}
	changed := false
	for i, f := range snap.facts {
		if f.usedByCode != (used != nil && used[i]) {
			changed = true
			break
		}
	}
	if !changed {
		return nil
	}
	facts := make([]fileFacts, len(snap.facts))
	out := make([]*fileFacts, len(snap.facts))
	for i, f := range snap.facts {
		facts[i] = *f
		facts[i].usedByCode = used != nil && used[i]
		out[i] = &facts[i]
	}
	snap.facts = out
	snap.countImplChunks()
	return nil
}
