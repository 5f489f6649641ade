package types

import (
	"context"

	"github.com/joind/joind/pgerr"
)

// context is the running statement's context (Background when there is
// none: the function cannot be cancelled).
func (c *EvalContext) context() context.Context {
	if c == nil || c.Ctx == nil {
		return context.Background()
	}
	return c.Ctx
}

// errCanceled is the error a function returns when its statement is
// cancelled; the session rewords it for statement_timeout.
func errCanceled() error {
	return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
}

// checkCanceled is CHECK_FOR_INTERRUPTS for loops whose length the input
// decides (numeric series, regex matching, hashed IN probes).
func checkCanceled(ctx context.Context) error {
	if ctx != nil && ctx.Err() != nil {
		return errCanceled()
	}
	return nil
}
