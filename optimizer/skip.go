package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// AttachSkips copies the simple conjuncts of every Filter that sits
// directly on a Scan into the Scan's Skip list, so the scan can pass over
// stored segments whose min/max and NULL counts prove that no row passes
// (storage.Segmented). The Filter stays: it still decides every row, and a
// skip predicate only ever removes rows the Filter would remove anyway.
func AttachSkips(n plan.Node) plan.Node {
	kids := n.Children()
	if len(kids) == 0 {
		return n
	}
	out := make([]plan.Node, len(kids))
	changed := false
	for i, k := range kids {
		out[i] = AttachSkips(k)
		changed = changed || out[i] != k
	}
	if f, ok := n.(*plan.Filter); ok {
		if sc, ok := out[0].(*plan.Scan); ok {
			if skip := skipConjuncts(f.Pred, sc); len(skip) > 0 {
				c := *sc
				c.Skip = append(append([]plan.Expr(nil), sc.Skip...), skip...)
				out[0], changed = &c, true
			}
		}
	}
	if !changed {
		return n
	}
	return n.WithChildren(out)
}

// skipConjuncts returns the conjuncts of pred a scan can test against
// segment statistics: `col op const` (either order) for = < <= > >= with
// both sides of one comparable type family, and `col IS [NOT] NULL`.
func skipConjuncts(pred plan.Expr, sc *plan.Scan) []plan.Expr {
	own := map[plan.ColumnID]bool{}
	for _, c := range sc.Cols {
		own[c.ID] = true
	}
	var out []plan.Expr
	for _, c := range conjuncts(pred) {
		if SkipTestable(c, func(id plan.ColumnID) bool { return own[id] }) {
			out = append(out, c)
		}
	}
	return out
}

// SkipTestable reports whether e is a predicate shape segment statistics
// can decide, over a column has accepts.
func SkipTestable(e plan.Expr, has func(plan.ColumnID) bool) bool {
	switch x := e.(type) {
	case *plan.IsNull:
		r, ok := x.Arg.(*plan.ColRef)
		return ok && has(r.ID) && skipType(r.T.ID)
	case *plan.Call:
		if x.Func == nil || len(x.Args) != 2 || x.Func.Result.ID != types.Bool || len(x.Func.Args) != 2 {
			return false
		}
		switch x.Func.Name {
		case "=", "<", "<=", ">", ">=":
		default:
			return false
		}
		col, k := x.Args[0], x.Args[1]
		if _, ok := col.(*plan.ColRef); !ok {
			col, k = k, col
		}
		r, ok := col.(*plan.ColRef)
		if !ok || !has(r.ID) {
			return false
		}
		c, ok := k.(*plan.Const)
		if !ok || c.Val.Null {
			return false
		}
		return skipType(r.T.ID) && sameFamily(x.Func.Args[0].ID, x.Func.Args[1].ID) &&
			sameFamily(r.T.ID, c.T.ID) && sameFamily(r.T.ID, x.Func.Args[0].ID)
	}
	return false
}

// skipType lists the column types whose stored bounds compare like the
// type's operators: integers, floats (NaN greatest, as both order it),
// date, timestamp[tz], and text/varchar (byte order = C collation).
func skipType(id types.ID) bool {
	switch id {
	case types.Int2, types.Int4, types.Int8, types.Float4, types.Float8,
		types.Date, types.Timestamp, types.TimestampTZ, types.Text, types.Varchar:
		return true
	}
	return false
}

// sameFamily: values of a and b compare correctly with types.Compare on
// either type (integers are all Value.I, floats all Value.F, text/varchar
// all Value.S).
func sameFamily(a, b types.ID) bool {
	fam := func(id types.ID) int {
		switch id {
		case types.Int2, types.Int4, types.Int8:
			return 1
		case types.Float4, types.Float8:
			return 2
		case types.Text, types.Varchar:
			return 3
		}
		return 100 + int(id)
	}
	return fam(a) == fam(b)
}
