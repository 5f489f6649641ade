package optimizer

import (
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
)

// Index scans. A Filter directly on a Scan of a table with indexes reads
// the rows through an index when some of its conjuncts bound the index's
// leading columns (`col = k` on a prefix of them, then optionally `col <
// k`, `col >= k` ... on the next; k a constant or a parameter) and the
// estimate says they keep few rows (indexScanMaxSel). The Filter stays
// above with its whole predicate: the index only narrows the rows it reads,
// so the answer is the sequential scan's whatever the bounds.

// indexScanMaxSel is the largest estimated fraction of a table's rows an
// index scan is chosen for; above it a (parallel) sequential scan that
// skips segments by their bounds is as fast.
const indexScanMaxSel = 0.05

// IndexScanPlan is an index scan's choice: the index and the bounds on its
// key (expressions a Const or a Param, evaluated when the scan opens).
type IndexScanPlan struct {
	Index storage.IndexDef
	// Lo and Hi bound the key's leading columns (nil: unbounded); equality
	// on a prefix gives Lo = Hi with both inclusive.
	Lo, Hi                   []plan.Expr
	LoInclusive, HiInclusive bool
	// Conds are the conjuncts the bounds come from (EXPLAIN's Index Cond).
	Conds []plan.Expr
}

// boundClause is `col op k` with col a column of the scan.
type boundClause struct {
	e   plan.Expr
	col plan.ColumnID
	op  string // "=", "<", "<=", ">", ">=" with the column on the left
	k   plan.Expr
}

// indexBound matches e as a bound on one of sc's columns.
func indexBound(e plan.Expr, sc *plan.Scan) (boundClause, bool) {
	x, ok := e.(*plan.Call)
	if !ok || x.Func == nil || len(x.Args) != 2 || len(x.Func.Args) != 2 {
		return boundClause{}, false
	}
	op := x.Func.Name
	switch op {
	case "=", "<", "<=", ">", ">=":
	default:
		return boundClause{}, false
	}
	col, k := x.Args[0], x.Args[1]
	if _, ok := col.(*plan.ColRef); !ok {
		col, k = k, col
		op = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
	}
	r, ok := col.(*plan.ColRef)
	if !ok {
		return boundClause{}, false
	}
	owned := false
	for _, c := range sc.Cols {
		owned = owned || c.ID == r.ID
	}
	if !owned {
		return boundClause{}, false
	}
	var kt plan.Expr = k
	switch c := k.(type) {
	case *plan.Const:
		if c.Val.Null {
			return boundClause{}, false
		}
	case *plan.Param:
	default:
		return boundClause{}, false
	}
	// The index orders keys with types.Compare under the column's type:
	// the bound must compare alike (same family as for segment skipping).
	if !sameFamily(r.T.ID, kt.Type().ID) || !sameFamily(r.T.ID, x.Func.Args[0].ID) || !sameFamily(x.Func.Args[0].ID, x.Func.Args[1].ID) {
		return boundClause{}, false
	}
	return boundClause{e: e, col: r.ID, op: op, k: k}, true
}

// chooseIndexScan returns the physical plan of f over an index scan of its
// Scan input, if an index of the table makes one worthwhile.
func (pl *planner) chooseIndexScan(f *plan.Filter) (*Physical, bool) {
	sc, ok := f.Input.(*plan.Scan)
	if !ok {
		return nil, false
	}
	defs := storage.IndexesOf(sc.Table)
	if len(defs) == 0 {
		return nil, false
	}
	var bounds []boundClause
	for _, c := range conjuncts(f.Pred) {
		if b, ok := indexBound(c, sc); ok {
			bounds = append(bounds, b)
		}
	}
	if len(bounds) == 0 {
		return nil, false
	}
	// The scan's column of each table column name.
	colOf := map[string]plan.ColumnID{}
	for i, o := range sc.Ordinals {
		colOf[sc.Table.Columns()[o].Name] = sc.Cols[i].ID
	}
	rows := float64(sc.Table.Stats().Rows)
	var best *IndexScanPlan
	bestSel := 2.0
	for _, d := range defs {
		ip, ok := indexBounds(d, bounds, colOf)
		if !ok {
			continue
		}
		sel := filterSelectivity(andOf(ip.Conds), sc)
		if d.Unique && len(ip.Lo) == len(d.Cols) && ip.LoInclusive && ip.HiInclusive && len(ip.Hi) == len(d.Cols) {
			sel = min(sel, 1/max(1, rows))
		}
		if sel < bestSel {
			best, bestSel = ip, sel
		}
	}
	if best == nil || bestSel > indexScanMaxSel {
		return nil, false
	}
	scan := &Physical{Op: OpIndexScan, Logical: sc, Partitions: 1, Rows: max(1, rows*bestSel), IndexScan: best}
	return &Physical{Op: OpFilter, Logical: f, Inputs: []*Physical{scan}, Partitions: 1,
		Rows: max(1, rows*filterSelectivity(f.Pred, sc))}, true
}

// indexBounds derives d's bounds from the clauses: equalities on a prefix
// of its columns, then a range on the next one.
func indexBounds(d storage.IndexDef, bounds []boundClause, colOf map[string]plan.ColumnID) (*IndexScanPlan, bool) {
	ip := &IndexScanPlan{Index: d}
	var prefix []plan.Expr
	for _, name := range d.Cols {
		id, ok := colOf[name]
		if !ok {
			break
		}
		var eq *boundClause
		var lo, hi *boundClause
		for i := range bounds {
			b := &bounds[i]
			if b.col != id {
				continue
			}
			switch {
			case b.op == "=" && eq == nil:
				eq = b
			case (b.op == ">" || b.op == ">=") && lo == nil:
				lo = b
			case (b.op == "<" || b.op == "<=") && hi == nil:
				hi = b
			}
		}
		if eq != nil {
			prefix = append(prefix, eq.k)
			ip.Conds = append(ip.Conds, eq.e)
			continue
		}
		if lo != nil {
			ip.Lo = append(append([]plan.Expr(nil), prefix...), lo.k)
			ip.LoInclusive = lo.op == ">="
			ip.Conds = append(ip.Conds, lo.e)
		}
		if hi != nil {
			ip.Hi = append(append([]plan.Expr(nil), prefix...), hi.k)
			ip.HiInclusive = hi.op == "<="
			ip.Conds = append(ip.Conds, hi.e)
		}
		break
	}
	if len(ip.Conds) == 0 {
		return nil, false
	}
	if ip.Lo == nil && len(prefix) > 0 {
		ip.Lo, ip.LoInclusive = prefix, true
	}
	if ip.Hi == nil && len(prefix) > 0 {
		ip.Hi, ip.HiInclusive = prefix, true
	}
	return ip, true
}

// explainIndexScan is the index scan's EXPLAIN title and details.
func explainIndexScan(p *Physical) (string, []string) {
	x := p.Logical.(*plan.Scan)
	title := "Index Scan using " + p.IndexScan.Index.Name + " on " + x.Table.Name()
	if x.Alias != "" && x.Alias != x.Table.Name() {
		title += " " + x.Alias
	}
	return title, []string{"Index Cond: " + FormatExpr(andOf(p.IndexScan.Conds))}
}
