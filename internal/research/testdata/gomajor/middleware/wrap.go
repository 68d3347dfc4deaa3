package middleware

import (
	"net/http"

	"example.com/router/v5"
)

// WrapResponseWriter is a response writer that remembers its status.
type WrapResponseWriter interface {
	http.ResponseWriter
	Status() int
}

// basicWriter wraps a response writer.
type basicWriter struct {
	http.ResponseWriter
	code int
}

// Status returns the status written.
func (b *basicWriter) Status() int { return b.code }

// statusOnly has a Status method and nothing else.
type statusOnly struct{}

// Status returns 200.
func (statusOnly) Status() int { return 200 }

// Mount builds a router.
func Mount() {
	router.NewRouter()
}

// Param reads a parameter through the package-level function.
func Param(r *http.Request) string {
	return router.URLParam(r, "id")
}
