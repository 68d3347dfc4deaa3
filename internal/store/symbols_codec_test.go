package store

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/lore-dev/lore/internal/chunk"
	"github.com/lore-dev/lore/internal/symbols"
)

// symbolSources are files whose symbols the codec must carry unchanged:
// what the chunker extracts from real code, Go method sets included.
var symbolSources = []struct{ path, language, src string }{
	{"auth/login.go", "go", `package auth

import (
	"fmt"
	h "net/http"
)

type Authenticatable interface {
	Authenticate(user, password string) error
	fmt.Stringer
}

type Guest struct {
	*Base
	name string
}

func (g *Guest) Authenticate(user, password string) error { return nil }

func HandleLogin(w h.ResponseWriter, r *h.Request) {
	if err := authenticate(r); err != nil {
		fmt.Println(err)
	}
}
`},
	{"app/models.py", "python", `import os
from .base import Model as M

class User(M):
    def save(self):
        return os.path.join(self.dir, helper())
`},
	{"src/Guest.swift", "swift", `protocol Authenticatable { func authenticate() -> Bool }
struct Guest {}
extension Guest: Authenticatable {
    func authenticate() -> Bool { return check("guest") }
}
`},
}

func TestSymbolsCodecRoundTrip(t *testing.T) {
	for _, s := range symbolSources {
		t.Run(s.path, func(t *testing.T) {
			_, f := chunk.Analyze(s.path, s.language, []byte(s.src))
			if len(f.Definitions) == 0 || len(f.References) == 0 {
				t.Fatalf("the fixture has no symbols: %+v", f)
			}
			got, err := DecodeSymbols(EncodeSymbols(f))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, f) {
				t.Errorf("round trip changed the symbols\n got: %+v\nwant: %+v", got, f)
			}
		})
	}
	if b := EncodeSymbols(symbols.File{}); b != nil {
		t.Errorf("a file without symbols encodes as %v, want nil", b)
	}
	if f, err := DecodeSymbols(nil); err != nil || !f.Empty() {
		t.Errorf("DecodeSymbols(nil) = %+v, %v", f, err)
	}
}

// TestSymbolsCodecCorrupt: every truncation and a few altered bytes of a
// real blob are refused as ErrCorrupt or decode to something; nothing
// panics or allocates without bound.
func TestSymbolsCodecCorrupt(t *testing.T) {
	_, f := chunk.Analyze(symbolSources[0].path, symbolSources[0].language, []byte(symbolSources[0].src))
	blob := EncodeSymbols(f)
	for n := 1; n < len(blob); n++ {
		if _, err := DecodeSymbols(blob[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d of %d bytes: %v, want ErrCorrupt", n, len(blob), err)
		}
	}
	for _, bad := range [][]byte{
		{9}, // unknown format
		{symbolsFormat, 0xff, 0xff, 0xff, 0xff, 0x0f}, // a huge string table
		{symbolsFormat, 1, 0, 1, 7},                   // a string index out of the table
		append(append([]byte{}, blob...), 0),          // trailing bytes
	} {
		if _, err := DecodeSymbols(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("DecodeSymbols(%v): %v, want ErrCorrupt", bad[:min(len(bad), 8)], err)
		}
	}
}

func FuzzDecodeSymbols(f *testing.F) {
	for _, s := range symbolSources {
		_, syms := chunk.Analyze(s.path, s.language, []byte(s.src))
		f.Add(EncodeSymbols(syms))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := DecodeSymbols(b)
		var refs []symbols.Reference
		scanErr := ScanReferences(b, func([]byte) bool { return true }, func(r symbols.Reference) { refs = append(refs, r) })
		if err == nil && (scanErr != nil || !reflect.DeepEqual(refs, got.References) && len(got.References) > 0) {
			t.Fatalf("ScanReferences disagrees with DecodeSymbols: %v", scanErr)
		}
		kinds := map[string]bool{}
		for _, r := range got.References {
			kinds[r.Kind] = true
		}
		all := slices.Collect(maps.Keys(kinds))
		kept, keptErr := DecodeSymbolsKeeping(b, append(all, "")...)
		if err == nil && (keptErr != nil || !reflect.DeepEqual(kept, got) && len(got.References) > 0) {
			t.Fatalf("DecodeSymbolsKeeping of every kind disagrees with DecodeSymbols: %v", keptErr)
		}
		if err != nil {
			return
		}
		// What decodes encodes back to something that decodes the same.
		again, err := DecodeSymbols(EncodeSymbols(got))
		if err != nil || !reflect.DeepEqual(again, got) && !got.Empty() {
			t.Fatalf("re-encoding changed the symbols: %v", err)
		}
	})
}

