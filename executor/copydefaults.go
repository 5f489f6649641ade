package executor

import (
	"context"

	"github.com/joind/joind/operators"
	"github.com/joind/joind/optimizer"
	"github.com/joind/joind/pgcopy"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// CopyDefaults prepares the DEFAULTs of the columns COPY FROM omits
// (bound by the binder as INSERT's are, sql.Copy.Defaults) under the
// statement's EvalContext, for pgcopy to evaluate (pgcopy.Defaults says
// how): errors PostgreSQL's planner raises folding constants fail here,
// before any data is read; a constant default is one value, a volatile one
// is compiled to run per row, any other is evaluated once now.
func CopyDefaults(ctx context.Context, x *sql.Copy, ectx *types.EvalContext) (*pgcopy.Defaults, error) {
	d := pgcopy.NewDefaults(ctx, x)
	if len(x.Defaults) == 0 {
		return d, nil
	}
	defs := x.Table.Columns()
	// PostgreSQL plans the defaults when COPY starts (expression_planner):
	// `DEFAULT 1/0` fails then, even for no rows.
	row := make([]plan.Expr, len(x.Defaults))
	cols := make([]plan.Column, len(x.Defaults))
	for i, cd := range x.Defaults {
		row[i] = cd.Expr
		cols[i] = plan.Column{ID: plan.ColumnID(i + 1), Name: defs[cd.Column].Name, Type: defs[cd.Column].Type}
	}
	if err := optimizer.PlanTimeError(ectx, &plan.Values{Rows: [][]plan.Expr{row}, Cols: cols}); err != nil {
		return nil, err
	}
	env := &operators.Env{Eval: ectx}
	for _, cd := range x.Defaults {
		e := optimizer.FoldConstants(ectx, cd.Expr)
		if k, ok := e.(*plan.Const); ok {
			d.SetValue(cd.Column, k.Val)
			continue
		}
		c, err := operators.Compile(e, nil, env)
		if err != nil {
			return nil, err
		}
		if cd.Volatile {
			d.AddVolatile(cd.Column, c, cd.Ordered)
			continue
		}
		if v, err := c.EvalConst(ctx); err != nil {
			d.SetError(cd.Column, err)
		} else {
			d.SetValue(cd.Column, v)
		}
	}
	return d, nil
}
