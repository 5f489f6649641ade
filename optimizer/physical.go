package optimizer

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Op is a physical operator kind.
type Op uint8

const (
	OpScan Op = iota
	OpValues
	OpFunctionScan
	OpFilter
	OpProject
	OpHashAggregate
	OpSort
	OpLimit
	OpDistinct
	OpSetOp
	OpHashJoin
	OpNestedLoopJoin
	OpApply
	OpCTEScan
)

var opNames = [...]string{
	OpScan: "Scan", OpValues: "Values", OpFunctionScan: "Function Scan", OpFilter: "Filter",
	OpProject: "Project", OpHashAggregate: "Hash Aggregate", OpSort: "Sort", OpLimit: "Limit",
	OpDistinct: "Distinct", OpSetOp: "Set Operation", OpHashJoin: "Hash Join", OpNestedLoopJoin: "Nested Loop Join",
	OpApply: "Apply", OpCTEScan: "CTE Scan",
}

func (o Op) String() string { return opNames[o] }

// Physical is one node of a physical plan. Logical holds the expressions and
// columns of the logical node it implements; the physical fields add the
// choices the optimizer made.
type Physical struct {
	Op      Op
	Logical plan.Node
	Inputs  []*Physical
	// Rows is the estimated output row count.
	Rows float64
	// Join is set for hash and nested-loop joins.
	Join *JoinPlan
	// Count and Offset are the evaluated LIMIT/OFFSET (Count < 0: no limit).
	Count, Offset int64
}

// Columns returns the node's output columns.
func (p *Physical) Columns() []plan.Column { return p.Logical.Columns() }

// Side names a join input.
type Side uint8

const (
	LeftSide Side = iota
	RightSide
)

func (s Side) String() string {
	if s == LeftSide {
		return "left"
	}
	return "right"
}

// JoinMode is how a hash join spreads over partitions.
type JoinMode uint8

const (
	// CollectLeft: the build side is collected once and shared read-only by
	// all probe partitions.
	CollectLeft JoinMode = iota
	// Partitioned: both sides are hash-repartitioned on the keys; partition i
	// joins its own pair.
	Partitioned
)

func (m JoinMode) String() string {
	if m == CollectLeft {
		return "CollectLeft"
	}
	return "Partitioned"
}

// JoinPlan is the physical choice for a logical join. Keys are expressed over
// the logical sides: LeftKeys[i] reads Logical.Left, RightKeys[i] reads
// Logical.Right.
type JoinPlan struct {
	Logical    *plan.Join
	Build      Side // which logical side the hash table is built from
	Mode       JoinMode
	LeftKeys   []plan.Expr
	RightKeys  []plan.Expr
	NullsEqual []bool    // IS NOT DISTINCT FROM keys
	Residual   plan.Expr // the rest of the condition, nil if none
}

// Options steer physical planning.
type Options struct {
	Partitions int
	// CollectLeftMaxRows is the largest estimated build side planned as
	// CollectLeft; bigger ones are Partitioned where semantics allow.
	CollectLeftMaxRows float64
	// JoinMode forces the partition mode of hash joins where it is legal:
	// "" or "auto" chooses by size; "collect_left" or "partitioned" (for
	// tests and experiments: SET joind.join_mode).
	JoinMode string
	Eval     *types.EvalContext
}

// Plan rewrites a logical plan and chooses its physical operators.
func Plan(n plan.Node, ids *plan.IDAllocator, opts Options) (*Physical, error) {
	if err := PlanTimeError(opts.Eval, n); err != nil {
		return nil, err
	}
	c := &Context{Eval: opts.Eval, IDs: ids}
	n = Rewrite(c, n, DefaultRules)
	// Reorder inner joins once their conditions have been gathered into ON,
	// then push the conditions back down the new tree.
	n = Rewrite(c, ReorderJoins(n), DefaultRules)
	n = AttachSkips(PruneColumns(n))
	pl := &planner{opts: opts}
	return pl.build(n)
}

type planner struct{ opts Options }

