package optimizer

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Op is a physical operator kind: the executor builds exactly one operator
// for each physical node, switching on its Op.
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
	OpSetOp // INTERSECT / EXCEPT [ALL]
	OpAppend
	OpHashJoin
	OpNestedLoopJoin
	OpApply
	OpCTEScan
	OpGather
	OpRepartition
	OpTopN // ORDER BY ... LIMIT: a bounded heap per partition, merged
	OpIndexScan
	OpProjectSet
	OpWindow
	OpGroupingSets // each input row once per grouping set (groupingsets.go)
	OpDistinctOn   // SELECT DISTINCT ON: the first row of each run of equal keys
	OpRecursiveUnion
	OpWorkTableScan
	OpStatementRows
)

var opNames = [...]string{
	OpScan: "Scan", OpValues: "Values", OpFunctionScan: "Function Scan", OpFilter: "Filter",
	OpProject: "Project", OpHashAggregate: "Hash Aggregate", OpSort: "Sort", OpLimit: "Limit",
	OpDistinct: "Distinct", OpSetOp: "Set Operation", OpAppend: "Union All", OpHashJoin: "Hash Join",
	OpNestedLoopJoin: "Nested Loop Join", OpApply: "Apply", OpCTEScan: "CTE Scan",
	OpGather: "Gather", OpRepartition: "Repartition", OpTopN: "Top-N Sort",
	OpIndexScan: "Index Scan", OpProjectSet: "ProjectSet", OpWindow: "WindowAgg", OpGroupingSets: "Grouping Sets", OpDistinctOn: "Unique",
	OpRecursiveUnion: "Recursive Union", OpWorkTableScan: "WorkTable Scan", OpStatementRows: "Statement Rows",
}

func (o Op) String() string { return opNames[o] }

// Physical is one node of a physical plan: one operator, with every choice
// the executor needs already made. Logical holds the expressions and
// columns of the logical node it implements (nil for an exchange, which
// only moves its input's rows between partitions).
//
// Partitions is how many partitions the node's operator produces. Where
// partitioning changes there is an explicit exchange node: Gather (N → 1)
// below a Limit, a Distinct, an Apply's per-row side and the root;
// Repartition (hash keys, N → P) below both inputs of a Partitioned hash
// join. Aggregate, Sort, INTERSECT / EXCEPT and a CollectLeft join's build
// side read all their input partitions concurrently themselves (partial
// aggregates and sorted runs per partition, merged inside the operator);
// EXPLAIN shows that as the node's "partitions=N→1".
type Physical struct {
	Op      Op
	Logical plan.Node
	Inputs  []*Physical
	// Rows is the estimated output row count.
	Rows float64
	// Partitions is the number of output partitions (>= 1).
	Partitions int
	// Join is set for hash and nested-loop joins.
	Join *JoinPlan
	// Count and Offset are the evaluated LIMIT/OFFSET (Count < 0: no limit),
	// unless CountExpr / OffsetExpr is set: an expression that did not fold,
	// which the executor evaluates once (limit.go).
	Count, Offset         int64
	CountExpr, OffsetExpr plan.Expr
	// TieKeys are a WITH TIES Limit's sort keys, over its input's columns.
	TieKeys []plan.Expr
	// HashKeys are a Repartition's keys, over its input's columns.
	HashKeys []plan.Expr
	// IndexScan is an index scan's index and key bounds (indexscan.go).
	IndexScan *IndexScanPlan
	// Presorted: a WindowAgg's input partitions arrive in its order already
	// (the WindowAgg below sorted by keys it is a prefix of; window.go).
	Presorted bool
	// RollUp marks a grouping-sets aggregate and its GroupingSets input
	// that aggregate the finest grouping once and roll the sets up from
	// it (groupingsets.go).
	RollUp bool
}

// Columns returns the node's output columns.
func (p *Physical) Columns() []plan.Column {
	if p.Logical == nil {
		return p.Inputs[0].Columns()
	}
	return p.Logical.Columns()
}

