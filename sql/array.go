package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Arrays in expressions: ARRAY[...] constructors, subscripts and slices,
// and `x op ANY/ALL (array)`. Each binds to a plan.Call whose Overload
// evaluates it (types.ArrayValue in, types.ArrayValue out), so every later
// layer treats them as ordinary calls.

// bindArrayExpr is transformArrayExpr: the elements' common type, or, when
// they are arrays themselves (nested ARRAY[...] or array-typed), one more
// dimension over theirs. target is the cast's type for ARRAY[...]::t[]
// (an empty constructor needs it), zero otherwise.
func (b *binder) bindArrayExpr(s *scope, ae *pg_query.A_ArrayExpr, target types.Type) (plan.Expr, error) {
	if len(ae.Elements) == 0 {
		if target.ID != types.Array {
			return nil, b.errAt(pgerr.New(pgerr.IndeterminateDatatype, "cannot determine type of empty array").
				WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[]."), ae.Location)
		}
		if types.IsVector(target) {
			return vectorConstructor(target, nil, func([]types.Value) (types.Value, error) {
				return types.Value{Arr: &types.ArrayValue{}}, nil
			}), nil
		}
		return &plan.Const{Val: types.Value{Arr: &types.ArrayValue{}}, T: target}, nil
	}
	elems := make([]plan.Expr, len(ae.Elements))
	for i, n := range ae.Elements {
		var err error
		if sub := n.GetAArrayExpr(); sub != nil {
			elems[i], err = b.bindArrayExpr(s, sub, target)
		} else {
			elems[i], err = b.bindExpr(s, n)
		}
		if err != nil {
			return nil, err
		}
	}
	et, err := b.commonType("ARRAY", elems)
	if err != nil {
		return nil, err
	}
	if target.ID == types.Array {
		// ARRAY[...]::t[] coerces each element to t, as PostgreSQL does.
		et = types.DropTypmod(target.ElemType())
		if e0 := elems[0].Type(); types.StacksArrays(e0) || types.IsVector(target) && e0.ID == types.Array {
			et = types.DropTypmod(target)
		}
	}
	// a vector is a scalar element (int2vector[]), but sub-arrays of a
	// vector target stack (and then fail its one-dimension check)
	nested := types.StacksArrays(et) || types.IsVector(target) && et.ID == types.Array
	for i, e := range elems {
		var c plan.Expr
		var err error
		if target.ID == types.Array {
			c, err = b.coerce(e, et, coerceExplicit, b.locOf(e))
		} else {
			c, err = b.coerceCommon("ARRAY", e, et)
		}
		if err != nil {
			return nil, err
		}
		elems[i] = c
	}
	rt := types.ArrayOf(et)
	if nested {
		rt = et
	} else if !types.ArrayOf(et).Valid() {
		return nil, b.errAt(pgerr.New(pgerr.UndefinedObject, "could not find array type for data type %s", typeName(et)), ae.Location)
	}
	at := make([]types.Type, len(elems))
	for i := range at {
		at[i] = et
	}
	build := func(v []types.Value) (types.Value, error) {
		if nested {
			return types.StackArrays(v)
		}
		return types.Value{Arr: types.NewArray(append([]types.Value(nil), v...))}, nil
	}
	if types.IsVector(target) {
		return vectorConstructor(target, elems, build), nil
	}
	return &plan.Call{Func: &types.Overload{Name: "array", Args: at, Result: rt, Leakproof: true,
		Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) {
			return build(v)
		}}, Args: elems}, nil
}

// vectorConstructor is ARRAY[...]::int2vector / ::oidvector: PostgreSQL
// builds the array with the vector as its type and refuses, when printing
// it, one that is not a vector's shape (one dimension, no NULLs); joind
// refuses it once built, as its output functions cannot fail.
func vectorConstructor(t types.Type, elems []plan.Expr, build func([]types.Value) (types.Value, error)) plan.Expr {
	at := make([]types.Type, len(elems))
	for i, e := range elems {
		at[i] = e.Type()
	}
	return &plan.Call{Func: &types.Overload{Name: "array", Args: at, Result: t, Leakproof: true,
		Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) {
			r, err := build(v)
			if err != nil {
				return r, err
			}
			return r, types.CheckVector(r.Arr, t)
		}}, Args: elems}
}

