package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Aggregate calls with ORDER BY (string_agg(x, ',' ORDER BY y)) and
// ordered-set aggregates (percentile_cont(0.5) WITHIN GROUP (ORDER BY x)):
// both bind to a plan.AggCall whose Order the executor sorts each group's
// rows by before they reach the accumulator.

// aggOrderItem is one bound ORDER BY entry of an aggregate call.
type aggOrderItem struct {
	expr             plan.Expr
	desc, nullsFirst bool
	loc              int32
}

// bindSortExpr binds an ORDER BY entry of a window or an aggregate call
// as a plain expression (a constant is no column position there), with
// its direction and NULLS placement.
func (b *binder) bindSortExpr(s *scope, sb *pg_query.SortBy) (e plan.Expr, desc, nullsFirst bool, err error) {
	if e, err = b.bindExpr(s, sb.Node); err != nil {
		return nil, false, false, err
	}
	e = b.resolveUnknown(e)
	desc, nullsFirst, err = b.sortDirection(sb, e.Type())
	return e, desc, nullsFirst, err
}

// bindAggOrder binds an aggregate call's ORDER BY (or WITHIN GROUP)
// entries in s: plain expressions (a constant is no column position here).
func (b *binder) bindAggOrder(s *scope, clause []*pg_query.Node) ([]aggOrderItem, error) {
	var out []aggOrderItem
	for _, n := range clause {
		sb := n.GetSortBy()
		e, desc, nf, err := b.bindSortExpr(s, sb)
		if err != nil {
			return nil, err
		}
		out = append(out, aggOrderItem{expr: e, desc: desc, nullsFirst: nf, loc: nodeLocation(sb.Node)})
	}
	return out, nil
}

func orderExprs(order []aggOrderItem) []plan.Expr {
	out := make([]plan.Expr, len(order))
	for i, o := range order {
		out[i] = o.expr
	}
	return out
}

// attachAggOrder gives call (whose Args are cast to its function's) the
// ORDER BY order: a key equal to an argument sorts by that argument, any
// other is appended to Args. With DISTINCT every key must be an argument
// (raw holds them as written, before the casts), as in PostgreSQL.
func (b *binder) attachAggOrder(call *plan.AggCall, raw []plan.Expr, order []aggOrderItem) error {
	nfunc := len(call.Args)
	for _, o := range order {
		idx := -1
		for i := 0; i < nfunc; i++ {
			// DISTINCT compares with the arguments as written.
			if (!call.Distinct && exprEqual(call.Args[i], o.expr)) || (call.Distinct && exprEqual(raw[i], o.expr)) {
				idx = i
				break
			}
		}
		if idx < 0 && call.Distinct {
			return b.errAt(pgerr.New(pgerr.InvalidColumnReference,
				"in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list"), o.loc)
		}
		if idx < 0 {
			call.Args = append(call.Args, o.expr)
			idx = len(call.Args) - 1
		}
		call.Order = append(call.Order, plan.AggSortKey{Arg: idx, Desc: o.desc, NullsFirst: o.nullsFirst})
	}
	return nil
}

// checkWithinGroupSyntax rejects what PostgreSQL rejects before resolving
// an aggregate with WITHIN GROUP (or an ordered-set one without it).
func (b *binder) checkWithinGroupSyntax(s *scope, fc *pg_query.FuncCall, name string) error {
	if !fc.AggWithinGroup {
		if fc.Over != nil || len(fc.Args) == 0 || fc.AggStar {
			return nil
		}
		hypothetical, orderedSet := types.IsHypotheticalAggregate(name), types.IsOrderedSetAggregate(name)
		if !hypothetical && !orderedSet {
			return nil
		}
		// PostgreSQL transforms the arguments and FILTER first, so their
		// errors come before this one.
		args, _, err := b.bindAggArgs(s, fc)
		if err != nil {
			return err
		}
		required := hypothetical
		if orderedSet {
			// Only when the arguments match the aggregate's signature.
			ts := make([]types.Type, len(args))
			for i, a := range args {
				ts[i] = a.Type()
			}
			_, err = types.ResolveAggregate(name, ts, false)
			required = err == nil
		}
		if required {
			return b.errAt(pgerr.New(pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name), fc.Location)
		}
		return nil
	}
	if fc.AggDistinct {
		return b.errAt(pgerr.New(pgerr.SyntaxError, "cannot use DISTINCT with WITHIN GROUP"), fc.Location)
	}
	if fc.Over != nil && (types.IsOrderedSetAggregate(name) || types.IsHypotheticalAggregate(name)) {
		return b.errAt(pgerr.New(pgerr.FeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name), fc.Location)
	}
	return nil
}

