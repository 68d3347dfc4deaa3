package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressInterval is the least time between two progress notifications of
// one call (the last one is always sent).
const progressInterval = 100 * time.Millisecond

// progressReporter returns a function that reports done of total units:
// as notifications/progress when the request carries a progress token, and
// as the task's status message when the call runs as a task. Reports are
// rate-limited and never go backwards; the returned function is safe for
// concurrent use.
func (c *call) progressReporter(ctx context.Context, unit string) func(done, total int) {
	var token any
	if c.req.Params != nil {
		token = c.req.Params.GetProgressToken()
	}
	taskID := taskIDFrom(ctx)
	if token == nil && taskID == "" {
		return func(int, int) {}
	}
	var (
		mu       sync.Mutex
		last     time.Time
		lastDone = -1
	)
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if done <= lastDone || (done != total && now.Sub(last) < progressInterval) {
			return
		}
		last, lastDone = now, done
		msg := fmt.Sprintf("%d/%d %s", done, total, unit)
		if taskID != "" {
			c.s.tasks.progress(taskID, msg)
		}
		if token != nil && c.req.Session != nil {
			p := &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(done), Total: float64(total), Message: msg}
			if taskID != "" {
				p.Meta = relatedTaskMeta(taskID)
			}
			// A failed notification (client gone) must not fail the work.
			_ = c.req.Session.NotifyProgress(ctx, p)
		}
	}
}

// stepReporter returns a function that reports each step of work that
// goes in a few steps (code_research's hops): every report is sent, as
// notifications/progress when the request carries a progress token and as
// the task's status message when the call runs as a task.
func (c *call) stepReporter(ctx context.Context) func(done, total int, msg string) {
	var token any
	if c.req.Params != nil {
		token = c.req.Params.GetProgressToken()
	}
	taskID := taskIDFrom(ctx)
	if token == nil && taskID == "" {
		return func(int, int, string) {}
	}
	return func(done, total int, msg string) {
		if taskID != "" {
			c.s.tasks.progress(taskID, msg)
		}
		if token != nil && c.req.Session != nil {
			p := &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(done), Total: float64(total), Message: msg}
			if taskID != "" {
				p.Meta = relatedTaskMeta(taskID)
			}
			_ = c.req.Session.NotifyProgress(ctx, p)
		}
	}
}
