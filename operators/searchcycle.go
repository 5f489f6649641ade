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
// ARRAY[ROW(cols)], ROW(depth+1, cols)), and is marked when ROW(cols) is
// already on the path. The sequence and path use types.SeqArray and
// types.SeqRecord's order-preserving encoding.
type searchCycle struct {
	spec    *plan.SearchCycle
	colT    []types.Type // the union's columns
	searchT []types.Type // the sequence record's field types
	cycleT  []types.Type
}

func newSearchCycle(spec *plan.SearchCycle, colT []types.Type) *searchCycle {
	sc := &searchCycle{spec: spec, colT: colT}
	if spec.BreadthFirst {
		sc.searchT = append(sc.searchT, types.Int8Type)
	}
	for _, i := range spec.SearchCols {
		sc.searchT = append(sc.searchT, colT[i])
	}
	for _, i := range spec.CycleCols {
		sc.cycleT = append(sc.cycleT, colT[i])
	}
	return sc
}

// extend returns rec, a term's rows, with the added columns.
func (sc *searchCycle) extend(rec arrow.Record, recursive bool, schema *arrow.Schema) arrow.Record {
	spec := sc.spec
	n := int(rec.NumRows())
	cols := append([]arrow.Array{}, rec.Columns()[:spec.Base]...)
	carried := spec.Base
	var seqB, pathB *array.StringBuilder
	var markB array.Builder
	var seqIn, pathIn *array.String
	if spec.Search {
		seqB = array.NewStringBuilder(mem)
		defer seqB.Release()
		if recursive {
			seqIn = rec.Column(carried).(*array.String)
			carried++
		}
	}
	if spec.Cycle {
		pathB = array.NewStringBuilder(mem)
		defer pathB.Release()
		markB = array.NewBuilder(mem, spec.MarkType.ArrowType())
		defer markB.Release()
		if recursive {
			pathIn = rec.Column(carried).(*array.String)
		}
	}
	vals := make([]types.Value, 0, len(sc.searchT))
	var buf []byte
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
					depth = types.SeqRecordDepth(seqIn.Value(i)) + 1
				}
				vals = append(vals, types.IntValue(depth))
				buf = types.AppendSeqRecord(buf[:0], fields(spec.SearchCols, i), sc.searchT)
				seqB.Append(string(buf))
			} else {
				buf = types.AppendSeqRecord(buf[:0], fields(spec.SearchCols, i), sc.searchT)
				prev := ""
				if seqIn != nil {
					prev = seqIn.Value(i)
				}
				seqB.Append(types.SeqArrayAppend(prev, buf))
			}
		}
		if spec.Cycle {
			vals = vals[:0]
			buf = types.AppendSeqRecord(buf[:0], fields(spec.CycleCols, i), sc.cycleT)
			prev := ""
			if pathIn != nil {
				prev = pathIn.Value(i)
			}
			mark := spec.MarkDefault
			if types.SeqArrayContains(prev, buf) {
				mark = spec.MarkValue
			}
			types.AppendValue(markB, spec.MarkType, mark)
			pathB.Append(types.SeqArrayAppend(prev, buf))
		}
	}
	if spec.Search {
		cols = append(cols, seqB.NewArray())
	}
	if spec.Cycle {
		cols = append(cols, markB.NewArray(), pathB.NewArray())
	}
	return array.NewRecord(schema, cols, int64(n))
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
