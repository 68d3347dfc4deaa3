// Package errs defines the typed errors lore's core returns.
//
// Core packages return *Error values (possibly wrapped); each presentation
// layer (CLI, MCP, HTTP) maps them once, in one place, to its own shape: an
// exit code, an MCP tool error, an HTTP status.
package errs

import (
	"errors"
	"fmt"
)

// Kind is the broad class of a failure; presentation layers map kinds to
// exit codes and HTTP statuses.
type Kind int

const (
	Internal  Kind = iota // a bug or an unexpected I/O failure
	Invalid               // the caller's input is wrong
	NotFound              // the named thing does not exist
	OutOfRoot             // a path escapes its configured root
	NoIndex               // the operation needs an index that has not been built
	Cancelled             // the caller cancelled the operation
	Busy                  // another process holds what the operation needs (an index's writer lock)
)

func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case NotFound:
		return "not found"
	case OutOfRoot:
		return "out of root"
	case NoIndex:
		return "no index"
	case Cancelled:
		return "cancelled"
	case Busy:
		return "busy"
	default:
		return "internal"
	}
}

// Error is a failure with a machine-readable code and a message meant for
// the person or agent who made the request.
type Error struct {
	Kind    Kind
	Code    string         // stable machine-readable code, e.g. PATH_OUTSIDE_ROOT
	Message string         // human-readable, names the offending input
	Details map[string]any // optional structured context (never file contents)
	Err     error          // optional underlying cause
}

func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error of the given kind and code with a formatted message.
func New(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// With returns a copy of e with the detail key set to value.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Details = make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		c.Details[k] = v
	}
	c.Details[key] = value
	return &c
}

// Wrap returns a copy of e whose cause is err.
func (e *Error) Wrap(err error) *Error {
	c := *e
	c.Err = err
	return &c
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// KindOf returns the Kind of err: the kind of the *Error in its chain,
// Cancelled for context cancellation, Internal otherwise.
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	if isCancellation(err) {
		return Cancelled
	}
	return Internal
}
