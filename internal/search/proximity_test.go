package search

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

func TestJoinedPairs(t *testing.T) {
	tests := []struct {
		query, text string
		want        float64
	}{
		{"exit status of a stage", "s = exit_status(x)", 0.5}, // (exit, status) of (exit, status), (status, stage)
		{"exit status", "return EXIT_STATUSES[i]", 1},         // stemmed: statuses is status
		{"exit status", "exit(status)", 0},                    // two identifiers: not joined
		{"exit status", "exitstatus", 0},                      // one part only (the compound term's job)
		{"status exit", "exit_status", 1},                     // either order within the identifier
		{"exit code", "exit_code", 0},                         // code is a stop word: one query word
		{"background worker thread", "BackgroundWorker w; thread", 0.5},
		{"request context", "reqCtx := r", 1},      // abbreviations
		{"handle a request", "handleRequest()", 1}, // stop words are not query words
		{"timeout", "timeout_ms", 0},               // one word: no pairs
		{"parse the color option", "parseColor\noption", 0.5},
		// Words asking for tests join nothing, and their pairs are not counted.
		{"invoke a command from tests and capture its output", "test_capture_fd()", 0},
		{"invoke a command from tests and capture its output", "capture_output()", 0.5},
		{"tests for the layout strategies", "test_layout_strategies", 1},
		{"benchmark tests", "BenchmarkTests", 0},
	}
	for _, tt := range tests {
		m := newPairMatcher(Analyze(tt.query))
		if got := m.joinedPairs(tt.text); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("joinedPairs(%q, %q) = %v, want %v", tt.query, tt.text, got, tt.want)
		}
		// The memo answers the same the second time.
		if got := m.joinedPairs(tt.text); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("joinedPairs(%q, %q) again = %v, want %v", tt.query, tt.text, got, tt.want)
		}
	}
}

func TestLiftJoinedPairs(t *testing.T) {
	defer func(w weightSet) { weights = w }(weights)
	weights.joinedPairs, weights.pairDepth = 0.2, 3
	snap := &snapshot{files: []store.FileRow{{Path: "a.go"}, {Path: "b.go"}, {Path: "c.go"}}}
	rows := []store.ChunkMeta{{ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}}
	texts := map[int64]store.ChunkDetail{
		1: {Content: "exit(status)"}, 2: {Content: "exit_status"}, 3: {Content: "exit_status"}, 4: {Content: "exit_status"},
	}
	ranked := []scored{ // best first, as topK leaves them
		{row: &rows[0], slot: 0, score: 1.0, mult: 1},
		{row: &rows[1], slot: 1, score: 0.9, mult: 1},
		{row: &rows[2], slot: 2, score: 0.7, mult: 0.5}, // a demoted file gains less
		{row: &rows[3], slot: 0, score: 0.6, mult: 1},   // below pairDepth: not lifted
	}
	got := liftJoinedPairs(Analyze("exit status"), snap, ranked, texts)
	want := []struct {
		id    int64
		score float64
	}{{2, 1.1}, {1, 1.0}, {3, 0.8}, {4, 0.6}}
	for i, w := range want {
		if got[i].row.ID != w.id || math.Abs(got[i].score-w.score) > 1e-9 {
			t.Errorf("at %d: chunk %d score %v, want chunk %d score %v", i, got[i].row.ID, got[i].score, w.id, w.score)
		}
	}
}

// TestJoinedPairsLiftsChunk checks the signal end to end: of two files
// holding the query's words, the one that writes them as one identifier
// gains, the other keeps its score.
func TestJoinedPairsLiftsChunk(t *testing.T) {
	files := map[string]string{
		"apart.go":  "package p\n\n// Wait returns after the child ends.\nfunc Wait(c *Child) int {\n\texit(c)\n\treturn status(c)\n}\n",
		"joined.go": "package p\n\n// Result returns after the child ends.\nfunc Result(c *Child) int {\n\ts := exitStatus(c)\n\treturn s\n}\n",
	}
	e := engineOver(t, files)
	scores := func() map[string]float64 {
		t.Helper()
		resp, err := e.Search(context.Background(), Options{Query: "child exit status", Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, r := range resp.Results {
			if _, ok := out[r.Path]; !ok {
				out[r.Path] = r.Score
			}
		}
		return out
	}
	defer func(w weightSet) { weights = w }(weights)
	on := scores()
	weights.joinedPairs = 0
	off := scores()
	if on["joined.go"] <= off["joined.go"] {
		t.Errorf("joined.go: score %v with the signal, %v without: not lifted", on["joined.go"], off["joined.go"])
	}
	if on["apart.go"] != off["apart.go"] {
		t.Errorf("apart.go: score %v with the signal, %v without: moved", on["apart.go"], off["apart.go"])
	}
	if on["joined.go"] <= on["apart.go"] {
		t.Errorf("joined.go %v not above apart.go %v", on["joined.go"], on["apart.go"])
	}
}

// BenchmarkJoinedPairs rates ten chunk-sized texts with one matcher:
// what liftJoinedPairs does for a page.
func BenchmarkJoinedPairs(b *testing.B) {
	src, err := os.ReadFile("rank.go")
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	for i := 0; i < 10 && (i+1)*2000 <= len(src); i++ {
		texts = append(texts, string(src[i*2000:(i+1)*2000]))
	}
	q := Analyze("file name share of the query words")
	b.SetBytes(int64(2000 * len(texts)))
	b.ReportAllocs()
	for b.Loop() {
		m := newPairMatcher(q)
		for _, text := range texts {
			m.joinedPairs(text)
		}
	}
}
