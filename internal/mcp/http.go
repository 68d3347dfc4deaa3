package mcp

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxHTTPBody bounds one POSTed message (or batch).
const maxHTTPBody = 4 << 20

// httpSessionTimeout closes HTTP sessions idle for this long (their tasks
// are cancelled with them).
const httpSessionTimeout = time.Hour

// HTTPHandler serves MCP streamable HTTP; mount it at /mcp. Origin and Host
// checks belong to the HTTP server around it (internal/httpapi).
//
// Requests of protocol 2026-07-28 and later (Mcp-Protocol-Version header)
// go to a stateless handler, the only kind the SDK serves that version
// from; older ones go to a stateful handler, whose sessions keep
// cross-request cancellation, server-to-client requests (sampling) and
// tasks working. Both serve the same server.
func (s *Server) HTTPHandler() http.Handler {
	get := func(*http.Request) *sdk.Server { return s.sdk }
	logger := slog.New(minLevel{s.log.Handler(), slog.LevelWarn})
	stateful := sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{
		SessionTimeout: httpSessionTimeout, Logger: logger, MaxRequestBodyBytes: maxHTTPBody,
	})
	stateless := sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{
		Stateless: true, PropagateRequestCancellation: true, Logger: logger, MaxRequestBodyBytes: maxHTTPBody,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Body != nil {
			// Keep tools/call's "task" parameter, as lineConn does on stdio.
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHTTPBody))
			if err != nil {
				status := http.StatusBadRequest
				var tooLarge *http.MaxBytesError
				if errors.As(err, &tooLarge) {
					status = http.StatusRequestEntityTooLarge
				}
				http.Error(w, "reading the request body: "+err.Error(), status)
				return
			}
			body = moveTaskParams(body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		if r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}
