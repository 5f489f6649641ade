package wire

import (
	"errors"

	"github.com/joind/joind/pgerr"
)

// whereError carries the CONTEXT line of an error (ErrorResponse field W),
// which pgerr.Error has no field for.
type whereError struct {
	err   *pgerr.Error
	where string
}

func (w *whereError) Error() string { return w.err.Error() }
func (w *whereError) Unwrap() error { return w.err }

// WithWhere returns e with a CONTEXT line, e.g. PostgreSQL's
// `COPY t, line 3, column b: "x"`.
func WithWhere(e *pgerr.Error, where string) error {
	return &whereError{err: e, where: where}
}

// whereOf returns the CONTEXT line attached to err, if any.
func whereOf(err error) string {
	var w *whereError
	if errors.As(err, &w) {
		return w.where
	}
	return ""
}