func (pl *planner) build(n plan.Node) (*Physical, error) {
	var kids []*Physical
	for _, k := range n.Children() {
		pk, err := pl.build(k)
		if err != nil {
			return nil, err
		}
		kids = append(kids, pk)
	}
	p := &Physical{Logical: n, Inputs: kids}
	switch x := n.(type) {
	case *plan.Scan:
		p.Op = OpScan
		p.Rows = float64(x.Table.Stats().Rows)
	case *plan.Values:
		p.Op = OpValues
		p.Rows = float64(len(x.Rows))
	case *plan.FunctionScan:
		p.Op = OpFunctionScan
		p.Rows = 1000
	case *plan.CTEScan:
		// The shared plan is planned once by the executor (like a
		// subquery expression's), not here.
		p.Op = OpCTEScan
		p.Rows = EstimateRows(x.CTE.Plan)
	case *plan.Filter:
		p.Op = OpFilter
		p.Rows = kids[0].Rows * selectivity(x.Pred)
	case *plan.Project:
		p.Op = OpProject
		p.Rows = kids[0].Rows
	case *plan.Aggregate:
		p.Op = OpHashAggregate
		if len(x.GroupBy) == 0 {
			p.Rows = 1
		} else {
			p.Rows = max(1, kids[0].Rows/10)
		}
	case *plan.Sort:
		p.Op = OpSort
		p.Rows = kids[0].Rows
	case *plan.Limit:
		p.Op = OpLimit
		var err error
		if p.Count, err = pl.constInt(x.Count, -1, "LIMIT"); err != nil {
			return nil, err
		}
		if p.Offset, err = pl.constInt(x.Offset, 0, "OFFSET"); err != nil {
			return nil, err
		}
		p.Rows = max(0, kids[0].Rows-float64(p.Offset))
		if p.Count >= 0 {
			p.Rows = min(p.Rows, float64(p.Count))
		}
	case *plan.Distinct:
		p.Op = OpDistinct
		p.Rows = max(1, kids[0].Rows/2)
	case *plan.SetOp:
		p.Op = OpSetOp
		p.Rows = kids[0].Rows + kids[1].Rows
	case *plan.Join:
		if err := pl.planJoin(p, x); err != nil {
			return nil, err
		}
	case *plan.Apply:
		// Inputs[1] is the right side planned once; the executor runs it
		// per left row with that row's OuterRefs bound.
		p.Op = OpApply
		p.Rows = kids[0].Rows * max(1, kids[1].Rows)
		if x.Type == plan.LeftJoin {
			p.Rows = max(p.Rows, kids[0].Rows)
		}
	default:
		return nil, pgerr.New(pgerr.InternalError, "optimizer: unexpected logical node %T", n)
	}
	return p, nil
}

// constInt evaluates a LIMIT/OFFSET expression folded to a constant.
func (pl *planner) constInt(e plan.Expr, dflt int64, what string) (int64, error) {
	if e == nil {
		return dflt, nil
	}
	e = FoldConstants(pl.opts.Eval, e)
	c, ok := e.(*plan.Const)
	if !ok {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "%s must be a constant", what)
	}
	if c.Val.Null {
		return dflt, nil
	}
	v := c.Val.I
	if c.T.ID == types.Numeric || c.T.ID == types.Float8 || c.T.ID == types.Float4 {
		cv, err := types.CastValue(pl.opts.Eval, c.Val, c.T, types.Int8Type, true)
		if err != nil {
			return 0, err
		}
		v = cv.I
	}
	if v < 0 {
		if what == "LIMIT" {
			return 0, pgerr.New("2201W", "LIMIT must not be negative")
		}
		return 0, pgerr.New("2201X", "OFFSET must not be negative")
	}
	return v, nil
}

// selectivity is a crude estimate of the fraction of rows a predicate keeps.
func selectivity(e plan.Expr) float64 {
	s := 1.0
	for _, c := range conjuncts(e) {
		if call, ok := c.(*plan.Call); ok && call.Func.Name == "=" {
			s *= 0.1
		} else {
			s *= 0.33
		}
	}
	return s
}

// planJoin splits the condition into equi-keys and a residual and picks the
// algorithm, build side and partition mode.
func (pl *planner) planJoin(p *Physical, j *plan.Join) error {
	l, r := p.Inputs[0], p.Inputs[1]
	jp := &JoinPlan{Logical: j}
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	var residual []plan.Expr
	for _, e := range conjuncts(j.On) {
		lk, rk, nullsEq, ok := equiKey(e, leftCols, rightCols, j.NullAware)
		if !ok {
			residual = append(residual, e)
			continue
		}
		jp.LeftKeys = append(jp.LeftKeys, lk)
		jp.RightKeys = append(jp.RightKeys, rk)
		jp.NullsEqual = append(jp.NullsEqual, nullsEq)
	}
	jp.Residual = andOf(residual)
	p.Join = jp

	p.Rows = joinRows(j, l.Rows, r.Rows)

	if j.NullAware && len(jp.LeftKeys) < j.ValueKeys {
		return pgerr.New(pgerr.InternalError, "optimizer: null-aware join without an equi-key for each IN value")
	}
	if len(jp.LeftKeys) == 0 {
		p.Op = OpNestedLoopJoin
		jp.Build = RightSide
		return nil
	}
	p.Op = OpHashJoin
	jp.Build = pl.chooseBuild(j, jp, l.Rows, r.Rows)
	buildRows := r.Rows
	if jp.Build == LeftSide {
		buildRows = l.Rows
	}
	jp.Mode = CollectLeft
	if !needsCollectLeft(j, jp) {
		switch pl.opts.JoinMode {
		case "partitioned":
			jp.Mode = Partitioned
		case "collect_left":
		default:
			if buildRows > pl.opts.CollectLeftMaxRows {
				jp.Mode = Partitioned
			}
		}
	}
	return nil
}

