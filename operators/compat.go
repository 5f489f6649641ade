package operators

import (
	"context"
	"errors"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// The value-level primitives operators need from package types. They are
// reached through these wrappers so the package names them in one place.

// castValue converts v from one type to another (SQL CAST semantics).
func castValue(ctx *types.EvalContext, v types.Value, from, to types.Type, explicit bool) (types.Value, error) {
	return types.CastValue(ctx, v, from, to, explicit)
}

// compareValues orders two non-NULL values of type t.
func compareValues(a, b types.Value, t types.Type) int { return types.Compare(a, b, t) }

// canceled turns a context error into PostgreSQL's query-cancel error.
func canceled(err error) error {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return err
	}
	return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to user request")
}

// checkCtx returns the cancel error if ctx is done.
func checkCtx(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return canceled(err)
	}
	return nil
}

// isCancel reports whether err is a query-cancel error.
func isCancel(err error) bool {
	var pe *pgerr.Error
	return errors.As(err, &pe) && pe.Code == pgerr.QueryCanceled || errors.Is(err, context.Canceled)
}