// arraySubscript binds arr[i][j]... and slices arr[i:j]; ok is false when
// the indirection is not all subscripts or its argument is not an array.
func (b *binder) arraySubscript(s *scope, ind *pg_query.A_Indirection) (plan.Expr, bool, error) {
	if !allSubscripts(ind.Indirection) {
		return nil, false, nil
	}
	arr, err := b.bindExpr(s, ind.Arg)
	if err != nil {
		return nil, false, nil
	}
	if t := arr.Type(); t.ID != types.Array {
		if notSubscriptable(t) {
			return nil, true, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", typeName(t)), nodeLocation(ind.Arg))
		}
		return nil, false, nil
	}
	if len(ind.Indirection) > maxArrayDims {
		// raised when PostgreSQL runs the expression, so without a position
		return nil, true, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(ind.Indirection), maxArrayDims)
	}
	e, err := b.subscriptExpr(s, arr, ind.Indirection)
	return e, true, err
}

// subscriptExpr is arr[...] (subscripts or slices) of a bound array.
func (b *binder) subscriptExpr(s *scope, arr plan.Expr, ind []*pg_query.Node) (plan.Expr, error) {
	subs, err := b.bindSubscripts(s, ind)
	if err != nil {
		return nil, err
	}
	args := append([]plan.Expr{arr}, subs.args...)
	at := make([]types.Type, len(args))
	for i, a := range args {
		at[i] = a.Type()
	}
	t := arr.Type()
	if !subs.slice {
		return &plan.Call{Func: &types.Overload{Name: "array_subscript", Args: at, Result: t.ElemType(), Strict: true, Leakproof: true,
			Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) {
				return types.ArrayElement(v[0].Arr, v[1:]), nil
			}}, Args: args}, nil
	}
	return &plan.Call{Func: &types.Overload{Name: "array_slice", Args: at, Result: t, Strict: true, Leakproof: true,
		Eval: func(_ *types.EvalContext, v []types.Value) (types.Value, error) {
			return types.ArraySlice(v[0].Arr, v[1:], subs.hasLo, subs.hasHi), nil
		}}, Args: args}, nil
}

// maxArrayDims is PostgreSQL's MAXDIM.
const maxArrayDims = 6

// notSubscriptable reports a type PostgreSQL gives no subscripting (its
// typsubscript is 0); the text-like types stay out, as joind's catalog
// arrays are text, and so do jsonb and the row types.
func notSubscriptable(t types.Type) bool {
	switch t.ID {
	case types.Bool, types.Int2, types.Int4, types.Int8, types.Float4, types.Float8, types.Numeric,
		types.Date, types.Time, types.TimeTZ, types.Timestamp, types.TimestampTZ, types.Interval,
		types.Bytea, types.UUID, types.JSON, types.JSONPath,
		types.Inet, types.Cidr, types.MacAddr, types.MacAddr8:
		return true
	}
	return false
}

func allSubscripts(ind []*pg_query.Node) bool {
	for _, n := range ind {
		if n.GetAIndices() == nil {
			return false
		}
	}
	return len(ind) > 0
}

// subscripts are bound array subscripts: args the int4 bounds in order;
// for a slice, per subscript whether its lower and upper bounds are given
// (absent ones are the array's own).
type subscripts struct {
	args         []plan.Expr
	slice        bool
	hasLo, hasHi []bool
}