// TestScanReferences: the references of real blobs, scanned without
// decoding the definitions, are DecodeSymbols' references of the kinds
// asked for; a damaged blob is ErrCorrupt, never a panic.
func TestScanReferences(t *testing.T) {
	for _, s := range symbolSources {
		t.Run(s.path, func(t *testing.T) {
			_, f := chunk.Analyze(s.path, s.language, []byte(s.src))
			blob := EncodeSymbols(f)
			for _, kind := range []string{"", symbols.RefCall, symbols.RefImport, symbols.RefImplements} {
				var want, got []symbols.Reference
				for _, r := range f.References {
					if kind == "" || r.Kind == kind {
						want = append(want, r)
					}
				}
				keep := func(k []byte) bool { return kind == "" || string(k) == kind }
				if err := ScanReferences(blob, keep, func(r symbols.Reference) { got = append(got, r) }); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("kind %q: scanned %+v\nwant %+v", kind, got, want)
				}
				// DecodeSymbolsKeeping: the same references, and the rest whole.
				kinds := []string{kind}
				if kind == "" {
					kinds = []string{symbols.RefCall, symbols.RefImport, symbols.RefImplements, symbols.RefExtends, symbols.RefType, symbols.RefReference}
				}
				kept, err := DecodeSymbolsKeeping(blob, kinds...)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(kept.References, want) {
					t.Errorf("kind %q: DecodeSymbolsKeeping kept %+v\nwant %+v", kind, kept.References, want)
				}
				whole := f
				whole.References = want
				if kept.References == nil {
					whole.References = nil
				}
				if !reflect.DeepEqual(kept, whole) {
					t.Errorf("kind %q: DecodeSymbolsKeeping changed more than the references", kind)
				}
				if none, err := DecodeSymbolsKeeping(blob); err != nil || none.References != nil {
					t.Errorf("DecodeSymbolsKeeping of no kind kept %d references (%v)", len(none.References), err)
				}
			}
			for n := 1; n < len(blob); n++ {
				_ = ScanReferences(blob[:n], func([]byte) bool { return true }, func(symbols.Reference) {})
			}
		})
	}
	for _, bad := range [][]byte{{9}, {symbolsFormat, 0xff, 0xff, 0xff, 0xff, 0x0f}, {symbolsFormat, 1, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0}} {
		if err := ScanReferences(bad, func([]byte) bool { return true }, func(symbols.Reference) {}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("ScanReferences(%v): %v, want ErrCorrupt", bad, err)
		}
	}
}

// TestSymbolStrings: the string table of a real blob, read without
// decoding the records, holds the import targets; a damaged blob is
// ErrCorrupt, never a panic.
func TestSymbolStrings(t *testing.T) {
	_, f := chunk.Analyze("src/vi.ts", "typescript", []byte("import { FakeTimers } from './mock/timers'\nimport x from 'vitest'\nexport const vi = () => new FakeTimers(x)\n"))
	blob := EncodeSymbols(f)
	got := map[string]bool{}
	if err := SymbolStrings(blob, func(s []byte) { got[string(s)] = true }); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"./mock/timers", "vitest", "FakeTimers"} {
		if !got[want] {
			t.Errorf("string table lacks %q: %v", want, got)
		}
	}
	if err := SymbolStrings(nil, func([]byte) { t.Error("a string in an empty blob") }); err != nil {
		t.Errorf("SymbolStrings(nil): %v", err)
	}
	for _, bad := range [][]byte{{9}, {symbolsFormat, 0xff, 0xff, 0xff, 0xff, 0x0f}, {symbolsFormat, 2, 5, 'a'}} {
		if err := SymbolStrings(bad, func([]byte) {}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("SymbolStrings(%v): %v, want ErrCorrupt", bad, err)
		}
	}
}