// Side names a logical join input.
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

// JoinMode is the partition mode of a hash join (plan.JoinMode, the type
// operators/join executes).
type JoinMode = plan.JoinMode

const (
	CollectLeft = plan.CollectLeft
	Partitioned = plan.Partitioned
)

// JoinPlan is a join as executed. The physical node's Inputs are (build,
// probe) — for a nested-loop join (the collected side, the probed side) —
// and every field is in that order: the executor copies them into
// join.Spec without deciding anything.
type JoinPlan struct {
	// Logical is the join it implements (EXPLAIN's title; the row estimate).
	Logical *plan.Join
	// Build is the logical side Inputs[0] is.
	Build Side
	// Type is the join type over (build, probe): LeftJoin keeps unmatched
	// build rows, RightJoin unmatched probe rows; SemiJoin / AntiJoin /
	// MarkJoin emit build rows unless EmitProbe (RightSemi / RightAnti).
	// A logical join built on its right side is mirrored here.
	Type       plan.JoinType
	EmitProbe  bool
	NullAware  bool
	ValueKeys  int // null-aware: how many leading keys are the IN values
	Mode       JoinMode
	BuildKeys  []plan.Expr // BuildKeys[i] = ProbeKeys[i]
	ProbeKeys  []plan.Expr
	NullsEqual []bool    // IS NOT DISTINCT FROM keys
	Residual   plan.Expr // the rest of the condition, nil if none
	// On is a nested-loop join's whole condition (nil: TRUE).
	On   plan.Expr
	Cols []plan.Column // output columns, matched to the inputs by ColumnID
	Mark *plan.Column  // a mark join's mark column
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
	// Push the restrictions ORs imply down to their relations (a filter
	// left over a join would hide it from join ordering), reorder inner
	// joins once their conditions have been gathered into ON, then push
	// the conditions back down the new tree.
	n = Rewrite(c, DeriveOrRestrictions(n), DefaultRules)
	n = Rewrite(c, ReorderJoins(n), DefaultRules)
	n = AttachSkips(PruneColumns(ReduceGroupedJoins(c, n)))
	pl := &planner{opts: opts}
	p, err := pl.build(n)
	if err != nil {
		return nil, err
	}
	// The root is read as one stream (rows to the client, a subquery's
	// rows, a WITH query's materialized rows).
	return gather(p), nil
}

type planner struct{ opts Options }

// parts is the partition count of scans and of Partitioned joins.
func (pl *planner) parts() int { return max(1, pl.opts.Partitions) }

// gather puts a Gather (N → 1) above p unless it is one partition already.
func gather(p *Physical) *Physical {
	if p.Partitions <= 1 {
		return p
	}
	return &Physical{Op: OpGather, Inputs: []*Physical{p}, Rows: p.Rows, Partitions: 1}
}

// repartition hash-partitions p's rows on keys into n partitions.
func repartition(p *Physical, keys []plan.Expr, n int) *Physical {
	if p.Partitions == 1 && n == 1 {
		return p
	}
	return &Physical{Op: OpRepartition, Inputs: []*Physical{p}, Rows: p.Rows, Partitions: n, HashKeys: keys}
}

