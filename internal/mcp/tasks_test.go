package mcp

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bigTree is a project large enough that indexing it takes a while.
func bigTree(n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package pkg%d\n\n", i%50)
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&b, "// Handler%d_%d handles request kind %d of module %d.\nfunc Handler%d_%d(x int) int {\n\tif x > %d {\n\t\treturn x * %d\n\t}\n\treturn x + %d\n}\n\n", i, j, j, i, i, j, j, i, j)
		}
		files[fmt.Sprintf("mod%03d/file%05d.go", i%100, i)] = b.String()
	}
	return files
}

func taskOf(t *testing.T, res map[string]any) map[string]any {
	t.Helper()
	task, _ := res["task"].(map[string]any)
	if task == nil || task["taskId"] == "" {
		t.Fatalf("not a CreateTaskResult: %v", res)
	}
	return task
}

func TestTaskIndexCodebase(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	c := newRawClient(t, s)
	c.initialize("2025-11-25", nil)

	res, rpcErr := c.call("tools/call", map[string]any{
		"name": "index_codebase", "arguments": map[string]any{"path": e.root},
		"task": map[string]any{"ttl": 60000}, "_meta": map[string]any{"progressToken": "p1"},
	})
	if rpcErr != nil {
		t.Fatalf("task-augmented call: %v", rpcErr)
	}
	task := taskOf(t, res)
	id := task["taskId"].(string)
	if task["status"] != "working" || task["ttl"] != float64(60000) || task["pollInterval"] == nil ||
		task["createdAt"] == nil || task["lastUpdatedAt"] == nil {
		t.Errorf("created task = %v", task)
	}
	if len(id) < 20 {
		t.Errorf("task id %q is guessable", id)
	}
	meta, _ := res["_meta"].(map[string]any)
	if !strings.Contains(fmt.Sprint(meta["io.modelcontextprotocol/model-immediate-response"]), id) {
		t.Errorf("no immediate response for the model: %v", meta)
	}

	result, rpcErr := c.call("tasks/result", map[string]any{"taskId": id})
	if rpcErr != nil {
		t.Fatalf("tasks/result: %v", rpcErr)
	}
	sc, _ := result["structuredContent"].(map[string]any)
	if result["isError"] == true || sc["files_scanned"] == nil || sc["files_scanned"].(float64) < 5 || sc["chunks_written"].(float64) < 5 {
		t.Fatalf("tasks/result = %v", result)
	}
	rmeta, _ := result["_meta"].(map[string]any)
	if related, _ := rmeta["io.modelcontextprotocol/related-task"].(map[string]any); related["taskId"] != id {
		t.Errorf("tasks/result lacks the related-task meta: %v", rmeta)
	}

	got, rpcErr := c.call("tasks/get", map[string]any{"taskId": id})
	if rpcErr != nil || got["status"] != "completed" || got["taskId"] != id {
		t.Errorf("tasks/get = %v, %v", got, rpcErr)
	}
	if _, has := got["io.modelcontextprotocol/related-task"]; has {
		t.Errorf("tasks/get must not carry related-task")
	}
	list, rpcErr := c.call("tasks/list", nil)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	tasks, _ := list["tasks"].([]any)
	if len(tasks) != 1 || tasks[0].(map[string]any)["taskId"] != id {
		t.Errorf("tasks/list = %v", list)
	}

	progress := c.notifications("notifications/progress")
	if len(progress) == 0 {
		t.Fatal("no progress notifications")
	}
	last := -1.0
	for _, n := range progress {
		p := n["params"].(map[string]any)
		if p["progressToken"] != "p1" {
			t.Errorf("progress token = %v", p["progressToken"])
		}
		if pr := p["progress"].(float64); pr <= last {
			t.Errorf("progress went from %v to %v", last, pr)
		} else {
			last = pr
		}
		pm, _ := p["_meta"].(map[string]any)
		if rt, _ := pm["io.modelcontextprotocol/related-task"].(map[string]any); rt["taskId"] != id {
			t.Errorf("task progress without related-task: %v", p)
		}
	}
	final := progress[len(progress)-1]["params"].(map[string]any)
	if final["progress"] != final["total"] {
		t.Errorf("last progress %v of %v", final["progress"], final["total"])
	}

	// The index the task built serves searches.
	search, rpcErr := c.call("tools/call", map[string]any{"name": "search_code", "arguments": map[string]any{"query": "Login password"}})
	if rpcErr != nil || search["isError"] == true || !strings.Contains(fmt.Sprint(search["structuredContent"]), "auth/login.go") {
		t.Errorf("search after the task: %v %v", search, rpcErr)
	}
}

