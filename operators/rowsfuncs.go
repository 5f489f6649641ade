package operators

import "github.com/joind/joind/types"

// newRows is the iterator of a set-returning function other than
// generate_series whose rows package types computes all at once
// (types.RowsFunction: regexp_split_to_table).
func newRows(name string, vals []types.Value, eval *types.EvalContext) (func() (types.Value, bool, error), error) {
	rows, err := types.RowsFunction(name, vals, eval)
	if err != nil {
		return nil, err
	}
	i := 0
	return func() (types.Value, bool, error) {
		if i >= len(rows) {
			return types.NullValue, false, nil
		}
		i++
		return rows[i-1], true, nil
	}, nil
}