func (pl *planner) build(n plan.Node) (*Physical, error) {
	if f, ok := n.(*plan.Filter); ok {
		if p, ok := pl.chooseIndexScan(f); ok {
			return p, nil
		}
	}
	var kids []*Physical
	for _, k := range n.Children() {
		pk, err := pl.build(k)
		if err != nil {
			return nil, err
		}
		kids = append(kids, pk)
	}
	p := &Physical{Logical: n, Inputs: kids, Partitions: 1}
	switch x := n.(type) {
	case *plan.Scan:
		p.Op = OpScan
		p.Rows = float64(x.Table.Stats().Rows)
		p.Partitions = pl.parts()
	case *plan.Values:
		p.Op = OpValues
		p.Rows = float64(len(x.Rows))
	case *plan.FunctionScan:
		p.Op = OpFunctionScan
		p.Rows = EstimateRows(x)
	case *plan.CTEScan:
		// The shared plan is planned once by the executor (like a
		// subquery expression's), not here.
		p.Op = OpCTEScan
		p.Rows = EstimateRows(x.CTE.Plan)
	case *plan.Filter:
		if _, ok := x.Pred.(*plan.And); ok && hasSubquery(x.Pred) {
			x.Pred = andOf(conjuncts(x.Pred)) // subqueries last (exprutil.go)
		}
		p.Op = OpFilter
		p.Rows = max(1, kids[0].Rows*filterSelectivity(x.Pred, x.Input))
		p.Partitions = kids[0].Partitions
	case *plan.Project:
		p.Op = OpProject
		p.Rows = kids[0].Rows
		p.Partitions = kids[0].Partitions
	case *plan.ProjectSet:
		p.Op = OpProjectSet
		p.Rows = kids[0].Rows * setRows(x.Funcs)
		p.Partitions = kids[0].Partitions
	case *plan.GroupingSets:
		p.Op = OpGroupingSets
		p.Rows = kids[0].Rows * float64(len(x.Sets))
		p.Partitions = kids[0].Partitions
	case *plan.Aggregate:
		// Partial aggregation per input partition, merged into one.
		p.Op = OpHashAggregate
		p.Rows = groupRows(x, kids[0].Rows)
		planRollUp(p) // groupingsets.go
	case *plan.Sort:
		p.Op = OpSort
		p.Rows = kids[0].Rows
	case *plan.Window:
		pl.planWindow(p, x)
	case *plan.Limit:
		if err := pl.planLimit(p, x, kids[0]); err != nil { // limit.go
			return nil, err
		}
	case *plan.Distinct:
		p.Op = OpDistinct
		if len(x.On) > 0 {
			p.Op = OpDistinctOn // over its Sort: a streaming unique
		}
		p.Rows = max(1, kids[0].Rows/2)
		p.Inputs[0] = gather(kids[0])
	case *plan.SetOp:
		rows := kids[0].Rows + kids[1].Rows
		if x.Op != plan.Union {
			p.Op = OpSetOp
			p.Rows = rows
			break
		}
		// UNION ALL concatenates the inputs' partitions; UNION removes
		// duplicates from the gathered concatenation.
		p.Op = OpAppend
		p.Rows = rows
		p.Partitions = kids[0].Partitions + kids[1].Partitions
		if !x.All {
			p = &Physical{Op: OpDistinct, Logical: n, Inputs: []*Physical{gather(p)}, Rows: rows, Partitions: 1}
		}
	case *plan.RecursiveUnion, *plan.WorkTableScan, *plan.StatementRows:
		planRecursive(p)
	case *plan.Join:
		if err := pl.planJoin(p, x); err != nil {
			return nil, err
		}
	case *plan.Apply:
		// Inputs[1] is the right side planned once; the executor runs it
		// per left row with that row's OuterRefs bound, as one stream.
		p.Op = OpApply
		p.Rows = kids[0].Rows * max(1, kids[1].Rows)
		if x.Type == plan.LeftJoin {
			p.Rows = max(p.Rows, kids[0].Rows)
		}
		p.Inputs[1] = gather(kids[1])
		p.Partitions = kids[0].Partitions
	default:
		return nil, pgerr.New(pgerr.InternalError, "optimizer: unexpected logical node %T", n)
	}
	return p, nil
}

// topNMax is the largest LIMIT + OFFSET planned as a Top-N Sort: a heap
// of more rows than that saves little over sorting them all.
const topNMax = 100000

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
	return types.LimitValue(pl.opts.Eval, c.Val, c.T, dflt, what)
}

