package chunk

import (
	"slices"
	"strings"
	"testing"
)

// TestRustItemMacrosDefine checks that items written inside item-position
// macro invocations are chunks and symbols of their own, and that macros
// whose bodies are not items stay as the grammar reads them.
func TestRustItemMacrosDefine(t *testing.T) {
	cases := []struct {
		name       string
		src        string
		defined    []string // every one a definition, with its kind
		kinds      []string
		notDefined []string
		calls      []string // references of kind call that must be found
	}{
		{
			name: "feature gate around a function",
			src: `cfg_rt! {
    /// Runs f on a thread where blocking is fine.
    pub fn spawn_blocking<F>(f: F) -> JoinHandle<F::Output> {
        crate::runtime::spawn_blocking(f)
    }
}
`,
			defined: []string{"spawn_blocking"}, kinds: []string{KindFunction},
			calls: []string{"spawn_blocking"},
		},
		{
			name: "nested gates and a struct with field attributes",
			src: `cfg_rt! {
    cfg_unstable! {
        pub struct Budget {
            n: u8,
        }
    }
}

pin_project! {
    /// A future with a deadline.
    pub struct Timeout<T> {
        #[pin]
        value: T,
    }
}
`,
			defined: []string{"Budget", "Timeout"}, kinds: []string{KindStruct, KindStruct},
		},
		{
			name: "a gate inside an impl and inside a module",
			src: `impl Handle {
    cfg_time! {
        pub fn timer(&self) -> &Timer { &self.timer }
    }
}

mod io {
    cfg_net! {
        pub(crate) fn register(fd: i32) -> bool { poll(fd) }
    }
}
`,
			defined: []string{"timer", "register"}, kinds: []string{KindMethod, KindFunction},
			calls: []string{"poll"},
		},
		{
			name: "bodies that are not items stay token trees",
			src: `bitflags! {
    pub struct Modifier: u16 {
        const BOLD = 0b0000_0001;
    }
}

impl_num! { i8, i16, i32 }

forwarded_impl!((T), Box<T>, Box::new);

/// Kept.
pub fn after() {}
`,
			defined: []string{"after"}, kinds: []string{KindFunction},
			notDefined: []string{"Modifier", "BOLD", "i8"},
		},
		{
			name: "one good body beside a bad one",
			src: `cfg_fs! {
    pub fn read(path: &str) -> Vec<u8> { Vec::new() }
}

bitflags! {
    pub struct Mode: u8 { const R = 1; }
}
`,
			defined: []string{"read"}, kinds: []string{KindFunction},
			notDefined: []string{"Mode"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			chunks, file := Analyze("lib.rs", "rust", src)
			checkCoverage(t, src, chunks)
			var defined []string
			for _, ch := range chunks {
				defined = append(defined, ch.Symbols...)
				if !strings.Contains(c.src, ch.Content) {
					t.Errorf("chunk %d-%d holds text the file does not: %q", ch.StartLine, ch.EndLine, ch.Content)
				}
			}
			for i, name := range c.defined {
				if !slices.Contains(defined, name) {
					t.Errorf("%s is not defined by any chunk; chunks define %v", name, defined)
				}
				found := false
				for _, d := range file.Definitions {
					if d.Name == name && d.Kind == c.kinds[i] {
						found = true
					}
				}
				if !found {
					t.Errorf("no %s definition named %s among %+v", c.kinds[i], name, file.Definitions)
				}
			}
			for _, name := range c.notDefined {
				if slices.Contains(defined, name) {
					t.Errorf("%s is defined, but its macro's body is not items", name)
				}
			}
			for _, name := range c.calls {
				found := false
				for _, r := range file.References {
					if r.Kind == "call" && r.Name == name {
						found = true
					}
				}
				if !found {
					t.Errorf("no call of %s among the references", name)
				}
			}
		})
	}
}

// TestRustMacroFreeFilesParseOnce checks the common case costs nothing:
// a file without item macros keeps its first tree.
func TestRustMacroFreeFilesParseOnce(t *testing.T) {
	src := []byte("fn main() {\n    println!(\"{}\", 1);\n    let v = vec![1, 2];\n}\n")
	spec := specs["rust"]
	tree, err := spec.parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.unwrapItemMacros(src, tree); got != tree {
		t.Fatal("a file without item macros was parsed again")
	}
	tree.Close()
}