func (b *binder) bindSubscripts(s *scope, ind []*pg_query.Node) (subscripts, error) {
	var out subscripts
	for _, n := range ind {
		out.slice = out.slice || n.GetAIndices().IsSlice
	}
	sub := func(n *pg_query.Node) error {
		e, err := b.bindExpr(s, n)
		if err != nil {
			return err
		}
		c, err := b.coerce(e, types.Int4Type, coerceImplicit, b.locOf(e))
		if err != nil {
			return b.errAt(pgerr.New(pgerr.DatatypeMismatch, "array subscript must have type integer"), b.locOf(e))
		}
		out.args = append(out.args, c)
		return nil
	}
	for _, n := range ind {
		idx := n.GetAIndices()
		if !out.slice {
			if err := sub(idx.Uidx); err != nil {
				return out, err
			}
			continue
		}
		// arr[1:2][3] is arr[1:2][1:3]: a plain subscript in a slice is
		// its upper bound.
		lo := idx.IsSlice && idx.Lidx != nil
		hi := idx.Uidx != nil
		out.hasLo, out.hasHi = append(out.hasLo, lo), append(out.hasHi, hi)
		if !idx.IsSlice {
			out.hasLo[len(out.hasLo)-1] = true
			one := &plan.Const{Val: types.IntValue(1), T: types.Int4Type}
			out.args = append(out.args, one)
		}
		if lo {
			if err := sub(idx.Lidx); err != nil {
				return out, err
			}
		}
		if hi {
			if err := sub(idx.Uidx); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// bindArrayAssign is the new value of column d after `d[...] = val`
// (UPDATE SET, INSERT's target list): base is the column's current value
// (NULL for an INSERT).
func (b *binder) bindArrayAssign(s *scope, base plan.Expr, d types.Type, col string, ind []*pg_query.Node, val plan.Expr, loc int32) (plan.Expr, error) {
	if d.Domain != 0 {
		// A column of a domain: the assignment over the base type, then
		// the domain's constraints, checked once after the column's last
		// assignment (PostgreSQL's process_matched_tle peels the earlier
		// CoerceToDomain).
		if inner, ok := b.assignChecks[base]; ok {
			base = inner
		}
		if base.Type().Domain != 0 {
			base = &plan.Cast{Input: base, T: base.Type().BaseType(), Explicit: true}
		}
		v, err := b.bindArrayAssign(s, base, d.BaseType(), col, ind, val, loc)
		if err != nil {
			return nil, err
		}
		out, err := b.coerceToDomain(v, d)
		if err != nil {
			return nil, err
		}
		if b.assignChecks == nil {
			b.assignChecks = map[plan.Expr]plan.Expr{}
		}
		b.assignChecks[out] = v
		return out, nil
	}
	if d.ID == types.JSONB && allSubscripts(ind) {
		return b.bindJSONBAssign(s, base, col, ind, val, loc) // jsonsubscript.go
	}
	if d.ID == types.Record && len(ind) > 0 && ind[0].GetString_() != nil {
		return b.bindFieldAssign(s, base, d, col, ind, val, loc) // rowtype.go
	}
	if f := ind[0].GetString_(); f != nil && d.ID != types.Record && d.ID != types.JSONB {
		return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "cannot assign to field \"%s\" of column \"%s\" because its type %s is not a composite type",
			f.Sval, col, typeName(d)), loc)
	}
	if d.ID == types.Array && !allSubscripts(ind) && leadingSubscripts(ind) > 0 {
		// d[1].f = v: the element's field assigned, then the element
		// (as PostgreSQL's nested FieldStore within SubscriptingRef).
		k := leadingSubscripts(ind)
		elem, err := b.subscriptExpr(s, base, ind[:k])
		if err != nil {
			return nil, err
		}
		v, err := b.bindArrayAssign(s, elem, elem.Type(), col, ind[k:], val, loc)
		if err != nil {
			return nil, err
		}
		subs, err := b.bindSubscripts(s, ind[:k])
		if err != nil {
			return nil, err
		}
		return arrayAssignCall(base, d, subs, v), nil
	}
	if d.ID != types.Array || !allSubscripts(ind) {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "assignment to a subfield or element of column \"%s\" is not supported", col), loc)
	}
	subs, err := b.bindSubscripts(s, ind)
	if err != nil {
		return nil, err
	}
	want := d.ElemType()
	if subs.slice {
		want = d
	}
	v, err := b.coerce(val, want, coerceAssignment, b.locOf(val))
	if err == errCannotCoerce {
		return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "subscripted assignment to \"%s\" requires type %s but expression is of type %s",
			col, typeName(want), typeName(val.Type())).WithHint("You will need to rewrite or cast the expression."), loc)
	}
	if err != nil {
		return nil, err
	}
	return arrayAssignCall(base, d, subs, v), nil
}

