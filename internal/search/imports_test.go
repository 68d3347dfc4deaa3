package search

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lore-dev/lore/internal/testtree"
)

func TestResolveRelative(t *testing.T) {
	slots := map[string]int32{"src/mock/timers.ts": 0, "src/utils/index.ts": 1, "src/a.js": 2, "lib/x.mjs": 3}
	for _, tt := range []struct {
		from, target string
		want         int32
	}{
		{"src/vi.ts", "./mock/timers", 0},
		{"src/vi.ts", "./mock/timers.ts", 0},
		{"src/mock/when.ts", "../utils", 1},
		{"src/mock/when.ts", "../utils/index.js", 1}, // ESM style: .js written for .ts
		{"src/b.js", "./a", 2},
		{"src/b.js", "../lib/x.mjs", 3},
		{"src/vi.ts", "mock/timers", -1},         // a package name, not a path
		{"src/vi.ts", "@vitest/mock/timers", -1}, // likewise
		{"src/vi.ts", "./missing", -1},
		{"src/vi.ts", "", -1},
	} {
		if got := resolveRelative(tt.from, tt.target, slots); got != tt.want {
			t.Errorf("resolveRelative(%q, %q) = %d, want %d", tt.from, tt.target, got, tt.want)
		}
	}
}

// TestImportedByCode indexes a small tree and reads which files named like
// test support the code imports, whole and after a change.
func TestImportedByCode(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		// Implementation in a mock/ folder, imported by the code.
		"src/mock/timers.ts": "export class FakeTimers {\n  advance(ms: number) { return ms }\n}\n",
		// A stand-in stays one whoever imports it.
		"src/stub-clock.ts": "export const stubClock = () => 0\n",
		"src/vi.ts":         "import { FakeTimers } from './mock/timers'\nimport { stubClock } from './stub-clock'\nexport const vi = () => new FakeTimers()\n",
		// A test helper that a config file loads too: the tests import it more.
		"test/setup.ts":        "export function setup() { return 1 }\n",
		"vitest.config.ts":     "import { setup } from './test/setup'\nexport default { setup }\n",
		"test/a.test.ts":       "import { setup } from './setup'\nsetup()\n",
		"test/b.test.ts":       "import { setup } from './setup.js'\nsetup()\n",
		"test/timers.test.ts":  "import { FakeTimers } from '../src/mock/timers'\nnew FakeTimers()\n",
		"bench/run.bench.ts":   "export function run() { return 2 }\n",
		"src/unused-helper.ts": "export function helper() { return 3 }\n",
	})
	idx := filepath.Join(t.TempDir(), "index.db")
	indexAt(t, root, idx)
	eng, err := openTestEngine(t, idx)
	if err != nil {
		t.Fatal(err)
	}
	check := func(want map[string]bool) {
		t.Helper()
		snap := eng.snap.Load()
		for i, f := range snap.files {
			if got := snap.facts[i].usedByCode; got != want[f.Path] {
				t.Errorf("%s: usedByCode %v, want %v", f.Path, got, want[f.Path])
			}
		}
	}
	check(map[string]bool{"src/mock/timers.ts": true})
	snap := eng.snap.Load()
	for i, f := range snap.files {
		if f.Path == "src/mock/timers.ts" && snap.facts[i].demoted() {
			t.Errorf("%s is demoted though the code imports it", f.Path)
		}
	}

	// The bench script becomes imported by code; the change log brings it.
	testtree.Write(t, root, map[string]string{"src/index.ts": "import { run } from '../bench/run.bench'\nexport { run }\n"})
	indexAt(t, root, idx)
	if err := eng.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	check(map[string]bool{"src/mock/timers.ts": true, "bench/run.bench.ts": true})
}
