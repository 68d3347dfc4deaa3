package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// getJSON GETs url and decodes a JSON answer.
func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// postJSON POSTs a JSON body to url and decodes the JSON answer.
func postJSON(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// indexCollection indexes root as the named collection with a lore
// process of env.
func indexCollection(t *testing.T, bin string, env []string, name, root string) {
	t.Helper()
	cmd := exec.Command(bin, "index", "--collection", name, root)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("lore index --collection %s: %v\n%s", name, err, out)
	}
}

// The MCP_ENABLED / MCP_TRANSPORT matrix and the --mcp flag decide where
// lore serve speaks MCP; the REST API is served whenever --http is.
func TestServeMCPModes(t *testing.T) {
	bin := loreBinary(t)
	root := serveFixture(t)
	env := serveEnv(t)
	indexCollection(t, bin, env, "greeter", root)

	t.Run("refusals", func(t *testing.T) {
		for _, tt := range []struct {
			env  []string
			args []string
			want string
		}{
			{[]string{"MCP_ENABLED=false"}, nil, "nothing to serve"},
			{[]string{"MCP_ENABLED=true", "MCP_TRANSPORT=http"}, nil, "MCP_TRANSPORT=http serves MCP over HTTP, which needs --http"},
			{[]string{"MCP_ENABLED=yes please"}, nil, `MCP_ENABLED="yes please": want true or false`},
			{nil, []string{"--mcp", "off"}, "--mcp off turns MCP off"},
			{nil, []string{"--mcp", "sse"}, `--mcp "sse": want one of stdio, http, off`},
			{nil, []string{"--collection", "../x"}, `collection name "../x" is not valid`},
			{nil, []string{"--shutdown-timeout", "0s"}, "--shutdown-timeout 0s: want a positive duration"},
		} {
			cmd := exec.Command(bin, append([]string{"serve", "--root", root}, tt.args...)...)
			cmd.Env = append(append([]string{}, env...), tt.env...)
			out, err := cmd.CombinedOutput()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != exitUsage || !strings.Contains(string(out), tt.want) {
				t.Errorf("lore serve %v with %v: %v\n%s\nwant exit %d and %q", tt.args, tt.env, err, out, exitUsage, tt.want)
			}
		}
	})

	// mcpAt reports the HTTP status of an initialize POSTed to /mcp.
	mcpAt := func(s *httpServer) int { return post(t, s.url, initializeBody, nil).status }

	t.Run("unset: REST and /mcp", func(t *testing.T) {
		s := startHTTP(t, bin, env, "--root", root, "--http", "127.0.0.1:0")
		if code, body := getJSON(t, s.base+"/api/v1/collections"); code != 200 || len(body["collections"].([]any)) != 1 {
			t.Errorf("GET /api/v1/collections = %d %v", code, body)
		}
		if status := mcpAt(s); status != 200 {
			t.Errorf("/mcp initialize = %d, want 200", status)
		}
	})
	t.Run("MCP_ENABLED=false: REST only", func(t *testing.T) {
		s := startHTTP(t, bin, append(env, "MCP_ENABLED=false"), "--root", root, "--http", "127.0.0.1:0")
		if code, _ := getJSON(t, s.base+"/api/v1/collections/greeter"); code != 200 {
			t.Errorf("GET /api/v1/collections/greeter = %d", code)
		}
		if status := mcpAt(s); status != 404 {
			t.Errorf("/mcp with MCP off = %d, want 404", status)
		}
		if !strings.Contains(s.stderr.String(), "(MCP: off)") {
			t.Errorf("the ready line does not say MCP is off:\n%s", s.stderr.String())
		}
	})
	t.Run("flags win over variables", func(t *testing.T) {
		s := startHTTP(t, bin, append(env, "MCP_ENABLED=false"), "--root", root, "--http", "127.0.0.1:0", "--mcp", "http")
		if status := mcpAt(s); status != 200 {
			t.Errorf("/mcp with --mcp http over MCP_ENABLED=false = %d, want 200", status)
		}
	})
	t.Run("MCP_ENABLED=true: MCP on stdio beside REST", func(t *testing.T) {
		cmd := exec.Command(bin, "serve", "--root", root, "--http", "127.0.0.1:0")
		cmd.Env = append(append([]string{}, env...), "MCP_ENABLED=true", "MCP_TRANSPORT=stdio")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			cmd.Process.Signal(syscall.SIGTERM)
			if err := cmd.Wait(); err != nil {
				t.Errorf("lore serve after SIGTERM: %v", err)
			}
		}()
		base := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
					base <- "http://" + m[1]
				}
			}
		}()
		fmt.Fprintln(stdin, initializeBody)
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil || !strings.Contains(line, `"serverInfo"`) {
			t.Fatalf("initialize on stdio = %q, %v", line, err)
		}
		var url string
		select {
		case url = <-base:
		case <-time.After(2 * time.Minute):
			t.Fatal("HTTP is not listening")
		}
		code, body := postJSON(t, url+"/api/v1/collections/greeter/search/fulltext", `{"textQuery":"greet"}`)
		if code != 200 || len(body["results"].([]any)) == 0 {
			t.Errorf("REST fulltext beside stdio = %d %v", code, body)
		}
		if reply := post(t, url+"/mcp", initializeBody, nil); reply.status != 404 {
			t.Errorf("/mcp while MCP is on stdio = %d, want 404", reply.status)
		}
		// The stdio client leaving ends its session, not the HTTP server.
		stdin.Close()
		if code, _ := getJSON(t, url+"/healthz"); code != 200 {
			t.Errorf("/healthz after stdin closed = %d", code)
		}
	})
}

