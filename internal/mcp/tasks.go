package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP 2025-11-25 Tasks, added beside go-sdk v1.8.0 (which lacks them)
// through its public hooks: moveTaskParam keeps the "task" parameter, a
// receiving middleware turns a task-augmented tools/call into a background
// run, and tasks/get, tasks/list, tasks/result and tasks/cancel are custom
// methods. Tasks belong to the session that created them: another session
// can neither see nor touch them.

// Task statuses.
const (
	taskWorking   = "working"
	taskCompleted = "completed"
	taskFailed    = "failed"
	taskCancelled = "cancelled"
)

const (
	tasksProtocolVersion = "2025-11-25" // the only version with core Tasks
	relatedTaskKey       = "io.modelcontextprotocol/related-task"
	immediateResponseKey = "io.modelcontextprotocol/model-immediate-response"

	defaultTaskTTL     = time.Hour
	minTaskTTL         = time.Second
	maxTaskTTL         = 24 * time.Hour
	taskPollInterval   = 500 * time.Millisecond
	maxTasksPerSession = 8   // working tasks at once
	taskListPageSize   = 100 // tasks per tasks/list page
)

// requestedTask reports whether a tools/call asks for task augmentation the
// server should honour, and the ttl it asks for. It also removes the task
// object from _meta, so that tools never see it.
func requestedTask(req *sdk.CallToolRequest) (ttl time.Duration, ok bool) {
	if req.Params == nil || req.Params.Meta == nil {
		return 0, false
	}
	raw, present := req.Params.Meta[taskMetaKey]
	if !present {
		return 0, false
	}
	delete(req.Params.Meta, taskMetaKey)
	// Tasks exist only in 2025-11-25: an older session never saw the
	// capability, and 2026-07-28 moved tasks to an extension whose spec says
	// to ignore the task parameter.
	if protocolVersion(req) != tasksProtocolVersion {
		return 0, false
	}
	ttl = defaultTaskTTL
	if m, isObj := raw.(map[string]any); isObj {
		if v, isNum := m["ttl"].(float64); isNum && v > 0 {
			ttl = time.Duration(v) * time.Millisecond
		}
	}
	return min(max(ttl, minTaskTTL), maxTaskTTL), true
}

// protocolVersion is the version a request speaks: the per-request version
// of 2026-07-28, else the one the session negotiated (the SDK answers a
// version it does not know with 2025-11-25).
func protocolVersion(req interface{ ProtocolVersion() string }) string {
	switch v := req.ProtocolVersion(); v {
	case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "":
		return v
	default:
		if v >= "2026-07-28" {
			return v
		}
		return "2025-11-25"
	}
}

// tasksMiddleware runs task-augmented tools/call requests in the
// background and advertises the tasks capability to 2025-11-25 sessions.
func (s *Server) tasksMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		switch method {
		case "initialize":
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			if ir, ok := res.(*sdk.InitializeResult); ok && ir.ProtocolVersion == tasksProtocolVersion {
				return patchJSON(res, func(m map[string]any) {
					caps, _ := m["capabilities"].(map[string]any)
					if caps == nil {
						caps = map[string]any{}
						m["capabilities"] = caps
					}
					caps["tasks"] = map[string]any{
						"list":     map[string]any{},
						"cancel":   map[string]any{},
						"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}},
					}
				})
			}
			return res, nil
		case "tools/call":
			call, ok := req.(*sdk.CallToolRequest)
			if !ok {
				break
			}
			ttl, isTask := requestedTask(call)
			if !isTask {
				break
			}
			return s.startTask(method, call, ttl, next)
		}
		return next(ctx, method, req)
	}
}

// startTask answers a task-augmented tools/call with a CreateTaskResult at
// once and runs the call in the background, on a context of its own (the
// request's context ends with its response, and on streamable HTTP its
// stream is closed by then: notifications must go to the session).
func (s *Server) startTask(method string, call *sdk.CallToolRequest, ttl time.Duration, next sdk.MethodHandler) (sdk.Result, error) {
	t, ok := s.lookupTool(call.Params.Name)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", call.Params.Name)}
	}
	if t.taskSupport == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
			Message: fmt.Sprintf("tool %q does not support task-augmented execution (execution.taskSupport is forbidden)", t.def.Name)}
	}
	runCtx, cancel := context.WithCancel(s.lifetime)
	tk, info, err := s.tasks.create(call.Session, t.def.Name, ttl, cancel)
	if err != nil {
		cancel()
		return nil, err
	}
	runCtx = context.WithValue(runCtx, taskIDKey{}, tk.id)
	s.log.Info("task started", "task", tk.id, "tool", t.def.Name)
	go func() {
		defer cancel()
		res, err := next(runCtx, method, call)
		var toolRes *sdk.CallToolResult
		if r, ok := res.(*sdk.CallToolResult); ok {
			toolRes = r
		}
		s.tasks.finish(tk, toolRes, err)
	}()
	out := &createTaskResult{Task: info}
	out.Meta = map[string]any{immediateResponseKey: fmt.Sprintf(
		"%s is running in the background as task %s; poll tasks/get and fetch the outcome with tasks/result.", t.def.Name, tk.id)}
	return out, nil
}

