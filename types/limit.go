package types

import "github.com/joind/joind/pgerr"

// LimitValue is a LIMIT or OFFSET count (what) as PostgreSQL's
// recompute_limits takes it: NULL means dflt (LIMIT ALL, OFFSET 0), a
// negative count is an error. The planner applies it to constant counts,
// the executor to counts computed when the statement runs. v is of type t.
func LimitValue(ctx *EvalContext, v Value, t Type, dflt int64, what string) (int64, error) {
	if v.Null {
		return dflt, nil
	}
	if t.ID == Numeric || t.ID == Float8 || t.ID == Float4 {
		cv, err := CastValue(ctx, v, t, Int8Type, true)
		if err != nil {
			return 0, err
		}
		v = cv
	}
	if v.I < 0 {
		if what == "LIMIT" {
			return 0, pgerr.New("2201W", "LIMIT must not be negative")
		}
		return 0, pgerr.New("2201X", "OFFSET must not be negative")
	}
	return v.I, nil
}
