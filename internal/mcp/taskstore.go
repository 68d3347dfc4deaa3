package mcp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// task is one task-augmented request and its outcome.
type task struct {
	id      string
	owner   *sdk.ServerSession
	tool    string
	created time.Time
	ttl     time.Duration
	cancel  context.CancelFunc
	done    chan struct{} // closed once the task is terminal and its result known

	// guarded by taskStore.mu
	status      string
	message     string
	updated     time.Time
	result      *sdk.CallToolResult
	rpcErr      error
	cancelledAt time.Time
}

func (t *task) terminal() bool { return t.status != taskWorking }

// taskInfo is the wire form of a task (the spec's Task).
type taskInfo struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           int64  `json:"ttl"`
	PollInterval  int64  `json:"pollInterval,omitempty"`
}

// Params and results of the tasks/* methods.
type (
	taskIDParams struct {
		sdk.ParamsBase
		TaskID string `json:"taskId"`
	}
	listTasksParams struct {
		sdk.ParamsBase
		Cursor string `json:"cursor,omitempty"`
	}
	taskResult struct { // tasks/get and tasks/cancel
		sdk.ResultBase
		taskInfo
	}
	createTaskResult struct { // a task-augmented tools/call
		sdk.ResultBase
		Task taskInfo `json:"task"`
	}
	listTasksResult struct {
		sdk.ResultBase
		Tasks      []taskInfo `json:"tasks"`
		NextCursor string     `json:"nextCursor,omitempty"`
	}
)

// taskStore holds the tasks of every session.
type taskStore struct {
	mu       sync.Mutex
	tasks    map[string]*task
	order    []*task // creation order, for tasks/list
	sessions map[*sdk.ServerSession]bool
	now      func() time.Time
	onStop   func(t *task, afterCancel time.Duration) // called when a cancelled task's work returns
}

func newTaskStore() *taskStore {
	return &taskStore{tasks: map[string]*task{}, sessions: map[*sdk.ServerSession]bool{}, now: time.Now}
}

func (st *taskStore) info(t *task) taskInfo {
	return taskInfo{
		TaskID:        t.id,
		Status:        t.status,
		StatusMessage: t.message,
		CreatedAt:     t.created.UTC().Format(time.RFC3339Nano),
		LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTL:           t.ttl.Milliseconds(),
		PollInterval:  taskPollInterval.Milliseconds(),
	}
}

// create registers a working task for owner, or fails when owner already
// runs maxTasksPerSession tasks.
func (st *taskStore) create(owner *sdk.ServerSession, tool string, ttl time.Duration, cancel context.CancelFunc) (*task, taskInfo, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.purgeLocked()
	working := 0
	for _, t := range st.order {
		if t.owner == owner && !t.terminal() {
			working++
		}
	}
	if working >= maxTasksPerSession {
		return nil, taskInfo{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf("too many tasks running (limit %d per session): wait for one to finish or cancel one", maxTasksPerSession)}
	}
	now := st.now()
	t := &task{
		id: rand.Text(), owner: owner, tool: tool, created: now, updated: now, ttl: ttl,
		cancel: cancel, done: make(chan struct{}),
		status: taskWorking, message: "The operation is in progress.",
	}
	st.tasks[t.id] = t
	st.order = append(st.order, t)
	if !st.sessions[owner] && owner != nil {
		st.sessions[owner] = true
		// When the session ends nobody can fetch its tasks: stop and drop them.
		go func() {
			_ = owner.Wait()
			st.dropSession(owner)
		}()
	}
	return t, st.info(t), nil
}

// lookup finds owner's task id; an unknown, expired or foreign id is the
// spec's -32602.
func (st *taskStore) lookup(owner *sdk.ServerSession, id string) (*task, error) {
	st.purgeLocked()
	t, ok := st.tasks[id]
	if !ok || t.owner != owner {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Failed to retrieve task: Task not found: %q", id)}
	}
	return t, nil
}

func (st *taskStore) get(owner *sdk.ServerSession, id string) (taskInfo, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	t, err := st.lookup(owner, id)
	if err != nil {
		return taskInfo{}, err
	}
	return st.info(t), nil
}

