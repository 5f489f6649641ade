package operators

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// applyOp is a lateral join (plan.Apply): for each left row it runs the
// right plan through env.Subqueries with the row's OuterRefs bound as outer
// values, and joins the row with every right row for which the condition is
// TRUE. A LEFT apply emits a left row without matches once, NULL-extended.
// It preserves the left input's partitioning; right rows are kept in the
// order the right plan produced them, after their left row.
type applyOp struct {
	left      Operator
	right     plan.Node
	typ       plan.JoinType
	on        *Compiled // over left columns then right columns; nil = TRUE
	refIDs    []plan.ColumnID
	refPos    []int // position of refIDs[i] in the left input
	refT      []types.Type
	leftCols  []plan.Column
	rightCols []plan.Column
	cols      []plan.Column
	schema    *arrow.Schema
	env       *Env
}

var _ Operator = (*applyOp)(nil)

// NewApply returns the lateral join of left with the plan right, evaluated
// per left row. typ is plan.InnerJoin, plan.CrossJoin or plan.LeftJoin; on
// (nil = TRUE) may read both sides and enclosing queries' outer values.
func NewApply(left Operator, right plan.Node, typ plan.JoinType, on plan.Expr, outerRefs []plan.ColumnID, env *Env) (Operator, error) {
	switch typ {
	case plan.InnerJoin, plan.CrossJoin, plan.LeftJoin:
	default:
		return nil, errPlan("lateral join of type %d", typ)
	}
	if env == nil || env.Subqueries == nil {
		return nil, pgerr.New(pgerr.InternalError, "operators: lateral join without a subquery runner")
	}
	op := &applyOp{left: left, right: right, typ: typ, env: env,
		leftCols: left.Columns(), rightCols: append([]plan.Column(nil), right.Columns()...)}
	if typ == plan.LeftJoin {
		clearNullable(op.rightCols)
	}
	op.cols = append(append([]plan.Column(nil), op.leftCols...), op.rightCols...)
	op.schema = schemaOf(op.cols)
	for _, id := range outerRefs {
		pos := -1
		for i, c := range op.leftCols {
			if c.ID == id {
				pos = i
				break
			}
		}
		if pos < 0 {
			return nil, pgerr.New(pgerr.InternalError, "operators: lateral reference %d is not a column of the left input", id)
		}
		op.refIDs = append(op.refIDs, id)
		op.refPos = append(op.refPos, pos)
		op.refT = append(op.refT, op.leftCols[pos].Type)
	}
	if on != nil {
		if on.Type().ID != types.Bool {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of JOIN/ON must be type boolean")
		}
		c, err := CompileQual(on, op.cols, env)
		if err != nil {
			return nil, err
		}
		op.on = c
	}
	return op, nil
}

func clearNullable(cols []plan.Column) {
	for i := range cols {
		cols[i].NotNull = false
	}
}

func (a *applyOp) Columns() []plan.Column { return a.cols }
func (a *applyOp) Partitions() int        { return a.left.Partitions() }

func (a *applyOp) Open(ctx context.Context, p int) (Stream, error) {
	s, err := a.left.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	return &applyStream{op: a, in: s, ctx: ctx}, nil
}

type applyStream struct {
	op  *applyOp
	in  Stream
	ctx context.Context
}

func (s *applyStream) Next() (arrow.Record, error) {
	for {
		rec, err := s.in.Next()
		if err != nil {
			return nil, err
		}
		out, err := s.op.join(s.ctx, rec)
		if err != nil {
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
}

func (s *applyStream) Close() error { return s.in.Close() }

// join runs the right plan for every row of rec and returns the joined
// rows (nil if none).
func (a *applyOp) join(ctx context.Context, rec arrow.Record) (arrow.Record, error) {
	n := int(rec.NumRows())
	// Candidate pairs: left row pairLeft[k] with right row pairRight[k].
	var pairLeft []int
	var pairRight [][]types.Value
	for i := 0; i < n; i++ {
		if i%64 == 0 {
			if err := checkCtx(ctx); err != nil {
				return nil, err
			}
		}
		outer := make(map[plan.ColumnID]types.Value, len(a.env.Outer)+len(a.refIDs))
		for id, v := range a.env.Outer {
			outer[id] = v
		}
		for k, id := range a.refIDs {
			outer[id] = types.GetValue(rec.Column(a.refPos[k]), a.refT[k], i)
		}
		rows, err := a.env.Subqueries.RunSubquery(ctx, a.right, outer, -1)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if len(r) != len(a.rightCols) {
				return nil, pgerr.New(pgerr.InternalError, "operators: lateral subquery returned %d columns, want %d", len(r), len(a.rightCols))
			}
			pairLeft = append(pairLeft, i)
			pairRight = append(pairRight, r)
		}
	}
	keep := make([]bool, len(pairLeft))
	for k := range keep {
		keep[k] = true
	}
	if a.on != nil && len(pairLeft) > 0 {
		cand := a.build(rec, pairLeft, pairRight)
		mask, err := a.on.Eval(ctx, cand)
		if err != nil {
			return nil, err
		}
		m := mask.(*array.Boolean)
		for k := range keep {
			keep[k] = m.IsValid(k) && m.Value(k)
		}
	}
	// Emit in left-row order, NULL-extending unmatched rows of a LEFT apply.
	var outLeft []int
	var outRight [][]types.Value
	k := 0
	for i := 0; i < n; i++ {
		matched := false
		for ; k < len(pairLeft) && pairLeft[k] == i; k++ {
			if keep[k] {
				outLeft = append(outLeft, i)
				outRight = append(outRight, pairRight[k])
				matched = true
			}
		}
		if !matched && a.typ == plan.LeftJoin {
			outLeft = append(outLeft, i)
			outRight = append(outRight, nil)
		}
	}
	if len(outLeft) == 0 {
		return nil, nil
	}
	return a.build(rec, outLeft, outRight), nil
}

// build assembles rows: left row left[k] of rec followed by right[k] (nil:
// all NULL).
func (a *applyOp) build(rec arrow.Record, left []int, right [][]types.Value) arrow.Record {
	arrs := make([]arrow.Array, 0, len(a.cols))
	for c := range a.leftCols {
		arrs = append(arrs, takeArray(rec.Column(c), left))
	}
	for c, col := range a.rightCols {
		b := newBuilder(col.Type, len(right))
		for _, r := range right {
			if r == nil {
				b.AppendNull()
				continue
			}
			types.AppendValue(b, col.Type, r[c])
		}
		arrs = append(arrs, b.NewArray())
	}
	return array.NewRecord(a.schema, arrs, int64(len(left)))
}
