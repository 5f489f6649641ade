package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Calls of user-defined SQL functions. A body whose final statement is a
// bare `SELECT expr` is inlined as PostgreSQL's inline_function does: the
// expression bound with the arguments in place of the parameters. Any
// other body becomes a scalar subquery over its final SELECT (its first
// row, as a SQL function returns), correlated with the caller through the
// arguments; in FROM, the body's rows are the function's rows. STRICT is a
// CASE over the arguments' nullness.

// resolveUserFunc picks the user function name(args) (PostgreSQL's
// candidate selection over the visible functions of that name, DEFAULTs
// filling trailing parameters), casting args to its parameter types and
// appending the defaults. ok is false when no user function matches.
func (b *binder) resolveUserFunc(schema, name string, args []plan.Expr, loc int32) (storage.Function, []plan.Expr, bool, error) {
	cands := b.visibleFunctions(schema, name)
	var sigs [][]types.Type
	var which []storage.Function
	for _, f := range cands {
		in := f.InputTypes()
		defaults := 0
		for _, a := range f.Args {
			if a.Input() && a.Default != "" {
				defaults++
			}
		}
		if len(args) > len(in) || len(args) < len(in)-defaults {
			continue
		}
		sigs, which = append(sigs, in[:len(args)]), append(which, f)
	}
	argTypes := make([]types.Type, len(args))
	for i, a := range args {
		argTypes[i] = a.Type()
	}
	best, amb := types.SelectCandidate(sigs, argTypes)
	if amb {
		return storage.Function{}, nil, true, b.errAt(pgerr.New(pgerr.AmbiguousFunction, "function %s(%s) is not unique", name, argTypeList(args)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts."), loc)
	}
	if best < 0 {
		return storage.Function{}, nil, false, nil
	}
	f := which[best]
	in := f.InputTypes()
	if err := b.castArgs(args, in); err != nil {
		return storage.Function{}, nil, true, err
	}
	var inputs []storage.FuncArg
	for _, a := range f.Args {
		if a.Input() {
			inputs = append(inputs, a)
		}
	}
	for j := len(args); j < len(in); j++ {
		d, err := b.bindDefaultArg(inputs[j].Default, in[j])
		if err != nil {
			return storage.Function{}, nil, true, err
		}
		args = append(args, d)
	}
	return f, args, true, nil
}

// userFuncCall binds a call of a user function in an expression; ok is
// false when no user function of that name and arguments exists.
func (b *binder) userFuncCall(s *scope, schema, name string, args []plan.Expr, loc int32) (plan.Expr, bool, error) {
	if len(b.visibleFunctions(schema, name)) == 0 {
		return nil, false, nil
	}
	f, args, ok, err := b.resolveUserFunc(schema, name, args, loc)
	if !ok || err != nil {
		return nil, ok, err
	}
	if f.RetSet {
		e, err := b.setFuncInSelect(s, f, args, loc)
		return e, true, err
	}
	e, err := b.expandFuncCall(f, args, loc)
	return e, true, err
}

// setFuncInSelect is a set-returning call outside FROM: unnest over the
// ARRAY of the body's rows, so the set function machinery (ProjectSet)
// yields them in the body's order, none for a NULL (STRICT) result.
func (b *binder) setFuncInSelect(s *scope, f storage.Function, args []plan.Expr, loc int32) (plan.Expr, error) {
	if err := b.checkSetFuncPlacement(s, loc); err != nil {
		return nil, err
	}
	if f.Result.ID == types.Array || f.Result.ID == types.Void {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "set-returning SQL function %s of %s outside FROM is not supported", f.Name, f.Result.SQLName()), loc)
	}
	leave, err := b.enterFunction(f, loc)
	if err != nil {
		return nil, err
	}
	sel, err := b.bodySelects(f, args)
	var sq *plan.Subquery
	if err == nil && sel == nil {
		err = errRetMismatch(f, "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.")
	}
	if err == nil {
		var e plan.Expr
		if e, err = b.funcSubquery(f, sel, args); err == nil {
			sq = e.(*plan.Subquery)
		}
	}
	leave()
	if err != nil {
		return nil, withoutPosition(err)
	}
	sq.Kind, sq.T = plan.ArraySubquery, types.ArrayOf(sq.T)
	sq.Plan = sq.Plan.(*plan.Limit).Input // every row
	ov, err := types.ResolveFunction("unnest", []types.Type{sq.T})
	if err != nil {
		return nil, b.wrapAt(err, loc)
	}
	return &plan.Call{Func: ov, Args: []plan.Expr{strictCall(f, args, sq)}}, nil
}

