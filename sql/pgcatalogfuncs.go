package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// pgCatalogFunc binds a call of one of pgcatalog's system-information
// functions; ok is false when name (with that many arguments) is none of
// them. The arguments are coerced implicitly to the function's argument
// types, as any function call's; one beyond them is of any type (unknown
// literals become text) and is not read.
func (b *binder) pgCatalogFunc(name string, args []plan.Expr, loc int32) (plan.Expr, bool, error) {
	if len(args) > 0 && args[0].Type().ID == types.Array {
		return nil, false, nil // a real array: the built-in array functions
	}
	if pgcatalog.TakesCatalogArray(name) && (len(args) == 0 || !b.isCatalogArray(args[0])) {
		// Catalog arrays are text in joind ("{a,b}" or NULL); no other
		// value is an array.
		return nil, true, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), loc)
	}
	fs := pgcatalog.LookupFuncs(name, len(args))
	if len(fs) == 0 {
		return nil, false, nil
	}
	var f *pgcatalog.Func
	var coerced []plan.Expr
	for _, cand := range fs {
		var ok bool
		if coerced, ok = b.coerceCatalogArgs(cand, args); ok {
			f = cand
			break
		}
	}
	if f == nil {
		return nil, true, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), loc)
	}
	args = coerced
	snap := b.snapshot()
	if f.Const {
		return &plan.Const{Val: f.Eval(snap, nil), T: f.Result}, true, nil
	}
	at := make([]types.Type, len(args))
	for i, a := range args {
		at[i] = a.Type()
	}
	eval := func(_ *types.EvalContext, v []types.Value) (types.Value, error) { return f.Eval(snap, v), nil }
	if f.EvalErr != nil {
		eval = func(_ *types.EvalContext, v []types.Value) (types.Value, error) { return f.EvalErr(snap, v) }
	}
	return &plan.Call{Func: &types.Overload{Name: name, Args: at, Result: f.Result, Strict: !f.NonStrict, Volatile: f.Volatile,
		Eval: eval}, Args: args}, true, nil
}

// coerceCatalogArgs is args coerced implicitly to f's argument types (ok
// false if one does not coerce). An argument beyond them is of any
// type (unknown literals become text) and is not read.
func (b *binder) coerceCatalogArgs(f *pgcatalog.Func, args []plan.Expr) (_ []plan.Expr, ok bool) {
	out := append([]plan.Expr(nil), args...)
	for i := range out {
		t := types.TextType
		if i < len(f.Args) {
			t = f.Args[i]
		} else if out[i].Type().ID != types.Unknown {
			continue // any type: the value is not read
		}
		c, err := b.coerce(out[i], t, coerceImplicit, b.locOf(out[i]))
		if err != nil {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

// textArrayArg binds n where joind accepts one of its text-encoded arrays:
// an array literal ('{a,NULL}'::text[], its elements checked against the
// element type), or an expression isCatalogArray accepts. Anything else is
// an array joind does not have.
func (b *binder) textArrayArg(s *scope, n *pg_query.Node) (plan.Expr, error) {
	if tc := n.GetTypeCast(); tc != nil && len(tc.TypeName.ArrayBounds) > 0 {
		c := tc.Arg.GetAConst()
		if c == nil || c.GetSval() == nil {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), tc.Location)
		}
		names, mods, err := pgcatalog.TypeNameParts(tc.TypeName)
		if err != nil {
			return nil, b.wrapAt(err, tc.TypeName.Location)
		}
		et, err := types.FromTypeName(names, mods, 0)
		if err != nil {
			return nil, b.wrapAt(err, tc.TypeName.Location)
		}
		text := c.GetSval().Sval
		vals, nulls, ok := pgcatalog.ArrayItems(text)
		if !ok {
			return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), c.Location)
		}
		for i, v := range vals {
			if !nulls[i] {
				if _, err := types.ParseText(v, et); err != nil {
					return nil, b.wrapAt(err, c.Location)
				}
			}
		}
		return textConst(text), nil
	}
	e, err := b.bindExpr(s, n)
	if err != nil {
		return nil, err
	}
	if !b.isCatalogArray(e) {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported"), nodeLocation(n))
	}
	return e, nil
}

