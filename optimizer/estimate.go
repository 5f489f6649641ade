package optimizer

import (
	"math"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Cardinality estimates from storage statistics (issue 12). Every durable
// table keeps, per segment and merged per committed version, its row count,
// each column's NULL count, a KMV distinct sketch and min/max bounds
// (storage.Stats): they are current without ANALYZE. Estimates only steer
// plan choices (join order, build side, partition mode); no result depends
// on them.
//
// The formulas are PostgreSQL's (selfuncs.c) in simplified form: col =
// const keeps (1 − null fraction) / distinct rows, a range keeps the share
// of [min, max] it covers, an equi-join l·r / max(d_l, d_r) with distinct
// counts capped by each input's estimated rows, independent conjuncts
// multiply.

// defaultSel is the guess for a clause the statistics say nothing about
// (PostgreSQL's DEFAULT_INEQ_SEL).
const defaultSel = 1.0 / 3

// EstimateRows is the planner's row estimate for a logical node (at least 1).
func EstimateRows(n plan.Node) float64 {
	return max(1, estimateRows(n))
}

func estimateRows(n plan.Node) float64 {
	switch x := n.(type) {
	case *plan.Scan:
		return float64(x.Table.Stats().Rows)
	case *plan.Values:
		return float64(len(x.Rows))
	case *plan.FunctionScan:
		return setRows(x.Funcs)
	case *plan.ProjectSet:
		return EstimateRows(x.Input) * setRows(x.Funcs)
	case *plan.Filter:
		return EstimateRows(x.Input) * filterSelectivity(x.Pred, x.Input)
	case *plan.Aggregate:
		return groupRows(x, EstimateRows(x.Input))
	case *plan.Join:
		return joinRows(x, EstimateRows(x.Left), EstimateRows(x.Right))
	case *plan.SetOp:
		return EstimateRows(x.Left) + EstimateRows(x.Right)
	case *plan.Distinct:
		return max(1, EstimateRows(x.Input)/2)
	}
	if kids := n.Children(); len(kids) == 1 {
		return EstimateRows(kids[0])
	}
	return 1000
}

// groupRows estimates an aggregation's groups: the product of the grouping
// keys' distinct counts, at most the input's rows; a tenth of the input
// when a key's count is unknown.
func groupRows(a *plan.Aggregate, in float64) float64 {
	if len(a.GroupBy) == 0 {
		return 1
	}
	groups := 1.0
	for _, g := range a.GroupBy {
		d, ok := distinctOf(a.Input, g, in)
		if !ok {
			return max(1, in/10)
		}
		groups *= d
	}
	return max(1, min(groups, in))
}

// colInfo is what storage knows of one column, as read through a plan.
type colInfo struct {
	t        types.Type
	rows     float64 // the table's rows
	distinct float64 // 0: unknown
	nulls    float64 // -1: unknown
	// hasBounds: min and max bound the non-NULL values (storage's).
	hasBounds bool
	min, max  types.Value
	// outerNulls: an outer join below may have added NULLs (its
	// null-extended side), so the table's NULL count does not tell.
	outerNulls bool
}

func (c colInfo) nullFrac() float64 {
	if c.nulls <= 0 || c.rows <= 0 {
		return 0
	}
	return min(1, c.nulls/c.rows)
}

// columnInfo finds the statistics of column id of n's output when it is a
// stored column passed through projections, filters, sorts and joins.
func columnInfo(n plan.Node, id plan.ColumnID) (colInfo, bool) {
	switch x := n.(type) {
	case *plan.Scan:
		for i, c := range x.Cols {
			if c.ID != id {
				continue
			}
			st := x.Table.Stats()
			ord := x.Ordinals[i]
			ci := colInfo{t: c.Type, rows: float64(st.Rows), nulls: -1}
			if ord < len(st.Distinct) && st.Distinct[ord] > 0 {
				ci.distinct = float64(st.Distinct[ord])
			}
			if ord < len(st.Nulls) {
				ci.nulls = float64(st.Nulls[ord])
			}
			if ord < len(st.Bounds) && st.Bounds[ord].HasMinMax {
				ci.hasBounds, ci.min, ci.max = true, st.Bounds[ord].Min, st.Bounds[ord].Max
			}
			return ci, true
		}
		return colInfo{}, false
	case *plan.Project:
		for i, c := range x.Cols {
			if c.ID == id {
				if r, ok := x.Exprs[i].(*plan.ColRef); ok {
					return columnInfo(x.Input, r.ID)
				}
				return colInfo{}, false
			}
		}
		return columnInfo(x.Input, id)
	case *plan.Join:
		for i, k := range n.Children() {
			if outputCols(k).has(id) {
				ci, ok := columnInfo(k, id)
				nullExtended := x.Type == plan.FullJoin || x.Type == plan.LeftJoin && i == 1 || x.Type == plan.RightJoin && i == 0
				ci.outerNulls = ci.outerNulls || nullExtended
				return ci, ok
			}
		}
	case *plan.Filter, *plan.Sort, *plan.Limit, *plan.Distinct:
		for _, k := range n.Children() {
			if outputCols(k).has(id) {
				return columnInfo(k, id)
			}
		}
	}
	return colInfo{}, false
}

// stripCasts returns the column under casts, if e is one.
func stripCasts(e plan.Expr) (*plan.ColRef, bool) {
	for {
		c, ok := e.(*plan.Cast)
		if !ok {
			break
		}
		e = c.Input
	}
	r, ok := e.(*plan.ColRef)
	return r, ok
}

// distinctOf is the distinct-value estimate of a key that is a plain
// column of n's input tables (through casts), at most rows (n's estimated
// rows, which the caller has), or false when unknown.
func distinctOf(n plan.Node, key plan.Expr, rows float64) (float64, bool) {
	ref, ok := stripCasts(key)
	if !ok {
		return 0, false
	}
	ci, ok := columnInfo(n, ref.ID)
	if !ok || ci.distinct <= 0 {
		return 0, false
	}
	return max(1, min(ci.distinct, rows)), true
}

// filterSelectivity estimates the fraction of in's rows pred keeps. Range
// conjuncts over one column (BETWEEN's two halves) are combined into one
// interval, as PostgreSQL's clauselist_selectivity does.
func filterSelectivity(pred plan.Expr, in plan.Node) float64 {
	s := 1.0
	ranges := map[plan.ColumnID]*colRange{}
	var order []plan.ColumnID
	for _, c := range conjuncts(pred) {
		if id, ci, lo, v, ok := rangeClause(c, in); ok {
			r := ranges[id]
			if r == nil {
				r = &colRange{ci: ci, lo: math.Inf(-1), hi: math.Inf(1)}
				ranges[id] = r
				order = append(order, id)
			}
			if lo {
				r.lo = max(r.lo, v)
			} else {
				r.hi = min(r.hi, v)
			}
			continue
		}
		s *= clauseSelectivity(c, in)
	}
	for _, id := range order {
		s *= ranges[id].selectivity()
	}
	return clampSel(s)
}

func clampSel(s float64) float64 {
	if math.IsNaN(s) {
		return defaultSel
	}
	return max(0, min(1, s))
}

// clauseSelectivity estimates one clause.
func clauseSelectivity(e plan.Expr, in plan.Node) float64 {
	switch x := e.(type) {
	case *plan.Const:
		if x.T.ID == types.Bool && !x.Val.Null && x.Val.I != 0 {
			return 1
		}
		return 0
	case *plan.And:
		return filterSelectivity(x, in)
	case *plan.Or:
		miss := 1.0
		for _, a := range x.Args {
			miss *= 1 - filterSelectivity(a, in)
		}
		return clampSel(1 - miss)
	case *plan.Not:
		return clampSel(1 - clauseSelectivity(x.Arg, in))
	case *plan.IsNull:
		nf := 0.005 // PostgreSQL's DEFAULT_UNK_SEL
		if r, ok := stripCasts(x.Arg); ok {
			if ci, ok := columnInfo(in, r.ID); ok && ci.outerNulls {
				nf = defaultSel // the rows an outer join extended, unknown
			} else if ok && ci.nulls >= 0 {
				nf = ci.nullFrac()
			}
		}
		if x.Negate {
			return 1 - nf
		}
		return nf
	case *plan.Call:
		if len(x.Args) != 2 {
			break
		}
		switch x.Func.Name {
		case "=":
			return eqSelectivity(x.Args[0], x.Args[1], in)
		case "<>":
			return clampSel(1 - eqSelectivity(x.Args[0], x.Args[1], in))
		case "~~", "~~*":
			return 0.05
		case "!~~", "!~~*":
			return 0.95
		case "<", "<=", ">", ">=":
			return defaultSel
		}
	}
	return defaultSel
}

// eqSelectivity: column = constant keeps (1 − null fraction)/distinct of
// the rows (none when the constant is outside the column's bounds); column
// = column 1/max of their distinct counts.
func eqSelectivity(a, b plan.Expr, in plan.Node) float64 {
	ra, aCol := stripCasts(a)
	rb, bCol := stripCasts(b)
	if !aCol && bCol {
		a, b, ra, rb, aCol, bCol = b, a, rb, ra, bCol, aCol
	}
	if !aCol {
		return 0.005
	}
	ci, ok := columnInfo(in, ra.ID)
	if !ok || ci.distinct <= 0 {
		return 0.005 // PostgreSQL's DEFAULT_EQ_SEL
	}
	if bCol {
		cj, ok := columnInfo(in, rb.ID)
		if !ok || cj.distinct <= 0 {
			return 1 / ci.distinct
		}
		return 1 / max(ci.distinct, cj.distinct)
	}
	if c, ok := b.(*plan.Const); ok {
		if c.Val.Null {
			return 0
		}
		if _, direct := a.(*plan.ColRef); direct && ci.hasBounds && c.T.ID == ci.t.ID &&
			(types.Compare(c.Val, ci.min, ci.t) < 0 || types.Compare(c.Val, ci.max, ci.t) > 0) {
			return 0
		}
	}
	return (1 - ci.nullFrac()) / ci.distinct
}

// colRange is an interval of one column's values from range conjuncts.
type colRange struct {
	ci     colInfo
	lo, hi float64
}

func (r *colRange) selectivity() float64 {
	lo, hi := boundFloat(r.ci.min, r.ci.t), boundFloat(r.ci.max, r.ci.t)
	width := hi - lo
	if width <= 0 || math.IsNaN(width) || math.IsInf(width, 0) {
		if r.lo <= lo && r.hi >= hi {
			return 1 - r.ci.nullFrac()
		}
		return 0
	}
	frac := (min(hi, r.hi) - max(lo, r.lo)) / width
	return clampSel(frac) * (1 - r.ci.nullFrac())
}

// rangeClause recognises column op constant (op one of < <= > >=, either
// way round) over a stored column with bounds on a number line; lo is set
// for a lower bound. The constant must be on the column's number line.
func rangeClause(e plan.Expr, in plan.Node) (id plan.ColumnID, ci colInfo, lo bool, v float64, ok bool) {
	call, isCall := e.(*plan.Call)
	if !isCall || len(call.Args) != 2 {
		return
	}
	op := call.Func.Name
	a, b := call.Args[0], call.Args[1]
	if _, isConst := a.(*plan.Const); isConst {
		a, b = b, a
		switch op {
		case "<":
			op = ">"
		case "<=":
			op = ">="
		case ">":
			op = "<"
		case ">=":
			op = "<="
		}
	}
	switch op {
	case "<", "<=":
	case ">", ">=":
		lo = true
	default:
		return
	}
	ref, isRef := a.(*plan.ColRef)
	c, isConst := b.(*plan.Const)
	if !isRef || !isConst || c.Val.Null || numberLine(c.T.ID) == 0 || numberLine(c.T.ID) != numberLine(ref.T.ID) {
		return
	}
	ci, found := columnInfo(in, ref.ID)
	if !found || !ci.hasBounds {
		return
	}
	return ref.ID, ci, lo, boundFloat(c.Val, c.T), true
}

// numberLine says which number line boundFloat puts a type's values on:
// 1 numbers, 2 days (dates and timestamps, so date < timestamp compares
// alike), 0 none.
func numberLine(id types.ID) int {
	switch id {
	case types.Int2, types.Int4, types.Int8, types.Float4, types.Float8, types.Numeric:
		return 1
	case types.Date, types.Timestamp, types.TimestampTZ:
		return 2
	}
	return 0
}

// boundFloat places a value on its type's number line (numberLine).
func boundFloat(v types.Value, t types.Type) float64 {
	switch t.ID {
	case types.Float4, types.Float8:
		return v.F
	case types.Numeric:
		if v.Num == nil {
			return math.NaN()
		}
		f, err := v.Num.Float64()
		if err != nil {
			return math.NaN()
		}
		return f
	case types.Timestamp, types.TimestampTZ:
		return float64(v.I) / 86_400_000_000 // µs since 1970 → days
	}
	return float64(v.I)
}

// joinRows estimates a join's output from its inputs' estimates. With
// equi-keys whose distinct counts storage knows, an inner join yields
// l·r / max(D_l, D_r), D being the key tuple's distinct count (the product
// of its columns', at most the input's rows); the rest of the condition
// then filters as a WHERE would. Otherwise the larger input, the usual
// foreign-key guess.
func joinRows(j *plan.Join, l, r float64) float64 {
	switch j.Type {
	case plan.SemiJoin:
		return semiJoinRows(j, l, r)
	case plan.AntiJoin, plan.MarkJoin:
		return l
	case plan.CrossJoin:
		return l * r
	}
	if j.On == nil {
		return l * r
	}
	inner := max(l, r)
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	dl, dr, keys, known := 1.0, 1.0, 0, true
	var rest []plan.Expr
	for _, e := range conjuncts(j.On) {
		lk, rk, _, ok := equiKey(e, leftCols, rightCols, false)
		if !ok {
			rest = append(rest, e)
			continue
		}
		keys++
		a, okl := distinctOf(j.Left, lk, l)
		b, okr := distinctOf(j.Right, rk, r)
		if !okl || !okr {
			known = false
			continue
		}
		dl, dr = dl*a, dr*b
	}
	if keys > 0 && known {
		inner = max(1, l*r/max(min(dl, l), min(dr, r)))
		if j.Type == plan.InnerJoin && len(rest) > 0 {
			inner = max(1, inner*filterSelectivity(andOf(rest), j))
		}
	} else if keys == 0 && j.Type == plan.InnerJoin {
		inner = max(1, l*r*filterSelectivity(j.On, j))
	}
	switch j.Type {
	case plan.LeftJoin:
		return max(inner, l)
	case plan.RightJoin:
		return max(inner, r)
	case plan.FullJoin:
		return max(inner, l, r)
	}
	return inner
}

// semiJoinRows: a semi join keeps the left rows whose key the right side
// has, l · min(1, D_r / D_l) with the key tuples' distinct counts (as
// joinRows; all of l when a count is unknown).
func semiJoinRows(j *plan.Join, l, r float64) float64 {
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	dl, dr, keys := 1.0, 1.0, 0
	for _, e := range conjuncts(j.On) {
		lk, rk, _, ok := equiKey(e, leftCols, rightCols, false)
		if !ok {
			continue
		}
		a, okl := distinctOf(j.Left, lk, l)
		b, okr := distinctOf(j.Right, rk, r)
		if !okl || !okr {
			return l
		}
		keys++
		dl, dr = dl*a, dr*b
	}
	if keys == 0 {
		return l
	}
	return max(1, l*min(1, min(dr, r)/min(dl, l)))
}