// enterFunction guards against a body that calls itself (PostgreSQL
// runs recursive SQL functions; inlining them would never end).
func (b *binder) enterFunction(f storage.Function, loc int32) (func(), error) {
	for _, id := range b.funcStack {
		if id == f.ID {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "recursive SQL function %s is not supported", f.Name), loc)
		}
	}
	// EXECUTE is checked as current_user wherever the call stands, a
	// view's body too (PostgreSQL's ExecInitFunc asks GetUserId()).
	b.perms = append(b.perms, PermCheck{OID: f.OID(), Name: f.Name, Func: true, Priv: storage.PrivExecute, colsKnown: true})
	saved := b.query
	b.funcStack = append(b.funcStack, f.ID)
	b.query = f.Body
	return func() {
		b.funcStack = b.funcStack[:len(b.funcStack)-1]
		b.query = saved
	}, nil
}

// bodySelects parses f's body for a call: every statement a SELECT (the
// earlier ones bound for their errors only, as PostgreSQL runs them for
// nothing but their errors), the last one returned.
func (b *binder) bodySelects(f storage.Function, args []plan.Expr) (*pg_query.SelectStmt, error) {
	stmts, err := bodyStatements(f)
	if err != nil {
		return nil, err
	}
	if len(stmts) == 0 {
		return nil, nil
	}
	for i, st := range stmts {
		sel := st.GetSelectStmt()
		if sel == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "SQL function %s: only bodies of SELECT statements are supported", f.Name)
		}
		if i < len(stmts)-1 {
			if _, _, err := b.bindFuncSelect(f, sel, args); err != nil {
				return nil, err
			}
		}
	}
	return stmts[len(stmts)-1].GetSelectStmt(), nil
}

// inlinable reports a final statement PostgreSQL's inline_function would
// inline: SELECT of one expression and nothing else.
func inlinable(sel *pg_query.SelectStmt) bool {
	return sel != nil && len(sel.TargetList) == 1 && len(sel.FromClause) == 0 && sel.WhereClause == nil &&
		len(sel.GroupClause) == 0 && sel.HavingClause == nil && len(sel.SortClause) == 0 && sel.LimitCount == nil &&
		sel.LimitOffset == nil && sel.WithClause == nil && len(sel.DistinctClause) == 0 && len(sel.WindowClause) == 0 &&
		(sel.Op == pg_query.SetOperation_SETOP_NONE || sel.Op == pg_query.SetOperation_SET_OPERATION_UNDEFINED) && len(sel.ValuesLists) == 0 && sel.IntoClause == nil
}

// expandFuncCall is the expression of the call f(args).
func (b *binder) expandFuncCall(f storage.Function, args []plan.Expr, loc int32) (plan.Expr, error) {
	leave, err := b.enterFunction(f, loc)
	if err != nil {
		return nil, err
	}
	defer leave()
	sel, err := b.bodySelects(f, args)
	if err != nil {
		return nil, withoutPosition(err)
	}
	var e plan.Expr
	if f.Result.ID == types.Void {
		if sel != nil {
			if _, _, err := b.bindFuncSelect(f, sel, args); err != nil {
				return nil, withoutPosition(err)
			}
		}
		e = &plan.Const{Val: types.NullValue, T: types.VoidType} // a SQL function's void is NULL
	} else if e, err = b.inlineFuncCall(f, sel, args); err != nil || e == nil {
		if e, err = b.funcSubquery(f, sel, args); err != nil {
			return nil, withoutPosition(err)
		}
	}
	return strictCall(f, args, e), nil
}