func TestTaskErrors(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	c := newRawClient(t, s)
	c.initialize("2025-11-25", nil)

	rpcCode := func(method string, params any) float64 {
		t.Helper()
		_, rpcErr := c.call(method, params)
		if rpcErr == nil {
			t.Fatalf("%s %v succeeded", method, params)
		}
		return rpcErr["code"].(float64)
	}
	for _, m := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		if code := rpcCode(m, map[string]any{"taskId": "nope"}); code != -32602 {
			t.Errorf("%s unknown id: code %v, want -32602", m, code)
		}
		if code := rpcCode(m, map[string]any{}); code != -32602 {
			t.Errorf("%s without taskId: code %v, want -32602", m, code)
		}
	}
	if code := rpcCode("tasks/list", map[string]any{"cursor": "!!"}); code != -32602 {
		t.Errorf("tasks/list bad cursor: code %v", code)
	}
	// A tool without task support: -32601.
	if code := rpcCode("tools/call", map[string]any{"name": "search_code", "arguments": map[string]any{"query": "x"}, "task": map[string]any{}}); code != -32601 {
		t.Errorf("task on search_code: code %v, want -32601", code)
	}

	// A task whose tool fails ends failed; tasks/result returns the tool's error result.
	res, rpcErr := c.call("tools/call", map[string]any{"name": "index_codebase", "arguments": map[string]any{"path": "/does/not/exist"}, "task": map[string]any{}})
	// (a path outside the allowed roots: the task fails with the refusal)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	id := taskOf(t, res)["taskId"].(string)
	result, rpcErr := c.call("tasks/result", map[string]any{"taskId": id})
	if rpcErr != nil || result["isError"] != true ||
		!strings.Contains(fmt.Sprint(result["content"]), "Path is outside the allowed roots: /does/not/exist") {
		t.Errorf("failed task result = %v %v", result, rpcErr)
	}
	got, _ := c.call("tasks/get", map[string]any{"taskId": id})
	if got["status"] != "failed" || !strings.Contains(fmt.Sprint(got["statusMessage"]), "Path is outside the allowed roots") {
		t.Errorf("failed task = %v", got)
	}
	if _, rpcErr := c.call("tasks/cancel", map[string]any{"taskId": id}); rpcErr == nil ||
		!strings.Contains(fmt.Sprint(rpcErr["message"]), "already in terminal status 'failed'") {
		t.Errorf("cancelling a failed task: %v", rpcErr)
	}

	// Another session sees none of these tasks.
	other := newRawClient(t, s)
	other.initialize("2025-11-25", nil)
	if list, _ := other.call("tasks/list", nil); len(list["tasks"].([]any)) != 0 {
		t.Errorf("another session lists %v", list)
	}
	if _, rpcErr := other.call("tasks/get", map[string]any{"taskId": id}); rpcErr == nil {
		t.Errorf("another session can read task %s", id)
	}

	// Before 2025-11-25 there are no tasks: the parameter is ignored.
	old := newRawClient(t, s)
	old.initialize("2025-06-18", nil)
	res, rpcErr = old.call("tools/call", map[string]any{"name": "search_code", "arguments": map[string]any{"query": "x"}, "task": map[string]any{}})
	if rpcErr != nil || res["task"] != nil || res["content"] == nil {
		t.Errorf("task parameter at 2025-06-18 = %v %v; want a plain result", res, rpcErr)
	}
}

// progressOf counts the progress notifications of task id.
func progressOf(c *rawClient, id string) int {
	n := 0
	for _, note := range c.notifications("notifications/progress") {
		meta, _ := note["params"].(map[string]any)["_meta"].(map[string]any)
		if rt, _ := meta["io.modelcontextprotocol/related-task"].(map[string]any); rt["taskId"] == id {
			n++
		}
	}
	return n
}

var stoppedLine = regexp.MustCompile(`msg="task work stopped" task=(\S+) tool=index_codebase after_cancel_ms=(\d+)`)

