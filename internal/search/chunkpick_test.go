package search

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/store"
)

func TestChunkPrior(t *testing.T) {
	cases := []struct {
		query, kind string
		want        float64
	}{
		{"search text in copy mode", "function", weights.pickCallable},
		{"search text in copy mode", "method", weights.pickCallable},
		{"search text in copy mode", "constant", 0},
		{"search text in copy mode", "class", 0},
		{"search text in copy mode", "block", 0},
		{"window_copy_search", "function", 0}, // a symbol query names what it wants
	}
	for _, c := range cases {
		if got := chunkPrior(Analyze(c.query), &store.ChunkMeta{Kind: c.kind}); got != c.want {
			t.Errorf("chunkPrior(%q, %s) = %v, want %v", c.query, c.kind, got, c.want)
		}
	}
}

// TestChunkPriorLengthAndName checks the two finer priors of a callable
// chunk for a prose query: a longer body (the function that does the
// work rather than a wrapper beside it) and a name that is exactly a
// query word (push for "push a job onto a queue", not atomic_push).
func TestChunkPriorLengthAndName(t *testing.T) {
	q := Analyze("push a job hash onto a queue")
	fn := func(start, end int32, symbols string) *store.ChunkMeta {
		return &store.ChunkMeta{Kind: "method", StartLine: start, EndLine: end, Symbols: symbols}
	}
	short, long := chunkPrior(q, fn(10, 14, "enqueue")), chunkPrior(q, fn(10, 109, "enqueue"))
	if !(long > short && short > weights.pickCallable) {
		t.Errorf("a 100-line method rates %v, a 5-line one %v: want longer above shorter above the bare prior %v",
			long, short, weights.pickCallable)
	}
	if huge := chunkPrior(q, fn(1, 5000, "enqueue")); huge != weights.pickCallable+weights.pickLength {
		t.Errorf("a 5000-line method rates %v, want the length prior capped at %v", huge, weights.pickLength)
	}
	named, partly := chunkPrior(q, fn(10, 14, "Client.push")), chunkPrior(q, fn(10, 14, "atomic_push"))
	if math.Abs(named-partly-weights.pickOwnName) > 1e-12 {
		t.Errorf("push rates %v, atomic_push %v: want the name prior %v between them", named, partly, weights.pickOwnName)
	}
	if p := chunkPrior(Analyze("atomic_push"), fn(10, 109, "atomic_push")); p != 0 {
		t.Errorf("a symbol query rates %v, want no prior", p)
	}
}

// TestChunkPriorConstructor checks that a constructor, by kind or by its
// conventional name, gets no more of the callable prior than
// pickConstructor allows.
func TestChunkPriorConstructor(t *testing.T) {
	q := Analyze("how a call builds a record and hands it to the handlers")
	rows := []*store.ChunkMeta{
		{Kind: "constructor", StartLine: 1, EndLine: 10, Symbols: "Logger"},
		{Kind: "method", StartLine: 1, EndLine: 10, Symbols: "Logger.__construct"},
		{Kind: "method", StartLine: 1, EndLine: 10, Symbols: "Console.__init__"},
		{Kind: "function", StartLine: 1, EndLine: 10, Symbols: "new"},
	}
	plain := chunkPrior(q, &store.ChunkMeta{Kind: "method", StartLine: 1, EndLine: 10, Symbols: "Logger.addRecord"})
	for _, row := range rows {
		if !isConstructor(row) {
			t.Errorf("%s %q is not a constructor", row.Kind, row.Symbols)
		}
		got := chunkPrior(q, row)
		if want := plain - weights.pickCallable*(1-weights.pickConstructor); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s %q rates %v, want %v", row.Kind, row.Symbols, got, want)
		}
	}
	ctor := &store.ChunkMeta{Kind: "method", StartLine: 1, EndLine: 10, Symbols: "Console.__init__"}
	if a, b := chunkPrior(Analyze("how the console is initialized from its options"), ctor),
		chunkPrior(Analyze("how the console is configured from its options"), ctor); math.Abs(a-b-weights.pickCallable*(1-weights.pickConstructor)) > 1e-12 {
		t.Errorf("a query about initialising rates the constructor %v, another %v: want the full callable prior back", a, b)
	}
	if isConstructor(&store.ChunkMeta{Kind: "method", Symbols: "renew"}) {
		t.Error("renew is not a constructor")
	}
}