// inlineFuncCall binds an inlinable body's expression with the
// arguments in place; nil when the body is not inlinable or its
// expression needs a query level of its own (an aggregate).
func (b *binder) inlineFuncCall(f storage.Function, sel *pg_query.SelectStmt, args []plan.Expr) (plan.Expr, error) {
	if !inlinable(sel) || funcResultColumns(f) != nil || f.Result.ID == types.Record {
		return nil, nil
	}
	rt := sel.TargetList[0].GetResTarget()
	if rt == nil || rt.Val.GetColumnRef() != nil && isStar(rt.Val.GetColumnRef()) {
		return nil, nil
	}
	ps := paramScope(f, args)
	saved := b.funcScope
	b.funcScope = ps
	defer func() { b.funcScope = saved }()
	e, err := b.bindExpr(&scope{parent: ps, exprKind: "SELECT"}, rt.Val)
	if err != nil {
		return nil, nil // the subquery form reports the body's error
	}
	e = b.resolveUnknown(e)
	ce, err := b.coerce(e, f.Result, coerceAssignment, -1)
	if err != nil {
		return nil, errRetMismatch(f, "Actual return type is "+e.Type().SQLName()+".")
	}
	return ce, nil
}

// funcSubquery is the call as a scalar subquery over the body's final
// SELECT: its first row, its columns a row value for a row result.
func (b *binder) funcSubquery(f storage.Function, sel *pg_query.SelectStmt, args []plan.Expr) (plan.Expr, error) {
	q, bs, err := b.bindFuncSelect(f, sel, args)
	if err != nil {
		return nil, err
	}
	exprs, err := b.funcResult(f, q)
	if err != nil {
		return nil, err
	}
	t := f.Result
	var out plan.Expr
	if names, ts := funcResultFields(f); names != nil {
		if t.UserOID == 0 {
			t = types.RecordOf(types.RecordDesc{Fields: names, Types: ts})
		}
		out = &plan.Call{Func: types.RowConstructor(t), Args: exprs}
	} else if len(exprs) == 1 && (!anonymousRecord(f) || exprs[0].Type().ID == types.Record) {
		out = exprs[0]
	} else if anonymousRecord(f) {
		ts := make([]types.Type, len(exprs))
		for i, e := range exprs {
			ts[i] = e.Type()
		}
		t = types.AnonymousRecord(ts)
		out = &plan.Call{Func: types.RowConstructor(t), Args: exprs}
	} else {
		return nil, errRetMismatch(f, "Final statement must return exactly one column.")
	}
	node := &plan.Limit{Input: &plan.Project{Input: q.node, Exprs: []plan.Expr{out},
		Cols: []plan.Column{{ID: b.ids.Next(), Name: f.Name, Type: t}}},
		Count: &plan.Const{Val: types.IntValue(1), T: types.Int8Type}}
	return &plan.Subquery{Kind: plan.ScalarSubquery, Plan: node, OuterRefs: bs.outerRefs, T: t}, nil
}

// strictCall is e, or NULL when f is STRICT and an argument is NULL.
func strictCall(f storage.Function, args []plan.Expr, e plan.Expr) plan.Expr {
	if !f.Strict {
		return e
	}
	var conds []plan.Expr
	for _, a := range args {
		if c, ok := a.(*plan.Const); ok && !c.Val.Null {
			continue
		}
		conds = append(conds, &plan.IsNull{Arg: a})
	}
	switch len(conds) {
	case 0:
		return e
	case 1:
	default:
		conds = []plan.Expr{&plan.Or{Args: conds}}
	}
	return &plan.Case{Whens: []plan.When{{Cond: conds[0], Result: &plan.Const{Val: types.NullValue, T: e.Type()}}}, Else: e, T: e.Type()}
}

