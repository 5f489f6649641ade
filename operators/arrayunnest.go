package operators

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// arraySetFunc is the row maker of the array set-returning functions
// (unnest, generate_subscripts, string_to_table), nil for any other.
func arraySetFunc(f plan.SetFunc) func([]types.Value) (func() (types.Value, bool, error), error) {
	if f.Func == nil || !f.Func.SetReturning {
		return nil
	}
	switch {
	case f.Func.Name == "unnest" && len(f.Args) == 1:
		return func(v []types.Value) (func() (types.Value, bool, error), error) { return unnestIter(v[0]), nil }
	case f.Func.Name == "generate_subscripts":
		return generateSubscripts
	case f.Func.Name == "string_to_table":
		return func(v []types.Value) (func() (types.Value, bool, error), error) {
			return unnestIter(types.StringToArray(v)), nil
		}
	}
	return nil
}

// generateSubscripts is generate_subscripts(arr, dim [, reverse]): the
// subscripts of dimension dim, no rows when the array has none.
func generateSubscripts(v []types.Value) (func() (types.Value, bool, error), error) {
	var vals []types.Value
	if !v[0].Null && !v[1].Null {
		a := v[0].Arr
		if d := v[1].I; d >= 1 && d <= int64(len(a.Dims)) {
			lo, n := int64(a.Lbound[d-1]), int64(a.Dims[d-1])
			rev := len(v) == 3 && !v[2].Null && v[2].I != 0
			for i := int64(0); i < n; i++ {
				s := lo + i
				if rev {
					s = lo + n - 1 - i
				}
				vals = append(vals, types.IntValue(s))
			}
		}
	}
	return unnestIter(types.Value{Arr: types.NewArray(vals)}), nil
}

// unnestIter yields an array's elements in storage (row-major) order,
// NULL elements included; a NULL array yields no rows.
func unnestIter(arr types.Value) func() (types.Value, bool, error) {
	var elems []types.Value
	if !arr.Null {
		elems = arr.Arr.Elems
	}
	i := 0
	return func() (types.Value, bool, error) {
		if i >= len(elems) {
			return types.NullValue, false, nil
		}
		i++
		return elems[i-1], true, nil
	}
}

// arraySubqueryValue is ARRAY(subquery) over its rows: an array of the
// one column's values (of type col) in row order, arrays stacked into one
// more dimension; the empty array when there are none.
func arraySubqueryValue(rows [][]types.Value, col types.Type) (types.Value, error) {
	vals := make([]types.Value, len(rows))
	for i, r := range rows {
		vals[i] = r[0]
	}
	if types.StacksArrays(col) {
		return types.AccumArrays(vals)
	}
	return types.Value{Arr: types.NewArray(vals)}, nil
}