// isCatalogArray reports whether e may be one of joind's text-encoded
// catalog arrays: a text column of a system catalog (its array columns are
// text), or current_schemas(). User text is never an array.
func (b *binder) isCatalogArray(e plan.Expr) bool {
	if e.Type().ID != types.Text {
		return false
	}
	switch x := e.(type) {
	case *plan.ColRef:
		o, ok := b.colOrigin[x.ID]
		return ok && o.TableOID != 0 && o.TableOID < pgcatalog.FirstUserOID
	case *plan.Call:
		return x.Func.Name == "current_schemas"
	}
	return false
}

func argTypeList(args []plan.Expr) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = typeName(a.Type())
	}
	return strings.Join(names, ", ")
}

// Catalog arrays are text in joind ("{a,b}"): current_schemas(), and the
// array columns of the system catalogs. anyOverText binds `x op ANY (arr)`
// / `x op ALL (arr)` over such a text array, comparing x with each element
// read as x's type; ok is false when arr is not text (a real array, which
// joind does not have).
func (b *binder) anyOverText(s *scope, a *pg_query.A_Expr) (plan.Expr, bool, error) {
	r, err := b.textArrayArg(s, a.Rexpr)
	if err != nil {
		return nil, true, err
	}
	l, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, true, err
	}
	lt := l.Type()
	if lt.ID == types.Unknown {
		if l, err = b.coerce(l, types.TextType, coerceImplicit, b.locOf(l)); err != nil {
			return nil, true, err
		}
		lt = types.TextType
	}
	op, err := types.ResolveOperator(opName(a.Name), lt, lt)
	if err != nil {
		return nil, true, b.wrapAt(err, a.Location)
	}
	all := a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL
	ov := &types.Overload{Name: "any", Args: []types.Type{lt, types.TextType}, Result: types.BoolType,
		Stable: op.Stable, Volatile: op.Volatile,
		Eval: func(ctx *types.EvalContext, v []types.Value) (types.Value, error) {
			if v[1].Null {
				return types.NullValue, nil
			}
			sawNull := v[0].Null
			vals, nulls, _ := pgcatalog.ArrayItems(v[1].S)
			for i, e := range vals {
				if v[0].Null {
					break
				}
				if nulls[i] {
					sawNull = true
					continue
				}
				ev, err := types.ParseText(e, lt)
				if err != nil {
					return types.NullValue, err
				}
				res, err := op.Eval(ctx, []types.Value{v[0], ev})
				if err != nil {
					return types.NullValue, err
				}
				switch {
				case res.Null:
					sawNull = true
				case (res.I != 0) != all:
					return types.BoolValue(!all), nil
				}
			}
			if sawNull {
				return types.NullValue, nil
			}
			return types.BoolValue(all), nil
		}}
	return &plan.Call{Func: ov, Args: []plan.Expr{l, r}}, true, nil
}

// textArraySubscript binds arr[i] over a text array; ok is false for
// anything else (slices, field selection, non-text values).
func (b *binder) textArraySubscript(s *scope, ind *pg_query.A_Indirection) (plan.Expr, bool, error) {
	if len(ind.Indirection) != 1 {
		return nil, false, nil
	}
	idx := ind.Indirection[0].GetAIndices()
	if idx == nil || idx.IsSlice || idx.Uidx == nil {
		return nil, false, nil
	}
	arr, err := b.textArrayArg(s, ind.Arg)
	if err != nil {
		return nil, true, err
	}
	i, err := b.bindExpr(s, idx.Uidx)
	if err != nil {
		return nil, true, err
	}
	if i, err = b.coerce(i, types.Int4Type, coerceImplicit, b.locOf(i)); err != nil {
		return nil, true, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "array subscript must have type integer"), b.locOf(i))
	}
	return b.call("array_subscript", []plan.Expr{arr, i}, types.TextType, func(v []types.Value) (types.Value, error) {
		el, nulls, _ := pgcatalog.ArrayItems(v[0].S)
		if v[1].I < 1 || v[1].I > int64(len(el)) || nulls[v[1].I-1] {
			return types.NullValue, nil
		}
		return types.TextValue(el[v[1].I-1]), nil
	}), true, nil
}

