package pgerr

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Recover is joind's one recovery from a panic, deferred directly by every
// goroutine a statement runs on (a session's, a partition's, a helper's):
// the panic is logged with its stack and becomes the XX000 "internal error"
// *err of that statement (err may be nil where no one waits for an error),
// so a bug fails one query and never the server. log nil is slog's default.
//
//	defer pgerr.Recover(nil, &err, "partition goroutine")
func Recover(log *slog.Logger, err *error, where string, attrs ...any) {
	r := recover()
	if r == nil {
		return
	}
	if log == nil {
		log = slog.Default()
	}
	log.Error("panic in "+where, append([]any{"panic", fmt.Sprint(r), "stack", string(debug.Stack())}, attrs...)...)
	if err != nil {
		*err = New(InternalError, "internal error: %v", r)
	}
}

// Safely runs f under Recover, for a goroutine whose result is f's error.
func Safely(where string, f func() error) (err error) {
	defer Recover(nil, &err, where)
	return f()
}

// StackDepthExceeded is PostgreSQL's check_stack_depth error, for input
// nested deeper than joind's recursive code (or pg_query's) may follow.
func StackDepthExceeded() *Error {
	return New(StatementTooComplex, "stack depth limit exceeded").
		WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate.")
}
