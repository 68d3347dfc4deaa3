package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// Transcript tests replay a JSON-RPC conversation over lore's stdio
// transport (Server.Serve, newline-delimited JSON) and compare the server's
// answers with the expected ones, in the style of the go-sdk's
// testdata/conformance. Each testdata/transcripts/*.txtar file is one
// scenario:
//
//	What the scenario checks (the archive's comment, free text).
//
//	-- root/notes.txt --
//	a file written under the served root before the server starts
//	-- collection/NAME/src/a.go --
//	a file of a root indexed as the named collection NAME (lore index
//	--collection NAME) before the server starts
//	-- client --
//	one JSON-RPC message per line, sent verbatim (so it may be invalid JSON)
//	-- server --
//	the messages the server must answer, as a stream of JSON values
//	(indented for reading)
//
// The client's lines are sent one at a time. After a line that calls for
// an answer (anything but a notification or a response: a request, a
// batch, a line that is not valid JSON) the next line of the server is read
// before the next client line goes out; at the end stdin is closed and
// whatever the server still writes is read too, so an unexpected extra
// message fails the test.
//
// Comparison is exact, line by line, after two steps on each side:
//
//   - both sides are compacted (json.Compact: whitespace between tokens
//     goes, the order of keys and the text of strings and numbers stay), so
//     a changed key order or number format is a difference;
//   - the server's lines are normalised: the served root's path becomes
//     $ROOT and the index cache's $CACHE (temporary folders), and the
//     values of "took_ms" and "duration_ms", also inside a text content
//     holding JSON (\"took_ms\":12.3), become 0; index_codebase's
//     "… errors in 85ms." becomes "in 0ms." and the hash naming a root's
//     index folder under $CACHE/indexes/ becomes HASH.
//
// The server is New(Options) over the scenario's root with every tool
// family, not read-only, version "1.2.3-test" (env.options). Run
// go test ./internal/mcp -run TestTranscripts -update to rewrite the
// server sections from what the server answers (and read the diff).

var updateTranscripts = flag.Bool("update", false, "rewrite the server section of testdata/transcripts/*.txtar from the server's answers")

// txtarFile is one file of a txtar archive.
type txtarFile struct {
	name string
	data []byte
}

// parseTxtar splits a txtar archive into its comment and files: a line
// "-- name --" starts a file that runs to the next such line. (The format
// of golang.org/x/tools/txtar, which lore does not depend on.)
func parseTxtar(data []byte) (comment []byte, files []txtarFile) {
	var cur *txtarFile
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		trimmed := bytes.TrimRight(line, "\r\n")
		if name, ok := bytes.CutPrefix(trimmed, []byte("-- ")); ok && bytes.HasSuffix(name, []byte(" --")) && len(name) > 3 {
			files = append(files, txtarFile{name: string(bytes.TrimSpace(name[:len(name)-3]))})
			cur = &files[len(files)-1]
			continue
		}
		if cur == nil {
			comment = append(comment, line...)
		} else {
			cur.data = append(cur.data, line...)
		}
	}
	return comment, files
}

// formatTxtar is the inverse of parseTxtar.
func formatTxtar(comment []byte, files []txtarFile) []byte {
	var b bytes.Buffer
	b.Write(comment)
	for _, f := range files {
		fmt.Fprintf(&b, "-- %s --\n", f.name)
		b.Write(f.data)
		if len(f.data) > 0 && f.data[len(f.data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// transcript is one parsed scenario.
type transcript struct {
	root        map[string]string            // files of the served root, by relative path
	collections map[string]map[string]string // files of each named collection's root
	client      []string                     // lines to send
	server      []string                     // expected messages, compacted
}

func loadTranscript(t *testing.T, files []txtarFile) transcript {
	t.Helper()
	tr := transcript{root: map[string]string{}, collections: map[string]map[string]string{}}
	seen := map[string]bool{}
	for _, f := range files {
		switch {
		case f.name == "client":
			for _, line := range strings.Split(string(f.data), "\n") {
				if strings.TrimSpace(line) != "" {
					tr.client = append(tr.client, line)
				}
			}
		case f.name == "server":
			dec := json.NewDecoder(bytes.NewReader(f.data))
			for {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("server section: message %d is not JSON: %v", len(tr.server)+1, err)
				}
				tr.server = append(tr.server, compactJSON(raw))
			}
		case strings.HasPrefix(f.name, "root/"):
			tr.root[strings.TrimPrefix(f.name, "root/")] = string(f.data)
		case strings.HasPrefix(f.name, "collection/"):
			name, path, ok := strings.Cut(strings.TrimPrefix(f.name, "collection/"), "/")
			if !ok || name == "" || path == "" {
				t.Fatalf("section %q: want collection/<name>/<path>", f.name)
			}
			if tr.collections[name] == nil {
				tr.collections[name] = map[string]string{}
			}
			tr.collections[name][path] = string(f.data)
		default:
			t.Fatalf("unknown section %q (want client, server, root/<path> or collection/<name>/<path>)", f.name)
		}
		if seen[f.name] {
			t.Fatalf("section %q appears twice", f.name)
		}
		seen[f.name] = true
	}
	if !seen["client"] {
		t.Fatal("no client section")
	}
	return tr
}

// compactJSON is data without insignificant whitespace; data that is not
// JSON is returned as it is, to show in the failure.
func compactJSON(data []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, data) != nil {
		return string(data)
	}
	return b.String()
}

// indentJSON is a compact message indented for a transcript.
func indentJSON(msg string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(msg), "", "\t") != nil {
		return msg
	}
	return b.String()
}

// answered reports whether the server answers a client line: everything
// but a notification (a method without an id) and a response (an id and
// no method) is answered, a batch with one message.
func answered(line string) bool {
	var msg map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &msg) != nil {
		return true // not an object: a batch, a parse error, an invalid request
	}
	_, hasMethod := msg["method"]
	_, hasID := msg["id"]
	_, hasResult := msg["result"]
	_, hasError := msg["error"]
	switch {
	case hasMethod && !hasID:
		return false
	case !hasMethod && hasID && (hasResult || hasError):
		return false
	}
	return true
}