// progress updates a working task's status message.
func (st *taskStore) progress(id, message string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if t, ok := st.tasks[id]; ok && !t.terminal() {
		t.message = message
		t.updated = st.now()
	}
}

// finish records the outcome of a task's work. A task cancelled meanwhile
// stays cancelled, as the spec requires.
func (st *taskStore) finish(t *task, res *sdk.CallToolResult, err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if t.terminal() {
		if t.status == taskCancelled && st.onStop != nil {
			st.onStop(t, st.now().Sub(t.cancelledAt))
		}
		return
	}
	switch {
	case err != nil:
		t.status, t.message, t.rpcErr = taskFailed, err.Error(), err
	case res != nil && res.IsError:
		t.status, t.message, t.result = taskFailed, errorMessage(res), res
	default:
		t.status, t.message, t.result = taskCompleted, "The operation completed.", res
	}
	t.updated = st.now()
	close(t.done)
}

// cancelTask moves a working task to cancelled (before answering, as the
// spec requires), gives it the result tasks/result will return, and stops
// its work.
func (st *taskStore) cancelTask(owner *sdk.ServerSession, id string, result func(tool string) *sdk.CallToolResult) (taskInfo, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	t, err := st.lookup(owner, id)
	if err != nil {
		return taskInfo{}, err
	}
	if t.terminal() {
		return taskInfo{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("Cannot cancel task: already in terminal status '%s'", t.status)}
	}
	st.cancelLocked(t, "The task was cancelled by request.", result(t.tool))
	return st.info(t), nil
}

func (st *taskStore) cancelLocked(t *task, message string, result *sdk.CallToolResult) {
	now := st.now()
	t.status, t.message, t.updated, t.cancelledAt = taskCancelled, message, now, now
	t.result = result
	close(t.done)
	t.cancel()
}

// list returns owner's tasks, oldest first, one page at a time. The
// cursor is the opaque position of the next page.
func (st *taskStore) list(owner *sdk.ServerSession, cursor string) ([]taskInfo, string, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.purgeLocked()
	start := 0
	if cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(cursor)
		n, err2 := strconv.Atoi(string(raw))
		if err != nil || err2 != nil || n < 0 {
			return nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid cursor %q", cursor)}
		}
		start = n
	}
	var mine []*task
	for _, t := range st.order {
		if t.owner == owner {
			mine = append(mine, t)
		}
	}
	if start > len(mine) {
		return nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid cursor %q", cursor)}
	}
	end := min(start+taskListPageSize, len(mine))
	out := make([]taskInfo, 0, end-start)
	for _, t := range mine[start:end] {
		out = append(out, st.info(t))
	}
	next := ""
	if end < len(mine) {
		next = base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(end)))
	}
	return out, next, nil
}

// purgeLocked forgets terminal tasks whose ttl has passed.
func (st *taskStore) purgeLocked() {
	now := st.now()
	kept := st.order[:0]
	for _, t := range st.order {
		if t.terminal() && now.Sub(t.created) > t.ttl {
			delete(st.tasks, t.id)
			continue
		}
		kept = append(kept, t)
	}
	clear(st.order[len(kept):])
	st.order = kept
}

// dropSession cancels the working tasks of a closed session and forgets all of its tasks.
func (st *taskStore) dropSession(owner *sdk.ServerSession) {
	st.mu.Lock()
	defer st.mu.Unlock()
	kept := st.order[:0]
	for _, t := range st.order {
		if t.owner != owner {
			kept = append(kept, t)
			continue
		}
		if !t.terminal() {
			st.cancelLocked(t, "The session ended.", nil)
		}
		delete(st.tasks, t.id)
	}
	clear(st.order[len(kept):])
	st.order = kept
	delete(st.sessions, owner)
}

// cancelAll stops every working task (server shutdown).
func (st *taskStore) cancelAll() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, t := range st.order {
		if !t.terminal() {
			st.cancelLocked(t, "The server is shutting down.", nil)
		}
	}
}

// taskIDKey carries the id of the task a tool call runs for.
type taskIDKey struct{}

func taskIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(taskIDKey{}).(string)
	return id
}

// relatedTaskMeta is the _meta that ties a message to its task.
func relatedTaskMeta(id string) map[string]any {
	return map[string]any{relatedTaskKey: map[string]any{"taskId": id}}
}
