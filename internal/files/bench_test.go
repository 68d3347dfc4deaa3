package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Benchmark corpus: benchPackages × benchFilesPerPkg files of benchLines
// lines of generated Go-like code, about 1M lines (≈40 MB) in all.
const (
	benchPackages    = 50
	benchFilesPerPkg = 50
	benchLines       = 400
	benchRareToken   = "handleRequestTimeout" // appears in a few dozen lines
)

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchCorpus generates the corpus once per test binary run.
func benchCorpus(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "lore-files-bench-")
		if benchErr != nil {
			return
		}
		rng := rand.New(rand.NewPCG(42, 7))
		idents := []string{"ctx", "req", "resp", "item", "total", "count", "server", "client", "cache", "store",
			"index", "chunk", "token", "query", "result", "buffer", "reader", "writer", "config", "logger"}
		types := []string{"Server", "Client", "Cache", "Store", "Index", "Chunk", "Token", "Query", "Result", "Config"}
		words := []string{"the", "returns", "value", "when", "error", "is", "nil", "otherwise", "handles", "request",
			"caller", "must", "close", "cached", "entries", "are", "evicted", "after", "timeout", "expires"}
		pick := func(list []string) string { return list[rng.IntN(len(list))] }
		line := func() string {
			switch rng.IntN(10) {
			case 0:
				return fmt.Sprintf("func (s *%s) %s%s(ctx context.Context, %s *%s) (*%s, error) {", pick(types), pick([]string{"handle", "load", "save", "find"}), pick(types), pick(idents), pick(types), pick(types))
			case 1:
				return fmt.Sprintf("\tif err := s.%s.%s(ctx, %s); err != nil {", pick(idents), pick([]string{"Get", "Put", "Delete", "Scan"}), pick(idents))
			case 2:
				return fmt.Sprintf("\t\treturn nil, fmt.Errorf(\"%s %%s: %%w\", %s.ID, err)", pick(words), pick(idents))
			case 3:
				return fmt.Sprintf("\tfor _, %s := range %s.%ss {", pick(idents), pick(idents), pick(types))
			case 4:
				return fmt.Sprintf("\t\t%s += %s.%s * %s.Count", pick(idents), pick(idents), pick(types), pick(idents))
			case 5:
				var b strings.Builder
				b.WriteString("\t// ")
				for range 4 + rng.IntN(8) {
					b.WriteString(pick(words) + " ")
				}
				return strings.TrimSpace(b.String())
			case 6:
				return "\t}"
			case 7:
				return fmt.Sprintf("\t%s := %s.New%s(%d)", pick(idents), strings.ToLower(pick(types)), pick(types), rng.IntN(1000))
			case 8:
				return ""
			default:
				return fmt.Sprintf("\treturn &%s{%s: %s}, nil", pick(types), pick(types), pick(idents))
			}
		}
		for p := range benchPackages {
			for f := range benchFilesPerPkg {
				lines := make([]string, benchLines)
				lines[0] = fmt.Sprintf("package pkg%02d", p)
				for i := 1; i < benchLines; i++ {
					lines[i] = line()
				}
				if (p*benchFilesPerPkg+f)%97 == 0 {
					lines[1+rng.IntN(benchLines-1)] = "\ts." + benchRareToken + "(ctx) // rare"
				}
				path := filepath.Join(benchDir, fmt.Sprintf("pkg%02d", p), fmt.Sprintf("file%02d.go", f))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					benchErr = err
					return
				}
				if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
					benchErr = err
					return
				}
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

// BenchmarkSearch1MLines searches the ≈1M-line corpus (warm page cache).
// Besides ns/op it reports the 95th percentile latency as p95-ms.
func BenchmarkSearch1MLines(b *testing.B) {
	dir := benchCorpus(b)
	svc := New(nil, openRoot(b, dir))
	cases := []struct {
		name string
		q    SearchQuery
	}{
		{"rare-literal-fold", SearchQuery{Query: benchRareToken}},
		{"rare-literal-case", SearchQuery{Query: benchRareToken, CaseSensitive: true}},
		{"absent-literal-fold", SearchQuery{Query: "zzqxNotThere"}},
		{"common-literal-limit200", SearchQuery{Query: "return"}},
		{"regex-with-literal", SearchQuery{Query: `handle\w+Timeout`, Regex: true}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			if _, err := svc.Search(context.Background(), tc.q); err != nil { // warm the page cache
				b.Fatal(err)
			}
			var durations []time.Duration
			for b.Loop() {
				start := time.Now()
				res, err := svc.Search(context.Background(), tc.q)
				if err != nil {
					b.Fatal(err)
				}
				durations = append(durations, time.Since(start))
				if strings.HasPrefix(tc.name, "rare") && len(res.Results) == 0 {
					b.Fatal("no results for the rare token")
				}
			}
			reportLatencies(b, durations)
		})
	}
}

// BenchmarkRipgrep1MLines runs ripgrep over the same corpus for comparison
// (skipped when rg is not installed).
func BenchmarkRipgrep1MLines(b *testing.B) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		b.Skip("ripgrep (rg) is not installed")
	}
	dir := benchCorpus(b)
	cases := []struct {
		name string
		args []string
	}{
		{"rare-literal-fold", []string{"-i", "-F", benchRareToken}},
		{"rare-literal-case", []string{"-F", benchRareToken}},
		{"absent-literal-fold", []string{"-i", "-F", "zzqxNotThere"}},
		{"common-literal-limit200", []string{"-i", "-F", "-m", "200", "return"}}, // -m is per file: rg does more work here
		{"regex-with-literal", []string{"-i", `handle\w+Timeout`}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			args := append([]string{"-n", "--no-heading"}, tc.args...)
			args = append(args, dir)
			var durations []time.Duration
			for b.Loop() {
				start := time.Now()
				cmd := exec.Command(rg, args...)
				cmd.Stdout = io.Discard // a pipe: rg stops at the first match when writing to /dev/null
				if err := cmd.Run(); err != nil {
					var exit *exec.ExitError
					if !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1 = no match
						b.Fatal(err)
					}
				}
				durations = append(durations, time.Since(start))
			}
			reportLatencies(b, durations)
		})
	}
}

// reportLatencies adds the 95th percentile and the minimum latency to the
// benchmark output; on a shared machine the minimum is the steadiest.
func reportLatencies(b *testing.B, durations []time.Duration) {
	slices.Sort(durations)
	p95 := durations[min(len(durations)-1, len(durations)*95/100)]
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(durations[0].Microseconds())/1000, "min-ms")
}