// transcriptNormalizer rewrites what varies between runs in a server line.
func transcriptNormalizer(e *env) func(string) string {
	timing := regexp.MustCompile(`(\\?"(?:took_ms|duration_ms)\\?":)-?[0-9][0-9.eE+-]*`)
	took := regexp.MustCompile(`( errors in )[0-9][0-9.]*(?:µs|ms|s|m[0-9.]+s)\.`)
	indexDir := regexp.MustCompile(`(\$CACHE/indexes/[0-9]+-)[0-9a-f]+/`)
	paths := strings.NewReplacer(e.root, "$ROOT", e.cache, "$CACHE")
	return func(line string) string {
		line = timing.ReplaceAllString(paths.Replace(line), "${1}0")
		line = took.ReplaceAllString(line, "${1}0ms.")
		return indexDir.ReplaceAllString(line, "${1}HASH/")
	}
}

// replay sends the client lines of tr to a fresh server over e and
// returns the server's lines, compacted and normalised.
func replay(t *testing.T, e *env, tr transcript) []string {
	t.Helper()
	s := e.server(t, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	normalize := transcriptNormalizer(e)
	var got []string
	next := func(after string) bool {
		select {
		case line, ok := <-lines:
			if ok {
				got = append(got, normalize(compactJSON([]byte(line))))
			}
			return ok
		case <-time.After(30 * time.Second):
			t.Fatalf("no answer to %.200s", after)
			return false
		}
	}
	for _, line := range tr.client {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatalf("writing %.200s: %v", line, err)
		}
		if answered(line) && !next(line) {
			t.Fatalf("the server stopped after %.200s", line)
		}
	}
	inW.Close()
	for next("the end of stdin") {
	}
	<-served
	return got
}

func TestTranscripts(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			comment, files := parseTxtar(data)
			tr := loadTranscript(t, files)
			e := newEnv(t, tr.root)
			for _, name := range slices.Sorted(maps.Keys(tr.collections)) {
				e.indexCollection(t, name, tr.collections[name])
			}
			got := replay(t, e, tr)
			if *updateTranscripts {
				var b strings.Builder
				for _, msg := range got {
					b.WriteString(indentJSON(msg) + "\n")
				}
				var out []txtarFile
				for _, f := range files {
					if f.name != "server" {
						out = append(out, f)
					}
				}
				out = append(out, txtarFile{name: "server", data: []byte(b.String())})
				if err := os.WriteFile(path, formatTxtar(comment, out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for i := range max(len(got), len(tr.server)) {
				switch {
				case i >= len(got):
					t.Fatalf("message %d: the server did not send\n%s", i+1, indentJSON(tr.server[i]))
				case i >= len(tr.server):
					t.Fatalf("message %d: the server sent one more\n%s", i+1, indentJSON(got[i]))
				case got[i] != tr.server[i]:
					t.Fatalf("message %d differs (-update rewrites the file):\n%s", i+1, firstDiff(got[i], tr.server[i]))
				}
			}
		})
	}
}

// firstDiff shows where two compact messages part: the offset, and some
// context of each around it (a tools/list answer is one 45 KB line).
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	around := func(s string) string {
		lo, hi := max(0, i-120), min(len(s), i+120)
		return s[lo:i] + "⟨here⟩" + s[i:hi]
	}
	return fmt.Sprintf("at byte %d\n got  …%s…\n want …%s…", i, around(got), around(want))
}

// TestTranscriptHelpers checks the replay's own rules: which lines are
// answered, the normalisation, and that an archive survives a round trip.
func TestTranscriptHelpers(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false},
		{`{"jsonrpc":"2.0","id":9,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":5}`, true},
		{`{not json`, true},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, true},
	} {
		if got := answered(tt.line); got != tt.want {
			t.Errorf("answered(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
	e := &env{root: "/tmp/TestX/001", cache: "/tmp/TestX/002"}
	normalize := transcriptNormalizer(e)
	for _, tt := range []struct{ in, want string }{
		{`{"path":"/tmp/TestX/001/a","index":"/tmp/TestX/002/i.db"}`, `{"path":"$ROOT/a","index":"$CACHE/i.db"}`},
		{`{"took_ms":12.5,"meta":{"duration_ms":3}}`, `{"took_ms":0,"meta":{"duration_ms":0}}`},
		{`{"text":"{\"took_ms\":1e-3,\"n\":2}"}`, `{"text":"{\"took_ms\":0,\"n\":2}"}`},
	} {
		if got := normalize(tt.in); got != tt.want {
			t.Errorf("normalize(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	archive := []byte("comment\n\n-- client --\n{\"a\":1}\n-- root/x/y.txt --\nhello\n-- server --\n{\n\t\"a\": 1\n}\n")
	comment, files := parseTxtar(archive)
	if string(comment) != "comment\n\n" || len(files) != 3 || files[1].name != "root/x/y.txt" || string(files[1].data) != "hello\n" {
		t.Fatalf("parseTxtar = %q %+v", comment, files)
	}
	if again := formatTxtar(comment, files); !bytes.Equal(again, archive) {
		t.Errorf("round trip:\n%s\nwant\n%s", again, archive)
	}
}