// On SIGTERM lore serve stops accepting connections, lets the request in
// flight answer, cancels the running index job (the collection keeps its
// previous index), and exits 0.
func TestServeGracefulShutdown(t *testing.T) {
	bin := loreBinary(t)
	env := serveEnv(t)
	big := t.TempDir()
	writeBigTree(t, big, 3000, "first")
	indexCollection(t, bin, env, "big", big)
	show := func() map[string]any {
		cmd := exec.Command(bin, "collections", "show", "--format", "json", "big")
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("lore collections show big: %v\n%s", err, out)
		}
		var info map[string]any
		if err := json.Unmarshal(out, &info); err != nil {
			t.Fatalf("collections show --json: %v\n%s", err, out)
		}
		return info
	}
	before := show()

	s := startHTTP(t, bin, env, "--root", big, "--http", "127.0.0.1:0", "--shutdown-timeout", "2m")
	// Every file changes: a reindex has thousands of files to do.
	writeBigTree(t, big, 3000, "second")
	code, job := postJSON(t, s.base+"/api/v1/collections", fmt.Sprintf(`{"name":"big","path":%q}`, big))
	if code != http.StatusAccepted {
		t.Fatalf("POST /api/v1/collections = %d %v", code, job)
	}
	jobURL := s.base + "/api/v1/jobs/" + job["id"].(string)
	waitFor(t, "the index job to make progress", func() bool {
		_, j := getJSON(t, jobURL)
		done, _ := j["done"].(float64)
		return j["state"] != "running" || done > 0
	})

	// A search in flight: its handler is running (it asked for the body
	// with 100 Continue) and the body is not sent yet. It asks for a word
	// both trees have: on a busy machine the job may have finished by the
	// time the search runs.
	body := `{"textQuery":"handles","top_k":3}`
	conn, err := net.Dial("tcp", "127.0.0.1:"+s.port)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/collections/big/search/fulltext HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\n"+
		"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n", s.port, len(body))
	replies := bufio.NewReader(conn)
	if cont, err := http.ReadResponse(replies, nil); err != nil || cont.StatusCode != http.StatusContinue {
		t.Fatalf("want 100 Continue, got %v, %v", cont, err)
	}

	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "lore to begin shutting down", func() bool { return strings.Contains(s.stderr.String(), "shutting down") })
	if c, err := net.DialTimeout("tcp", "127.0.0.1:"+s.port, 5*time.Second); err == nil {
		c.Close()
		t.Error("a new connection was accepted during the shutdown")
	}
	io.WriteString(conn, body)
	resp, err := http.ReadResponse(replies, nil)
	if err != nil {
		t.Fatalf("the in-flight search got no answer: %v\n%s", err, s.stderr.String())
	}
	var answer map[string]any
	json.NewDecoder(resp.Body).Decode(&answer)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(answer["results"].([]any)) != 3 {
		t.Errorf("in-flight search = %d %v", resp.StatusCode, answer)
	}

	exit, stderr := s.terminate(t, syscall.SIGTERM)
	if exit != 0 {
		t.Fatalf("lore serve exited %d after SIGTERM:\n%s", exit, stderr)
	}
	// The collection is whole: its previous index, or the new one if the
	// job had finished; never a mix.
	after := show()
	if after["indexed_at"] == before["indexed_at"] {
		if after["chunks"] != before["chunks"] || after["files"] != before["files"] {
			t.Errorf("the cancelled job changed the index: before %v, after %v", before, after)
		}
	} else {
		t.Logf("the index job finished before the signal; the new index is whole: %v", after)
	}
	cmd := exec.Command(bin, "collections", "list")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "big") {
		t.Errorf("collections list after the shutdown: %v\n%s", err, out)
	}
}

// writeBigTree writes n small Go files under dir, each mentioning word.
func writeBigTree(t *testing.T, dir string, n int, word string) {
	t.Helper()
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%50))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		src := fmt.Sprintf("package pkg\n\n// Func%d handles the %s case of request %d.\nfunc Func%d(x int) int {\n\treturn x * %d\n}\n", i, word, i, i, i)
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%04d.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// waitFor polls cond until it holds, failing the test after two minutes:
// for what a process reports only through its outputs.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
