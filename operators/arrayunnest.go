package operators

import "github.com/joind/joind/types"

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
// one column's values in row order, the empty array when there are none.
func arraySubqueryValue(rows [][]types.Value, _ types.Type) types.Value {
	vals := make([]types.Value, len(rows))
	for i, r := range rows {
		vals[i] = r[0]
	}
	return types.Value{Arr: types.NewArray(vals)}
}