// bindKeywords binds pg_get_keywords() in FROM (pgcatalog.Keywords).
func (b *binder) bindKeywords(s *scope, rf *pg_query.RangeFunction) (plan.Node, []*nsItem, *scope, error) {
	return b.bindTableFunction(s, rf, "pg_get_keywords", pgcatalog.Keywords())
}

// bindTableFunction binds a FROM function whose rows are a table's
// (pg_get_keywords, read_parquet) as a scan of tbl, named by the alias,
// else by name, its columns renamed by a column alias list.
func (b *binder) bindTableFunction(s *scope, rf *pg_query.RangeFunction, name string, tbl storage.Table) (plan.Node, []*nsItem, *scope, error) {
	cols := tbl.Columns()
	alias := name
	var colAliases []*pg_query.Node
	if rf.Alias != nil {
		alias, colAliases = rf.Alias.Aliasname, rf.Alias.Colnames
	}
	if len(colAliases) > len(cols) {
		return nil, nil, nil, pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			alias, len(cols), len(colAliases))
	}
	s.rtes = append(s.rtes, rteInfo{alias: alias})
	scan := &plan.Scan{Table: tbl, Alias: alias}
	it := &nsItem{name: alias, relVisible: true, colsVisible: true}
	for i, d := range cols {
		cname := d.Name
		if i < len(colAliases) {
			cname = colAliases[i].GetString_().GetSval()
		}
		c := plan.Column{ID: b.ids.Next(), Name: cname, Table: alias, Type: d.Type}
		scan.Cols = append(scan.Cols, c)
		scan.Ordinals = append(scan.Ordinals, i)
		it.cols = append(it.cols, nsColumn{name: cname, table: alias, expr: &plan.ColRef{ID: c.ID, T: c.Type, Name: cname}})
		b.colTable[c.ID], b.colName[c.ID] = alias, cname
	}
	return scan, []*nsItem{it}, &scope{}, nil
}

// bindCatalogSetFunc binds FROM f(...) of a set-returning catalog
// function (pgcatalog.SetFunc): its rows computed over this statement's
// catalog snapshot.
// A function of several OUT columns is one function per column, run in
// lockstep as json_each's columns are.
func (b *binder) bindCatalogSetFunc(s *scope, fc *pg_query.FuncCall, f *pgcatalog.SetFunc) ([]plan.SetFunc, error) {
	args, err := b.bindList(s, fc.Args)
	if err != nil {
		return nil, err
	}
	for i := range args {
		c, err := b.coerce(args[i], f.Args[i], coerceImplicit, b.locOf(args[i]))
		if err != nil {
			return nil, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", f.Name, argTypeList(args)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		}
		args[i] = c
	}
	snap := b.snapshot()
	if f.RowsOut != nil {
		out := make([]plan.SetFunc, len(f.Out))
		for i := range f.Out {
			i := i
			ov := &types.Overload{Name: f.Name, Args: append([]types.Type(nil), f.Args...), Result: f.OutTypes[i], Strict: true, Stable: true, SetReturning: true,
				Rows: func(_ *types.EvalContext, v []types.Value) ([]types.Value, error) {
					rows, err := f.RowsOut(snap, v)
					if err != nil {
						return nil, err
					}
					col := make([]types.Value, len(rows))
					for r, row := range rows {
						col[r] = row[i]
					}
					return col, nil
				}}
			out[i] = plan.SetFunc{Func: ov, Args: args}
		}
		return out, nil
	}
	ov := &types.Overload{Name: f.Name, Args: append([]types.Type(nil), f.Args...), Result: f.Result, Strict: true, Stable: true, SetReturning: true,
		Rows: func(_ *types.EvalContext, v []types.Value) ([]types.Value, error) { return f.Rows(snap, v), nil }}
	return []plan.SetFunc{{Func: ov, Args: args}}, nil
}