// userFuncInFrom binds FROM f(args) for a user function f: the body's
// rows (one row for a function not declared SETOF) under the function's
// column names. ok is false when no user function has the name.
func (b *binder) userFuncInFrom(fs *scope, rf *pg_query.RangeFunction, fc *pg_query.FuncCall) (plan.Node, *nsItem, bool, error) {
	schema, name := "", funcName(fc.Funcname)
	if len(fc.Funcname) == 2 {
		schema = fc.Funcname[0].GetString_().GetSval()
	}
	if len(b.visibleFunctions(schema, name)) == 0 || fc.FuncVariadic || hasNamedArgs(fc.Args) {
		return nil, nil, false, nil
	}
	args, err := b.bindList(fs, fc.Args)
	if err != nil {
		return nil, nil, true, err
	}
	f, args, ok, err := b.resolveUserFunc(schema, name, args, fc.Location)
	if !ok || err != nil {
		return nil, nil, ok, err
	}
	fields, fieldTypes := funcResultFields(f)
	anonymous := anonymousRecord(f)
	coldefs := rf.Coldeflist
	if fl := rf.Functions[0].GetList().GetItems(); len(coldefs) == 0 && len(fl) > 1 {
		coldefs = fl[1].GetList().GetItems() // ROWS FROM (f() AS (...))
	}
	if len(coldefs) > 0 && !anonymous {
		return nil, nil, true, b.checkColumnDefinitionLists(rf, fields != nil && f.Result.UserOID == 0)
	}
	if anonymous && len(coldefs) == 0 {
		return nil, nil, true, b.errAt(pgerr.New(pgerr.SyntaxError, "a column definition list is required for functions returning \"record\""), fc.Location)
	}
	alias := name
	if rf.Alias != nil {
		alias = rf.Alias.Aliasname
	}
	var node plan.Node
	var names []string
	var ts []types.Type
	if !f.RetSet && fields == nil && !anonymous {
		// One row: the call's value.
		e, err := b.expandFuncCall(f, args, fc.Location)
		if err != nil {
			return nil, nil, true, err
		}
		names, ts = []string{alias}, []types.Type{f.Result}
		c := plan.Column{ID: b.ids.Next(), Name: alias, Table: alias, Type: f.Result}
		node = &plan.Values{Rows: [][]plan.Expr{{e}}, Cols: []plan.Column{c}}
		if d := f.Result.Desc(); f.Result.ID == types.Record && f.Result.Domain != 0 && d != nil {
			// A domain over a composite is TYPEFUNC_COMPOSITE_DOMAIN: in
			// FROM its (checked) value's fields are the columns.
			p := &plan.Project{Input: node}
			names, ts = append([]string(nil), d.Fields...), append([]types.Type(nil), d.Types...)
			for i, n := range names {
				fe, err := b.selectRecordField(&plan.ColRef{ID: c.ID, T: c.Type, Name: alias}, n, fc.Location)
				if err != nil {
					return nil, nil, true, err
				}
				p.Exprs = append(p.Exprs, fe)
				p.Cols = append(p.Cols, plan.Column{ID: b.ids.Next(), Name: n, Table: alias, Type: ts[i]})
			}
			node = p
		}
	} else {
		leave, err := b.enterFunction(f, fc.Location)
		if err != nil {
			return nil, nil, true, err
		}
		sel, err := b.bodySelects(f, args)
		var q *boundQuery
		var exprs []plan.Expr
		if err == nil && sel == nil {
			err = errRetMismatch(f, "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.")
		}
		if err == nil {
			q, _, err = b.bindFuncSelect(f, sel, args)
		}
		if err == nil && anonymous {
			exprs, names, ts, err = b.coldefColumns(coldefs, q)
		} else if err == nil && f.Result.ID == types.Void {
			exprs, names, ts = []plan.Expr{&plan.Const{Val: types.NullValue, T: types.VoidType}}, []string{alias}, []types.Type{f.Result}
			// PostgreSQL's FROM function of SETOF void yields no rows.
			q.node = &plan.Filter{Input: q.node, Pred: &plan.Const{Val: types.BoolValue(false), T: types.BoolType}}
		} else if err == nil {
			exprs, err = b.funcResult(f, q)
			names, ts = fields, fieldTypes
			if fields == nil {
				names, ts = []string{alias}, []types.Type{f.Result}
			}
		}
		leave()
		if err != nil {
			return nil, nil, true, withoutPosition(err)
		}
		p := &plan.Project{Input: q.node, Exprs: exprs}
		for i, n := range names {
			p.Cols = append(p.Cols, plan.Column{ID: b.ids.Next(), Name: n, Table: alias, Type: ts[i]})
		}
		node = p
		if !f.RetSet {
			node = &plan.Limit{Input: node, Count: &plan.Const{Val: types.IntValue(1), T: types.Int8Type}}
		}
		if cond := strictCall(f, args, &plan.Const{Val: types.BoolValue(true), T: types.BoolType}); cond != nil {
			if c, ok := cond.(*plan.Case); ok {
				node = &plan.Filter{Input: node, Pred: &plan.Not{Arg: c.Whens[0].Cond}}
			}
		}
	}
	if rf.Ordinality {
		// The rows numbered in the order the body yields them: row_number()
		// over no partition and no ordering keeps its input's order.
		cols := append(append([]plan.Column(nil), node.Columns()...), plan.Column{ID: b.ids.Next(), Name: "ordinality", Table: alias, Type: types.Int8Type})
		node = &plan.Window{Input: node, Funcs: []plan.WindowFunc{{Name: "row_number",
			Frame: plan.Frame{Mode: plan.FrameRange, Start: plan.FrameBound{Kind: plan.UnboundedPreceding}, End: plan.FrameBound{Kind: plan.CurrentRow}}}},
			Cols: cols}
		names = append(names, "ordinality")
	}
	if rf.Alias != nil && len(rf.Alias.Colnames) > 0 {
		if len(rf.Alias.Colnames) > len(names) {
			return nil, nil, true, b.errAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
				alias, len(names), len(rf.Alias.Colnames)), -1)
		}
		for i, cn := range rf.Alias.Colnames {
			names[i] = cn.GetString_().GetSval()
		}
	}
	it := &nsItem{name: alias, relVisible: true, colsVisible: true}
	for i, c := range node.Columns() {
		b.colTable[c.ID], b.colName[c.ID] = alias, names[i]
		it.cols = append(it.cols, nsColumn{name: names[i], table: alias, expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: names[i]}})
	}
	return node, it, true, nil
}

