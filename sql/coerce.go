package sql

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// commonType is PostgreSQL's select_common_type: the type CASE, COALESCE,
// VALUES, UNION, ... convert all their inputs to. ctx names the construct
// in the "cannot be matched" error.
func (b *binder) commonType(ctx string, exprs []plan.Expr) (types.Type, error) {
	ts := make([]types.Type, len(exprs))
	locs := make([]int32, len(exprs))
	for i, e := range exprs {
		ts[i] = e.Type()
		locs[i] = b.locOf(e)
	}
	return b.commonTypeOf(ctx, ts, locs)
}

func (b *binder) commonTypeOf(ctx string, ts []types.Type, locs []int32) (types.Type, error) {
	if len(ts) == 0 {
		return types.TextType, nil
	}
	ts = smashDomains(ts)
	if t, ok, err := b.commonRecordType(ctx, ts, locs); ok { // rowtype.go
		return t, err
	}
	if t, ok, err := b.commonArrayType(ctx, ts, locs); ok { // array.go
		return t, err
	}
	p := ts[0]
	same := true
	for _, t := range ts[1:] {
		if t.ID != p.ID {
			same = false
			break
		}
	}
	if same {
		if p.ID == types.Unknown {
			return types.TextType, nil
		}
		// Keep the typmod only when every input agrees on it.
		for _, t := range ts[1:] {
			if t.Typmod != p.Typmod {
				return types.Type{ID: p.ID, Typmod: -1}, nil
			}
		}
		return p, nil
	}
	ptype := types.Type{ID: p.ID, Typmod: -1}
	for i, t := range ts {
		n := types.Type{ID: t.ID, Typmod: -1}
		if n.ID == types.Unknown || n.ID == ptype.ID {
			continue
		}
		switch {
		case ptype.ID == types.Unknown:
			ptype = n
		case n.Category() != ptype.Category():
			return types.Type{}, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched",
				ctx, typeName(ptype), typeName(n)), locs[i])
		case !ptype.IsPreferred() && implicitCast(ptype, n) && !implicitCast(n, ptype):
			ptype = n
		}
	}
	if ptype.ID == types.Unknown {
		return types.TextType, nil
	}
	// verify_common_type: everything must convert implicitly.
	for i, t := range ts {
		if t.ID != types.Unknown && t.ID != ptype.ID && !implicitCast(t, ptype) {
			return types.Type{}, b.errAt(pgerr.New(pgerr.CannotCoerce, "%s could not convert type %s to %s",
				ctx, typeName(t), typeName(ptype)), locs[i])
		}
	}
	return ptype, nil
}

func implicitCast(from, to types.Type) bool {
	if from.ID == to.ID {
		return true
	}
	imp, _, _ := types.CanCast(from, to)
	return imp
}

// coerceCommon converts e to the common type t chosen by commonType.
func (b *binder) coerceCommon(ctx string, e plan.Expr, t types.Type) (plan.Expr, error) {
	if e.Type() == t {
		return e, nil
	}
	out, err := b.coerce(e, t, coerceImplicit, b.locOf(e))
	if err == errCannotCoerce {
		return nil, b.errAt(pgerr.New(pgerr.CannotCoerce, "%s could not convert type %s to %s",
			ctx, typeName(e.Type()), typeName(t)), b.locOf(e))
	}
	return out, err
}

// coerceAssign converts e to a target column's type with assignment
// semantics (INSERT), with PostgreSQL's error and hint.
func (b *binder) coerceAssign(e plan.Expr, t types.Type, col string, loc int32) (plan.Expr, error) {
	if e.Type() == t {
		return e, nil
	}
	out, err := b.coerce(e, t, coerceAssignment, loc)
	if err == errCannotCoerce {
		return nil, b.errAt(pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" is of type %s but expression is of type %s",
			col, typeName(t), typeName(e.Type())).WithHint("You will need to rewrite or cast the expression."), loc)
	}
	return out, err
}

// resolveUnknown turns an unknown-typed output into text, as PostgreSQL
// does for SELECT outputs.
func (b *binder) resolveUnknown(e plan.Expr) plan.Expr {
	if e.Type().ID != types.Unknown {
		return e
	}
	switch x := e.(type) {
	case *plan.Const:
		return b.keepLoc(&plan.Const{Val: x.Val, T: types.TextType}, e)
	case *plan.Param:
		x.T = types.TextType
		return x
	}
	return b.keepLoc(&plan.Cast{Input: e, T: types.TextType}, e)
}

// smashDomains is select_common_type's rule for domains: inputs all of
// one domain resolve to it; otherwise each domain counts as its base type.
func smashDomains(ts []types.Type) []types.Type {
	any := false
	for _, t := range ts {
		if t.Domain != 0 {
			any = true
		}
	}
	if !any {
		return ts
	}
	same := true
	for _, t := range ts[1:] {
		if t.Domain != ts[0].Domain || t.ID != ts[0].ID {
			same = false
		}
	}
	if same {
		return ts
	}
	out := make([]types.Type, len(ts))
	for i, t := range ts {
		out[i] = t.BaseType()
	}
	return out
}
