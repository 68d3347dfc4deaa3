package mcp

import (
	"bytes"
	"encoding/json"
)

// taskMetaKey is where moveTaskParam puts a tools/call request's "task"
// parameter inside params._meta, so that it survives the SDK's decoding.
const taskMetaKey = "dev.lore/task"

// moveTaskParam rewrites one JSON-RPC message: when it is a tools/call whose
// params carry "task" (MCP 2025-11-25 task augmentation), the task object
// moves to params._meta[taskMetaKey]. Any other message, and anything that
// does not parse, is returned unchanged.
//
// Why: go-sdk v1.8.0 has no Tasks support; its CallToolParamsRaw has no
// "task" field, so the parameter would be lost before the tasks middleware
// could see it. Rewriting at the transport keeps the SDK unforked.
func moveTaskParam(raw []byte) []byte {
	if !bytes.Contains(raw, []byte(`"task"`)) {
		return raw // fast path: most messages are not task-augmented
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(raw, &msg) != nil {
		return raw
	}
	var method string
	if json.Unmarshal(msg["method"], &method) != nil || method != "tools/call" {
		return raw
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(msg["params"], &params) != nil {
		return raw
	}
	task, ok := params["task"]
	if !ok {
		return raw
	}
	meta := map[string]json.RawMessage{}
	if m, ok := params["_meta"]; ok && !bytes.Equal(bytes.TrimSpace(m), []byte("null")) {
		if json.Unmarshal(m, &meta) != nil {
			return raw // a malformed _meta is the SDK's to reject
		}
	}
	meta[taskMetaKey] = task
	delete(params, "task")
	var err error
	if params["_meta"], err = json.Marshal(meta); err != nil {
		return raw
	}
	if msg["params"], err = json.Marshal(params); err != nil {
		return raw
	}
	out, err := json.Marshal(msg)
	if err != nil {
		return raw
	}
	return out
}

// moveTaskParams applies moveTaskParam to an HTTP request body, which holds
// one message or a batch.
func moveTaskParams(body []byte) []byte {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || !bytes.Contains(trimmed, []byte(`"task"`)) {
		return body
	}
	if trimmed[0] != '[' {
		return moveTaskParam(trimmed)
	}
	var members []json.RawMessage
	if json.Unmarshal(trimmed, &members) != nil {
		return body
	}
	for i, m := range members {
		members[i] = moveTaskParam(m)
	}
	out, err := json.Marshal(members)
	if err != nil {
		return body
	}
	return out
}