func TestTaskCancel(t *testing.T) {
	e := newEnv(t, fixtureFiles)
	s := e.server(t, nil)
	c := newRawClient(t, s)
	c.initialize("2025-11-25", nil)

	// A first index, which cancelling a later run must leave intact.
	first, rpcErr := c.call("tools/call", map[string]any{"name": "index_codebase", "arguments": map[string]any{"path": e.root}})
	if rpcErr != nil || first["isError"] == true {
		t.Fatalf("first index: %v %v", first, rpcErr)
	}
	// Start a long rebuild and cancel it as soon as it reports progress. A
	// machine fast enough to finish before the cancel lands gets a bigger
	// project.
	var (
		id        string
		cancelled map[string]any
		answered  time.Duration
	)
	for _, n := range []int{3000, 20000} {
		writeTree(t, e.root, bigTree(n))
		res, rpcErr := c.call("tools/call", map[string]any{
			"name": "index_codebase", "arguments": map[string]any{"path": e.root, "force": true},
			"task": map[string]any{}, "_meta": map[string]any{"progressToken": 7},
		})
		if rpcErr != nil {
			t.Fatal(rpcErr)
		}
		id = taskOf(t, res)["taskId"].(string)
		for deadline := time.Now().Add(60 * time.Second); progressOf(c, id) == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("no progress from the task")
			}
		}
		start := time.Now()
		cancelled, rpcErr = c.call("tasks/cancel", map[string]any{"taskId": id})
		answered = time.Since(start)
		if rpcErr != nil && strings.Contains(fmt.Sprint(rpcErr["message"]), "terminal status 'completed'") {
			continue // finished before the cancel arrived
		}
		if rpcErr != nil || cancelled["status"] != "cancelled" || cancelled["taskId"] != id {
			t.Fatalf("tasks/cancel = %v %v", cancelled, rpcErr)
		}
		break
	}
	if cancelled == nil {
		t.Fatal("indexing always finished before the cancel arrived")
	}
	got, _ := c.call("tasks/get", map[string]any{"taskId": id})
	if got["status"] != "cancelled" {
		t.Errorf("after tasks/cancel, status = %v", got["status"])
	}
	result, rpcErr := c.call("tasks/result", map[string]any{"taskId": id})
	if rpcErr != nil || result["isError"] != true || !strings.Contains(fmt.Sprint(result["structuredContent"]), "CANCELLED") {
		t.Errorf("tasks/result of a cancelled task = %v %v", result, rpcErr)
	}
	if _, rpcErr := c.call("tasks/cancel", map[string]any{"taskId": id}); rpcErr == nil || rpcErr["code"] != float64(-32602) {
		t.Errorf("second cancel: %v", rpcErr)
	}

	// The work itself stops promptly.
	var stoppedAfter int
	for deadline := time.Now().Add(5 * time.Second); ; {
		if m := stoppedLine.FindStringSubmatch(e.log.String()); m != nil && m[1] == id {
			stoppedAfter, _ = strconv.Atoi(m[2])
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled task's work did not stop; log:\n%s", e.log.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("cancellation latency: tasks/cancel answered in %v (status cancelled), indexing stopped %d ms after the cancel", answered, stoppedAfter)
	if stoppedAfter > 1000 {
		t.Errorf("indexing stopped %d ms after tasks/cancel, want ≤ 1000", stoppedAfter)
	}
	if got, _ := c.call("tasks/get", map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Errorf("a cancelled task must stay cancelled, got %v", got["status"])
	}

	// The previous index is intact: the old files are found, the new ones are not.
	search, rpcErr := c.call("tools/call", map[string]any{"name": "search_code", "arguments": map[string]any{"query": "Login password session", "limit": 50}})
	if rpcErr != nil || search["isError"] == true {
		t.Fatalf("search after cancel: %v %v", search, rpcErr)
	}
	text := fmt.Sprint(search["structuredContent"])
	if !strings.Contains(text, "auth/login.go") || strings.Contains(text, "file0") {
		t.Errorf("after a cancelled rebuild the old index should answer: %.500s", text)
	}
}

func TestCancelledNotification(t *testing.T) {
	e := newEnv(t, nil)
	s := e.server(t, nil)
	progressed := make(chan struct{}, 1)
	cs := connectSDK(t, s, &sdk.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *sdk.ProgressNotificationClientRequest) {
			select {
			case progressed <- struct{}{}:
			default:
			}
		},
	})
	// A machine fast enough to finish before the cancel lands gets a bigger project.
	var (
		stopped      time.Duration
		firstAttempt bool
	)
	for attempt, n := range []int{3000, 20000} {
		writeTree(t, e.root, bigTree(n))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			params := &sdk.CallToolParams{Name: "index_codebase", Arguments: map[string]any{"path": e.root}}
			params.SetProgressToken("tok")
			_, err := cs.CallTool(ctx, params)
			done <- err
		}()
		select {
		case <-progressed:
		case <-time.After(60 * time.Second):
			t.Fatal("no progress notification")
		}
		start := time.Now()
		cancel() // the client sends notifications/cancelled
		if err := <-done; err == nil {
			if attempt == 0 {
				continue // finished before the cancel arrived
			}
			t.Fatal("the cancelled call succeeded")
		}
		re := regexp.MustCompile(`msg="tool call failed" tool=index_codebase .*code=CANCELLED`)
		for !re.MatchString(e.log.String()) {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("the server did not stop the call; log:\n%s", e.log.String())
			}
			time.Sleep(time.Millisecond)
		}
		stopped, firstAttempt = time.Since(start), attempt == 0
		break
	}
	t.Logf("notifications/cancelled: indexing stopped %v after the cancel", stopped)
	if stopped > time.Second {
		t.Errorf("indexing stopped %v after notifications/cancelled, want ≤ 1s", stopped)
	}
	if !firstAttempt {
		return // an earlier run completed: there is an index to find
	}
	// Nothing of the cancelled first run is searchable: no index, or an empty one.
	res := callTool(t, cs, "search_code", map[string]any{"query": "Handler"})
	if res.IsError {
		if te := toolErrorOf(t, res); te["code"] != "NO_INDEX" {
			t.Errorf("after a cancelled first index: %v", te)
		}
	} else if n := structured(t, res)["total"]; n != float64(0) {
		t.Errorf("a cancelled first index left %v searchable results", n)
	}
}
