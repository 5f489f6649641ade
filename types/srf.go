package types

import "github.com/joind/joind/pgerr"

// registerSetReturning registers the signatures of the set-returning
// functions joind supports (in FROM and in a SELECT list), so the binder
// resolves their arguments like any function. They produce rows in package
// operators (srf.go); Eval is never reached by a bound query.
func registerSetReturning() {
	notScalar := func(_ *EvalContext, _ []Value) (Value, error) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning function called in a context that cannot accept a set")
	}
	reg := func(args []ID, result ID) { regFn("generate_series", args, result, notScalar).setReturning = true }
	for _, id := range []ID{Int4, Int8, Numeric} {
		reg([]ID{id, id}, id)
		reg([]ID{id, id, id}, id)
	}
	reg([]ID{Timestamp, Timestamp, Interval}, Timestamp)
	reg([]ID{TimestampTZ, TimestampTZ, Interval}, TimestampTZ)
}
