package types

import "github.com/joind/joind/pgerr"

// registerSetReturning registers the signatures of the set-returning
// functions joind supports in FROM, so the binder resolves their arguments
// like any function. They produce rows in package operators; calling one as
// a scalar is an error, as in PostgreSQL outside FROM/SELECT lists.
func registerSetReturning() {
	notScalar := func(_ *EvalContext, _ []Value) (Value, error) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are only supported in FROM")
	}
	for _, id := range []ID{Int4, Int8, Numeric} {
		regFn("generate_series", []ID{id, id}, id, notScalar)
		regFn("generate_series", []ID{id, id, id}, id, notScalar)
	}
	regFn("generate_series", []ID{Timestamp, Timestamp, Interval}, Timestamp, notScalar)
	regFn("generate_series", []ID{TimestampTZ, TimestampTZ, Interval}, TimestampTZ, notScalar)
}
