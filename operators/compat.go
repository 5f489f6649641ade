package operators

import "github.com/joind/joind/types"

// The value-level primitives operators need from package types. They are
// reached through these wrappers so the package names them in one place.

// castValue converts v from one type to another (SQL CAST semantics).
func castValue(ctx *types.EvalContext, v types.Value, from, to types.Type, explicit bool) (types.Value, error) {
	return types.CastValue(ctx, v, from, to, explicit)
}

// compareValues orders two non-NULL values of type t.
func compareValues(a, b types.Value, t types.Type) int { return types.Compare(a, b, t) }
