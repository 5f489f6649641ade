package types

import "github.com/joind/joind/pgerr"

// SequenceAccess is the session's side of the sequence functions: the
// sequence counters (shared, durable) and the session's currval/lastval
// state. Sequences are named by OID (PostgreSQL's regclass argument; the
// binder resolves a name to its OID when the call is bound).
type SequenceAccess interface {
	NextVal(oid uint32) (int64, error)
	// IdentityNextVal is NextVal for an identity column's default, which
	// PostgreSQL evaluates as a NextValueExpr: no privilege check on the
	// sequence (the INSERT privilege on the column is the check).
	IdentityNextVal(oid uint32) (int64, error)
	CurrVal(oid uint32) (int64, error)
	// SetVal returns v (setval's result).
	SetVal(oid uint32, v int64, isCalled bool) (int64, error)
	LastVal() (int64, error)
	// Resolve is regclass input of a name computed at run time (a text
	// argument, a $n parameter): the sequence's OID.
	Resolve(name string) (uint32, error)
}

// nextval(), currval(), setval() and lastval() reach the session through
// EvalContext.Sequences when they run, as current_setting() reaches its
// settings. All are volatile; nextval and setval change what later calls
// see, so they run a row at a time, in row order (sideEffects).
func init() {
	access := func(ctx *EvalContext, name string) (SequenceAccess, error) {
		if ctx == nil || ctx.Sequences == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "%s() is not supported here", name)
		}
		return ctx.Sequences, nil
	}
	b := regFn("nextval", []ID{RegClass}, Int8, func(ctx *EvalContext, a []Value) (Value, error) {
		sa, err := access(ctx, "nextval")
		if err != nil {
			return Value{}, err
		}
		v, err := sa.NextVal(uint32(a[0].I))
		return IntValue(v), err
	})
	b.volatile, b.sideEffects = true, true
	b = regFn("currval", []ID{RegClass}, Int8, func(ctx *EvalContext, a []Value) (Value, error) {
		sa, err := access(ctx, "currval")
		if err != nil {
			return Value{}, err
		}
		v, err := sa.CurrVal(uint32(a[0].I))
		return IntValue(v), err
	})
	b.volatile = true
	setval := func(ctx *EvalContext, a []Value, isCalled bool) (Value, error) {
		sa, err := access(ctx, "setval")
		if err != nil {
			return Value{}, err
		}
		v, err := sa.SetVal(uint32(a[0].I), a[1].I, isCalled)
		return IntValue(v), err
	}
	b = regFn("setval", []ID{RegClass, Int8}, Int8, func(ctx *EvalContext, a []Value) (Value, error) {
		return setval(ctx, a, true)
	})
	b.volatile, b.sideEffects = true, true
	b = regFn("setval", []ID{RegClass, Int8, Bool}, Int8, func(ctx *EvalContext, a []Value) (Value, error) {
		return setval(ctx, a, a[2].I != 0)
	})
	b.volatile, b.sideEffects = true, true
	// Text arguments (a $n parameter, a text column) name the sequence
	// at run time, as PostgreSQL's text-to-regclass cast does.
	byName := func(fn string, next func(*EvalContext, []Value) (Value, error)) evalFn {
		return func(ctx *EvalContext, a []Value) (Value, error) {
			sa, err := access(ctx, fn)
			if err != nil {
				return Value{}, err
			}
			oid, err := sa.Resolve(a[0].S)
			if err != nil {
				return Value{}, err
			}
			args := append([]Value{IntValue(int64(oid))}, a[1:]...)
			return next(ctx, args)
		}
	}
	for _, f := range []struct {
		name string
		args []ID
	}{{"nextval", []ID{Text}}, {"currval", []ID{Text}}, {"setval", []ID{Text, Int8}}, {"setval", []ID{Text, Int8, Bool}}} {
		oidArgs := append([]ID{RegClass}, f.args[1:]...)
		var target *builtin
		for _, cand := range functionTable[f.name] {
			if len(cand.args) == len(oidArgs) && cand.args[0] == RegClass {
				target = cand
			}
		}
		t := target
		nb := regFn(f.name, f.args, Int8, byName(f.name, func(ctx *EvalContext, a []Value) (Value, error) { return t.eval(ctx, a) }))
		nb.volatile, nb.sideEffects = true, t.sideEffects
	}
	b = regFn("lastval", nil, Int8, func(ctx *EvalContext, a []Value) (Value, error) {
		sa, err := access(ctx, "lastval")
		if err != nil {
			return Value{}, err
		}
		v, err := sa.LastVal()
		return IntValue(v), err
	})
	b.volatile = true
}

// IdentityNextval is o (a bound nextval(regclass) overload) evaluated as
// an identity column's NextValueExpr (SequenceAccess.IdentityNextVal).
func IdentityNextval(o *Overload) *Overload {
	c := *o
	c.Eval = func(ctx *EvalContext, a []Value) (Value, error) {
		if ctx == nil || ctx.Sequences == nil {
			return Value{}, pgerr.New(pgerr.FeatureNotSupported, "nextval() is not supported here")
		}
		v, err := ctx.Sequences.IdentityNextVal(uint32(a[0].I))
		return IntValue(v), err
	}
	return &c
}