// arrayAssignCall is base (of array type d) with the element or slice
// subs set to v.
func arrayAssignCall(base plan.Expr, d types.Type, subs subscripts, v plan.Expr) plan.Expr {
	args := append([]plan.Expr{base, v}, subs.args...)
	at := make([]types.Type, len(args))
	for i, a := range args {
		at[i] = a.Type()
	}
	return &plan.Call{Func: &types.Overload{Name: "array_assign", Args: at, Result: d,
		Eval: func(_ *types.EvalContext, a []types.Value) (types.Value, error) {
			return types.ArrayAssign(a[0], a[2:], a[1], subs.slice, subs.hasLo, subs.hasHi)
		}}, Args: args}
}

// leadingSubscripts is how many of ind, from the first, are subscripts.
func leadingSubscripts(ind []*pg_query.Node) int {
	n := 0
	for n < len(ind) && ind[n].GetAIndices() != nil {
		n++
	}
	return n
}

// anyOverArray binds `x op ANY (arr)` / `x op ALL (arr)` (ScalarArrayOpExpr)
// with three-valued logic; ok is false when the right side is not an array
// (a catalog text array: anyOverText).
func (b *binder) anyOverArray(s *scope, a *pg_query.A_Expr) (plan.Expr, bool, error) {
	r, err := b.bindExpr(s, a.Rexpr)
	if err != nil {
		return nil, true, err
	}
	if r.Type().ID != types.Array && (r.Type().ID != types.Unknown || a.Rexpr.GetAConst() == nil) {
		if b.isCatalogArray(r) || a.Rexpr.GetTypeCast() != nil {
			return nil, false, nil
		}
		if r.Type().ID != types.Unknown {
			return nil, true, b.errAt(pgerr.New(pgerr.WrongObjectType, "op ANY/ALL (array) requires array on right side"), a.Location)
		}
	}
	l, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, true, err
	}
	lt, et := l.Type(), r.Type().ElemType()
	if r.Type().ID == types.Unknown {
		et = lt
		if et.ID == types.Unknown {
			et = types.TextType
		}
	}
	op, err := types.ResolveOperator(opName(a.Name), lt, et)
	if err != nil {
		return nil, true, b.wrapAt(err, a.Location)
	}
	if op.Result.ID != types.Bool {
		return nil, true, b.errAt(pgerr.New(pgerr.WrongObjectType, "op ANY/ALL (array) requires operator to yield boolean"), a.Location)
	}
	args := []plan.Expr{l, r}
	if err := b.castArgs(args[:1], op.Args[:1]); err != nil {
		return nil, true, err
	}
	if args[1], err = b.coerce(r, types.ArrayOf(op.Args[1]), coerceImplicit, b.locOf(r)); err != nil {
		return nil, true, err
	}
	all := a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL
	name := "any"
	if all {
		name = "all"
	}
	ov := &types.Overload{Name: name, Args: []types.Type{args[0].Type(), args[1].Type()}, Result: types.BoolType,
		Stable: op.Stable, Volatile: op.Volatile, Leakproof: op.Leakproof,
		Eval: func(ctx *types.EvalContext, v []types.Value) (types.Value, error) {
			return types.ScalarArrayOp(ctx, op, all, v[0], v[1])
		}}
	return &plan.Call{Func: ov, Args: args}, true, nil
}

// arraySetFuncs are the set-returning functions of arrays (their rows:
// operators/arrayunnest.go).
var arraySetFuncs = map[string]bool{"unnest": true, "generate_subscripts": true, "string_to_table": true}

