package search

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/lore-dev/lore/internal/store"
	"github.com/lore-dev/lore/internal/symbols"
)

// loadImplementers reads the symbol graph for the files that implement or
// extend each named type: a class that extends or implements it, a Rust
// impl of a trait, a Go type whose method set satisfies an interface of
// its package (symbols.GoImplementations). The result maps the type's
// name, unqualified, to the file slots, each once, in slot order; nil
// when nothing implements anything.
func loadImplementers(ctx context.Context, r store.Reader, files []store.FileRow) (map[string][]int32, error) {
	slots := make(map[int64]int32, len(files))
	for i, f := range files {
		slots[f.ID] = int32(i)
	}
	edges := map[string][]int32{}
	add := func(name string, slot int32) {
		if s := edges[name]; !slices.Contains(s, slot) {
			edges[name] = append(s, slot)
		}
	}
	type goFile struct {
		slot int32
		syms symbols.File
	}
	goPackages := map[string][]goFile{} // folder → its Go files
	visit := func(slot int32, syms symbols.File) {
		for _, ref := range syms.References {
			if (ref.Kind == symbols.RefImplements || ref.Kind == symbols.RefExtends) && ref.Name != "" && ref.Source != "" && ref.Source != ref.Name {
				add(lastSegment(ref.Name), slot)
			}
		}
		if len(syms.GoInterfaces) > 0 || len(syms.GoMethods) > 0 || len(syms.GoTypes) > 0 {
			dir := path.Dir(files[slot].Path)
			goPackages[dir] = append(goPackages[dir], goFile{slot, syms})
		}
	}
	var err error
	if br, ok := r.(store.SymbolBlobReader); ok {
		// Outside Go only the extends and implements references matter:
		// scanning for them spares decoding every file's definitions,
		// which is most of the cost (vitest: 137 → 21–38 ms for the first
		// query naming an interface, in a CLI process).
		err = br.SymbolBlobs(ctx, func(id int64, blob []byte) error {
			slot, ok := slots[id]
			if !ok {
				return nil
			}
			if files[slot].Language == "go" {
				// Go's method sets decide, and its definitions and Go
				// facts are read whole; its other references are not.
				syms, err := store.DecodeSymbolsKeeping(blob, symbols.RefImplements, symbols.RefExtends)
				if err != nil {
					return fmt.Errorf("reading the symbols of %s: %w", files[slot].Path, err)
				}
				visit(slot, syms)
				return nil
			}
			var refs []symbols.Reference
			if err := store.ScanReferences(blob, isInheritance, func(ref symbols.Reference) { refs = append(refs, ref) }); err != nil {
				return fmt.Errorf("reading the symbols of %s: %w", files[slot].Path, err)
			}
			visit(slot, symbols.File{References: refs})
			return nil
		})
	} else {
		err = r.Symbols(ctx, func(fs store.FileSymbols) error {
			if slot, ok := slots[fs.FileID]; ok {
				visit(slot, fs.Symbols)
			}
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("reading the symbol graph: %w", err)
	}
	for _, pkg := range goPackages {
		all := make([]symbols.File, len(pkg))
		for i, f := range pkg {
			all[i] = f.syms
		}
		for _, impl := range symbols.GoImplementations(all...) {
			for _, f := range pkg {
				for _, d := range f.syms.Definitions {
					if d.Name == impl.Type && d.Kind != symbols.KindMethod && d.Kind != symbols.KindFunction {
						add(impl.Interface, f.slot)
					}
				}
			}
		}
	}
	if len(edges) == 0 {
		return nil, nil
	}
	for _, s := range edges {
		slices.Sort(s)
	}
	return edges, nil
}

// isInheritance accepts the kinds of reference that make an
// implementation edge.
func isInheritance(kind []byte) bool {
	return string(kind) == symbols.RefImplements || string(kind) == symbols.RefExtends
}

// implementerFiles are the file slots that implement a type the symbolic
// query names, when there are at most weights.implementerMax of them: the
// files a reader of an interface turns to next (Mux for chi's Router).
// The set is nil when there are none or too many to single out.
func implementerFiles(q Query, impl map[string][]int32) map[int32]bool {
	if !q.Symbolic || impl == nil || weights.implementer == 0 {
		return nil
	}
	var out map[int32]bool
	for _, w := range q.Words {
		slots := impl[w.Raw]
		if len(slots) == 0 || float64(len(slots)) > weights.implementerMax {
			continue
		}
		if out == nil {
			out = map[int32]bool{}
		}
		for _, s := range slots {
			out[s] = true
		}
	}
	return out
}

// implementersOf returns loadImplementers of the snapshot's files, read
// once, on the first search that asks: reading every file's symbols costs
// several times what the rest of a snapshot does (tmux: 25 → 130 ms), and
// only a symbol query naming an interface needs it (namesInterface). A
// failed read (a cancelled search) is not kept: the next search tries
// again.
func (snap *snapshot) implementersOf(ctx context.Context, r store.Reader) (map[string][]int32, error) {
	snap.impl.mu.Lock()
	defer snap.impl.mu.Unlock()
	if !snap.impl.done {
		edges, err := loadImplementers(ctx, r, snap.files)
		if err != nil {
			return nil, err
		}
		snap.impl.edges, snap.impl.done = edges, true
	}
	return snap.impl.edges, nil
}

// namesInterface reports whether a symbol query names an interface, trait
// or protocol that one of the candidates defines: the queries for which
// the files implementing it are worth the symbol graph.
func namesInterface(q Query, cands []*candidate, snap *snapshot) bool {
	if !q.Symbolic || weights.implementer == 0 {
		return false
	}
	for _, c := range cands {
		row := &snap.meta[c.pos]
		switch row.Kind {
		case "interface", "trait", "protocol":
		default:
			continue
		}
		first, _, _ := strings.Cut(row.Symbols, "\n")
		name := lastSegment(first)
		for _, w := range q.Words {
			if w.Raw == name {
				return true
			}
		}
	}
	return false
}
