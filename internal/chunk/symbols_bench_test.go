package chunk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lore-dev/lore/internal/lang"
)

// benchInput is a file the benchmarks chunk.
type benchInput struct {
	name, language string
	src            []byte
}

// benchInputs returns the testdata files with a grammar and larger
// synthetic files.
func benchInputs(tb testing.TB) []benchInput {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		tb.Fatal(err)
	}
	var inputs []benchInput
	for _, e := range entries {
		src := readFixture(tb, e.Name())
		language := lang.Detect(e.Name(), src)
		if lang.HasGrammar(language) {
			inputs = append(inputs, benchInput{e.Name(), language, src})
		}
	}
	return append(inputs,
		benchInput{"synthetic.go", "go", syntheticGo(3000)},
		benchInput{"synthetic.py", "python", syntheticPython(3000)},
		benchInput{"synthetic.ts", "typescript", syntheticTS(3000)},
	)
}

// syntheticGo is a Go file of n small types, methods and functions that
// call each other.
func syntheticGo(n int) []byte {
	var b strings.Builder
	b.WriteString("package big\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "// T%d holds a value.\ntype T%d struct {\n\tname string\n\tnext *T%d\n}\n\n", i, i, (i+1)%n)
		fmt.Fprintf(&b, "// Name returns the name of t.\nfunc (t *T%d) Name(prefix string) string {\n\treturn strings.TrimSpace(prefix + t.name)\n}\n\n", i)
		fmt.Fprintf(&b, "func f%d(x int) int {\n\tt := &T%d{name: fmt.Sprint(x)}\n\tif x > 0 {\n\t\treturn f%d(x-1) + len(t.Name(\"p\"))\n\t}\n\treturn x\n}\n\n", i, i, (i+1)%n)
	}
	return []byte(b.String())
}

func syntheticPython(n int) []byte {
	var b strings.Builder
	b.WriteString("import os\nfrom typing import Optional\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "class C%d(Base):\n    \"\"\"A class.\"\"\"\n\n    def run(self, x: int) -> Optional[str]:\n        return os.path.join(str(x), helper%d(x))\n\n\n", i, i)
		fmt.Fprintf(&b, "def helper%d(x: int) -> str:\n    if x > 0:\n        return helper%d(x - 1)\n    return C%d().run(x)\n\n\n", i, (i+1)%n, i)
	}
	return []byte(b.String())
}

func syntheticTS(n int) []byte {
	var b strings.Builder
	b.WriteString("import { Base, Service } from './base';\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "export interface I%d { run(x: number): string; }\n\n", i)
		fmt.Fprintf(&b, "export class C%d extends Base implements I%d {\n  constructor(private svc: Service) { super(); }\n  run(x: number): string {\n    return this.svc.call(helper%d(x));\n  }\n}\n\n", i, i, i)
		fmt.Fprintf(&b, "export function helper%d(x: number): string {\n  return x > 0 ? helper%d(x - 1) : new C%d(new Service()).run(x);\n}\n\n", i, (i+1)%n, i)
	}
	return []byte(b.String())
}

// BenchmarkAnalyze compares Split with Analyze on every input: the
// difference is the cost of extracting symbols from the same parse. Run it
// with -bench=Analyze and compare split/X with analyze/X (cpu-ns/op is the
// goroutine's thread CPU time, steadier than ns/op on a busy machine).
func BenchmarkAnalyze(b *testing.B) {
	inputs := benchInputs(b)
	for _, in := range inputs {
		Analyze(in.name, in.language, in.src) // compile the queries first
	}
	total := 0
	for _, in := range inputs[:len(inputs)-3] {
		total += len(in.src)
	}
	run := func(name string, inputs []benchInput, size int, f func(path, language string, src []byte)) {
		b.Run(name, func(b *testing.B) {
			// The thread's CPU time is reported too (cpu-ns/op): on a
			// shared machine it varies much less than wall time.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.SetBytes(int64(size))
			start, measured := threadCPU()
			for i := 0; i < b.N; i++ {
				for _, in := range inputs {
					f(in.name, in.language, in.src)
				}
			}
			if end, ok := threadCPU(); ok && measured {
				b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
	split := func(path, language string, src []byte) { Split(path, language, src) }
	analyze := func(path, language string, src []byte) { Analyze(path, language, src) }
	run("split/testdata", inputs[:len(inputs)-3], total, split)
	run("analyze/testdata", inputs[:len(inputs)-3], total, analyze)
	for _, in := range inputs {
		one := []benchInput{in}
		run("split/"+in.name, one, len(in.src), split)
		run("analyze/"+in.name, one, len(in.src), analyze)
	}
}

// BenchmarkAnalyzeRepo compares Split with Analyze over every parsed file of a
// real checkout: LORE_BENCH_ROOT=~/bench/tokio go test ./internal/chunk
// -run '^$' -bench AnalyzeRepo. Skipped without LORE_BENCH_ROOT.
func BenchmarkAnalyzeRepo(b *testing.B) {
	root := os.Getenv("LORE_BENCH_ROOT")
	if root == "" {
		b.Skip("LORE_BENCH_ROOT names no repository")
	}
	var inputs []benchInput
	size := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > 1<<20 {
			return nil
		}
		if language := lang.Detect(p, src); lang.HasGrammar(language) {
			inputs = append(inputs, benchInput{p, language, src})
			size += len(src)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range inputs {
		Analyze(in.name, in.language, in.src) // compile the queries first
	}
	// Split and Analyze take turns, a whole pass each, so that a change
	// in the machine's load touches both alike; symbols-% is what
	// extracting symbols adds to chunking.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.SetBytes(int64(size))
	var spent [2]time.Duration
	measured := true
	for b.Loop() {
		for mode := range spent {
			start, ok := threadCPU()
			for _, in := range inputs {
				if mode == 0 {
					Split(in.name, in.language, in.src)
				} else {
					Analyze(in.name, in.language, in.src)
				}
			}
			end, _ := threadCPU()
			measured = measured && ok
			spent[mode] += end - start
		}
	}
	if measured && spent[0] > 0 {
		b.ReportMetric(float64(spent[0].Nanoseconds())/float64(b.N), "split-cpu-ns/op")
		b.ReportMetric(float64(spent[1].Nanoseconds())/float64(b.N), "analyze-cpu-ns/op")
		b.ReportMetric(100*float64(spent[1]-spent[0])/float64(spent[0]), "symbols-%")
	}
}