// chooseBuild picks the hash-table side: the smaller input, except where the
// join's semantics fix it. Null-aware joins never swap their sides (issue 5):
// the subquery side is built for uncorrelated single-key NOT IN, the outer
// side otherwise; mark joins build the outer side so it can emit one mark per
// outer row after all probes finished.
func (pl *planner) chooseBuild(j *plan.Join, jp *JoinPlan, leftRows, rightRows float64) Side {
	switch j.Type {
	case plan.MarkJoin:
		return LeftSide
	case plan.AntiJoin:
		if j.NullAware {
			// RightAnti (build the subquery) decides NULLs globally: legal
			// only for one value key and nothing else in the condition.
			if len(jp.LeftKeys) == 1 && jp.Residual == nil {
				return RightSide
			}
			return LeftSide
		}
	}
	if leftRows < rightRows {
		return LeftSide
	}
	return RightSide
}

// needsCollectLeft reports joins whose per-build-row decisions need every
// probe row to see the whole build side.
func needsCollectLeft(j *plan.Join, jp *JoinPlan) bool {
	return j.Type == plan.MarkJoin || j.NullAware
}

// equiKey recognises `l = r` (or IS NOT DISTINCT FROM) with one side over
// each input and hash-compatible types. With constSide, a side may read no
// column at all (it is then computed per row of the input it is given to):
// a null-aware join's IN values must all be keys, in order, and constant
// folding can leave one a constant (NULL / t.c NOT IN (SELECT 1 ...)).
func equiKey(e plan.Expr, leftCols, rightCols colSet, constSide bool) (lk, rk plan.Expr, nullsEq, ok bool) {
	var a, b plan.Expr
	switch x := e.(type) {
	case *plan.Call:
		if x.Func.Name != "=" || len(x.Args) != 2 {
			return nil, nil, false, false
		}
		a, b = x.Args[0], x.Args[1]
	case *plan.IsDistinct:
		if !x.Negate {
			return nil, nil, false, false
		}
		a, b, nullsEq = x.Left, x.Right, true
	default:
		return nil, nil, false, false
	}
	if hasSubquery(a) || hasSubquery(b) {
		return nil, nil, false, false
	}
	ac, bc := exprCols(a), exprCols(b)
	if (len(ac) == 0 || len(bc) == 0) && !constSide {
		return nil, nil, false, false
	}
	switch {
	case ac.subsetOf(leftCols) && bc.subsetOf(rightCols):
	case ac.subsetOf(rightCols) && bc.subsetOf(leftCols):
		a, b = b, a
	default:
		return nil, nil, false, false
	}
	a, b, ok = hashCompatible(a, b)
	return a, b, nullsEq, ok
}

// hashCompatible makes both key expressions the same type so equal values
// hash equally: integers widen to bigint; other types must already match.
func hashCompatible(a, b plan.Expr) (plan.Expr, plan.Expr, bool) {
	at, bt := a.Type(), b.Type()
	if at.ID == bt.ID {
		if at.ID == types.Numeric || at.ID == types.Varchar || at.ID == types.Char {
			// Typmods may differ; values compare by value.
			return a, b, true
		}
		return a, b, at == bt || at.ID != types.Unknown
	}
	if isInt(at.ID) && isInt(bt.ID) {
		return widen(a), widen(b), true
	}
	return nil, nil, false
}

func isInt(id types.ID) bool { return id == types.Int2 || id == types.Int4 || id == types.Int8 }

func widen(e plan.Expr) plan.Expr {
	if e.Type().ID == types.Int8 {
		return e
	}
	return &plan.Cast{Input: e, T: types.Int8Type}
}
