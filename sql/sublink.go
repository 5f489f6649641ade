package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// bindSubLink binds a subquery expression. notIn turns x IN (subquery)
// into x <> ALL (subquery) (the caller saw NOT around it).
func (b *binder) bindSubLink(s *scope, sl *pg_query.SubLink, notIn bool) (plan.Expr, error) {
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK, pg_query.SubLinkType_EXPR_SUBLINK,
		pg_query.SubLinkType_ANY_SUBLINK, pg_query.SubLinkType_ALL_SUBLINK:
	case pg_query.SubLinkType_ROWCOMPARE_SUBLINK:
		return b.bindRowCompareSubLink(s, sl) // rowexpr.go
	case pg_query.SubLinkType_ARRAY_SUBLINK:
	default:
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "%s subqueries are not supported", sl.SubLinkType.String()), sl.Location)
	}
	// Aggregates inside the subquery belong to the subquery, and the
	// subquery is not "inside an aggregate" of this level.
	q, child, err := b.bindSelect(sl.Subselect.GetSelectStmt(), s, s.ctes, true)
	if err != nil {
		return nil, err
	}
	sq := &plan.Subquery{Plan: q.node, OuterRefs: child.outerRefs, T: types.BoolType}
	cols := q.node.Columns()
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		sq.Kind = plan.ExistsSubquery
		return sq, nil
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if len(cols) != 1 {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "subquery must return only one column"), sl.Location)
		}
		sq.Kind, sq.T = plan.ScalarSubquery, cols[0].Type
		return sq, nil
	case pg_query.SubLinkType_ARRAY_SUBLINK:
		return b.arraySubquery(sq, cols, sl.Location) // array.go
	}
	// ANY / ALL with a (possibly row-valued) left-hand side.
	var lhsNodes []*pg_query.Node
	if row := sl.Testexpr.GetRowExpr(); row != nil {
		lhsNodes = row.Args
	} else {
		lhsNodes = []*pg_query.Node{sl.Testexpr}
	}
	lhs, err := b.bindList(s, lhsNodes)
	if err != nil {
		return nil, err
	}
	if len(lhs) < len(cols) {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "subquery has too many columns"), sl.Location)
	}
	if len(lhs) > len(cols) {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "subquery has too few columns"), sl.Location)
	}
	op := "="
	if len(sl.OperName) > 0 {
		op = opName(sl.OperName)
	}
	sq.Kind = plan.AnySubquery
	if sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK {
		sq.Kind = plan.AllSubquery
	}
	if notIn {
		op, sq.Kind = "<>", plan.AllSubquery
	}
	var casts []plan.Expr
	needCast := false
	for i := range lhs {
		if notIn {
			// PostgreSQL resolves = and negates: report its errors.
			if _, err := types.ResolveOperator("=", lhs[i].Type(), cols[i].Type); err != nil {
				return nil, b.wrapAt(err, sl.Location)
			}
		}
		ov, err := types.ResolveOperator(op, lhs[i].Type(), cols[i].Type)
		if err != nil {
			return nil, b.wrapAt(err, sl.Location)
		}
		if ov.Result.ID != types.Bool {
			return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "operator %s must return type boolean, not type %s", op, typeName(ov.Result)), sl.Location)
		}
		if lhs[i], err = b.coerce(lhs[i], ov.Args[0], coerceImplicit, b.locOf(lhs[i])); err != nil {
			return nil, err
		}
		var ref plan.Expr = &plan.ColRef{ID: cols[i].ID, T: cols[i].Type, Name: cols[i].Name}
		if cols[i].Type != ov.Args[1] {
			if ref, err = b.coerce(ref, ov.Args[1], coerceImplicit, sl.Location); err != nil {
				return nil, err
			}
			needCast = true
		}
		casts = append(casts, ref)
		sq.Ops = append(sq.Ops, ov)
	}
	if len(lhs) > 1 && orderingOp(op) {
		return b.rowCompareSubquery(sq, q.node, lhs, casts, op)
	}
	if needCast {
		p := &plan.Project{Input: q.node, Exprs: casts}
		for i, c := range cols {
			nc := c
			nc.ID, nc.Type = b.ids.Next(), casts[i].Type()
			p.Cols = append(p.Cols, nc)
		}
		sq.Plan = p
	}
	sq.LHS = lhs
	return sq, nil
}

// orderingOp reports whether a row comparison with op is lexicographic
// (PostgreSQL's RowCompareExpr) rather than an AND (=) or OR (<>) of the
// element comparisons.
func orderingOp(op string) bool {
	switch op {
	case "<", "<=", ">", ">=":
		return true
	}
	return false
}

// rowCompareSubquery binds (l1, ..., ln) op ANY/ALL (subquery) for an
// ordering op. The rows compare lexicographically, which per-column
// operators cannot express, so the comparison moves into the subquery:
//
//	true = ANY/ALL (SELECT rowcmp(l, c) FROM (subquery) c)
//
// with the left-hand values as outer references. rowcmp is
// l1 < c1 OR (l1 = c1 AND (... ln op cn)), whose three-valued result is
// RowCompareExpr's (NULL as soon as a NULL pair decides nothing).
func (b *binder) rowCompareSubquery(sq *plan.Subquery, input plan.Node, lhs, rhs []plan.Expr, op string) (plan.Expr, error) {
	n := len(lhs)
	cmp, err := lexicographic(n, op, func(name string, i int) (plan.Expr, error) {
		if i == n-1 {
			return &plan.Call{Func: sq.Ops[n-1], Args: []plan.Expr{lhs[n-1], rhs[n-1]}}, nil
		}
		ov, err := types.ResolveOperator(name, lhs[i].Type(), rhs[i].Type())
		if err != nil {
			return nil, b.wrapAt(err, b.locOf(lhs[i]))
		}
		args := []plan.Expr{lhs[i], rhs[i]}
		if err := b.castArgs(args, ov.Args); err != nil {
			return nil, err
		}
		return &plan.Call{Func: ov, Args: args}, nil
	})
	if err != nil {
		return nil, err
	}
	sq.Plan = &plan.Project{Input: input, Exprs: []plan.Expr{cmp},
		Cols: []plan.Column{{ID: b.ids.Next(), Name: "?column?", Type: types.BoolType}}}
	for _, l := range lhs {
		var ids []plan.ColumnID
		collectColRefs(l, &ids)
		for _, id := range ids {
			dup := false
			for _, x := range sq.OuterRefs {
				dup = dup || x == id
			}
			if !dup {
				sq.OuterRefs = append(sq.OuterRefs, id)
			}
		}
	}
	eq, err := types.ResolveOperator("=", types.BoolType, types.BoolType)
	if err != nil {
		return nil, err
	}
	sq.LHS = []plan.Expr{&plan.Const{Val: types.BoolValue(true), T: types.BoolType}}
	sq.Ops = []*types.Overload{eq}
	return sq, nil
}
