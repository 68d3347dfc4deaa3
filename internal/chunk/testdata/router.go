// Package router matches request paths against registered patterns.
//
// It is a small example used by the chunker tests.
package router

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// MaxSegments bounds the number of path segments a pattern may have.
const MaxSegments = 32

// Errors returned by Handle.
var (
	ErrEmptyPattern = errors.New("router: empty pattern")
	ErrDuplicate    = errors.New("router: duplicate pattern")
)

// Route is one registered pattern and its handler.
type Route struct {
	Pattern  string
	Segments []string
	Handler  http.Handler
	Priority int
}

// Matcher reports whether a route accepts a path.
type Matcher interface {
	Match(path string) (params map[string]string, ok bool)
	Pattern() string
}

// Mux dispatches requests to the route whose pattern matches best.
type Mux struct {
	routes   []*Route
	notFound http.Handler
}

// New returns an empty Mux that answers 404 to everything.
func New() *Mux {
	return &Mux{notFound: http.NotFoundHandler()}
}

// Handle registers handler for pattern. Patterns are slash-separated;
// a segment starting with ':' matches any single segment.
func (m *Mux) Handle(pattern string, handler http.Handler) error {
	if pattern == "" {
		return ErrEmptyPattern
	}
	segs := split(pattern)
	if len(segs) > MaxSegments {
		return fmt.Errorf("router: pattern %q has %d segments, more than %d", pattern, len(segs), MaxSegments)
	}
	for _, r := range m.routes {
		if r.Pattern == pattern {
			return fmt.Errorf("%w: %s", ErrDuplicate, pattern)
		}
	}
	m.routes = append(m.routes, &Route{Pattern: pattern, Segments: segs, Handler: handler, Priority: priority(segs)})
	sort.SliceStable(m.routes, func(i, j int) bool { return m.routes[i].Priority > m.routes[j].Priority })
	return nil
}

// ServeHTTP implements http.Handler.
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route, params := m.lookup(r.URL.Path)
	if route == nil {
		m.notFound.ServeHTTP(w, r)
		return
	}
	for k, v := range params {
		r.Header.Set("X-Route-"+k, v)
	}
	route.Handler.ServeHTTP(w, r)
}

func (m *Mux) lookup(path string) (*Route, map[string]string) {
	segs := split(path)
	for _, route := range m.routes {
		if params, ok := match(route.Segments, segs); ok {
			return route, params
		}
	}
	return nil, nil
}

func split(path string) []string { return strings.Split(strings.Trim(path, "/"), "/") }

func priority(segs []string) int { return len(segs) * 2 }

// match compares pattern segments with path segments, collecting the
// values of ':name' segments. It is deliberately long-winded so that the
// chunker has to split it at statement boundaries.
func match(pattern, path []string) (map[string]string, bool) {
	if len(pattern) != len(path) {
		return nil, false
	}
	params := map[string]string{}
	for i, p := range pattern {
		if strings.HasPrefix(p, ":") {
			params[p[1:]] = path[i]
			continue
		}
		if p != path[i] {
			return nil, false
		}
	}

	// Normalise the collected values: trim spaces, lower-case keys and
	// drop empty values, which a client may send by mistake.
	cleaned := make(map[string]string, len(params))
	for k, v := range params {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		cleaned[strings.ToLower(k)] = v
	}

	// Validate well-known parameters.
	if id, ok := cleaned["id"]; ok {
		for _, r := range id {
			if r < '0' || r > '9' {
				return nil, false
			}
		}
	}
	if slug, ok := cleaned["slug"]; ok {
		for _, r := range slug {
			switch {
			case r >= 'a' && r <= 'z':
			case r >= '0' && r <= '9':
			case r == '-':
			default:
				return nil, false
			}
		}
	}
	if lang, ok := cleaned["lang"]; ok {
		switch lang {
		case "en", "fr", "de", "es", "it", "pt", "nl", "sv", "pl", "ja":
		default:
			return nil, false
		}
	}
	if page, ok := cleaned["page"]; ok {
		n := 0
		for _, r := range page {
			if r < '0' || r > '9' {
				return nil, false
			}
			n = n*10 + int(r-'0')
			if n > 10000 {
				return nil, false
			}
		}
		if n == 0 {
			return nil, false
		}
	}

	if sort, ok := cleaned["sort"]; ok {
		field, order, found := strings.Cut(sort, ":")
		if !found {
			order = "asc"
		}
		switch field {
		case "name", "date", "size":
		default:
			return nil, false
		}
		if order != "asc" && order != "desc" {
			return nil, false
		}
		cleaned["sort"] = field + ":" + order
	}

	// Record which parameters were seen, for debugging.
	keys := make([]string, 0, len(cleaned))
	for k := range cleaned {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		cleaned["_keys"] = strings.Join(keys, ",")
	}
	return cleaned, true
}