// resolveWithinGroup builds the call of an ordered-set or hypothetical-set
// aggregate over direct arguments args and the WITHIN GROUP order.
func (b *binder) resolveWithinGroup(fc *pg_query.FuncCall, name string, args []plan.Expr, order []aggOrderItem) (plan.AggCall, error) {
	ordered := orderExprs(order)
	all := append(append([]plan.Expr(nil), args...), ordered...)
	sig := func() string {
		parts := make([]string, len(all))
		for i, e := range all {
			parts[i] = typeName(e.Type())
		}
		return strings.Join(parts, ", ")
	}
	if fc.AggStar || (!types.IsOrderedSetAggregate(name) && !types.IsHypotheticalAggregate(name)) {
		ts := make([]types.Type, len(all))
		for i, e := range all {
			ts[i] = e.Type()
		}
		if fc.AggStar || isAggregateName(name) {
			if _, err := types.ResolveAggregate(name, ts, fc.AggStar); err == nil || fc.AggStar {
				return plan.AggCall{}, b.errAt(pgerr.New(pgerr.WrongObjectType,
					"%s is not an ordered-set aggregate, so it cannot have WITHIN GROUP", name), fc.Location)
			}
		}
		return plan.AggCall{}, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, sig()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	call := plan.AggCall{WithinGroup: true, Direct: len(args)}
	if types.IsHypotheticalAggregate(name) {
		if len(args) != len(ordered) {
			return plan.AggCall{}, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, sig()).
				WithHint("To use the hypothetical-set aggregate %s, the number of hypothetical direct arguments (here %d) must match the number of ordering columns (here %d).",
					name, len(args), len(ordered)), fc.Location)
		}
		keys := make([]types.HypotheticalOrder, len(args))
		for i := range args {
			t, err := b.commonType("WITHIN GROUP", []plan.Expr{args[i], ordered[i]})
			if err != nil {
				return plan.AggCall{}, err
			}
			if args[i], err = b.coerceCommon("WITHIN GROUP", args[i], t); err != nil {
				return plan.AggCall{}, err
			}
			if ordered[i], err = b.coerceCommon("WITHIN GROUP", ordered[i], t); err != nil {
				return plan.AggCall{}, err
			}
			keys[i] = types.HypotheticalOrder{T: t, Desc: order[i].desc, NullsFirst: order[i].nullsFirst}
		}
		call.Func = types.HypotheticalAggregate(name, keys)
	} else {
		for _, a := range args {
			if a.Type().ID == types.Unknown {
				continue
			}
			if strings.HasSuffix(typeName(a.Type()), "[]") {
				return plan.AggCall{}, b.errAt(pgerr.New(pgerr.FeatureNotSupported,
					"%s with an array of fractions is not supported", name), fc.Location)
			}
		}
		ts := make([]types.Type, len(all))
		for i, e := range all {
			ts[i] = e.Type()
		}
		ov, err := types.ResolveAggregate(name, ts, false)
		if err != nil {
			return plan.AggCall{}, b.wrapAt(err, fc.Location)
		}
		if err := b.castArgs(all, ov.Args); err != nil {
			return plan.AggCall{}, err
		}
		copy(args, all[:len(args)])
		copy(ordered, all[len(args):])
		// A constant fraction is checked even for a group without rows.
		var consts []types.Value
		for _, a := range args {
			if c, ok := a.(*plan.Const); ok {
				consts = append(consts, c.Val)
			}
		}
		if len(args) > 0 && len(consts) == len(args) {
			ov = types.WithDirectArgs(ov, consts)
		}
		call.Func = ov
	}
	call.Args = append(append([]plan.Expr(nil), args...), ordered...)
	for i, o := range order {
		call.Order = append(call.Order, plan.AggSortKey{Arg: len(args) + i, Desc: o.desc, NullsFirst: o.nullsFirst})
	}
	return call, nil
}

// checkDirectArgs applies rg (the grouped-column check of the select list)
// to the direct arguments of the level's ordered-set aggregates: they are
// evaluated per group, so they may read only grouped columns.
func (b *binder) checkDirectArgs(rg *regrouper, calls []plan.AggCall) error {
	for _, c := range calls {
		if !c.WithinGroup {
			continue
		}
		for _, a := range c.Args[:c.Direct] {
			if _, err := rg.rewrite(a); err != nil {
				e := pgerr.As(err)
				if e.Code == pgerr.GroupingError && e.Detail == "" {
					return e.WithDetail("Direct arguments of an ordered-set aggregate must use only grouped columns.")
				}
				return err
			}
		}
	}
	return nil
}
