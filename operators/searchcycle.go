package operators

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// searchCycle computes the columns WITH RECURSIVE's SEARCH and CYCLE
// clauses add (plan.SearchCycle), as PostgreSQL's rewritten query does: a
// non-recursive row starts its sequence and path (ARRAY[ROW(cols)], or
// ROW(0, cols) breadth first) with the mark's default; a recursive row
// extends the ones carried from its working-table row (seq ||
// ARRAY[ROW(cols)], ROW(depth+1, cols)), and is marked when ROW(cols) =
// ANY(path) under record_eq. The sequence and path are real record and
// record[] values of the types the binder gave their columns.
type searchCycle struct {
	spec *plan.SearchCycle
	colT []types.Type // the union's columns
	eval *types.EvalContext
	// seqT is the sequence column's type: record[] depth first, the
	// record (depth, cols...) breadth first; pathT is the path's record[].
	seqT, pathT     types.Type
	seqRow, pathRow *types.Overload // ROW(...) of the sequence's and path's records
	depth           *types.Overload // breadth first: the sequence record's depth field
	pathEq          *types.Overload // record_eq between path records
}

func newSearchCycle(spec *plan.SearchCycle, colT []types.Type, eval *types.EvalContext) (*searchCycle, error) {
	sc := &searchCycle{spec: spec, colT: colT, eval: eval}
	if spec.Search {
		sc.seqT = colT[spec.Base]
		rec := sc.seqT
		if !spec.BreadthFirst {
			rec = sc.seqT.ElemType()
		} else {
			sc.depth = types.FieldSelect(rec, 0)
		}
		sc.seqRow = types.RowConstructor(rec)
	}
	if spec.Cycle {
		sc.pathT = colT[len(colT)-1]
		rec := sc.pathT.ElemType()
		sc.pathRow = types.RowConstructor(rec)
		eq, err := types.RecordCompare("=", rec, rec)
		if err != nil {
			return nil, err
		}
		sc.pathEq = eq
	}
	return sc, nil
}

// extend returns rec, a term's rows, with the added columns.
func (sc *searchCycle) extend(rec arrow.Record, recursive bool, schema *arrow.Schema) (arrow.Record, error) {
	spec := sc.spec
	n := int(rec.NumRows())
	cols := append([]arrow.Array{}, rec.Columns()[:spec.Base]...)
	carried := spec.Base
	var seqB, pathB, markB array.Builder
	var seqIn, pathIn arrow.Array
	if spec.Search {
		seqB = array.NewBuilder(mem, sc.seqT.ArrowType())
		defer seqB.Release()
		if recursive {
			seqIn = rec.Column(carried)
			carried++
		}
	}
	if spec.Cycle {
		pathB = array.NewBuilder(mem, sc.pathT.ArrowType())
		defer pathB.Release()
		markB = array.NewBuilder(mem, spec.MarkType.ArrowType())
		defer markB.Release()
		if recursive {
			pathIn = rec.Column(carried)
		}
	}
	var vals []types.Value
	fields := func(idx []int, i int) []types.Value {
		for _, c := range idx {
			vals = append(vals, types.GetValue(rec.Column(c), sc.colT[c], i))
		}
		return vals
	}
	for i := 0; i < n; i++ {
		if spec.Search {
			vals = vals[:0]
			if spec.BreadthFirst {
				depth := int64(0)
				if seqIn != nil {
					d, err := sc.depth.Eval(sc.eval, []types.Value{types.GetValue(seqIn, sc.seqT, i)})
					if err != nil {
						return nil, err
					}
					depth = d.I + 1
				}
				vals = append(vals, types.IntValue(depth))
			}
			row, err := sc.seqRow.Eval(sc.eval, fields(spec.SearchCols, i))
			if err != nil {
				return nil, err
			}
			if !spec.BreadthFirst {
				row = appendToArray(seqIn, sc.seqT, i, row)
			}
			types.AppendValue(seqB, sc.seqT, row)
		}
		if spec.Cycle {
			vals = vals[:0]
			row, err := sc.pathRow.Eval(sc.eval, fields(spec.CycleCols, i))
			if err != nil {
				return nil, err
			}
			mark := spec.MarkDefault
			if pathIn != nil {
				for _, e := range types.GetValue(pathIn, sc.pathT, i).Arr.Elems {
					eq, err := sc.pathEq.Eval(sc.eval, []types.Value{row, e})
					if err != nil {
						return nil, err
					}
					if eq.I != 0 {
						mark = spec.MarkValue
						break
					}
				}
			}
			types.AppendValue(markB, spec.MarkType, mark)
			types.AppendValue(pathB, sc.pathT, appendToArray(pathIn, sc.pathT, i, row))
		}
	}
	if spec.Search {
		cols = append(cols, seqB.NewArray())
	}
	if spec.Cycle {
		cols = append(cols, markB.NewArray(), pathB.NewArray())
	}
	return array.NewRecord(schema, cols, int64(n)), nil
}

// appendToArray is prev[i] || ARRAY[elem] for the record[] column prev of
// type t (ARRAY[elem] when prev is nil: a non-recursive row).
func appendToArray(prev arrow.Array, t types.Type, i int, elem types.Value) types.Value {
	var elems []types.Value
	if prev != nil {
		elems = types.GetValue(prev, t, i).Arr.Elems
	}
	return types.Value{Arr: types.NewArray(append(elems[:len(elems):len(elems)], elem))}
}

// workRows is the rows of rec (extended) that enter the working table:
// those where mark <> the cycle value holds (PostgreSQL's rewritten
// recursive term reads only them; a NULL either side fails it); nil when
// none.
func (sc *searchCycle) workRows(rec arrow.Record) arrow.Record {
	if !sc.spec.Cycle {
		return rec
	}
	marks := rec.Column(len(sc.colT) - 2)
	var keep []int
	for i := 0; i < int(rec.NumRows()) && !sc.spec.MarkValue.Null; i++ {
		if m := types.GetValue(marks, sc.spec.MarkType, i); !m.Null && types.Compare(m, sc.spec.MarkValue, sc.spec.MarkType) != 0 {
			keep = append(keep, i)
		}
	}
	switch len(keep) {
	case 0:
		return nil
	case int(rec.NumRows()):
		return rec
	}
	return takeRecord(rec, keep)
}