// coldefColumns are the columns of a body returning an anonymous record,
// named and typed by the column definition list.
func (b *binder) coldefColumns(coldefs []*pg_query.Node, q *boundQuery) ([]plan.Expr, []string, []types.Type, error) {
	cols := q.node.Columns()
	if len(cols) != len(coldefs) {
		return nil, nil, nil, pgerr.New(pgerr.DatatypeMismatch, "function return row and query-specified return row do not match").
			WithDetail("Returned row contains %d attributes, but query expects %d.", len(cols), len(coldefs))
	}
	var exprs []plan.Expr
	var names []string
	var ts []types.Type
	for i, n := range coldefs {
		cd := n.GetColumnDef()
		t, err := b.typeFromName(cd.TypeName)
		if err != nil {
			return nil, nil, nil, err
		}
		c := cols[i]
		e, err := b.coerce(b.resolveUnknown(&plan.ColRef{ID: c.ID, T: c.Type, Name: c.Name}), t, coerceAssignment, -1)
		if err != nil {
			return nil, nil, nil, pgerr.New(pgerr.DatatypeMismatch, "function return row and query-specified return row do not match").
				WithDetail("Returned type %s at ordinal position %d, but query expects %s.", c.Type.SQLName(), i+1, t.SQLName())
		}
		exprs, names, ts = append(exprs, e), append(names, cd.Colname), append(ts, t)
	}
	return exprs, names, ts, nil
}
