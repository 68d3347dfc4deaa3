package mcp

import (
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTaskStore covers paging, the per-session limit and expiry, with a
// clock the test moves.
func TestTaskStore(t *testing.T) {
	now := time.Date(2025, 11, 25, 10, 0, 0, 0, time.UTC)
	st := newTaskStore()
	st.now = func() time.Time { return now }
	noop := func() {}

	var created []*task
	for i := 0; i < maxTasksPerSession; i++ {
		tk, _, err := st.create(nil, "index_codebase", time.Minute, noop)
		if err != nil {
			t.Fatal(err)
		}
		created = append(created, tk)
	}
	if _, _, err := st.create(nil, "index_codebase", time.Minute, noop); err == nil || !strings.Contains(err.Error(), "too many tasks") {
		t.Fatalf("task %d of a session: err = %v", maxTasksPerSession+1, err)
	}
	// Finishing tasks frees room; many finished tasks page.
	for _, tk := range created {
		st.finish(tk, &sdk.CallToolResult{}, nil)
	}
	for i := 0; i < taskListPageSize+20-maxTasksPerSession; i++ {
		tk, _, err := st.create(nil, "index_codebase", time.Hour, noop)
		if err != nil {
			t.Fatal(err)
		}
		st.finish(tk, &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "boom"}}}, nil)
	}
	page, next, err := st.list(nil, "")
	if err != nil || len(page) != taskListPageSize || next == "" {
		t.Fatalf("first page: %d tasks, cursor %q, %v", len(page), next, err)
	}
	rest, last, err := st.list(nil, next)
	if err != nil || len(rest) != 20 || last != "" {
		t.Fatalf("second page: %d tasks, cursor %q, %v", len(rest), last, err)
	}
	if page[0].TaskID != created[0].id || page[0].Status != taskCompleted || rest[19].Status != taskFailed || rest[19].StatusMessage != "boom" {
		t.Errorf("pages out of order or wrong: first %+v last %+v", page[0], rest[19])
	}
	if _, _, err := st.list(nil, "bm90LWEtbnVtYmVy"); err == nil {
		t.Error("a forged cursor was accepted")
	}
	// After its ttl a finished task is forgotten.
	now = now.Add(2 * time.Minute)
	if _, err := st.get(nil, created[0].id); err == nil {
		t.Errorf("task %s outlived its ttl", created[0].id)
	}
	first, cursor, _ := st.list(nil, "")
	second, _, _ := st.list(nil, cursor)
	if n := len(first) + len(second); n != taskListPageSize+20-maxTasksPerSession {
		t.Errorf("after expiry %d tasks remain", n)
	}
}