func TestPickRepresentative(t *testing.T) {
	rows := []store.ChunkMeta{{ID: 1, StartLine: 1}, {ID: 2, StartLine: 50}, {ID: 3, StartLine: 90}}
	cases := []struct {
		name   string
		scores []float64
		priors []float64
		want   []int64 // chunk ids in the new order
	}{
		{"prior lifts the second", []float64{2, 1.8, 1}, []float64{0, 0.5, 0}, []int64{2, 1, 3}},
		{"prior too small to matter", []float64{2, 1.2, 1}, []float64{0, 0.5, 0}, []int64{1, 2, 3}},
		{"no priors", []float64{3, 2, 1}, []float64{0, 0, 0}, []int64{1, 2, 3}},
		{"every chunk lifted alike", []float64{3, 2, 1}, []float64{0.5, 0.5, 0.5}, []int64{1, 2, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chunks := make([]scored, len(rows))
			for i := range rows {
				chunks[i] = scored{row: &rows[i], score: c.scores[i], prior: c.priors[i]}
			}
			pickRepresentative(chunks)
			for i, s := range chunks {
				if s.row.ID != c.want[i] {
					t.Fatalf("order %v, want %v", ids(chunks), c.want)
				}
				if s.score != c.scores[i] {
					t.Errorf("position %d scores %v, want the file's scores kept in place (%v)", i, s.score, c.scores[i])
				}
			}
		})
	}
}

func ids(chunks []scored) []int64 {
	out := make([]int64, len(chunks))
	for i, s := range chunks {
		out[i] = s.row.ID
	}
	return out
}

// TestFileConstructor checks that a method named after its own file (the
// constructor of the class the file is named after, in C++, Java and C#)
// loses the callable prior like a constructor named by convention, and
// that nothing else does.
func TestFileConstructor(t *testing.T) {
	prose := "what happens when the DFA state cache runs out of memory"
	full := weights.pickCallable * (1 - weights.pickConstructor)
	cases := []struct {
		name, query, kind, symbols, base string
		want                             float64
	}{
		{"C++ constructor", prose, "method", "DFA\n~DFA", "dfa", full},
		{"C# constructor", "how a log call becomes an event", "method", "Logger", "logger", full},
		{"other method", prose, "method", "ResetCache", "dfa", 0},
		{"function named after the file", prose, "function", "dfa", "dfa", 0},
		{"name only begins like the file", prose, "method", "DFAState", "dfa", 0},
		{"symbol query", "DFA", "method", "DFA", "dfa", 0},
		{"query about construction", "how the DFA is constructed", "method", "DFA", "dfa", 0},
		{"conventional constructor name", prose, "method", "__init__", "init", 0}, // isConstructor already took it
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			row := &store.ChunkMeta{Kind: c.kind, StartLine: 1, EndLine: 10, Symbols: c.symbols}
			if got := fileConstructor(Analyze(c.query), row, c.base); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("fileConstructor = %v, want %v", got, c.want)
			}
		})
	}
}

// TestPickSubject checks that only the symbol share of words the file's
// name holds is discounted, and only for prose queries.
func TestPickSubject(t *testing.T) {
	prose := Analyze("what happens when the DFA state cache runs out of memory")
	bit := func(q Query, word string) uint16 {
		for i, w := range q.Words {
			if w.Text == word {
				return 1 << i
			}
		}
		t.Fatalf("no query word %q in %q", word, q.Raw)
		return 0
	}
	one := weights.pickSubject * weights.symbolField / float64(len(prose.Words))
	cases := []struct {
		name string
		q    Query
		hits uint16
		want float64
	}{
		{"no subject word among the symbols", prose, 0, 0},
		{"one subject word among the symbols", prose, bit(prose, "dfa"), one},
		{"two", prose, bit(prose, "dfa") | bit(prose, "cache"), 2 * one},
		{"symbol query", Analyze("DFA"), 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pickSubject(c.q, c.hits); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("pickSubject = %v, want %v", got, c.want)
			}
		})
	}
}

// TestChunkPickFileSubject indexes a small C++ file named after its class
// and checks, end to end, which of its chunks a prose question shows: the
// method that answers, not the constructor, whose name is the file's and
// which mentions every field; and that the file scores the same either way.
func TestChunkPickFileSubject(t *testing.T) {
	src := `class DFA {
 public:
  DFA(int max_mem);
  void ResetCache();
};

// DFA sets up the state cache and its memory budget.
DFA::DFA(int max_mem) : mem_budget_(max_mem), state_cache_(), cache_mutex_() {
  // The state cache holds the DFA states; the memory budget bounds it.
  state_cache_.reserve(max_mem / sizeof(State));
  cache_memory_ = max_mem;
  init_state_ = nullptr;
  start_state_ = nullptr;
  dead_state_ = nullptr;
}

// ResetCache empties the state cache when it runs out of memory.
void DFA::ResetCache() {
  state_cache_.clear();
  mem_budget_ = cache_memory_;
}
`
	e := engineOver(t, map[string]string{"dfa.cc": src})
	on, off := firstWithAndWithout(t, e, "what happens when the DFA state cache runs out of memory", func(w *weightSet) {
		w.pickSubject, w.pickFileCtor = 0, false
	})
	if !slices.Contains(on.Symbols, "ResetCache") {
		t.Errorf("shown first: %d-%d %v, want ResetCache", on.StartLine, on.EndLine, on.Symbols)
	}
	if slices.Contains(off.Symbols, "ResetCache") {
		t.Logf("without the two signals ResetCache shows first too: the test does not exercise them")
	}
	if on.Score != off.Score {
		t.Errorf("the file's best score moved: %v with the signals, %v without", on.Score, off.Score)
	}
}