// planJoin splits the condition into equi-keys and a residual, picks the
// algorithm, build side and partition mode, and lays the join out as
// executed: inputs, keys and join type in (build, probe) order, with the
// exchanges a Partitioned join reads through.
func (pl *planner) planJoin(p *Physical, j *plan.Join) error {
	l, r := p.Inputs[0], p.Inputs[1]
	jp := &JoinPlan{Logical: j, Type: j.Type, NullAware: j.NullAware, ValueKeys: j.ValueKeys, Cols: j.Columns(), Mark: j.Mark}
	leftCols, rightCols := outputCols(j.Left), outputCols(j.Right)
	var leftKeys, rightKeys, residual []plan.Expr
	for _, e := range conjuncts(j.On) {
		lk, rk, nullsEq, ok := equiKey(e, leftCols, rightCols, j.NullAware)
		if !ok {
			residual = append(residual, e)
			continue
		}
		leftKeys = append(leftKeys, lk)
		rightKeys = append(rightKeys, rk)
		jp.NullsEqual = append(jp.NullsEqual, nullsEq)
	}
	jp.Residual = andOf(residual)
	p.Join = jp

	p.Rows = joinRows(j, l.Rows, r.Rows)

	if j.NullAware && len(leftKeys) < j.ValueKeys {
		return pgerr.New(pgerr.InternalError, "optimizer: null-aware join without an equi-key for each IN value")
	}
	if len(leftKeys) == 0 {
		// The nested-loop join collects its left input and probes with
		// its right.
		p.Op = OpNestedLoopJoin
		jp.Build = LeftSide
		jp.On = j.On
		jp.Residual = nil
		p.Partitions = r.Partitions
		return nil
	}
	p.Op = OpHashJoin
	jp.Build = pl.chooseBuild(j, len(leftKeys), jp.Residual, l.Rows, r.Rows)
	build, probe := l, r
	jp.BuildKeys, jp.ProbeKeys = leftKeys, rightKeys
	if jp.Build == RightSide {
		// The hash table holds the logical right side: mirror the join.
		build, probe = r, l
		jp.BuildKeys, jp.ProbeKeys = rightKeys, leftKeys
		switch j.Type {
		case plan.LeftJoin:
			jp.Type = plan.RightJoin
		case plan.RightJoin:
			jp.Type = plan.LeftJoin
		case plan.SemiJoin, plan.AntiJoin:
			jp.EmitProbe = true
		case plan.MarkJoin:
			return pgerr.New(pgerr.InternalError, "optimizer: a mark join must build its outer side")
		}
	}
	jp.Mode = CollectLeft
	if !needsCollectLeft(j) {
		switch pl.opts.JoinMode {
		case "partitioned":
			jp.Mode = Partitioned
		case "collect_left":
		default:
			if build.Rows > pl.opts.CollectLeftMaxRows {
				jp.Mode = Partitioned
			}
		}
	}
	if jp.Mode == Partitioned {
		n := pl.parts()
		build, probe = repartition(build, jp.BuildKeys, n), repartition(probe, jp.ProbeKeys, n)
		p.Partitions = n
	} else {
		p.Partitions = probe.Partitions
	}
	p.Inputs = []*Physical{build, probe}
	return nil
}

// chooseBuild picks the hash-table side: the smaller input, except where the
// join's semantics fix it. Null-aware joins never swap their sides (issue 5):
// the subquery side is built for uncorrelated single-key NOT IN, the outer
// side otherwise; mark joins build the outer side so it can emit one mark per
// outer row after all probes finished.
func (pl *planner) chooseBuild(j *plan.Join, keys int, residual plan.Expr, leftRows, rightRows float64) Side {
	switch j.Type {
	case plan.MarkJoin:
		return LeftSide
	case plan.AntiJoin:
		if j.NullAware {
			// RightAnti (build the subquery) decides NULLs globally: legal
			// only for one value key and nothing else in the condition.
			if keys == 1 && residual == nil {
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
func needsCollectLeft(j *plan.Join) bool {
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