// bindArraySetFuncInFrom binds one of arraySetFuncs in FROM; unnest(a [, b
// ...]) is one set function per array, as PostgreSQL expands the
// multi-argument form to ROWS FROM (unnest(a), unnest(b), ...).
func (b *binder) bindArraySetFuncInFrom(s *scope, fc *pg_query.FuncCall, name string) ([]plan.SetFunc, error) {
	args, err := b.bindList(s, fc.Args)
	if err != nil {
		return nil, err
	}
	if name != "unnest" {
		at := make([]types.Type, len(args))
		for i, a := range args {
			at[i] = a.Type()
		}
		ov, err := types.ResolveFunction(name, at)
		if err != nil {
			return nil, b.wrapAt(err, fc.Location)
		}
		if err := b.castArgs(args, ov.Args); err != nil {
			return nil, err
		}
		return []plan.SetFunc{{Func: ov, Args: args}}, nil
	}
	if len(args) == 0 {
		return nil, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function unnest() does not exist").
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	var out []plan.SetFunc
	for _, a := range args {
		ov, err := types.ResolveFunction("unnest", []types.Type{a.Type()})
		if err != nil {
			if len(args) > 1 {
				return nil, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function unnest(%s) does not exist", argTypeList(args)).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
			}
			return nil, b.wrapAt(err, fc.Location)
		}
		one := []plan.Expr{a}
		if err := b.castArgs(one, ov.Args); err != nil {
			return nil, err
		}
		out = append(out, plan.SetFunc{Func: ov, Args: one})
	}
	return out, nil
}

// commonArrayType is select_common_type over inputs some of which are
// arrays: the arrays' element types must have a common type (unknown
// inputs take it); ok is false when no input is an array.
func (b *binder) commonArrayType(ctx string, ts []types.Type, locs []int32) (types.Type, bool, error) {
	if v, ok := sameVector(ts); ok {
		return v, true, nil
	}
	var elems []types.Type
	var elocs []int32
	first := -1
	for i, t := range ts {
		switch t.ID {
		case types.Array:
			if first < 0 {
				first = i
			}
			elems, elocs = append(elems, t.ElemType()), append(elocs, locs[i])
		case types.Unknown:
		default:
			if first >= 0 || anyArray(ts) {
				a, n := ts[i], ts[first0(ts)]
				if i < first0(ts) {
					a, n = n, a
				}
				return types.Type{}, true, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched",
					ctx, typeName(n), typeName(a)), locs[i])
			}
		}
	}
	if first < 0 {
		return types.Type{}, false, nil
	}
	et, err := b.commonTypeOf(ctx, elems, elocs)
	if err != nil {
		return types.Type{}, true, err
	}
	return types.ArrayOf(et), true, nil
}

// sameVector is the one vector type of ts when every known type is it
// (int2vector, unknown literals read as int2vector); mixed with other
// arrays a vector unifies as its element type's array, as its implicit
// cast to int2[] / oid[] makes PostgreSQL do.
func sameVector(ts []types.Type) (types.Type, bool) {
	var v types.Type
	for _, t := range ts {
		switch {
		case t.ID == types.Unknown:
		case !types.IsVector(t) || v.ID != types.Unknown && v != t:
			return types.Type{}, false
		default:
			v = t
		}
	}
	return v, v.ID != types.Unknown
}

func anyArray(ts []types.Type) bool { return first0(ts) >= 0 }

func first0(ts []types.Type) int {
	for i, t := range ts {
		if t.ID == types.Array {
			return i
		}
	}
	return -1
}

// arraySubquery is ARRAY(SELECT x ...): one column, whose values become
// an array of its type.
func (b *binder) arraySubquery(sq *plan.Subquery, cols []plan.Column, loc int32) (plan.Expr, error) {
	if len(cols) != 1 {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "subquery must return only one column"), loc)
	}
	et := cols[0].Type
	if et.ID == types.Unknown {
		et = types.TextType
	}
	if types.StacksArrays(et) {
		// arrays stack into one more dimension of the same array type
		sq.Kind, sq.T = plan.ArraySubquery, types.DropTypmod(et)
		return sq, nil
	}
	t := types.ArrayOf(et)
	if !t.Valid() {
		return nil, b.errAt(pgerr.New(pgerr.UndefinedObject, "could not find array type for data type %s", typeName(et)), loc)
	}
	t = types.DropTypmod(t)
	sq.Kind, sq.T = plan.ArraySubquery, t
	return sq, nil
}
