package operators

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Segment skipping. A scan given skip predicates (plan.Scan.Skip: simple
// conjuncts of the Filter above it) drops whole segments of a
// storage.Segmented table when a segment's statistics prove that one of
// the predicates is not TRUE for any of its rows. The Filter above still
// tests every remaining row, so a predicate the scan cannot use is
// ignored, never an error.

// segTest is one compiled skip predicate over a table ordinal.
type segTest struct {
	ord    int
	t      types.Type // the column's type: the order the bounds are kept in
	op     cmpOp      // col op val; cmpNone for IS [NOT] NULL
	isNull bool       // IS NULL (op == cmpNone); IS NOT NULL otherwise
	val    types.Value
}

// compileSkips turns skip predicates into segment tests; shapes it does not
// know are dropped (plan.Scan.Skip is advisory).
func compileSkips(skip []plan.Expr, ordinals []int, cols []plan.Column) []segTest {
	ordOf := func(id plan.ColumnID) (int, bool) {
		for i, c := range cols {
			if c.ID == id {
				return ordinals[i], true
			}
		}
		return 0, false
	}
	var out []segTest
	for _, e := range skip {
		switch x := e.(type) {
		case *plan.IsNull:
			r, ok := x.Arg.(*plan.ColRef)
			if !ok {
				continue
			}
			if o, ok := ordOf(r.ID); ok && skipFamily(r.T.ID) != 0 {
				out = append(out, segTest{ord: o, t: r.T, isNull: !x.Negate})
			}
		case *plan.Call:
			if x.Func == nil || len(x.Args) != 2 {
				continue
			}
			op := cmpOpOf(x.Func.Name)
			col, k := x.Args[0], x.Args[1]
			if _, ok := col.(*plan.ColRef); !ok {
				col, k, op = k, col, flipCmp(op)
			}
			r, ok1 := col.(*plan.ColRef)
			c, ok2 := k.(*plan.Const)
			if !ok1 || !ok2 || c.Val.Null || op == cmpNone || op == cmpNe {
				continue
			}
			if f := skipFamily(r.T.ID); f == 0 || f != skipFamily(c.T.ID) {
				continue // bounds would not compare like the operator
			}
			if o, ok := ordOf(r.ID); ok {
				out = append(out, segTest{ord: o, t: r.T, op: op, val: c.Val})
			}
		}
	}
	return out
}

// skipFamily groups the types whose values types.Compare orders alike
// under the column's type (0: not usable for skipping): the integers,
// the floats, text/varchar (byte order), and date, timestamp, timestamptz
// each on their own.
func skipFamily(id types.ID) int {
	switch id {
	case types.Int2, types.Int4, types.Int8:
		return 1
	case types.Float4, types.Float8:
		return 2
	case types.Text, types.Varchar:
		return 3
	case types.Date:
		return 4
	case types.Timestamp:
		return 5
	case types.TimestampTZ:
		return 6
	}
	return 0
}

// flipCmp turns `c op col` into `col op' c`.
func flipCmp(op cmpOp) cmpOp {
	switch op {
	case cmpLt:
		return cmpGt
	case cmpLe:
		return cmpGe
	case cmpGt:
		return cmpLt
	case cmpGe:
		return cmpLe
	}
	return op
}

// excludes reports whether the statistics prove the test is not TRUE for
// any row of a segment of rows rows.
func (st segTest) excludes(cs storage.ColumnStats, rows int64) bool {
	if st.op == cmpNone {
		if st.isNull {
			return cs.Nulls == 0
		}
		return cs.Nulls >= rows
	}
	if cs.Nulls >= rows {
		return true // every value NULL: the comparison is NULL everywhere
	}
	if !cs.HasMinMax {
		return false
	}
	lo := types.Compare(cs.Min, st.val, st.t) // min vs constant
	hi := types.Compare(cs.Max, st.val, st.t) // max vs constant
	switch st.op {
	case cmpEq:
		return lo > 0 || hi < 0
	case cmpLt:
		return lo >= 0
	case cmpLe:
		return lo > 0
	case cmpGt:
		return hi <= 0
	case cmpGe:
		return hi < 0
	}
	return false
}

// skipSegments returns the segments no test excludes, and how many were
// skipped. The statistics cover a segment's deleted rows too (wider than
// its live rows), so a skipped segment never holds a matching live row.
func skipSegments(segs []storage.Segment, tests []segTest) (kept []storage.Segment, skipped int) {
	for _, seg := range segs {
		out := false
		for _, st := range tests {
			if st.ord < len(seg.Columns) && st.excludes(seg.Columns[st.ord], seg.Rows) {
				out = true
				break
			}
		}
		if out {
			skipped++
			continue
		}
		kept = append(kept, seg)
	}
	return kept, skipped
}
