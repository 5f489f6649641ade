package types

import "github.com/joind/joind/pgerr"

// information_schema._pg_expandarray(anyarray) is PostgreSQL's
//
//	_pg_expandarray(IN anyarray, OUT x anyelement, OUT n int) RETURNS SETOF record
//
// one row per element of a one-dimensional array: the element and its
// position from 1. pgjdbc's getPrimaryKeys, getIndexInfo and
// getBestRowIdentifier expand pg_index.indkey (an int2vector) with it in
// the select list and read the fields, (...).n and (result.keys).x.
func registerExpandArray() {
	notScalar := func(_ *EvalContext, _ []Value) (Value, error) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "set-returning function called in a context that cannot accept a set")
	}
	fn := regFn("information_schema._pg_expandarray", []ID{idAnyArray}, Record, notScalar)
	fn.setReturning, fn.strict = true, true
	fn.bindRows = func(args []Type) (Type, func(*EvalContext, []Value) ([]Value, error)) {
		ts := []Type{args[0].ElemType(), Int4Type}
		rt := RecordOf(RecordDesc{Fields: []string{"x", "n"}, Types: ts})
		return rt, func(_ *EvalContext, v []Value) ([]Value, error) {
			a := v[0].Arr
			if a == nil || len(a.Elems) == 0 {
				return nil, nil
			}
			out := make([]Value, len(a.Elems))
			for i, e := range a.Elems {
				out[i] = Value{S: FormatRecord([]Value{e, {I: int64(i + 1)}}, ts, nil)}
			}
			return out, nil
		}
	}
}