// TestDocHeavy checks which chunks give back pickDocHeavy: those whose
// doc comment holds more than pickDocShare of their words, for a prose
// query only, unless a query word names them.
func TestDocHeavy(t *testing.T) {
	lens := func(doc, body uint16) *[store.NumFields]uint16 {
		var l [store.NumFields]uint16
		l[store.FieldDoc], l[store.FieldBody] = doc, body
		return &l
	}
	prose, symbol := Analyze("paint a frame and flush it to the backend"), Analyze("try_draw")
	method := &store.ChunkMeta{Kind: "method", StartLine: 1, EndLine: 20, Symbols: "Terminal.draw"}
	named := &store.ChunkMeta{Kind: "method", StartLine: 1, EndLine: 20, Symbols: "Terminal.flush"}
	class := &store.ChunkMeta{Kind: "class", StartLine: 1, EndLine: 20, Symbols: "Terminal"}
	cases := []struct {
		name      string
		q         Query
		row       *store.ChunkMeta
		doc, body uint16
		want      float64
	}{
		{"doc comment only", prose, method, 300, 300, weights.pickDocHeavy},
		{"mostly doc comment", prose, method, 70, 100, weights.pickDocHeavy},
		{"a class, mostly doc comment", prose, class, 70, 100, weights.pickDocHeavy},
		{"doc comment and code alike", prose, method, 50, 100, 0},
		{"mostly code", prose, method, 20, 100, 0},
		{"no doc comment", prose, method, 0, 100, 0},
		{"empty chunk", prose, method, 0, 0, 0},
		{"named after a query word", prose, named, 300, 300, 0},
		{"symbol query", symbol, method, 300, 300, 0},
	}
	for _, c := range cases {
		if got := docHeavy(c.q, c.row, lens(c.doc, c.body)); got != c.want {
			t.Errorf("%s (doc %d of %d): %v, want %v", c.name, c.doc, c.body, got, c.want)
		}
	}
}

// TestChunkPickDocHeavy indexes a small Rust file whose method's doc
// comment outweighs its one line of code and checks, end to end, that a
// prose question shows the method beside it that does the work, and that
// the file scores the same either way.
func TestChunkPickDocHeavy(t *testing.T) {
	src := `impl Terminal {
    /// Draws a single frame to the terminal.
    ///
    /// The render closure draws the frame into the current buffer; the
    /// buffers are then diffed and the changes flushed to the backend,
    /// so only the cells that changed are written. The frame is
    /// completed once the backend is flushed.
    pub fn draw(&mut self, render: F) -> Frame {
        self.try_draw(render)
    }

    fn try_draw(&mut self, render: F) -> Frame {
        // Render the closure, diff, then flush.
        let mut frame = self.get_frame();
        render(&mut frame);
        let previous = &self.buffers[1 - self.current];
        let updates = previous.diff(&self.buffers[self.current]);
        self.backend.draw(updates.into_iter());
        self.swap_buffers();
        self.backend.flush();
        frame
    }
`
	// Other methods, so that the file is cut into one chunk per method.
	for _, name := range []string{"resize", "clear", "hide_cursor", "show_cursor", "set_cursor", "size", "viewport", "insert_before"} {
		src += fmt.Sprintf(`
    /// Sets the %s of the terminal.
    pub fn %s(&mut self, value: u16) -> Result {
        let area = self.area;
        self.viewport_area = area;
        self.last_known_area = area;
        self.hidden = value > 0;
        Ok(())
    }
`, strings.ReplaceAll(name, "_", " "), name)
	}
	src += "}\n"
	e := engineOver(t, map[string]string{"render.rs": src})
	on, off := firstWithAndWithout(t, e, "paint a frame by calling the render closure, diffing buffers and flushing to the backend", func(w *weightSet) {
		w.pickDocHeavy = 0
	})
	if !slices.Contains(on.Symbols, "try_draw") {
		t.Errorf("shown first: %d-%d %v, want try_draw", on.StartLine, on.EndLine, on.Symbols)
	}
	if !slices.Contains(off.Symbols, "draw") {
		t.Errorf("without the signal %v shows first, not draw: the test does not exercise it", off.Symbols)
	}
	if on.Score != off.Score {
		t.Errorf("the file's best score moved: %v with the signal, %v without", on.Score, off.Score)
	}
}

// firstWithAndWithout returns the first result of query over e with the
// weights as they are, and with disable applied to them (restored after).
func firstWithAndWithout(t *testing.T, e *Engine, query string, disable func(*weightSet)) (on, off Result) {
	t.Helper()
	first := func() Result {
		t.Helper()
		resp, err := e.Search(context.Background(), Options{Query: query, Limit: 5})
		if err != nil || len(resp.Results) == 0 {
			t.Fatalf("search %q: %v, %d results", query, err, len(resp.Results))
		}
		return resp.Results[0]
	}
	on = first()
	old := weights
	defer func() { weights = old }()
	disable(&weights)
	return on, first()
}