// registerTaskMethods adds tasks/get, tasks/list, tasks/result and tasks/cancel.
func (s *Server) registerTaskMethods() error {
	if err := sdk.AddReceivingCustomMethod(s.sdk, "tasks/get",
		func(ctx context.Context, ss *sdk.ServerSession, p *taskIDParams) (*taskResult, error) {
			id, err := taskIDOf(p)
			if err != nil {
				return nil, err
			}
			info, err := s.tasks.get(ss, id)
			if err != nil {
				return nil, err
			}
			return &taskResult{taskInfo: info}, nil
		}); err != nil {
		return err
	}
	if err := sdk.AddReceivingCustomMethod(s.sdk, "tasks/list",
		func(ctx context.Context, ss *sdk.ServerSession, p *listTasksParams) (*listTasksResult, error) {
			var cursor string
			if p != nil {
				cursor = p.Cursor
			}
			tasks, next, err := s.tasks.list(ss, cursor)
			if err != nil {
				return nil, err
			}
			return &listTasksResult{Tasks: tasks, NextCursor: next}, nil
		}); err != nil {
		return err
	}
	if err := sdk.AddReceivingCustomMethod(s.sdk, "tasks/result",
		func(ctx context.Context, ss *sdk.ServerSession, p *taskIDParams) (*sdk.CallToolResult, error) {
			return s.taskResult(ctx, ss, p)
		}); err != nil {
		return err
	}
	return sdk.AddReceivingCustomMethod(s.sdk, "tasks/cancel",
		func(ctx context.Context, ss *sdk.ServerSession, p *taskIDParams) (*taskResult, error) {
			id, err := taskIDOf(p)
			if err != nil {
				return nil, err
			}
			info, err := s.tasks.cancelTask(ss, id, func(tool string) *sdk.CallToolResult {
				return s.cancelledResult(tool)
			})
			if err != nil {
				return nil, err
			}
			s.log.Info("task cancelled", "task", id)
			return &taskResult{taskInfo: info}, nil
		})
}

// taskResult blocks until the task is terminal, then returns exactly what
// the tools/call would have returned, tagged with the task's id.
func (s *Server) taskResult(ctx context.Context, ss *sdk.ServerSession, p *taskIDParams) (*sdk.CallToolResult, error) {
	id, err := taskIDOf(p)
	if err != nil {
		return nil, err
	}
	s.tasks.mu.Lock()
	t, err := s.tasks.lookup(ss, id)
	s.tasks.mu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.tasks.mu.Lock()
	res, rpcErr := t.result, t.rpcErr
	s.tasks.mu.Unlock()
	if rpcErr != nil {
		return nil, rpcErr
	}
	if res == nil {
		res = s.cancelledResult(t.tool)
	}
	out := *res
	meta := map[string]any{}
	for k, v := range res.Meta {
		meta[k] = v
	}
	for k, v := range relatedTaskMeta(t.id) {
		meta[k] = v
	}
	out.Meta = meta
	return &out, nil
}

func taskIDOf(p *taskIDParams) (string, error) {
	if p == nil || p.TaskID == "" {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing required parameter taskId"}
	}
	return p.TaskID, nil
}

// rawResult is a result already encoded as JSON.
type rawResult struct {
	sdk.ResultBase
	data json.RawMessage
}

func (r *rawResult) MarshalJSON() ([]byte, error) { return r.data, nil }

// patchJSON re-encodes res with edit applied to its JSON object: the way to
// add fields the SDK's types do not have (tasks capability, execution).
func patchJSON(res sdk.Result, edit func(map[string]any)) (sdk.Result, error) {
	data, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encoding a result: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("decoding a result: %w", err)
	}
	edit(m)
	if data, err = json.Marshal(m); err != nil {
		return nil, fmt.Errorf("encoding a result: %w", err)
	}
	return &rawResult{data: data}, nil
}

// errorMessage is the message of a tool's error result, for the failed
// task's statusMessage.
func errorMessage(res *sdk.CallToolResult) string {
	if m, ok := res.StructuredContent.(map[string]any); ok {
		if te, ok := m["error"].(toolError); ok {
			return te.Message
		}
	}
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			return tc.Text
		}
	}
	return "The tool reported an error."
}
