package router

import "net/http"

// Mux routes requests.
type Mux struct{}

// NewRouter returns a Mux.
func NewRouter() *Mux { return &Mux{} }

// ServeHTTP serves a request.
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

// Routes lists routes.
type Routes interface {
	Routes() []string
}

// Router is a Mux's behaviour.
type Router interface {
	http.Handler
	Routes
}

// Routes lists the mux's routes.
func (m *Mux) Routes() []string { return nil }

// URLParam returns a parameter of a request.
func URLParam(r *http.Request, key string) string { return "" }

// Context holds route parameters.
type Context struct{}

// URLParam returns a parameter of the context.
func (x *Context) URLParam(key string) string { return "" }
